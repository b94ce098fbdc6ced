import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { limits } from "../limits";
import { mintStatsSchema, readWindowStats, type MintStats, type WindowStats } from "../stats/window-stats";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { parseMintList } from "./params";

/**
 * GET /api/v1/stats?ca=MINT[,MINT…]: 5m, 1h, 6h and 24h windows of each mint (volumes, counts, distinct wallets, open,
 * last and change), ending where the trend windows end (docs/api.md#stats). One mint → its stats; a comma list → an
 * array in request order, each item with `success`, a malformed item failing alone. A mint never traded has zero
 * windows (200, not 404).
 */
const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";

const statsQuery = z.object({
  ca: z.string().register(z.globalRegistry, {
    description: `One mint address, or a comma-separated list of at most ${limits.statsMaxMints} (spaces ignored): a list gives an array in request order.`,
    examples: [bonk],
  }),
});

const window = (from: number, to: number, w: Partial<WindowStats>): WindowStats => ({
  from, to, buys: 0, sells: 0, buyers: 0, sellers: 0, buyVolumeUsd: 0, sellVolumeUsd: 0, buyVolumeSol: 0, sellVolumeSol: 0, buyVolumeToken: 0,
  sellVolumeToken: 0, openPriceUsd: null, lastPriceUsd: null, priceChangePercent: null, ...w,
});
const end = 1764000081;
const example: MintStats = {
  ca: bonk,
  slot: 381204117,
  updatedAt: new Date(end * 1000).toISOString(),
  "5m": window(1764000060 - 240, end, { buys: 12, sells: 7, buyers: 9, sellers: 6, buyVolumeUsd: 1820.5, sellVolumeUsd: 944.25, buyVolumeSol: 12.62, sellVolumeSol: 6.55, buyVolumeToken: 77_900_000, sellVolumeToken: 40_400_000, openPriceUsd: 0.00002331, lastPriceUsd: 0.00002337, priceChangePercent: 0.2574 }),
  "1h": window(1764000060 - 3540, end, { buys: 160, sells: 121, buyers: 88, sellers: 70, buyVolumeUsd: 25110, sellVolumeUsd: 19870.75, buyVolumeSol: 174.1, sellVolumeSol: 137.8, buyVolumeToken: 1.07e9, sellVolumeToken: 8.5e8, openPriceUsd: 0.0000229, lastPriceUsd: 0.00002337, priceChangePercent: 2.0524 }),
  "6h": window(1764000060 - 21540, end, { buys: 911, sells: 870, buyers: 402, sellers: 388, buyVolumeUsd: 182734.5, sellVolumeUsd: 120331.25, buyVolumeSol: 1267.2, sellVolumeSol: 834.5, buyVolumeToken: 7.9e9, sellVolumeToken: 5.2e9, openPriceUsd: 0.0000221, lastPriceUsd: 0.00002337, priceChangePercent: 5.7466 }),
  "24h": window(1764000060 - 86340, end, { buys: 4012, sells: 3990, buyers: 1377, sellers: 1301, buyVolumeUsd: 802113, sellVolumeUsd: 799540.5, buyVolumeSol: 5562.4, sellVolumeSol: 5544.5, buyVolumeToken: 3.4e10, sellVolumeToken: 3.4e10, openPriceUsd: 0.0000248, lastPriceUsd: 0.00002337, priceChangePercent: -5.7661 }),
};

const listItemSchema = named(
  "StatsListItem",
  z.union([
    z.extend(mintStatsSchema, { success: z.literal(true) }),
    z.object({ ca: z.string(), success: z.literal(false), error: z.object({ code: z.number(), message: z.string() }) }),
  ]),
);
const statsAnswerSchema = named("StatsAnswer", z.union([named("MintStats", mintStatsSchema), z.array(listItemSchema)]));

const statsOperation: Operation = {
  method: "get",
  path: "/api/v1/stats",
  operationId: "stats",
  summary: "Trading stats of mints over the last 5 minutes, 1 hour, 6 hours and 24 hours",
  description:
    "Per window: buys and sells, distinct buying and selling wallets, buy and sell volume in USD, SOL and the token, the first and last USD price and the change between them. " +
    "Windows end at the last block the trade index holds (the same end as the trend; `slot` and `updatedAt` say where) and start on a minute boundary: a window of N minutes holds the N − 1 whole minutes before the end's minute and that minute up to the end. " +
    "A mint never traded has empty windows. Costs 1 credit per call. See the [guide](/guide/api.md) (Stats).",
  tags: ["trend"],
  authenticated: true,
  query: statsQuery,
  responses: {
    200: {
      description: "One mint: its stats. A comma list: an array in request order, each item with `success` (a malformed item carries its own `error`).",
      schema: statsAnswerSchema,
      examples: {
        one: { summary: "One mint", value: example },
        list: {
          summary: "A list with a malformed item in place",
          value: [{ ...example, success: true }, { ca: "not-base58!", success: false, error: { code: 400, message: 'Invalid base58 address in ca: "not-base58!"' } }],
        },
      },
    },
    400: errorResponse("BAD_REQUEST", "`ca` missing, malformed (no well-formed item in a list) or too long a list", {
      missingCa: "Missing required query parameter: ca",
      badCa: 'Invalid base58 address in ca: "not-base58!"',
      tooMany: `Too many mints in ca: ${limits.statsMaxMints + 1} (at most ${limits.statsMaxMints})`,
    }),
    401: restErrors[401],
    413: restErrors[413],
    414: restErrors[414],
    500: restErrors[500],
    504: restErrors[504],
  },
};

export const statsRoutes = new Hono<AppContext>().get(statsOperation.path, validQuery(statsQuery), async (c) => {
  const raw = c.req.valid("query").ca;
  const items = parseMintList(raw, limits.statsMaxMints);
  const mints = [...new Set(items.flatMap((item) => (item.mint ? [item.mint] : [])))];
  const stats = await readWindowStats(c.env.DB, mints);
  if (!raw.includes(",")) return c.json(stats.get(mints[0]!)!);
  return c.json(
    items.map((item) =>
      item.mint ? { ...stats.get(item.mint)!, success: true } : { ca: item.ca, success: false, error: { code: item.error!.status, message: item.error!.message } },
    ),
  );
});
export const statsOperations = [statsOperation];
