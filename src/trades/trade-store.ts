import { limits } from "../limits";
/**
 * Writes ingested blocks to D1, atomically per call: one batch (a D1 transaction) whose first statement inserts the
 * blocks' rows in `ingested_blocks`. A block stored before fails that statement on its primary key and the whole batch
 * rolls back, so a re-run range, a retried queue message or two consumers racing never count a trade twice; the caller
 * then drops the blocks already stored and writes the rest. Every table gets one statement per 1,000 rows (rows travel
 * as one JSON parameter: json/json-rows-statements.ts), so a call costs a few statements for 1 block or 100. The pool
 * registry's rows go in the same batch (pool-registry/registry-writes.ts).
 */
import { jsonRowsStatements } from "../json/json-rows-statements";
import { poolUpsertStatements } from "../pool-registry/registry-writes";
import type { PoolEvent, Trade } from "./trade";
import { bucketRows, walletMinuteRows, type BucketRow } from "./trade-buckets";
import type { RegisteredPool } from "../pool-registry/registry-store";

export interface StoredBlock {
  slot: number;
  blockTime: number | null;
  solUsd: number | null;
  trades: Trade[];
  events: PoolEvent[];
  /** pools seen swapped (with the related accounts their swap instructions name) for the registry */
  pools: RegisteredPool[];
}

const insertBlocks = `INSERT INTO ingested_blocks (slot, block_time, trades, sol_usd)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?1)`;

const tradeColumns = [
  "slot", "tx_index", "ordinal", "block_time", "signature", "pool", "kind", "mint", "quote_mint", "side", "base_amount", "quote_amount",
  "base_decimals", "quote_decimals", "price_quote", "price_sol", "price_usd", "value_usd", "wallet",
] as const;
const insertTrades = `INSERT INTO trades (${tradeColumns.join(", ")})
  SELECT ${tradeColumns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?1)`;

const bucketColumns = [
  "mint", "bucket", "buys", "sells", "buy_usd", "sell_usd", "buy_sol", "sell_sol", "buy_base", "sell_base", "first_key", "last_key",
  "open_usd", "high_usd", "low_usd", "close_usd", "open_sol", "high_sol", "low_sol", "close_sol",
] as const;

/** Adds bucket rows: sums add, high/low widen, open/close move only to an earlier/later trade (by order key). */
function upsertBuckets(table: "minute_buckets" | "hour_buckets"): string {
  const sum = (c: string) => `${c} = ${c} + excluded.${c}`;
  const open = (c: string) => `${c} = CASE WHEN ${c} IS NULL OR (excluded.${c} IS NOT NULL AND excluded.first_key < first_key) THEN coalesce(excluded.${c}, ${c}) ELSE ${c} END`;
  const close = (c: string) => `${c} = CASE WHEN ${c} IS NULL OR (excluded.${c} IS NOT NULL AND excluded.last_key > last_key) THEN coalesce(excluded.${c}, ${c}) ELSE ${c} END`;
  const high = (c: string) => `${c} = CASE WHEN ${c} IS NULL THEN excluded.${c} WHEN excluded.${c} IS NULL THEN ${c} ELSE max(${c}, excluded.${c}) END`;
  const low = (c: string) => `${c} = CASE WHEN ${c} IS NULL THEN excluded.${c} WHEN excluded.${c} IS NULL THEN ${c} ELSE min(${c}, excluded.${c}) END`;
  return `INSERT INTO ${table} (${bucketColumns.join(", ")})
    SELECT ${bucketColumns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?1) WHERE true
    ON CONFLICT (mint, bucket) DO UPDATE SET
      ${["buys", "sells", "buy_usd", "sell_usd", "buy_sol", "sell_sol", "buy_base", "sell_base"].map(sum).join(", ")},
      ${open("open_usd")}, ${open("open_sol")}, ${close("close_usd")}, ${close("close_sol")},
      ${high("high_usd")}, ${high("high_sol")}, ${low("low_usd")}, ${low("low_sol")},
      first_key = min(first_key, excluded.first_key), last_key = max(last_key, excluded.last_key)`;
}
const upsertMinutes = upsertBuckets("minute_buckets");
const insertWalletMinutes = `INSERT INTO wallet_minutes (mint, bucket, side, wallet)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?1) WHERE true
  ON CONFLICT DO NOTHING`;
