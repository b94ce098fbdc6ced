/**
 * One confirmed block → what the index stores for it: the swaps of its transactions priced with the block's SOL/USD,
 * the pool events, and the pools swapped against (for the registry the price route reads).
 */
import type { Address } from "@solana/kit";
import { UpstreamError, type Upstream } from "../solana/upstream";
import type { RegisteredPool } from "../pool-registry/registry-store";
import type { JsonTransaction } from "./json-transaction";
import { extractTrades } from "./swap-extraction";
import type { PoolEvent, PoolSwap } from "./trade";
import { blockSolUsd, priceSwap } from "./trade-pricing";
import type { StoredBlock } from "./trade-store";

/** The part of a `getBlock` answer (encoding json, full details, no rewards) read here. */
export interface JsonBlock {
  blockTime: number | null;
  transactions: JsonTransaction[];
}

export const getBlockConfig = {
  encoding: "json",
  transactionDetails: "full",
  rewards: false,
  maxSupportedTransactionVersion: 0,
  commitment: "confirmed",
} as const;

/** A block the index cannot read; recorded in `ingest_failures` and skipped. */
export class BlockParseError extends Error {}

/** JSON-RPC errors meaning "no block in this slot" (skipped, or not kept by this node): nothing to read. */
const NO_BLOCK_CODES = new Set([-32007, -32009]);

/** Reads a block (null: skipped slot or no block, also when the node says so with an error). Upstream faults throw `UpstreamError`. */
export async function fetchBlock(upstream: Upstream, slot: number): Promise<JsonBlock | null> {
  try {
    const { result } = await upstream.call<JsonBlock | null>("getBlock", [slot, getBlockConfig], { idempotent: true });
    return result;
  } catch (err) {
    if (err instanceof UpstreamError && err.rpcError && NO_BLOCK_CODES.has(err.rpcError.code)) return null;
    throw err;
  }
}

/**
 * Swaps, events and pools of a block, priced with its SOL/USD (`previousSolUsd` when it has no SOL/stable swap).
 * Throws `BlockParseError` when the answer is not a block.
 */
export function readBlock(slot: number, block: JsonBlock, previousSolUsd: number | null): StoredBlock {
  if (typeof block !== "object" || block === null || !Array.isArray(block.transactions)) {
    throw new BlockParseError(`slot ${slot}: the answer has no transactions array`);
  }
  const blockTime = typeof block.blockTime === "number" && Number.isFinite(block.blockTime) ? block.blockTime : null;
  const swaps: PoolSwap[] = [];
  const events: PoolEvent[] = [];
  const pools = new Map<Address, RegisteredPool>();
  block.transactions.forEach((tx, txIndex) => {
    if (typeof tx !== "object" || tx === null) return;
    const found = extractTrades(tx, { slot, blockTime, txIndex });
    swaps.push(...found.swaps);
    events.push(...found.events);
    for (const pool of found.pools) pools.set(pool.address, pool);
  });
  const solUsd = blockSolUsd(swaps, previousSolUsd);
  return { slot, blockTime, solUsd, trades: swaps.map((s) => priceSwap(s, solUsd)), events, pools: [...pools.values()] };
}
