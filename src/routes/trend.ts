import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { limits } from "../limits";
import { readTrendJson, trendAnswerSchema } from "../trend/trend-read";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { integerParam } from "./openapi/query-params";

/**
 * GET /api/v1/trend?hour=&limit=: the spec's trending tokens, read from the window the cron precomputed (one D1 row,
 * briefly cached). Both parameters are required; out of range or not an integer → 400 naming it (docs/api.md#trend).
 */
const trendQuery = z.object({
  hour: integerParam(1, limits.trendMaxHour, "Look-back window in hours, ending at the last block the index holds.", "6"),
  limit: integerParam(1, limits.trendMaxLimit, "Most tokens returned, best first.", "10"),
});

const entry = (token_address: string, token_symbol: string, latest_price: number, buy: number, sell: number) => ({
  token_address,
  token_symbol,
  latest_price,
  buy_volume_usd: buy,
  sell_volume_usd: sell,
  net_inflow_usd: buy - sell,
});

const trendOperation: Operation = {
  method: "get",
  path: "/api/v1/trend",
  operationId: "trend",
  summary: "Trending tokens: the most bought tokens of the last `hour` hours",
  description:
    "Ranked by `buy_volume_usd`, descending. Windows are rolling, ending at the last block the index holds (`slot`, at `updatedAt`): the whole minutes before that block's minute and that minute up to it; wSOL and the dollar stablecoins (USDC, USDT, USD1, PYUSD) are left out. " +
    "Before the first ingest the answer has no ranks and `slot` / `updatedAt` are null. See the [guide](/guide/api.md) (Trend).",
  tags: ["trend"],
  authenticated: true,
  query: trendQuery,
  responses: {
    200: {
      description: "Rank keys `0`, `1`, … in order, `hour` and `limit` as asked, `slot` (the last ingested slot, where the window ends) and `updatedAt` (the block time of `slot`)",
      schema: named("TrendResult", trendAnswerSchema),
      examples: {
        ranked: {
          summary: "Two tokens",
          value: {
            "0": entry("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", "Bonk", 0.0000233711523684, 182734.5, 120331.25),
            "1": entry("9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump", "PUMPY", 0.00000407891224071, 40210.75, 51000),
            hour: 6,
            limit: 2,
            updatedAt: "2026-11-24T22:41:00.000Z",
            slot: 381204117,
          },
        },
        empty: { summary: "Before the first ingest", value: { hour: 1, limit: 10, updatedAt: null, slot: null } },
      },
    },
    400: errorResponse("BAD_REQUEST", "`hour` or `limit` missing, not an integer, or out of range", {
      missingHour: "Missing required query parameter: hour",
      badHour: `Invalid query parameter hour: must be at most ${limits.trendMaxHour}`,
      badLimit: "Invalid query parameter limit: expected an integer",
    }),
    401: restErrors[401],
    413: restErrors[413],
    414: restErrors[414],
    500: restErrors[500],
    504: restErrors[504],
  },
};

export const trendRoutes = new Hono<AppContext>().get(trendOperation.path, validQuery(trendQuery), async (c) => {
  const { hour, limit } = c.req.valid("query");
  const text = await readTrendJson(c.env.DB, hour, limit, (p) => c.executionCtx.waitUntil(p));
  return c.body(text, 200, { "content-type": "application/json" });
});
export const trendOperations = [trendOperation];
