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
import { PYTH_SOL_USD_PRICE_ACCOUNT } from "../solana/well-known";
import { burnedBalance } from "./circulating-supply";
import { gatherCandidates, rememberLearnedRelated, type Gathered } from "./pool-candidates";
import { maxReasons, pickBest, toRecord } from "./pool-choice";
import { readAndEvaluate } from "./pool-evaluation";
import { priceCacheKey, type PriceCache } from "./price-cache";
import type { PriceDeps, PriceOutcome, PriceQuery } from "./price-query";
import { solUsdFromOracle, solUsdFromPools } from "./sol-usd";

export type { PriceDeps, PriceOutcome, PriceQuery } from "./price-query";

// Work shared by concurrent requests: owned by none of them (see isolate/shared-tasks.ts).
const inflightPrices = new SharedTasks<PriceOutcome>("price computation", limits.sharedTaskDeadlineMs);
const ownerOf = (deps: PriceDeps): TaskOwner => ({ waitUntil: deps.waitUntil, deadline: deps.deadline });

/**
 * The warm path: the JSON of a record fresh in this isolate's cache, or undefined. No I/O, no promise: a route answers
 * with these bytes as they are, and goes through `priceMints` for anything else.
 */
export function freshPriceJson(cache: PriceCache, query: PriceQuery, mint: Address, now = Date.now()): string | undefined {
  return cache.freshLocalJson(priceCacheKey(query.venue ?? "auto", mint, query.poolId), now);
}

/**
 * Prices mints: cache first (isolate map, then Cache API), then ONE batched account read for every miss — mints, derived
 * and registered pools, their derivable vaults and the SOL/USD oracle — and a second read only when a pool needs
 * accounts that could not be known in advance. Answers per mint, in any order; callers map back to request order.
 */
export async function priceMints(deps: PriceDeps, mints: readonly Address[], query: PriceQuery = {}): Promise<Map<Address, PriceOutcome>> {
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

async function priceCold(deps: PriceDeps, mints: Address[], query: PriceQuery, now: () => number, gathered: Gathered): Promise<Map<Address, PriceOutcome>> {
  const { adapters, candidatesByMint, burnAccounts } = gathered;
  const read = await readAndEvaluate(deps, mints, candidatesByMint, adapters, [PYTH_SOL_USD_PRICE_ACCOUNT, ...mints.flatMap((m) => burnAccounts.get(m) ?? [])]);
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
    const burned = burnedBalance(e.mint, burnAccounts.get(e.mint) ?? [], read.lookup);
    out.set(e.mint, { ok: true, record: toRecord(e.mint, e.mintInfo!, burned, best, e.graduated, slot, now()) });
  }
  return out;
}
