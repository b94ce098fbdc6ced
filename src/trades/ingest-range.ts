/**
 * Ingests one slot range: the confirmed blocks in it that are not stored yet, read in parallel pages and stored in one
 * batch per page (trade-store.ts makes that idempotent). An upstream fault stops the range after storing the pages read
 * before it: the range stays pending and is taken again (queue retry or the cron), and only the missing blocks are read.
 * A block that cannot be parsed — or, once a range has failed `maxRangeAttempts` times, cannot be read — is recorded in
 * `ingest_failures`, logged, and stored as a block with no trades so the frontier moves on.
 */
import { limits } from "../limits";
import type { Upstream } from "../solana/upstream";
import { BlockParseError, fetchBlock, readBlock, type JsonBlock } from "./block-reading";
import { unpricedQuotes, valueThroughQuotes } from "./trade-pricing";
import { storeBlocks, storedSlots, type StoredBlock } from "./trade-store";

export interface IngestDeps {
  db: D1Database;
  upstream: Upstream;
  /** SOL/USD now, for the very first block when no stored block has one (never a constant) */
  liveSolUsd(): Promise<number | null>;
  /**
   * USD per unit of quote tokens that are neither SOL nor a dollar stable (an LST, USD1, a memecoin), as the price
   * service values them (stake-pool rate or the token's own deepest pool); tokens without a price are left out.
   */
  quoteUsd?(mints: string[]): Promise<Map<string, number>>;
}

export interface RangeReport {
  from: number;
  to: number;
  blocks: number;
  trades: number;
  failures: number;
  /** D1 rows written storing them (index entries included) */
  rowsWritten: number;
}

/** The SOL/USD of the last stored block before `slot` (the carry for blocks without a SOL/stable swap). */
async function solUsdBefore(deps: IngestDeps, slot: number): Promise<number | null> {
  const row = await deps.db
    .prepare("SELECT sol_usd FROM ingested_blocks WHERE slot < ? AND sol_usd IS NOT NULL ORDER BY slot DESC LIMIT 1")
    .bind(slot)
    .first<{ sol_usd: number }>();
  return row?.sol_usd ?? (await deps.liveSolUsd());
}

async function recordFailure(db: D1Database, slot: number, reason: string): Promise<void> {
  console.error(JSON.stringify({ level: "error", ingest: "block-skipped", slot, reason }));
  await db
    .prepare("INSERT INTO ingest_failures (slot, reason, at) VALUES (?, ?, ?) ON CONFLICT(slot) DO UPDATE SET reason = excluded.reason, at = excluded.at")
    .bind(slot, reason.slice(0, 500), Date.now())
    .run();
}

/**
 * Trades quoted in another token get their USD (and SOL) values through that token's own USD price, asked once per page
 * for every such token. Without one (or when the price service cannot answer now) they stay unvalued, as before: the
 * amounts and the quote price are stored whatever happens.
 */
async function valueQuotedInTokens(deps: IngestDeps, blocks: StoredBlock[]): Promise<void> {
  const quotes = unpricedQuotes(blocks.flatMap((b) => b.trades));
  if (quotes.length === 0 || !deps.quoteUsd) return;
  let usdOf: Map<string, number>;
  try {
    usdOf = await deps.quoteUsd(quotes);
  } catch (err) {
    console.warn(JSON.stringify({ level: "warn", ingest: "quote-prices-unavailable", quotes: quotes.length, reason: err instanceof Error ? err.message : String(err) }));
    return;
  }
  for (const block of blocks) block.trades = valueThroughQuotes(block.trades, block.solUsd, usdOf);
}

const emptyBlock = (slot: number): StoredBlock => ({ slot, blockTime: null, solUsd: null, trades: [], events: [], pools: [] });

/**
 * Ingests [from, to]. `lastAttempt`: blocks that still cannot be read are skipped (recorded) instead of failing the range.
 * Throws (after storing what it could) when the upstream fails; the caller retries the range.
 */
export async function ingestRange(deps: IngestDeps, from: number, to: number, lastAttempt = false): Promise<RangeReport> {
  const report: RangeReport = { from, to, blocks: 0, trades: 0, failures: 0, rowsWritten: 0 };
  const { result: slots } = await deps.upstream.call<number[]>("getBlocks", [from, to, { commitment: "confirmed" }], { idempotent: true });
  const done = await storedSlots(deps.db, slots);
  const missing = slots.filter((s) => !done.has(s)).sort((a, b) => a - b);
  let solUsd = missing.length > 0 ? await solUsdBefore(deps, missing[0]!) : null;
  for (let i = 0; i < missing.length; i += limits.tradeIngest.blockConcurrency) {
    const page = missing.slice(i, i + limits.tradeIngest.blockConcurrency);
    const answers = await Promise.allSettled(page.map((slot) => fetchBlock(deps.upstream, slot)));
    const blocks: StoredBlock[] = [];
    let fault: unknown;
    for (let k = 0; k < page.length; k++) {
      const slot = page[k]!;
      const answer = answers[k]!;
      if (answer.status === "rejected") {
        const err = answer.reason;
        if (!lastAttempt) {
          fault ??= err;
          continue;
        }
        await recordFailure(deps.db, slot, `unreadable after retries: ${err instanceof Error ? err.message : String(err)}`);
        report.failures++;
        blocks.push(emptyBlock(slot));
        continue;
      }
      if (answer.value === null) continue;
      try {
        const block = readBlock(slot, answer.value as JsonBlock, solUsd);
        solUsd = block.solUsd;
        blocks.push(block);
      } catch (err) {
        // A parser bug on one block must not stall the index: the block is recorded and skipped like a malformed one.
        await recordFailure(deps.db, slot, err instanceof BlockParseError ? err.message : `parse error: ${err instanceof Error ? err.message : String(err)}`);
        report.failures++;
        blocks.push(emptyBlock(slot));
      }
    }
    await valueQuotedInTokens(deps, blocks);
    report.rowsWritten += (await storeBlocks(deps.db, blocks)).rowsWritten;
    report.blocks += blocks.length;
    report.trades += blocks.reduce((a, b) => a + b.trades.length, 0);
    if (fault) throw fault;
  }
  return report;
}
