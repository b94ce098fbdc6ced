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

/**
 * A row's source when the pool is seen again: its creation event wins whenever it arrives (the index's consumers take
 * ranges in any order, so a later block's swap, or a first-ask scan, may have registered the pool first), a migration
 * or graduation event wins over a swap or scan, and otherwise the first source stays.
 */
const sourceAfterConflict = `CASE WHEN excluded.source = 'creation' THEN 'creation'
      WHEN source IN ('swap', 'gpa') AND excluded.source NOT IN ('swap', 'gpa') THEN excluded.source ELSE source END`;

const upsertPools = `INSERT INTO pools (address, kind, base_mint, quote_mint, related, source, first_slot, last_slot)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
         json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]')
  FROM json_each(?1) WHERE true
  ON CONFLICT (address) DO UPDATE SET last_slot = max(last_slot, excluded.last_slot),
    first_slot = min(first_slot, excluded.first_slot),
    source = ${sourceAfterConflict},
    related = CASE WHEN excluded.related != '{}' THEN excluded.related ELSE related END`;

/** The registry's upserts for `blocks`: every pool swapped or created in them, one row per pool (a pool event wins). */
export function poolUpsertStatements(db: D1Database, blocks: readonly RegistryBlock[]): D1PreparedStatement[] {
  return jsonRowsStatements(db, upsertPools, poolUpsertRows(blocks));
}

/** A registry row: `[address, kind, baseMint, quoteMint, related JSON, source, firstSlot, lastSlot]`. */
export type PoolUpsertRow = [string, string, string, string, string, string, number, number];

/**
 * A row's source when a batch sees the pool again, as {@link sourceAfterConflict} decides it in D1: a creation wins, a
 * migration or graduation wins over a swap, and otherwise the first source stays.
 */
function sourceAfter(current: string, next: string): string {
  if (next === "creation") return "creation";
  return current === "swap" && next !== "swap" ? next : current;
}

/**
 * The rows of {@link poolUpsertStatements}, one per pool over all `blocks` (the index stores a page of blocks in one
 * batch): the pool merged the way D1 merges a row seen again, so a pool created in one block and swapped in a later
 * block of the page is a creation from the creation's slot to the swap's. Within a block the pool event comes after
 * the swaps: it names the source even when the pool also swapped there (a pool created and traded in one block is a
 * creation), and its related accounts win when it has any, else the swap's stay.
 */
export function poolUpsertRows(blocks: readonly RegistryBlock[]): PoolUpsertRow[] {
  const pools = new Map<string, PoolUpsertRow>();
  const merge = (row: PoolUpsertRow, isEvent: boolean) => {
    const known = pools.get(row[0]);
    if (!known) {
      pools.set(row[0], row);
      return;
    }
    // an event's pair and kind are the pool's own; a swap's only fill a row no event wrote
    const source = sourceAfter(known[5], row[5]);
    const fields = isEvent || known[5] === "swap" ? row : known;
    const related = row[4] !== "{}" ? row[4] : known[4];
    pools.set(row[0], [row[0], fields[1], fields[2], fields[3], related, source, Math.min(known[6], row[6]), Math.max(known[7], row[7])]);
  };
  for (const b of blocks) {
    for (const p of b.pools) merge([p.address, p.kind, p.baseMint, p.quoteMint, JSON.stringify(p.related), "swap", b.slot, b.slot], false);
    for (const e of b.events) merge([e.pool, e.kind, e.baseMint, e.quoteMint, JSON.stringify(e.related), e.type === "create" ? "creation" : e.type, b.slot, b.slot], true);
  }
  return [...pools.values()];
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

const insertScanned = `INSERT INTO pools (address, kind, base_mint, quote_mint, related, source, first_slot, last_slot)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
         '{}', 'gpa', json_extract(value, '$[4]'), json_extract(value, '$[4]')
  FROM json_each(?1) WHERE true
  ON CONFLICT (address) DO NOTHING`;

/** A pool a getProgramAccounts scan found (pool-scan.ts), at the slot of the scan's answer. */
export interface ScannedRow {
  address: string;
  kind: string;
  baseMint: string;
  quoteMint: string;
  slot: number;
}

/**
 * Registers pools found by a scan (`source` gpa). Related facts are left empty: the pricer learns them from the pool's
 * bytes on its first read. Idempotent; a pool the index registered first keeps its row and related facts.
 */
export async function registerScannedPools(db: D1Database, pools: readonly ScannedRow[]): Promise<void> {
  const statements = jsonRowsStatements(db, insertScanned, pools.map((p) => [p.address, p.kind, p.baseMint, p.quoteMint, p.slot]));
  if (statements.length > 0) await db.batch(statements);
}