const upsertHours = upsertBuckets("hour_buckets");

const bucketTuple = (r: BucketRow) => [
  r.mint, r.bucket, r.buys, r.sells, r.buyUsd, r.sellUsd, r.buySol, r.sellSol, r.buyBase, r.sellBase, r.firstKey, r.lastKey,
  r.openUsd, r.highUsd, r.lowUsd, r.closeUsd, r.openSol, r.highSol, r.lowSol, r.closeSol,
];

const tradeTuple = (t: Trade) => [
  t.slot, t.txIndex, t.ordinal, t.blockTime, t.signature, t.pool, t.kind, t.baseMint, t.quoteMint, t.side, t.baseAmount.toString(),
  t.quoteAmount.toString(), t.baseDecimals, t.quoteDecimals, t.priceQuote, t.priceSol, t.priceUsd, t.valueUsd, t.wallet,
];

/** The statements that store `blocks` (none already stored): one per table. */
function statementsFor(db: D1Database, blocks: readonly StoredBlock[]): D1PreparedStatement[] {
  const trades = blocks.flatMap((b) => b.trades);
  const statements = [
    db.prepare(insertBlocks).bind(JSON.stringify(blocks.map((b) => [b.slot, b.blockTime, b.trades.length, b.solUsd]))),
    ...jsonRowsStatements(db, insertTrades, trades.map(tradeTuple)),
    ...jsonRowsStatements(db, upsertMinutes, bucketRows(trades, 60).map(bucketTuple)),
    ...jsonRowsStatements(db, upsertHours, bucketRows(trades, 3600).map(bucketTuple)),
    ...jsonRowsStatements(db, insertWalletMinutes, walletMinuteRows(trades)),
    ...poolUpsertStatements(db, blocks),
  ];
  return statements;
}

const isDuplicateBlock = (err: unknown) => err instanceof Error && /UNIQUE constraint failed: ingested_blocks/i.test(err.message);

export interface StoreReport {
  /** blocks written by this call (the others were stored before) */
  stored: number;
  /** D1's count of rows written (index entries included), what D1 bills */
  rowsWritten: number;
}

/**
 * Stores the blocks not stored yet. A concurrent writer that stores one of them first makes the batch roll back: the
 * blocks stored meanwhile are dropped and the rest written again.
 */
export async function storeBlocks(db: D1Database, blocks: readonly StoredBlock[]): Promise<StoreReport> {
  let pending = [...blocks];
  for (let attempt = 0; pending.length > 0; attempt++) {
    const stored = await storedSolUsd(db, pending.map((b) => b.slot));
    pending = pending.filter((b) => !stored.has(b.slot));
    if (pending.length === 0) break;
    try {
      const results = await db.batch(statementsFor(db, pending));
      return { stored: pending.length, rowsWritten: results.reduce((a, r) => a + (r.meta.rows_written ?? 0), 0) };
    } catch (err) {
      if (!isDuplicateBlock(err) || attempt >= limits.tradeIngest.storeRetries) throw err;
    }
  }
  return { stored: 0, rowsWritten: 0 };
}

/** Which of `slots` are stored already, with the SOL/USD stored after each (its own or the carry; null: none known). */
export async function storedSolUsd(db: D1Database, slots: readonly number[]): Promise<Map<number, number | null>> {
  if (slots.length === 0) return new Map();
  const { results } = await db
    .prepare("SELECT slot, sol_usd FROM ingested_blocks WHERE slot IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(slots))
    .all<{ slot: number; sol_usd: number | null }>();
  return new Map(results.map((r) => [r.slot, r.sol_usd]));
}
