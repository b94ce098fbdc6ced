import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import { decodeTradeCursor, encodeTradeCursor, readTradePage, tradePageSchema, type TradeFilter } from "../trades/trade-queries";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { integerParam } from "./openapi/query-params";
import { parseAddress } from "./params";

/**
 * GET /api/v1/trades?ca=<mint> | ?wallet=<address>: recent trades from the trade index, newest first, a page at a
 * time (`nextCursor` → `cursor`). Exactly one of `ca` and `wallet`; an address never traded is an empty page, not a 404.
 */
const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const trader = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

const tradesQuery = z.object({
  ca: z.optional(z.string().register(z.globalRegistry, { description: "Trades of this mint (as the base token). Give `ca` or `wallet`, not both.", examples: [bonk] })),
  wallet: z.optional(z.string().register(z.globalRegistry, { description: "Trades signed by this wallet. Give `ca` or `wallet`, not both.", examples: [trader] })),
  limit: z.optional(integerParam(1, limits.tradesMaxLimit, `Trades per page; ${limits.tradesDefaultLimit} when not given.`, "50")),
  cursor: z.optional(z.string().register(z.globalRegistry, { description: "`nextCursor` of the previous page (opaque); the page continues after it.", examples: [encodeTradeCursor({ slot: 381204117, txIndex: 12, ordinal: 0 })] })),
});

const example = {
  signature: "5VfYmGC9L8ty3D4HutfxndoKXGBwXJWKKvxgF7qQzqK8xMjU9v7Rw4iJ3jBrnDBfEtDkLDjYpKsZ7LfS7EdLMYEo",
  slot: 381204117,
  blockTime: 1764000000,
  txIndex: 12,
  ordinal: 0,
  pool: "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW",
  kind: "raydium-clmm",
  baseMint: bonk,
  quoteMint: "So11111111111111111111111111111111111111112",
  side: "buy" as const,
  baseAmount: "4281903321",
  quoteAmount: "691724",
  baseAmountUi: "42819.03321",
  quoteAmountUi: "0.000691724",
  priceQuote: 1.6154e-8,
  priceSol: 1.6154e-8,
  priceUsd: 0.00000233,
  valueUsd: 0.0998,
  wallet: trader,
};

const tradesOperation: Operation = {
  method: "get",
  path: "/api/v1/trades",
  operationId: "trades",
  summary: "Recent trades of a mint or a wallet, newest first, paged",
  description:
    "From the trade index (swaps the cron reads from blocks), ordered by (slot, txIndex, ordinal) descending. Amounts are raw integers as strings, " +
    "with exact human forms (`*Ui`); prices and `valueUsd` are numbers, null when not known. See the [guide](/guide/api.md) (Trades).",
  tags: ["trades"],
  authenticated: true,
  query: tradesQuery,
  responses: {
    200: {
      description: "A page: `items` newest first, and `nextCursor` (null on the last page)",
      schema: named("TradePage", tradePageSchema),
      examples: {
        page: { summary: "A page with more after it", value: { items: [example], nextCursor: encodeTradeCursor(example) } },
        unknown: { summary: "A mint or wallet with no trades", value: { items: [], nextCursor: null } },
      },
    },
    400: errorResponse("BAD_REQUEST", "neither or both of `ca` and `wallet`; a malformed address; `limit` not an integer in range; a `cursor` this service did not make", {
      missing: "Missing required query parameter: ca or wallet",
      both: "Give either ca or wallet, not both",
      badCa: 'Invalid base58 address in ca: "not-base58!"',
      badLimit: `Invalid query parameter limit: must be at most ${limits.tradesMaxLimit}`,
      badCursor: "Invalid query parameter cursor: not a cursor of this endpoint",
    }),
    401: restErrors[401],
    413: restErrors[413],
    414: restErrors[414],
    500: restErrors[500],
    504: restErrors[504],
  },
};

/** Blank is absent, as for `ca` elsewhere. */
const given = (text: string | undefined) => (text === undefined || text.trim() === "" ? undefined : text.trim());

export const tradesRoutes = new Hono<AppContext>().get(tradesOperation.path, validQuery(tradesQuery), async (c) => {
  const query = c.req.valid("query");
  const ca = given(query.ca);
  const wallet = given(query.wallet);
  if (ca === undefined && wallet === undefined) throw new ApiError("BAD_REQUEST", "Missing required query parameter: ca or wallet");
  if (ca !== undefined && wallet !== undefined) throw new ApiError("BAD_REQUEST", "Give either ca or wallet, not both");
  const filter: TradeFilter = ca !== undefined ? { by: "mint", mint: parseAddress(ca, "ca") } : { by: "wallet", wallet: parseAddress(wallet!, "wallet") };
  const after = query.cursor === undefined ? undefined : decodeTradeCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) throw new ApiError("BAD_REQUEST", "Invalid query parameter cursor: not a cursor of this endpoint");
  const page = await readTradePage(c.env.DB, filter, query.limit ?? limits.tradesDefaultLimit, after);
  return c.json(page);
});
export const tradesOperations = [tradesOperation];
