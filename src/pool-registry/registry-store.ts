import type { Address } from "@solana/kit";
import { z } from "zod/mini";
import type { PoolKind } from "../venues/pool-kinds";
import type { SwappedPool } from "../venues/types";

/**
 * The pool registry's store (D1 table `pools`): pools that cannot be derived from a mint (Raydium AMM v4, Meteora DBC,
 * non-canonical PumpSwap pools, pools quoted in other mints, ...), as the trade index finds them in swaps and pool
 * events (trades/swap-extraction.ts; written with the index's blocks, trades/trade-store.ts). Rows carry the related
 * addresses a pricer must read (vaults, ...) so a registered pool prices in one upstream call.
 */
export type RegisteredPool = SwappedPool;

const rowSchema = z.object({
  address: z.string(),
  kind: z.string(),
  base_mint: z.string(),
  quote_mint: z.string(),
  related: z.string(),
});

const relatedSchema = z.record(z.string(), z.string());

/** Registered pools trading any of `mints`, grouped by mint. One D1 query. */
export async function registeredPoolsFor(db: D1Database, mints: readonly Address[]): Promise<Map<Address, RegisteredPool[]>> {
  const byMint = new Map<Address, RegisteredPool[]>();
  if (mints.length === 0) return byMint;
  // The mint list travels as one JSON parameter: D1 allows at most 100 bound parameters per statement.
  const list = JSON.stringify(mints);
  const { results } = await db
    .prepare(
      `SELECT address, kind, base_mint, quote_mint, related FROM pools
       WHERE base_mint IN (SELECT value FROM json_each(?1)) OR quote_mint IN (SELECT value FROM json_each(?1))`,
    )
    .bind(list)
    .all();
  const wanted = new Set<string>(mints);
  for (const raw of results) {
    const row = rowSchema.safeParse(raw);
    if (!row.success) continue;
    let related: Record<string, Address> = {};
    try {
      related = relatedSchema.parse(JSON.parse(row.data.related)) as Record<string, Address>;
    } catch {
      // a row without usable related facts is still a candidate; the pricer reads them in a second step
    }
    const pool: RegisteredPool = {
      address: row.data.address as Address,
      kind: row.data.kind as PoolKind,
      baseMint: row.data.base_mint as Address,
      quoteMint: row.data.quote_mint as Address,
      related,
    };
    for (const mint of [pool.baseMint, pool.quoteMint]) {
      if (!wanted.has(mint)) continue;
      const list = byMint.get(mint) ?? [];
      list.push(pool);
      byMint.set(mint, list);
    }
  }
  return byMint;
}
