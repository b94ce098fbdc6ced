/**
 * The read side of the trend: one row of `trend_windows` (migrations/0002), which the cron rewrites after each ingest
 * with the window's ranked entries (≤ 100, by buy volume), cut to `limit` and shaped as the spec's trend result. The
 * answer's JSON text is kept briefly in the Cache API per (hour, limit), so a burst of identical requests in a colo
 * reads D1 once.
 */
import { z } from "zod/mini";
import { limits } from "../limits";

export const trendEntrySchema = z.object({
  token_address: z.string(),
  token_symbol: z.string(),
  /** USD */
  latest_price: z.number(),
  buy_volume_usd: z.number(),
  sell_volume_usd: z.number(),
  /** buy_volume_usd − sell_volume_usd */
  net_inflow_usd: z.number(),
});
export type TrendEntry = z.infer<typeof trendEntrySchema>;

const trendBodySchema = z.array(trendEntrySchema);

/**
 * The spec's trend result: rank keys "0", "1", ... (best first), `hour` and `limit` as asked, and our extras: the last
 * ingested slot, where the window ends (`slot`), and that block's time (`updatedAt`, ISO; both null, with no ranks,
 * before the first ingest).
 */
export const trendAnswerSchema = z.catchall(
  z.object({
    hour: z.number(),
    limit: z.number(),
    updatedAt: z.nullable(z.string()),
    slot: z.nullable(z.number()),
  }),
  trendEntrySchema,
);
export type TrendAnswer = { hour: number; limit: number; updatedAt: string | null; slot: number | null } & Record<`${number}`, TrendEntry>;

type TrendRow = { body: string; slot: number; updated_at: number };

/** The answer of one D1 row (none yet: no ranks). Pure. */
export function trendAnswerOf(row: TrendRow | null, hour: number, limit: number): TrendAnswer {
  const answer: Record<string, unknown> = {};
  if (row) {
    // The cron writes the body; a row that is not the documented shape is a bug to surface (500), not to pass on.
    const entries = trendBodySchema.parse(JSON.parse(row.body)).slice(0, limit);
    entries.forEach((entry, rank) => (answer[String(rank)] = entry));
  }
  answer.hour = hour;
  answer.limit = limit;
  answer.updatedAt = row ? new Date(row.updated_at).toISOString() : null;
  answer.slot = row ? row.slot : null;
  return answer as TrendAnswer;
}

const cacheKey = (hour: number, limit: number) => `https://trend-cache.internal/v1/${hour}/${limit}`;
const sharedCache = (): Cache | undefined => (typeof caches === "undefined" ? undefined : caches.default);

/**
 * The trend answer as JSON text: from the Cache API when a colo-mate asked the same within `limits.trendCacheSeconds`,
 * else from D1 (stored back through `waitUntil`, never delaying the answer). A failing cache is a miss.
 */
export async function readTrendJson(db: D1Database, hour: number, limit: number, waitUntil: (p: Promise<unknown>) => void): Promise<string> {
  const cache = sharedCache();
  const key = cacheKey(hour, limit);
  const hit = await cache?.match(key).catch(() => undefined);
  if (hit) return hit.text();
  const row = await db.prepare("SELECT body, slot, updated_at FROM trend_windows WHERE hour = ?").bind(hour).first<TrendRow>();
  const text = JSON.stringify(trendAnswerOf(row, hour, limit));
  if (cache) {
    const response = new Response(text, { headers: { "content-type": "application/json", "cache-control": `public, max-age=${limits.trendCacheSeconds}` } });
    waitUntil(cache.put(key, response).catch(() => undefined));
  }
  return text;
}
