import type { Address } from "@solana/kit";
import { limits } from "../limits";
import { registerPools } from "./registry-store";
import type { Upstream } from "../solana/upstream";
import { discoverPoolsInTransaction, type JsonTransaction } from "./swap-pools";

const cursorName = "pools";

export interface IngestReport {
  fromSlot: number;
  toSlot: number;
  blocks: number;
  pools: number;
}

/**
 * Cron step: read the blocks produced since the last run (at most `cronMaxBlocks`), find the pools swapped against
 * and upsert them into the registry. When far behind (mainnet produces ~150 slots a minute) it jumps to the recent
 * tip instead of crawling history: the registry wants pools that trade now, and `getProgramAccounts` covers the rest.
 * It jumps there too when its cursor is ahead of the tip (a restarted chain).
 */
export async function ingestRecentBlocks(db: D1Database, rpc: Upstream): Promise<IngestReport> {
  const { result: tip } = await rpc.call<number>("getSlot", [{ commitment: "confirmed" }], { idempotent: true });
  const row = await db.prepare("SELECT slot FROM ingest_cursor WHERE name = ?").bind(cursorName).first<{ slot: number }>();
  const behind = row ? tip - row.slot : Infinity;
  // A cursor ahead of the tip was written for another chain (a local chain restarted from slot 0 under `npm start`,
  // whose D1 state persists) or by a node ahead of this one: without the jump nothing would be read until the tip passed it.
  const jump = behind > limits.cronMaxLagSlots || behind < 0;
  const start = jump ? Math.max(0, tip - limits.cronMaxBlocks) : row!.slot + 1;
  if (start > tip) return { fromSlot: start, toSlot: tip, blocks: 0, pools: 0 };

  const { result: slots } = await rpc.call<number[]>("getBlocks", [start, tip, { commitment: "confirmed" }], { idempotent: true });
  const batch = slots.slice(0, limits.cronMaxBlocks);
  const found = new Map<Address, Parameters<typeof registerPools>[1][number]>();
  let blocks = 0;
  for (let i = 0; i < batch.length; i += limits.cronBlockConcurrency) {
    const page = batch.slice(i, i + limits.cronBlockConcurrency);
    const answers = await Promise.all(
      page.map((slot) =>
        rpc
          .call<{ transactions: JsonTransaction[] } | null>(
            "getBlock",
            [slot, { encoding: "json", transactionDetails: "full", rewards: false, maxSupportedTransactionVersion: 0, commitment: "confirmed" }],
            { idempotent: true },
          )
          .then((r) => ({ slot, block: r.result })),
      ),
    );
    for (const { slot, block } of answers) {
      if (!block) continue;
      blocks++;
      for (const tx of block.transactions) {
        for (const pool of discoverPoolsInTransaction(tx)) found.set(pool.address, { ...pool, source: "swap", slot });
      }
    }
  }
  await registerPools(db, [...found.values()]);
  const last = batch.length > 0 ? batch[batch.length - 1]! : tip;
  await db
    .prepare("INSERT INTO ingest_cursor (name, slot) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET slot = excluded.slot")
    .bind(cursorName, last)
    .run();
  return { fromSlot: start, toSlot: last, blocks, pools: found.size };
}
