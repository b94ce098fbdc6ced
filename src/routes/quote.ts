import { Hono } from "hono";
import type { Address } from "@solana/kit";
import { z } from "zod/mini";
import type { AppContext } from "../app-context";
import { limits } from "../limits";
import { checkUnitAmount, parseAmount, quoteSides, quoteUnits } from "../quote/quote-amount";
import { quoteAnswerJson, quoteAnswerSchema } from "../quote/quote-record";
import { quoteMint } from "../quote/quote-service";
import { buildQuoteReceipt } from "../quote/quote-receipt";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { integerParam } from "./openapi/query-params";
import { parseAddress } from "./params";

/**
 * GET /api/v1/quote: what a swap of a given size returns from each candidate pool of a mint, computed with each
 * program's own integer math on the accounts read at one slot (docs/api.md#quote).
 */
const quoteQuery = z.object({
  ca: z.string().register(z.globalRegistry, { description: "The token's mint address.", examples: ["9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump"] }),
  side: z.enum(quoteSides).register(z.globalRegistry, { description: "`buy`: pay the quote token (SOL, USDC…) for the token; `sell`: the token for the quote token.", examples: ["buy"] }),
  amount: z.string().register(z.globalRegistry, {
    description: "The size, a positive decimal in `unit` (at most the unit's decimal places: the token's own, 9 for SOL, 6 for USD).",
    examples: ["1.5"],
  }),
  unit: z.enum(quoteUnits).register(z.globalRegistry, {
    description:
      "What `amount` counts. A buy in `sol`/`usd` and a sell in `token` fix the input; a buy in `token` and a sell in `sol`/`usd` fix the output (the least input that gives it). USD sizes go through SOL/USD for SOL-quoted pools.",
    examples: ["sol"],
  }),
  poolId: z.optional(z.string().register(z.globalRegistry, { description: "Quote this pool only (it must trade the mint).", examples: ["5xEqqY2gZsB7Zr5ExUQkX7KHd1qVrrAQWjiG9uYgm9M6"] })),
  slippageBps: z.optional(integerParam(0, limits.maxQuoteSlippageBps, `Slippage for \`minimumReceived\`, in basis points (default ${limits.defaultQuoteSlippageBps}).`, "100")),
  receipt: z.optional(
    z.enum(["true", "false"]).register(z.globalRegistry, {
      description:
        "`true` adds `receipt`: per pool quoted, every account the quote was computed from (address, owner, SHA-256 of its data, decoded fields; the swap walk's tick or bin arrays too), the formula and program version, and the SOL/USD source (see the guide, Receipts).",
      examples: ["true"],
    }),
  ),
});

const pump = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
const curve = "5xEqqY2gZsB7Zr5ExUQkX7KHd1qVrrAQWjiG9uYgm9M6";
const wsol = "So11111111111111111111111111111111111111112";
const example = {
  ca: pump,
  side: "buy",
  amount: "1",
  unit: "sol",
  slippageBps: 100,
  slot: 381204117,
  solUsd: "144.6735",
  best: curve,
  quotes: [
    {
      pool: curve,
      poolType: "pump-bonding-curve",
      dex: "pumpfun",
      exactOutput: false,
      amountIn: { mint: wsol, raw: "999999999", decimal: "0.999999999" },
      amountOut: { mint: pump, raw: "34270163522089", decimal: "34270163.522089" },
      minimumReceived: { mint: pump, raw: "33927461886868", decimal: "33927461.886868" },
      fees: [
        { kind: "protocol", mint: wsol, raw: "9411765", decimal: "0.009411765" },
        { kind: "creator", mint: wsol, raw: "495356", decimal: "0.000495356" },
      ],
      spotPrice: "0.0000000281932617",
      executionPrice: "0.0000000291799478",
      priceAfter: "0.0000000301964226",
      priceImpactPct: "3.499682",
      walk: "the curve's virtual and real reserves (one account); a buy larger than the tokens left buys them all and completes the curve; fees: pump's fee config, market-cap tier 0 of 1 (market cap 28193261700 ≥ 0)",
    },
  ],
  refused: [{ pool: "7rJ3nKQm3vXjTjTdG7WqQ3x3eU1Vd2w3Jp3vX5b6m3hK", poolType: "meteora-damm-v2", reason: "past the pool's highest price", depth: { mint: wsol, raw: "412000000000", decimal: "412" } }],
};

