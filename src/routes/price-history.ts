import { Hono } from "hono";
import { z } from "zod/mini";
import type { AppContext } from "../app-context";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import { priceAtSchema, readPriceAt, type PriceAt } from "../trades/price-history";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { integerParam } from "./openapi/query-params";
import { parseSingleMint } from "./params";

/**
 * GET /api/v1/price/history?ca=MINT&time=UNIX | slot=N: the price at a past moment — the last trade of the mint at or
 * before it, with its signature and pool — from the trade index (docs/api.md, Price history).
 */
const retentionHours = limits.tradeIngest.tradeRetentionMs / 3_600_000;

const historyQuery = z.object({
  ca: z.string().register(z.globalRegistry, { description: "One mint address.", examples: ["9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump"] }),
  time: z.optional(integerParam(0, limits.maxHistoryUnixSeconds, "The moment as a unix time in seconds (give `time` or `slot`, not both).", "1764000000")),
  slot: z.optional(integerParam(0, Number.MAX_SAFE_INTEGER, "The moment as a slot (give `time` or `slot`, not both).", "381204117")),
});

const pump = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
const wsol = "So11111111111111111111111111111111111111112";
const example: PriceAt = {
  ca: pump,
  at: { time: 1764000000 },
  priceUsd: 0.00000407891224071,
  priceSol: 0.0000000281932617,
  priceQuote: 0.0000000281932617,
  quoteMint: wsol,
  trade: {
    signature: "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
    slot: 381204110,
    blockTime: 1763999997,
    txIndex: 412,
    ordinal: 0,
    pool: "5xEqqY2gZsB7Zr5ExUQkX7KHd1qVrrAQWjiG9uYgm9M6",
    kind: "pumpfun",
    baseMint: pump,
    quoteMint: wsol,
    side: "buy",
    baseAmount: "3547008234120",
    quoteAmount: "100000000",
    baseAmountUi: "3547008.23412",
    quoteAmountUi: "0.1",
    priceQuote: 0.0000000281932617,
    priceSol: 0.0000000281932617,
    priceUsd: 0.00000407891224071,
    valueUsd: 14.4674,
    wallet: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  },
  retainedFrom: { slot: 381186117, blockTime: 1763992800 },
  indexedThrough: { slot: 381204290, blockTime: 1764000069 },
};

const historyOperation: Operation = {
  method: "get",
  path: "/api/v1/price/history",
  operationId: "price_history",
  summary: "Price at a past moment: the last trade at or before a unix time or a slot",
  description:
    `The last trade of the mint at or before the moment, from the trade index, with its signature, pool and prices (USD, SOL and its quote mint). ` +
    `The index keeps trades for ${retentionHours} hours: \`retainedFrom\` is the oldest it still holds and \`indexedThrough\` its newest block (a moment after it is answered with what the index knew then). ` +
    "See the [guide](/guide/api.md) (Price history).",
  tags: ["price"],
  authenticated: true,
  query: historyQuery,
  responses: {
    200: { description: "The price at the moment and the trade that set it", schema: named("PriceAt", priceAtSchema), examples: { byTime: { summary: "By unix time", value: example } } },
    400: errorResponse("BAD_REQUEST", "`ca` missing or malformed; neither or both of `time` and `slot`; a malformed `time` or `slot`", {
      missingCa: "Missing required query parameter: ca",
      neither: "Missing required query parameter: time or slot",
      both: "Give time or slot, not both",
      badTime: "Invalid query parameter time: expected an integer",
    }),
    401: restErrors[401],
    404: errorResponse("NOT_FOUND", "No trade of the mint at or before the moment in what the index keeps; the message gives that range", {
      none: `No trade of ${pump} at or before unix time 1700000000: the trade index keeps the last ${retentionHours} hours of trades (now from slot 381186117, unix time 1763992800)`,
    }),
    413: restErrors[413],
    414: restErrors[414],
    500: restErrors[500],
    504: restErrors[504],
  },
};

export const priceHistoryRoutes = new Hono<AppContext>().get(historyOperation.path, validQuery(historyQuery), async (c) => {
  const query = c.req.valid("query");
  const mint = parseSingleMint(query.ca);
  if (query.time === undefined && query.slot === undefined) throw new ApiError("BAD_REQUEST", "Missing required query parameter: time or slot");
  if (query.time !== undefined && query.slot !== undefined) throw new ApiError("BAD_REQUEST", "Give time or slot, not both");
  const at = query.slot !== undefined ? { slot: query.slot } : { time: query.time! };
  const { found, retainedFrom } = await readPriceAt(c.env.DB, mint, at);
  if (!found) {
    const moment = at.slot !== undefined ? `slot ${at.slot}` : `unix time ${at.time}`;
    const kept = retainedFrom ? `now from slot ${retainedFrom.slot}${retainedFrom.blockTime !== null ? `, unix time ${retainedFrom.blockTime}` : ""}` : "it holds none yet";
    throw new ApiError("NOT_FOUND", `No trade of ${mint} at or before ${moment}: the trade index keeps the last ${retentionHours} hours of trades (${kept})`);
  }
  return c.json(found);
});
export const priceHistoryOperations = [historyOperation];
