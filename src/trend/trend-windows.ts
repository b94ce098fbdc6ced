/**
 * Precomputes the trend answer of every window (1..24 h) after ingest, so the route reads one row. A window is a true
 * rolling window of whole minutes ending at the last minute the index holds completely (the minute before the one of
 * the frontier block): full hours come from hour buckets, the two ragged ends from minute buckets. Ranked by buy volume
 * in USD (ties by mint); SOL, wSOL and the stablecoins are left out (they are what tokens are bought with).
 */
import type { AccountRpc } from "../solana/account-reader";
import { limits } from "../limits";
import { trendExcludedMints } from "../solana/well-known";
import { symbolsOf } from "./token-symbols";
import type { TrendEntry } from "./trend-read";


/** The buckets that make up the window of `hours` ending with minute `endMinute` (inclusive). */
export function windowParts(endMinute: number, hours: number): { minutes: [number, number][]; hours: [number, number] | null } {
  const startMinute = endMinute - 60 * hours + 1;
  const firstHour = Math.ceil(startMinute / 60);
  const lastHour = Math.floor((endMinute + 1) / 60) - 1;
  if (firstHour > lastHour) return { minutes: [[startMinute, endMinute]], hours: null };
  const minutes: [number, number][] = [];
  if (startMinute < firstHour * 60) minutes.push([startMinute, firstHour * 60 - 1]);
  if ((lastHour + 1) * 60 <= endMinute) minutes.push([(lastHour + 1) * 60, endMinute]);
  return { minutes, hours: [firstHour, lastHour] };
}

/** One query per window; an absent part binds an empty range (0..-1), so every window uses the same statement. */
const rankQuery = `SELECT mint, sum(buy_usd) AS buy, sum(sell_usd) AS sell, max(last_key) AS last, close_usd AS close
  FROM (
    SELECT mint, buy_usd, sell_usd, last_key, close_usd FROM minute_buckets WHERE bucket BETWEEN ?2 AND ?3
    UNION ALL SELECT mint, buy_usd, sell_usd, last_key, close_usd FROM minute_buckets WHERE bucket BETWEEN ?4 AND ?5
    UNION ALL SELECT mint, buy_usd, sell_usd, last_key, close_usd FROM hour_buckets WHERE bucket BETWEEN ?6 AND ?7
  )
  WHERE mint NOT IN (SELECT value FROM json_each(?1))
  GROUP BY mint HAVING sum(buy_usd) > 0 OR sum(sell_usd) > 0
  ORDER BY buy DESC, mint ASC LIMIT ?8`;
// One max() aggregate in the query: SQLite then takes the bare column close_usd from the row holding the latest trade.

export interface TrendRunReport {
  endMinute: number | null;
  windows: number;
}

/** Recomputes every window ending at the frontier; no-op until a block with a time is stored. */
export async function computeTrendWindows(db: D1Database, rpc: AccountRpc, frontier: number): Promise<TrendRunReport> {
  const row = await db
    .prepare("SELECT block_time FROM ingested_blocks WHERE slot <= ? AND block_time IS NOT NULL ORDER BY slot DESC LIMIT 1")
    .bind(frontier)
    .first<{ block_time: number }>();
  if (!row) return { endMinute: null, windows: 0 };
  const endMinute = Math.floor(row.block_time / 60) - 1;
  const excluded = JSON.stringify(trendExcludedMints);
  const ranked: { hour: number; rows: { mint: string; buy: number; sell: number; close: number | null }[] }[] = [];
  for (let hour = 1; hour <= limits.trendMaxHour; hour++) {
    const parts = windowParts(endMinute, hour);
    const binds: unknown[] = [excluded, ...(parts.minutes[0] ?? [0, -1]), ...(parts.minutes[1] ?? [0, -1]), ...(parts.hours ?? [0, -1]), limits.trendMaxLimit];
    const { results } = await db.prepare(rankQuery).bind(...binds).all<{ mint: string; buy: number; sell: number; close: number | null }>();
    ranked.push({ hour, rows: results });
  }
  const symbols = await symbolsOf(db, rpc, [...new Set(ranked.flatMap((r) => r.rows.map((x) => x.mint)))]);
  const now = Date.now();
  const upsert = db.prepare(
    "INSERT INTO trend_windows (hour, body, slot, end_minute, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(hour) DO UPDATE SET body = excluded.body, slot = excluded.slot, end_minute = excluded.end_minute, updated_at = excluded.updated_at",
  );
  await db.batch(
    ranked.map(({ hour, rows }) => {
      const body: TrendEntry[] = rows.map((r) => ({
        token_address: r.mint,
        token_symbol: symbols.get(r.mint) ?? "",
        latest_price: r.close ?? 0,
        buy_volume_usd: r.buy,
        sell_volume_usd: r.sell,
        net_inflow_usd: r.buy - r.sell,
      }));
      return upsert.bind(hour, JSON.stringify(body), frontier, endMinute, now);
    }),
  );
  return { endMinute, windows: ranked.length };
}
