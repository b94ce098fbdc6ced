/**
 * What the cron does after ingest: close buckets (distinct wallets, counted from the stored trades once a bucket's
 * minute or hour is complete) and drop rows past their retention (limits.tradeIngest; docs/indexing.md).
 */
import { limits } from "../limits";

export interface UpkeepReport {
  closedMinutes: number;
  closedHours: number;
  deleted: { trades: number; minuteBuckets: number; hourBuckets: number; blocks: number; failures: number; walletMinutes: number; blockQuoteUsd: number };
}

const countWallets = (table: string, seconds: number) =>
  `UPDATE ${table} SET wallets = (
     SELECT count(DISTINCT wallet) FROM trades t
     WHERE t.mint = ${table}.mint AND t.block_time >= ${table}.bucket * ${seconds} AND t.block_time < (${table}.bucket + 1) * ${seconds})
   WHERE wallets IS NULL AND bucket BETWEEN ?1 AND ?2`;

/** `endMinute`: the last complete minute (the trend windows' end); `nowMs` the time retention counts from. */
export async function upkeepIndex(db: D1Database, endMinute: number, nowMs: number): Promise<UpkeepReport> {
  const cfg = limits.tradeIngest;
  // Only buckets whose trades are all still stored can be counted; older open ones stay null (unknown).
  const tradesFromMinute = Math.ceil((nowMs - cfg.tradeRetentionMs) / 60_000);
  const lastCompleteHour = Math.floor((endMinute + 1) / 60) - 1;
  const cutoffSlot = await db
    .prepare("SELECT max(slot) AS slot FROM ingested_blocks WHERE block_time < ?")
    .bind(Math.floor((nowMs - cfg.tradeRetentionMs) / 1000))
    .first<{ slot: number | null }>();
  const blockCutoff = await db
    .prepare("SELECT max(slot) AS slot FROM ingested_blocks WHERE block_time < ?")
    .bind(Math.floor((nowMs - cfg.blockRetentionMs) / 1000))
    .first<{ slot: number | null }>();
  const results = await db.batch([
    db.prepare(countWallets("minute_buckets", 60)).bind(tradesFromMinute, endMinute),
    db.prepare(countWallets("hour_buckets", 3600)).bind(Math.ceil(tradesFromMinute / 60), lastCompleteHour),
    db.prepare("DELETE FROM trades WHERE slot <= ?").bind(cutoffSlot?.slot ?? -1),
    db.prepare("DELETE FROM minute_buckets WHERE bucket < ?").bind(Math.floor((nowMs - cfg.minuteBucketRetentionMs) / 60_000)),
    db.prepare("DELETE FROM hour_buckets WHERE bucket < ?").bind(Math.floor((nowMs - cfg.hourBucketRetentionMs) / 3_600_000)),
    db.prepare("DELETE FROM ingested_blocks WHERE slot <= ?").bind(blockCutoff?.slot ?? -1),
    db.prepare("DELETE FROM ingest_failures WHERE at < ?").bind(nowMs - cfg.failureRetentionMs),
    db.prepare("DELETE FROM wallet_minutes WHERE bucket < ?").bind(Math.floor((nowMs - cfg.walletMinuteRetentionMs) / 60_000)),
    // the quote tokens' USD the trades were valued with (block-quote-usd.ts): kept as long as those trades
    db.prepare("DELETE FROM block_quote_usd WHERE slot <= ?").bind(cutoffSlot?.slot ?? -1),
  ]);
  const changes = results.map((r) => r.meta.changes ?? 0);
  return {
    closedMinutes: changes[0]!,
    closedHours: changes[1]!,
    deleted: { trades: changes[2]!, minuteBuckets: changes[3]!, hourBuckets: changes[4]!, blocks: changes[5]!, failures: changes[6]!, walletMinutes: changes[7]!, blockQuoteUsd: changes[8]! },
  };
}