const quoteOperation: Operation = {
  method: "get",
  path: "/api/v1/quote",
  operationId: "quote",
  summary: "Exact quote: what a swap of a given size returns from each pool of a token",
  description:
    "Each candidate pool (the ones price routing reads, or `poolId`) is quoted with its program's own integer math and rounding on accounts read at one slot — every pool kind, Raydium LaunchLab curves and Orca Whirlpools included: " +
    "amount out (raw and decimal), every fee, spot price, execution price, price after the trade, price impact and the minimum received at `slippageBps`. " +
    "`best` is the pool that gives most (or, for a fixed output, asks least). Walks (tick and bin arrays) read a fixed number of arrays ahead (a Whirlpool: the three tick arrays one swap can cross); a size beyond what was read is refused with the depth available (422). See the [guide](/guide/api.md) (Quote).",
  tags: ["price"],
  authenticated: true,
  query: quoteQuery,
  responses: {
    200: { description: "The quotes, the best pool, and the pools that could not quote with their reasons", schema: named("QuoteAnswer", quoteAnswerSchema), examples: { buy: { summary: "A 1 SOL buy on a pump.fun curve", value: example } } },
    400: errorResponse("BAD_REQUEST", "A parameter missing or malformed: the message names it", {
      missingCa: "Missing required query parameter: ca",
      badAmount: 'Invalid amount "-1": must be positive',
      zero: "Invalid amount: must be greater than zero",
      tooPrecise: `Invalid amount: 1.0000000001 has 10 decimal places; SOL has 9`,
      badSide: "Invalid query parameter side: must be one of buy, sell",
      badPool: `Invalid poolId: ${curve} is not a pool of ${wsol} that can be read: no such account`,
    }),
    ...restErrors,
    404: errorResponse("NOT_FOUND", "An unknown mint, or a mint no pool prices", { noPool: `No quote for ${pump}: no pool found` }),
    422: errorResponse("UNPROCESSABLE", "No pool fills the size on the state read: the message gives each pool's depth", {
      tooLarge: `No pool of ${pump} fills this size: pool ${curve} (pump-bonding-curve): the curve holds 1201934715 quote atoms (depth read: 37405166460385 atoms of ${pump})`,
    }),
  },
};

export const quoteRoutes = new Hono<AppContext>().get(quoteOperation.path, validQuery(quoteQuery), async (c) => {
  const query = c.req.valid("query");
  const mint = parseAddress(query.ca.trim(), "ca");
  const poolId: Address | undefined = query.poolId === undefined || query.poolId === "" ? undefined : parseAddress(query.poolId.trim(), "poolId");
  const amount = parseAmount(query.amount);
  checkUnitAmount(amount, query.unit);
  const request = { mint, side: query.side, amount, unit: query.unit, poolId, slippageBps: query.slippageBps ?? limits.defaultQuoteSlippageBps };
  const services = c.get("services");
  const answer = await quoteMint(
    {
      rpc: services.upstream,
      db: c.env.DB,
      cache: services.prices.cache,
      waitUntil: (p) => c.executionCtx.waitUntil(p),
      requestId: c.get("requestId"),
      deadline: c.get("deadline"),
      timings: c.get("timings"),
    },
    request,
  );
  const json = quoteAnswerJson(request, answer);
  return c.json(query.receipt === "true" ? { ...json, receipt: await buildQuoteReceipt(answer) } : json);
});
export const quoteOperations = [quoteOperation];
