/**
 * The price service: isolate cache → computations already running in this isolate → the shared (colo) cache → one cold
 * read of everything the misses need. The only module that consults the price cache.
 */
import type { Address } from "@solana/kit";
import { ApiError } from "../errors/api-error";
import { isUpstreamError, upstreamApiError } from "../errors/upstream-api-error";
import { noTimings } from "../http/server-timing";
import { SharedTasks, type TaskOwner } from "../isolate/shared-tasks";
import { limits } from "../limits";
import { z } from "zod/mini";
import type { AccountRpc } from "../solana/account-reader";
import { UpstreamError } from "../solana/upstream";
import { PYTH_SOL_USD_PRICE_ACCOUNT, WSOL_MINT } from "../solana/well-known";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { decodePumpBondingCurve, findPumpBondingCurveAddress } from "../venues/pump-bonding-curve";
import { burnedBalance, circulatingSupply } from "./circulating-supply";
import { gatherCandidates, rememberLearnedRelated, type Gathered } from "./pool-candidates";
import { maxReasons, pickBest, toRecord } from "./pool-choice";
import { readAndEvaluate } from "./pool-evaluation";
import { priceCacheFor, priceCacheKey, type PriceCache } from "./price-cache";
import type { PriceDeps, PriceOutcome, PriceQuery, SolSupply } from "./price-query";
import { solUsdFromOracle, solUsdFromPools } from "./sol-usd";

export type { PriceDeps, PriceOutcome, PriceQuery, SolSupply } from "./price-query";

/** getSupply's answer, as far as SOL's supply needs it (u64 lamports arrive as JSON numbers). */
const supplyAnswer = z.object({ value: z.object({ total: z.number(), circulating: z.number() }) });

/**
 * What one caller brings to a price request: its lifetime (`waitUntil`) and, as it has them, its id, deadline, timings
 * and clock — and, for the overview, an RPC client of its own whose reads share the overview's round trips.
 */
export type PriceCaller = Pick<PriceDeps, "waitUntil" | "requestId" | "deadline" | "timings" | "now"> & { rpc?: AccountRpc };

/**
 * The price service of a deployment: the upstream, the pool registry and the price cache, put together once per env
 * (services.ts) and handed to the routes, the overview, the trade index and the Durable Objects, which add only what
 * is theirs (`PriceCaller`).
 */
export class PriceService {
  private uncachedService: PriceService | undefined;
  private solSupplyMemo: { value: SolSupply; until: number } | undefined;

  constructor(private readonly base: Pick<PriceDeps, "rpc" | "db" | "cache">) {}

  /** The cache this service answers from (tests clear it). */
  get cache(): PriceCache {
    return this.base.cache;
  }

  /** Prices mints for one caller: see `priceMints`. */
  price(mints: readonly Address[], caller: PriceCaller, query: PriceQuery = {}): Promise<Map<Address, PriceOutcome>> {
    return priceMints({ ...this.base, ...caller, rpc: caller.rpc ?? this.base.rpc, solSupply: () => this.solSupply(caller) }, mints, query);
  }

  /**
   * SOL's supply from the chain's getSupply (the wSOL mint's supply counts only wrapped SOL), reused
   * `limits.solSupplyTtlMs`. Only the value is kept, never a promise: concurrent first askers each ask.
   */
  async solSupply(caller: Pick<PriceCaller, "requestId" | "now"> = {}): Promise<SolSupply> {
    const now = (caller.now ?? Date.now)();
    if (this.solSupplyMemo && this.solSupplyMemo.until > now) return this.solSupplyMemo.value;
    const { result } = await this.base.rpc.call<unknown>("getSupply", [{ commitment: "confirmed", excludeNonCirculatingAccountsList: true }], { requestId: caller.requestId, idempotent: true });
    const parsed = supplyAnswer.safeParse(result);
    if (!parsed.success) throw new UpstreamError("bad-response", `getSupply: unexpected answer (${parsed.error.issues[0]?.message})`);
    const value: SolSupply = { total: BigInt(parsed.data.value.total), circulating: BigInt(parsed.data.value.circulating) };
    this.solSupplyMemo = { value, until: now + limits.solSupplyTtlMs };
    return value;
  }

  /** The warm path over this service's cache: see `freshPriceJson`. */
  freshJson(query: PriceQuery, mint: Address, now = Date.now()): string | undefined {
    return freshPriceJson(this.base.cache, query, mint, now);
  }

  /**
   * SOL/USD now, from SOL's own price record, or null when nothing prices SOL: the first carry of the trade index and of
   * the chain tail when no earlier block has one (never a constant).
   */
  async solUsd(caller: PriceCaller): Promise<number | null> {
    const outcome = (await this.price([WSOL_MINT], caller)).get(WSOL_MINT);
    return outcome?.ok ? Number(outcome.record.priceInUsd) : null;
  }

