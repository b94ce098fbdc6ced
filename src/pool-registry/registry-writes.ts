/**
 * The pool registry's writes (D1 table `pools`, read by registry-store.ts): pools seen swapped or created are inserted
 * once, `last_slot` moves forward, related facts are filled when learnt. Two writers: the trade index stores them with
 * its blocks (trades/trade-store.ts, same batch), and the chain tail registers the new ones as soon as it reads a
 * block (`registerNewPools`), so a new pool prices within seconds. Every statement is idempotent.
 */
import { BoundedCache } from "../isolate/bounded-cache";
import { jsonRowsStatements } from "../json/json-rows-statements";
import { limits } from "../limits";
import type { RegisteredPool } from "./registry-store";

/** A pool created, migrated or graduated in a block, as the registry takes it (the trade index's `PoolEvent` is one). */
export interface PoolSighting {
  pool: string;
  kind: string;
  baseMint: string;
  quoteMint: string;
  related: Record<string, string>;
  type: "create" | "migrate" | "graduate";
}

/** What one block tells the registry: pools seen swapped (with the related accounts their swaps name) and pool events. */
export interface RegistryBlock {
  slot: number;
  pools: readonly RegisteredPool[];
  events: readonly PoolSighting[];
}

const upsertPools = `INSERT INTO pools (address, kind, base_mint, quote_mint, related, source, first_slot, last_slot)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
         json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[6]')
  FROM json_each(?1) WHERE true
  ON CONFLICT (address) DO UPDATE SET last_slot = max(last_slot, excluded.last_slot),
    related = CASE WHEN excluded.related != '{}' THEN excluded.related ELSE related END`;

/** The registry's upserts for `blocks`: every pool swapped or created in them, one row per pool (a pool event wins). */
export function poolUpsertStatements(db: D1Database, blocks: readonly RegistryBlock[]): D1PreparedStatement[] {
  const pools = new Map<string, unknown[]>();
  for (const b of blocks) {
    for (const p of b.pools) pools.set(p.address, [p.address, p.kind, p.baseMint, p.quoteMint, JSON.stringify(p.related), "swap", b.slot]);
    for (const e of b.events) {
      const known = pools.get(e.pool);
      if (!known || Object.keys(e.related).length > 0) pools.set(e.pool, [e.pool, e.kind, e.baseMint, e.quoteMint, JSON.stringify(e.related), e.type === "create" ? "creation" : e.type, b.slot]);
    }
  }
  return jsonRowsStatements(db, upsertPools, [...pools.values()]);
}

/**
 * Pools this isolate registered (address → slot), so a known pool is not written again every block: a mainnet block
 * swaps hundreds of known pools, and rewriting them would cost hundreds of D1 rows a block (the index moves their
 * `last_slot`). One per isolate (there is one chain tail per cluster), within `limits.chainTail.registeredPoolsMemoBytes`.
 */
const registeredPools = new BoundedCache<string, number>("chain-tail-registered-pools", limits.chainTail.registeredPoolsMemoBytes, () => 8);

/**
 * Registers the pools of `block` this isolate has not registered yet (the chain tail, block by block). Returns how many
 * rows it sent (pools and pool events); a D1 fault throws and nothing is remembered, so the next block's call tries them again.
 */
export async function registerNewPools(db: D1Database, block: RegistryBlock): Promise<number> {
  const fresh = block.pools.filter((p) => !registeredPools.has(p.address));
  const statements = poolUpsertStatements(db, [{ ...block, pools: fresh }]);
  if (statements.length === 0) return 0;
  await db.batch(statements);
  for (const p of fresh) registeredPools.set(p.address, block.slot);
  return fresh.length + block.events.length;
}
