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
import { d1QuoteUsdSources, valueBlocksThroughQuotes } from "./block-quote-usd";
import { chainSolUsdSources, solUsdBefore } from "./sol-usd-carry";
import { storeBlocks, storedSolUsd, type StoredBlock } from "./trade-store";

export interface IngestDeps {
  db: D1Database;
  upstream: Upstream;
  /** SOL/USD now, when no block shortly before a range's first has a SOL/stable swap (sol-usd-carry.ts; never a constant) */
  liveSolUsd(): Promise<number | null>;
  /**
   * USD per unit of quote tokens that are neither SOL nor a dollar stable (an LST, USD1, a memecoin), as the price
   * service values them now (stake-pool rate or the token's own deepest pool); tokens without a price are left out.
   * Asked only for a (block, token) the chain tail has not settled first (block-quote-usd.ts).
   */
  quoteUsd(mints: string[]): Promise<Map<string, number>>;
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

async function recordFailure(db: D1Database, slot: number, reason: string): Promise<void> {
  console.error(JSON.stringify({ level: "error", ingest: "block-skipped", slot, reason }));
  await db
    .prepare("INSERT INTO ingest_failures (slot, reason, at) VALUES (?, ?, ?) ON CONFLICT(slot) DO UPDATE SET reason = excluded.reason, at = excluded.at")
    .bind(slot, reason.slice(0, 500), Date.now())
    .run();
}

/** A block that could not be read: no trades, and the carry passes over it (stored after it, for the next block's reader). */
const emptyBlock = (slot: number, solUsd: number | null): StoredBlock => ({ slot, blockTime: null, solUsd, trades: [], events: [], pools: [] });

/**
 * Ingests [from, to]. `lastAttempt`: blocks that still cannot be read are skipped (recorded) instead of failing the range.
 * Throws (after storing what it could) when the upstream fails; the caller retries the range.
 */
export async function ingestRange(deps: IngestDeps, from: number, to: number, lastAttempt = false): Promise<RangeReport> {
  const report: RangeReport = { from, to, blocks: 0, trades: 0, failures: 0, rowsWritten: 0 };
  const { result: slots } = await deps.upstream.call<number[]>("getBlocks", [from, to, { commitment: "confirmed" }], { idempotent: true });
  const stored = await storedSolUsd(deps.db, slots);
  const missing = slots.filter((s) => !stored.has(s)).sort((a, b) => a - b);
  // The carry before each block is the chain's, whatever order ranges are taken in: the block before it read here
  // (just before, in slot order), or stored, or else found by solUsdBefore (not the last block this range happened to read).
  const before = new Map(slots.map((s, i) => [s, slots[i - 1]]));
  const sources = chainSolUsdSources(deps.db, deps.upstream, deps.liveSolUsd);
  const quoteSources = d1QuoteUsdSources(deps.db, (mints) => deps.quoteUsd(mints));
  let solUsd: number | null | undefined;
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
          // stop at the block before it: the blocks after it need its SOL/USD (the retry starts here, with it stored)
          fault = err;
          break;
        }
        await recordFailure(deps.db, slot, `unreadable after retries: ${err instanceof Error ? err.message : String(err)}`);
        report.failures++;
        blocks.push(emptyBlock(slot, (await carryBefore(slot, false)) ?? null));
        continue;
      }
      if (answer.value === null) continue;
      const carry = await carryBefore(slot);
      try {
        const block = readBlock(slot, answer.value as JsonBlock, carry ?? null);
        solUsd = block.solUsd;
        blocks.push(block);
      } catch (err) {
        // A parser bug on one block must not stall the index: the block is recorded and skipped like a malformed one.
        await recordFailure(deps.db, slot, err instanceof BlockParseError ? err.message : `parse error: ${err instanceof Error ? err.message : String(err)}`);
        report.failures++;
        blocks.push(emptyBlock(slot, carry ?? null));
      }
    }
    // trades quoted in other tokens: valued as the chain tail values them (block-quote-usd.ts); a D1 fault fails the range
    await valueBlocksThroughQuotes(quoteSources, blocks, true);
    report.rowsWritten += (await storeBlocks(deps.db, blocks)).rowsWritten;
    report.blocks += blocks.length;
    report.trades += blocks.reduce((a, b) => a + b.trades.length, 0);
    if (fault) throw fault;
  }
  return report;

  /**
   * The SOL/USD in force before `slot`, kept in `solUsd` while the blocks are read in slot order (undefined: not known
   * here). `find`: look it up when unknown; a block that could not be read just passes on what is known.
   */
  async function carryBefore(slot: number, find = true): Promise<number | null | undefined> {
    const previous = before.get(slot);
    if (previous === undefined) solUsd = undefined;
    else if (stored.has(previous)) solUsd = stored.get(previous) ?? undefined;
    if (solUsd === undefined && find) solUsd = await solUsdBefore(sources, slot);
    return solUsd;
  }
}