  /**
   * The same service past the cache (TTL 0): records computed now, for the chain tail, whose record must show the pool
   * after the block it just read. Computing them still refreshes the shared cache the REST answers read.
   */
  get uncached(): PriceService {
    return (this.uncachedService ??= new PriceService({ ...this.base, cache: priceCacheFor(0) }));
  }
}

// Work shared by concurrent requests: owned by none of them (see isolate/shared-tasks.ts).
const inflightPrices = new SharedTasks<PriceOutcome>("price computation", limits.sharedTaskDeadlineMs);
const ownerOf = (deps: PriceDeps): TaskOwner => ({ waitUntil: deps.waitUntil, deadline: deps.deadline });

/**
 * The warm path: the JSON of a record fresh in this isolate's cache, or undefined. No I/O, no promise: a route answers
 * with these bytes as they are, and goes through `priceMints` for anything else.
 */
function freshPriceJson(cache: PriceCache, query: PriceQuery, mint: Address, now = Date.now()): string | undefined {
  return cache.freshLocalJson(priceCacheKey(query.venue ?? "auto", mint, query.poolId), now);
}

/**
 * Prices mints: cache first (isolate map, then Cache API), then ONE batched account read for every miss — mints, derived
 * and registered pools, their derivable vaults and the SOL/USD oracle — and a second read only when a pool needs
 * accounts that could not be known in advance. Answers per mint, in any order; callers map back to request order.
 */
async function priceMints(deps: PriceDeps, mints: readonly Address[], query: PriceQuery = {}): Promise<Map<Address, PriceOutcome>> {
  const now = deps.now ?? Date.now;
  const scope = query.venue ?? "auto";
  const out = new Map<Address, PriceOutcome>();
  const unique = [...new Set(mints)];

  const misses: Address[] = [];
  for (const mint of unique) {
    const hit = deps.cache.freshLocal(priceCacheKey(scope, mint, query.poolId), now());
    if (hit) out.set(mint, { ok: true, record: hit });
    else misses.push(mint);
  }
  if (misses.length === 0) return out;

  // Identical prices being computed in this isolate are shared: when a hot entry expires, the concurrent requests
  // that all miss it wait for one computation instead of each reading, evaluating and writing the cache.
  // Each computation runs under waitUntil with its own deadline, so a requester that dies never strands the others.
  const owner = ownerOf(deps);
  const mine = misses.filter((mint) => !inflightPrices.joinable(priceCacheKey(scope, mint, query.poolId), now()));
  // One cold batch for every mint no one else is computing; started by the first task that needs it.
  let batch: Promise<Map<Address, PriceOutcome>> | undefined;
  const outcomeOf = async (mint: Address): Promise<PriceOutcome> => {
    const outcome = (await (batch ??= resolveMisses(deps, mine, query, scope, now))).get(mint);
    // A task that expired between the check above and now is recomputed alone.
    return outcome ?? (await resolveMisses(deps, [mint], query, scope, now)).get(mint)!;
  };
  const pending = misses.map((mint): [Address, Promise<PriceOutcome>] => [
    mint,
    inflightPrices.run(priceCacheKey(scope, mint, query.poolId), () => outcomeOf(mint), owner, now()),
  ]);
  // All at once: a rejection must not leave the other outcomes unawaited (unhandled rejections).
  const outcomes = await Promise.all(pending.map(([, outcome]) => outcome));
  pending.forEach(([mint], i) => out.set(mint, outcomes[i]!));
  return out;
}

/** Misses of the isolate map: the shared cache, then one cold read; on upstream failure, stale records or errors. */
async function resolveMisses(deps: PriceDeps, misses: Address[], query: PriceQuery, scope: string, now: () => number): Promise<Map<Address, PriceOutcome>> {
  const out = new Map<Address, PriceOutcome>();
  const timings = deps.timings ?? noTimings;
  // The shared cache and the misses' candidate pools are independent lookups: both at once. A shared-cache hit wastes
  // the candidate lookup (isolate memo, Cache API, at most one D1 query), which is cheaper than a serial round trip.
  const gathering = gatherCandidates(deps, misses, query, now);
  gathering.catch(() => undefined); // awaited below unless every miss is a hit; never an unhandled rejection
  const shared = await timings.time("cache", () => Promise.all(misses.map((m) => deps.cache.fresh(priceCacheKey(scope, m, query.poolId), now()))));
  const cold = misses.filter((mint, i) => {
    const hit = shared[i];
    if (hit) out.set(mint, { ok: true, record: hit });
    return !hit;
  });
  if (cold.length === 0) return out;

  try {
    const fresh = await priceCold(deps, cold, query, now, await gathering);
    for (const [mint, outcome] of fresh) {
      out.set(mint, outcome);
      if (outcome.ok) deps.cache.put(priceCacheKey(scope, mint, query.poolId), outcome.record, deps.waitUntil, now());
    }
  } catch (err) {
    if (!isUpstreamError(err)) throw err;
    const error = upstreamApiError(err);
    for (const mint of cold) {
      const stale = await deps.cache.stale(priceCacheKey(scope, mint, query.poolId), now());
      out.set(mint, stale ? { ok: true, record: stale } : { ok: false, error });
    }
  }
  return out;
}

