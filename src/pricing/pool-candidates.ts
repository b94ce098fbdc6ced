/**
 * The candidate pools of a mint: derived from the mint alone (pool PDAs, kept per isolate and in the colo's Cache API),
 * registered (the pool registry in D1, memoised per isolate), or the one pool a caller names. Related accounts learned
 * from pools that exist ride along, so the next cold read of the mint is one round trip.
 */
import type { Address } from "@solana/kit";
import { noTimings } from "../http/server-timing";
import { ADDRESS_BYTES, BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import type { PoolKind } from "../venues/pool-kinds";
import type { PoolCandidate } from "../venues/types";
import { readStoredCandidates, storeCandidates } from "./candidate-store";
import { burnAccountsOf } from "./circulating-supply";
import type { PoolAdapter } from "../venues/pool-adapter";
import { adapterByKind, poolAdapters } from "../venues/pool-adapters";
import { descriptorsFor } from "../venues/pool-kinds";
import { registeredPoolsFor } from "../pool-registry/registry-store";
import { scanForPools } from "../pool-registry/pool-scan";
import type { PriceDeps, PriceQuery } from "./price-query";

export interface Candidate {
  pool: Address;
  adapter: PoolAdapter | undefined; // undefined: a named poolId whose kind is learned from its bytes
  alsoRead: Address[];
}

const candidateBytes = (list: readonly Candidate[]) => list.reduce((n, c) => n + 64 + ADDRESS_BYTES * (1 + c.alsoRead.length), 32);
const budgets = limits.isolateCacheBudgets;
// Static facts, per isolate: derivations never change, related accounts of a pool never change.
const derived = new BoundedCache<Address, Candidate[]>("derived-candidates", budgets.derivedCandidates, candidateBytes);
const relatedOfPool = new BoundedCache<Address, Address[]>("related-of-pool", budgets.relatedOfPool, (list) => 32 + ADDRESS_BYTES * list.length);
const registryMemo = new BoundedCache<Address, { until: number; pools: Candidate[] }>("registry-memo", budgets.registryMemo, (m) => 16 + candidateBytes(m.pools));

/** Related accounts (vaults, reserves) of a pool, learned when it was first evaluated. */
export const relatedOf = (pool: Address): Address[] | undefined => relatedOfPool.get(pool);
export const rememberRelated = (pool: Address, related: Address[]): void => {
  relatedOfPool.set(pool, related);
};

export interface Gathered {
  adapters: readonly PoolAdapter[];
  candidatesByMint: Map<Address, Candidate[]>;
  burnAccounts: Map<Address, Address[]>;
  /** Why a mint's pools were not scanned for (budget spent, upstream fault): told in its 404. */
  scanNotes: Map<Address, string>;
}

/** Candidate pools of each mint (derived and registered, or the named pool) and its burn accounts, looked up at once. */
export async function gatherCandidates(deps: PriceDeps, mints: Address[], query: PriceQuery, now: () => number): Promise<Gathered> {
  const timings = deps.timings ?? noTimings;
  const adapters = descriptorsFor(query.venue).map((d) => d.adapter);
  const candidatesByMint = new Map<Address, Candidate[]>();
  const scanNotes = new Map<Address, string>();
  // The incinerator's ATAs of every mint ride in the first read, like the oracle: market caps use circulating supply.
  const burns = Promise.all(mints.map(async (mint) => [mint, await burnAccountsOf(mint)] as const));
  if (query.poolId) {
    const pool = query.poolId;
    for (const mint of mints) candidatesByMint.set(mint, [{ pool, adapter: undefined, alsoRead: relatedOfPool.get(pool) ?? [] }]);
  } else {
    const [registered, derivedLists] = await Promise.all([
      timings.time("registry", async () => withScanned(deps, await registryCandidates(deps.db, mints, now()), scanNotes)),
      timings.time("candidates", () => Promise.all(mints.map((mint) => derivedCandidates(mint, deps)))),
    ]);
    mints.forEach((mint, i) => {
      const list = [...derivedLists[i]!, ...(registered.get(mint) ?? [])].filter((c) => c.adapter && adapters.includes(c.adapter));
      // A registered pool may also be derivable: read and price it once.
      const seen = new Set<Address>();
      candidatesByMint.set(mint, list.filter((c) => !seen.has(c.pool) && seen.add(c.pool)));
    });
  }
  return { adapters, candidatesByMint, burnAccounts: new Map(await burns), scanNotes };
}

/** Mints with no registered pool are scanned for pools once, beside their derivation (pool-registry/pool-scan.ts). */
async function withScanned(deps: PriceDeps, registered: Map<Address, Candidate[]>, notes: Map<Address, string>): Promise<Map<Address, Candidate[]>> {
  const unregistered = [...registered].flatMap(([mint, pools]) => (pools.length === 0 ? [mint] : []));
  if (unregistered.length === 0) return registered;
  const outcomes = await scanForPools(deps.rpc, deps.db, unregistered, { requestId: deps.requestId, deadline: deps.deadline, waitUntil: deps.waitUntil });
  for (const [mint, outcome] of outcomes) {
    if (outcome.status === "skipped") notes.set(mint, outcome.reason);
    else registered.set(mint, outcome.pools.map((p) => ({ pool: p.address, adapter: adapterByKind.get(p.kind), alsoRead: [] })));
  }
  return registered;
}

export async function derivedCandidates(mint: Address, deps: PriceDeps): Promise<Candidate[]> {
  const known = derived.get(mint);
  if (known) return known;
  // Not shared between requests: a Cache API read and ~0.7 ms of CPU for a never-seen mint are cheaper than another
  // cross-request promise (the price computation that calls this is shared already).
  const stored = await readStoredCandidates(mint);
  const list = stored
    ? stored.flatMap((c) => {
        const adapter = adapterByKind.get(c.kind as PoolKind);
        return adapter ? [{ pool: c.pool, adapter, alsoRead: c.alsoRead }] : [];
      })
    : await deriveCandidates(mint, deps.waitUntil);
  derived.set(mint, list);
  return list;
}

/**
 * The candidate pools of a never-seen mint: pool addresses only. Their related accounts (vaults, reserves) would cost
 * ~110 more PDAs, mostly for pools that do not exist; they are learned from the pools that do exist on the first read
 * (one more round trip, once per colo) and kept with the candidates (`rememberLearnedRelated`).
 */
async function deriveCandidates(mint: Address, waitUntil: (p: Promise<unknown>) => void): Promise<Candidate[]> {
  const lists = await Promise.all(
    poolAdapters.map(async (adapter) => (await adapter.candidates(mint)).map((c: PoolCandidate) => ({ pool: c.pool, adapter, alsoRead: [] as Address[] }))),
  );
  const all = lists.flat();
  storeCandidates(mint, all.map((c) => ({ pool: c.pool, kind: c.adapter.kind, alsoRead: c.alsoRead })), waitUntil);
  return all;
}

/**
 * Related accounts learned from pools that exist join the mint's candidates, here and in the colo's Cache API, so the
 * next cold read of the mint is one round trip.
 */
export function rememberLearnedRelated(mint: Address, waitUntil: (p: Promise<unknown>) => void): void {
  const candidates = derived.peek(mint);
  if (!candidates) return;
  let changed = false;
  const updated = candidates.map((c) => {
    const related = relatedOfPool.peek(c.pool);
    if (!related || related.every((a) => c.alsoRead.includes(a))) return c;
    changed = true;
    return { ...c, alsoRead: [...new Set([...c.alsoRead, ...related])] };
  });
  if (!changed) return;
  derived.set(mint, updated);
  storeCandidates(mint, updated.map((c) => ({ pool: c.pool, kind: c.adapter!.kind, alsoRead: c.alsoRead })), waitUntil);
}

export async function registryCandidates(db: D1Database, mints: Address[], now: number): Promise<Map<Address, Candidate[]>> {
  const out = new Map<Address, Candidate[]>();
  const unknown = mints.filter((m) => {
    const memo = registryMemo.get(m);
    if (memo && memo.until > now) out.set(m, memo.pools);
    return !(memo && memo.until > now);
  });
  if (unknown.length === 0) return out;
  const rows = await registeredPoolsFor(db, unknown);
  for (const mint of unknown) {
    const pools: Candidate[] = (rows.get(mint) ?? []).map((p) => ({ pool: p.address, adapter: adapterByKind.get(p.kind), alsoRead: Object.values(p.related) }));
    // a mint with no pool yet may be one whose first block the chain tail is reading: asked again sooner
    registryMemo.set(mint, { until: now + (pools.length > 0 ? limits.registryMemoMs : limits.registryMissMemoMs), pools });
    out.set(mint, pools);
  }
  return out;
}
