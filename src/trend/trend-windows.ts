/**
 * Precomputes the trend answer of every window (1..24 h) after ingest, so the route reads one row. A window is a true
 * rolling window ending at the index's end, the last block the frontier holds (window-span.ts): whole minutes and
 * hours from the buckets, the live minute from the stored trades up to that block. Ranked by buy volume in USD (ties
 * by mint); SOL, wSOL and the stablecoins are left out (they are what tokens are bought with).
 */
import type { AccountRpc } from "../solana/account-reader";
import { limits } from "../limits";
import { trendExcludedMints } from "../solana/well-known";
import { symbolsOf } from "./token-symbols";
import type { TrendEntry } from "./trend-read";
import { readIndexEnd, spanBinds, tradeOrderKeySql, windowSpan } from "./window-span";

/**
 * One query per window; an absent part binds an empty range (0..-1), so every window uses the same statement. The
 * live minute's trades come in as one-trade rows; an unpriced one gets key -1 so the latest price is the latest priced
 * trade's, as a bucket's close is.
 */
const rankQuery = `SELECT mint, sum(buy_usd) AS buy, sum(sell_usd) AS sell, max(last_key) AS last, close_usd AS close
  FROM (
    SELECT mint, buy_usd, sell_usd, last_key, close_usd FROM minute_buckets WHERE bucket BETWEEN ?2 AND ?3
    UNION ALL SELECT mint, buy_usd, sell_usd, last_key, close_usd FROM minute_buckets WHERE bucket BETWEEN ?4 AND ?5
    UNION ALL SELECT mint, buy_usd, sell_usd, last_key, close_usd FROM hour_buckets WHERE bucket BETWEEN ?6 AND ?7
    UNION ALL SELECT mint, CASE side WHEN 'buy' THEN coalesce(value_usd, 0) ELSE 0 END, CASE side WHEN 'sell' THEN coalesce(value_usd, 0) ELSE 0 END,
      CASE WHEN price_usd IS NULL THEN -1 ELSE ${tradeOrderKeySql} END, price_usd
      FROM trades WHERE slot BETWEEN ?9 AND ?10 AND block_time >= ?11
  )
  WHERE mint NOT IN (SELECT value FROM json_each(?1))
  GROUP BY mint HAVING sum(buy_usd) > 0 OR sum(sell_usd) > 0
  ORDER BY buy DESC, mint ASC LIMIT ?8`;
// One max() aggregate in the query: SQLite then takes the bare column close_usd from the row holding the latest trade.

export interface TrendRunReport {
  /** the live minute the windows end in (null before the first block with a time) */
  endMinute: number | null;
  /** unix seconds the windows end at */
  endTime: number | null;
  windows: number;
}

/** Recomputes every window ending at the frontier; no-op until a block with a time is stored. */
export async function computeTrendWindows(db: D1Database, rpc: AccountRpc, frontier: number): Promise<TrendRunReport> {
  const end = await readIndexEnd(db, frontier);
  if (!end) return { endMinute: null, endTime: null, windows: 0 };
  const excluded = JSON.stringify(trendExcludedMints);
  const ranked: { hour: number; rows: { mint: string; buy: number; sell: number; close: number | null }[] }[] = [];
  let liveMinute = 0;
  for (let hour = 1; hour <= limits.trendMaxHour; hour++) {
    const span = windowSpan(end.time, 60 * hour);
    liveMinute = span.liveMinute;
    const binds: unknown[] = [excluded, ...spanBinds(span.whole), limits.trendMaxLimit, end.liveFromSlot, end.slot, span.liveMinute * 60];
    const { results } = await db.prepare(rankQuery).bind(...binds).all<{ mint: string; buy: number; sell: number; close: number | null }>();
    ranked.push({ hour, rows: results });
  }
  const symbols = await symbolsOf(db, rpc, [...new Set(ranked.flatMap((r) => r.rows.map((x) => x.mint)))]);
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
      // updated_at is the moment the window ends (the block time of `slot`), what the answer's `updatedAt` tells.
      return upsert.bind(hour, JSON.stringify(body), end.slot, liveMinute, end.time * 1000);
    }),
  );
  return { endMinute: liveMinute, endTime: end.time, windows: ranked.length };
}