/**
 * The raw circulating supply a market cap is of: the mint's supply less what its burn accounts hold — and for SOL,
 * whose wSOL mint counts only wrapped SOL, the chain's own circulating supply.
 */
async function circulatingOf(deps: PriceDeps, mint: Address, supply: bigint, burnAccounts: Gathered["burnAccounts"], lookup: Parameters<typeof burnedBalance>[2]): Promise<bigint> {
  if (mint === WSOL_MINT && deps.solSupply) return (await deps.solSupply()).circulating;
  return circulatingSupply(supply, burnedBalance(mint, burnAccounts.get(mint) ?? [], lookup));
}

/**
 * `graduated`, defined once: a token launched on the pump.fun bonding curve (its curve PDA, seeded by the mint, holds a
 * curve) has graduated when the curve is complete; any other token has no `graduated` at all. Read from the curve
 * itself on every route, so /price and the venue routes agree for the same slot.
 */
function graduationOf(curve: AccountBytes | null | undefined): boolean | undefined {
  if (!curve) return undefined;
  try {
    return decodePumpBondingCurve(curve).complete;
  } catch {
    return undefined; // not a pump curve (a PDA collision): no launch curve
  }
}

async function priceCold(deps: PriceDeps, mints: Address[], query: PriceQuery, now: () => number, gathered: Gathered): Promise<Map<Address, PriceOutcome>> {
  const { adapters, candidatesByMint, burnAccounts } = gathered;
  // Each mint's pump.fun curve is read whatever the venue asked: `graduated` is the token's, not the route's.
  const launchCurves = await Promise.all(mints.map(findPumpBondingCurveAddress));
  const read = await readAndEvaluate(deps, mints, candidatesByMint, adapters, [PYTH_SOL_USD_PRICE_ACCOUNT, ...launchCurves, ...mints.flatMap((m) => burnAccounts.get(m) ?? [])]);
  if (!query.poolId) for (const mint of mints) rememberLearnedRelated(mint, deps.waitUntil);
  const solUsd = solUsdFromOracle(read.lookup(PYTH_SOL_USD_PRICE_ACCOUNT), now()) ?? (await solUsdFromPools(deps, now()));
  if (!solUsd) throw new ApiError("UPSTREAM_UNAVAILABLE", "SOL/USD price is unavailable: oracle stale and no SOL/USDC pool");
  const { evaluations, slot } = read;

  const out = new Map<Address, PriceOutcome>();
  const venuesTried = [...new Set(adapters.map((a) => a.dex))].join(", ");
  for (const e of evaluations) {
    if (e.mintError) {
      out.set(e.mint, { ok: false, error: e.mintError });
      continue;
    }
    // A pool the caller names is priced whatever its depth (the record says so); the floor only guards auto-routing.
    const { best, refusals } = pickBest(e.priced, solUsd.price, e.mintInfo!.decimals, query.poolId !== undefined);
    if (!best) {
      const where = query.poolId ? `pool ${query.poolId}` : `venues: ${venuesTried}`;
      const why = [...e.refusals, ...refusals];
      if (e.needs.length > 0) why.push(`${e.needs.length} related account(s) still unread after ${limits.maxPriceReadPasses} reads (${e.needs.slice(0, 2).join(", ")})`);
      const because = why.length > 0 ? why.slice(0, maxReasons).join("; ") : query.poolId ? "no such account" : "no pool found";
      out.set(e.mint, { ok: false, error: new ApiError("NOT_FOUND", `No price for ${e.mint} on ${where}: ${because}`) });
      continue;
    }
    const graduated = graduationOf(read.lookup(launchCurves[mints.indexOf(e.mint)]!));
    out.set(e.mint, { ok: true, record: toRecord(e.mint, e.mintInfo!, await circulatingOf(deps, e.mint, e.mintInfo!.supply, burnAccounts, read.lookup), best, graduated, slot, now()) });
  }
  return out;
}
