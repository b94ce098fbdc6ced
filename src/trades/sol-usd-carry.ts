/**
 * The SOL/USD that prices a block without a SOL/stable swap: that of the nearest earlier block with one (the carry,
 * trade-pricing.ts `blockSolUsd`). Two readers price the same blocks — the trade index's ranges, taken in any order by
 * parallel consumers, and the chain tail, which starts wherever the chain is when a room first subscribes — and a trade
 * must get the same USD price from both, or a live candle's open differs from REST's (docs/streams.md#candles). So
 * the carry is a fact of the chain, never of a reader: one that has just read the block before carries its value
 * itself; any other asks `solUsdBefore`, which finds it where it is stored or reads it back from the chain — not "the
 * last block I happened to read", nor the live SOL/USD of the moment.
 */
import { limits } from "../limits";
import type { Upstream } from "../solana/upstream";
import { fetchBlock, readBlock } from "./block-reading";
import { storedSolUsd } from "./trade-store";

/** Where the carry is found. */
export interface SolUsdSources {
  /** the confirmed blocks in [from, to], oldest first (`getBlocks`) */
  blocks(from: number, to: number): Promise<number[]>;
  /** the SOL/USD the trade index stored after each of these blocks (its own or its carry); absent: not stored, or none known */
  stored(slots: readonly number[]): Promise<Map<number, number>>;
  /** a block's own SOL/USD (the weighted median of its SOL/stable swaps); null: it has none, or cannot be read */
  own(slot: number): Promise<number | null>;
  /** SOL/USD now: only when no block of the window had a SOL/stable swap (never a constant) */
  live(): Promise<number | null>;
}

/**
 * The SOL/USD in force before block `slot`: the value stored after the nearest earlier block, else the own value of the
 * nearest earlier block that has one, newest first, over the `limits.solUsdCarry.slots` slots before it and at most
 * `limits.solUsdCarry.blockReads` block reads (a mainnet block nearly always has SOL/stable swaps: one read); else the
 * live value. Upstream faults throw (the caller retries as for any block it could not read).
 */
export async function solUsdBefore(sources: SolUsdSources, slot: number): Promise<number | null> {
  if (slot <= 0) return sources.live();
  const earlier = (await sources.blocks(Math.max(0, slot - limits.solUsdCarry.slots), slot - 1)).filter((s) => s < slot).reverse();
  const stored = await sources.stored(earlier);
  let reads = 0;
  for (const s of earlier) {
    const kept = stored.get(s);
    if (kept !== undefined) return kept;
    if (reads++ >= limits.solUsdCarry.blockReads) break;
    const own = await sources.own(s);
    if (own !== null) return own;
  }
  return sources.live();
}

/** The sources of a deployment: its upstream for blocks, the trade index's `ingested_blocks` for stored values. */
export function chainSolUsdSources(db: D1Database, upstream: Upstream, live: () => Promise<number | null>): SolUsdSources {
  return {
    async blocks(from, to) {
      if (from > to) return [];
      const { result } = await upstream.call<number[]>("getBlocks", [from, to, { commitment: "confirmed" }], { idempotent: true });
      return result;
    },
    async stored(slots) {
      const out = new Map<number, number>();
      for (const [slot, solUsd] of await storedSolUsd(db, slots)) if (solUsd !== null) out.set(slot, solUsd);
      return out;
    },
    async own(slot) {
      const block = await fetchBlock(upstream, slot);
      if (block === null) return null;
      try {
        return readBlock(slot, block, null).solUsd;
      } catch {
        // an unreadable block is skipped by every reader: its swaps price nothing, and the carry passes over it
        return null;
      }
    },
    live,
  };
}
