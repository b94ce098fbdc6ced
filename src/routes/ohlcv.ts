import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import { ohlcvAnswerSchema, ohlcvCurrencies, ohlcvIntervalNames, readOhlcv } from "../trades/ohlcv";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { integerParam } from "./openapi/query-params";
import { parseSingleMint } from "./params";

/**
 * GET /api/v1/ohlcv?ca=<mint>&interval=…: candles of one mint from the trade index's minute and hour buckets (1s: its
 * stored trades, the last hour), oldest first (docs/api.md#ohlcv). A mint never traded has no candles (200, not 404).
 */
const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";

const ohlcvQuery = z.object({
  ca: z.string().register(z.globalRegistry, { description: "One mint address.", examples: [bonk] }),
  interval: z.enum(ohlcvIntervalNames).register(z.globalRegistry, {
    description: `Candle size. 1s comes from the stored trades and covers the last ${limits.ohlcvSecondCandlesWindowSeconds / 3600} hour only (older seconds are not answered); 1m, 5m, 15m come from minute buckets, 1h, 4h, 1d from hour buckets; candles start on multiples of the interval (UTC; 1d at 00:00 UTC).`,
    examples: ["1h"],
  }),
  from: z.optional(integerParam(0, Number.MAX_SAFE_INTEGER, "Earliest candle start, unix seconds (inclusive); none: as far back as `limit` reaches.", "1763942400")),
  to: z.optional(integerParam(0, Number.MAX_SAFE_INTEGER, "Latest candle start, unix seconds (inclusive); none: now.", "1764028800")),
  limit: z.optional(integerParam(1, limits.ohlcvMaxLimit, `Most candles, the newest in range; ${limits.ohlcvDefaultLimit} when not given.`, "300")),
  currency: z.optional(z.enum(ohlcvCurrencies).register(z.globalRegistry, { description: "Prices and `volume` in USD or SOL; `usd` when not given.", examples: ["sol"] })),
  fillEmpty: z.optional(
    z.enum(["true", "false"]).register(z.globalRegistry, {
      description: "`true`: empty intervals between the first and last candle are filled with the previous close and zero volume; `false` when not given.",
      examples: ["true"],
    }),
  ),
});

const candle = (time: number, open: number, high: number, low: number, close: number, volume: number, volumeBase: number, buys: number, sells: number) => ({
  time,
  open,
  high,
  low,
  close,
  volume,
  volumeBase,
  buys,
  sells,
});

const ohlcvOperation: Operation = {
  method: "get",
  path: "/api/v1/ohlcv",
  operationId: "ohlcv",
  summary: "OHLCV candles of a mint (1s to 1d), in USD or SOL",
  description:
    "Built from the trade index's per-mint buckets: open of the earliest trade, close of the latest, high/low the extremes, `volume` buys + sells in the currency, " +
    "`volumeBase` the same in the token. Prices are null in a candle whose trades had no price in that currency. " +
    `At most ${limits.ohlcvMaxBucketRows} buckets are read per request, so 15m and 1d answers with a large limit may hold fewer candles (the oldest are left out). ` +
    `1s candles are kept for the last ${limits.ohlcvSecondCandlesWindowSeconds / 3600} hour and built from at most ${limits.ohlcvMaxTradeRows} trades per request (the newest); the same candles stream live on /ws (\`subscribeCandle\`).`,
  tags: ["trades"],
  authenticated: true,
  query: ohlcvQuery,
  responses: {
    200: {
      description: "Candles oldest first; none for a mint never traded",
      schema: named("Ohlcv", ohlcvAnswerSchema),
      examples: {
        hourly: {
          summary: "Two hourly candles",
          value: {
            ca: bonk,
            interval: "1h",
            currency: "usd",
            candles: [candle(1764021600, 0.0000231, 0.0000236, 0.0000229, 0.0000234, 182734.5, 7881234567.125, 311, 280), candle(1764025200, 0.0000234, 0.0000235, 0.0000232, 0.0000233, 90211.2, 3870123301.5, 141, 150)],
          },
        },
        unknown: { summary: "A mint never traded", value: { ca: bonk, interval: "1m", currency: "sol", candles: [] } },
      },
    },
    400: errorResponse("BAD_REQUEST", "`ca` or `interval` missing; a malformed `ca`; `interval`, `currency`, `fillEmpty`, `limit`, `from` or `to` not an allowed value; `from` after `to`", {
      missingCa: "Missing required query parameter: ca",
      badCa: 'Invalid base58 address in ca: "not-base58!"',
      badInterval: `Invalid query parameter interval: must be one of ${ohlcvIntervalNames.join(", ")}`,
      badLimit: `Invalid query parameter limit: must be at most ${limits.ohlcvMaxLimit}`,
      fromAfterTo: "Invalid query parameter from: must not be after to",
    }),
    401: restErrors[401],
    413: restErrors[413],
    414: restErrors[414],
    500: restErrors[500],
    504: restErrors[504],
  },
};

export const ohlcvRoutes = new Hono<AppContext>().get(ohlcvOperation.path, validQuery(ohlcvQuery), async (c) => {
  const query = c.req.valid("query");
  const mint = parseSingleMint(query.ca);
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw new ApiError("BAD_REQUEST", "Invalid query parameter from: must not be after to");
  const answer = await readOhlcv(c.env.DB, {
    mint,
    interval: query.interval,
    currency: query.currency ?? "usd",
    from: query.from,
    to: query.to ?? Math.floor(Date.now() / 1000),
    limit: query.limit ?? limits.ohlcvDefaultLimit,
    fillEmpty: query.fillEmpty === "true",
    now: Math.floor(Date.now() / 1000),
  });
  return c.json(answer);
});
export const ohlcvOperations = [ohlcvOperation];
