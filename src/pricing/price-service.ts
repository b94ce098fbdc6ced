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
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { UpstreamError } from "../solana/upstream";
import { PYTH_SOL_USD_PRICE_ACCOUNT, WSOL_MINT } from "../solana/well-known";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { decodePumpBondingCurve, findPumpBondingCurveAddress } from "../venues/pump-bonding-curve";
import { dexOfPoolKind } from "../venues/pool-kinds";
import { STAKE_POOL_LSTS } from "../venues/stake-pool-price";
import { toDecimalString } from "../math/fixed-point";
import { decodeRaydiumLaunchLabPool, findRaydiumLaunchLabPoolAddress } from "../venues/raydium-launchlab";
import { burnedBalance, circulatingSupply } from "./circulating-supply";
import { gatherCandidates, rememberLearnedRelated, type Gathered } from "./pool-candidates";
import { maxReasons, pickBest, toRecord } from "./pool-choice";
import { readAndEvaluate } from "./pool-evaluation";
import { PriceCache, priceCacheFor, priceCacheKey } from "./price-cache";
import { priceScopeOf, type PriceDeps, type PriceOutcome, type PriceQuery, type SolSupply } from "./price-query";
import { cachedHops, directQuoteValue, hopQuotesOf, quoteValueOf, rememberHop, type QuoteHop } from "./quote-values";
import { solUsdFromOracle, solUsdFromPools, type SolUsd } from "./sol-usd";
import { buildPriceReceipt, capturePoolRead, type SolUsdSource } from "./price-receipt";
import type { Choice } from "./pool-choice";
import { div } from "../math/fixed-point";
import type { PriceRecord } from "./price-record";

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
  private processedService: PriceService | undefined;
  private solSupplyMemo: { value: SolSupply; until: number } | undefined;

  constructor(
    private readonly base: Pick<PriceDeps, "rpc" | "db" | "cache">,
    /** Reads accounts at processed (`processed`); absent: confirmed. */
    private readonly commitment?: "processed",
  ) {}

  /** The cache this service answers from (tests clear it). */
  get cache(): PriceCache {
    return this.base.cache;
  }

  /** Prices mints for one caller: see `priceMints`. */
  price(mints: readonly Address[], caller: PriceCaller, query: PriceQuery = {}): Promise<Map<Address, PriceOutcome>> {
    return priceMints(
      { ...this.base, ...caller, rpc: caller.rpc ?? this.base.rpc, solSupply: () => this.solSupply(caller), ...(this.commitment ? { commitment: this.commitment } : {}) },
      mints,
      query,
    );
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
   * USD per unit of quote tokens valued the way price records value them (a stake-pool LST at its pool's rate × SOL/USD,
   * any other token at its own deepest SOL- or USD-quoted pool, one hop; SOL and the dollar stables as always): what
   * the trade index values trades quoted in such tokens with. Tokens without a price are left out of the answer.
   */
  async quoteUsd(mints: readonly Address[], caller: PriceCaller): Promise<Map<Address, number>> {
    const deps: PriceDeps = { ...this.base, ...caller, rpc: caller.rpc ?? this.base.rpc };
    const now = deps.now ?? Date.now;
    const unique = [...new Set(mints)].slice(0, limits.maxQuoteHopMints);
    const stakeAccounts = unique.flatMap((m) => STAKE_POOL_LSTS.get(m)?.account ?? []);
    const read = await readAccounts(deps.rpc, [PYTH_SOL_USD_PRICE_ACCOUNT, ...stakeAccounts], { requestId: deps.requestId });
    const lookup = (a: Address) => read.accounts.get(a);
    const solUsd = solUsdFromOracle(lookup(PYTH_SOL_USD_PRICE_ACCOUNT), now()) ?? (await solUsdFromPools(deps, now()));
    const out = new Map<Address, number>();
    if (!solUsd) return out;
    const direct = directQuoteValue(solUsd.price, solUsd.source, lookup);
    const hops = await quoteHops(deps, unique.filter((m) => typeof direct(m) === "string"), now);
    for (const mint of unique) {
      const value = direct(mint);
      const usd = typeof value === "string" ? hops.get(mint) : value;
      if (usd && "usd" in usd) out.set(mint, Number(toDecimalString(usd.usd, 17)));
    }
    return out;
  }

  /**
   * The same service past the cache (TTL 0): records computed now, for the chain tail, whose record must show the pool
   * after the block it just read. Computing them still refreshes the shared cache the REST answers read.
   */
  get uncached(): PriceService {
    return (this.uncachedService ??= new PriceService({ ...this.base, cache: priceCacheFor(0) }));
  }

  /**
   * Records of the accounts at `processed`, for the /ws processed price stream: computed now, kept in no cache and
   * never shared with a confirmed computation (their own cache scope), so REST never answers one.
   */
  get processed(): PriceService {
    return (this.processedService ??= new PriceService({ ...this.base, cache: new PriceCache(0, 0) }, "processed"));
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
  return cache.freshLocalJson(priceCacheKey(priceScopeOf(query), mint, query.poolId), now);
}

/**
 * Prices mints: cache first (isolate map, then Cache API), then ONE batched account read for every miss — mints, derived
 * and registered pools, their derivable vaults and the SOL/USD oracle — and a second read only when a pool needs
 * accounts that could not be known in advance. Answers per mint, in any order; callers map back to request order.
 */
async function priceMints(deps: PriceDeps, mints: readonly Address[], query: PriceQuery = {}): Promise<Map<Address, PriceOutcome>> {
  const now = deps.now ?? Date.now;
  const scope = priceScopeOf(query, deps.commitment);
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
 * curve) has graduated when the curve is complete; a token launched on a SOL-quoted Raydium LaunchLab pool (its pool
 * PDA, seeded by the mint and wSOL) once the pool left status 0 (fund raising done: awaiting migration or migrated); any
 * other token has no `graduated` at all. Read from the launch accounts themselves on every route, so /price and the
 * venue routes agree for the same slot.
 */
function graduationOf(curve: AccountBytes | null | undefined, launchLab: AccountBytes | null | undefined): boolean | undefined {
  if (curve) {
    try {
      return decodePumpBondingCurve(curve).complete;
    } catch {
      // not a pump curve (a PDA collision): no launch curve
    }
  }
  if (launchLab) {
    try {
      return decodeRaydiumLaunchLabPool(launchLab).status !== 0;
    } catch {
      // not a LaunchLab pool
    }
  }
  return undefined;
}

async function priceCold(deps: PriceDeps, mints: Address[], query: PriceQuery, now: () => number, gathered: Gathered): Promise<Map<Address, PriceOutcome>> {
  const { adapters, candidatesByMint, burnAccounts } = gathered;
  // Each mint's pump.fun curve is read whatever the venue asked: `graduated` is the token's, not the route's.
  const launchCurves = await Promise.all(mints.map(findPumpBondingCurveAddress));
  const launchLabPools = await Promise.all(mints.map((m) => findRaydiumLaunchLabPoolAddress(m, WSOL_MINT)));
  const read = await readAndEvaluate(deps, mints, candidatesByMint, adapters, [PYTH_SOL_USD_PRICE_ACCOUNT, ...launchCurves, ...launchLabPools, ...mints.flatMap((m) => burnAccounts.get(m) ?? [])]);
  if (!query.poolId) for (const mint of mints) rememberLearnedRelated(mint, deps.waitUntil);
  const solUsd = solUsdFromOracle(read.lookup(PYTH_SOL_USD_PRICE_ACCOUNT), now()) ?? (await solUsdFromPools(deps, now()));
  if (!solUsd) throw new ApiError("UPSTREAM_UNAVAILABLE", "SOL/USD price is unavailable: oracle stale and no SOL/USDC pool");
  const { evaluations, slot } = read;
  const direct = directQuoteValue(solUsd.price, solUsd.source, read.lookup);
  // Pools quoted in other tokens: those tokens' own USD prices, one hop (never from inside a hop).
  const hops = deps.quoteHop ? undefined : await quoteHops(deps, hopQuotesOf(evaluations.flatMap((e) => e.priced), direct), now);

  const out = new Map<Address, PriceOutcome>();
  const venuesTried = [...new Set(adapters.map((a) => dexOfPoolKind[a.kind]))].join(", ");
  for (const e of evaluations) {
    if (e.mintError) {
      out.set(e.mint, { ok: false, error: e.mintError });
      continue;
    }
    // A pool the caller names is priced whatever its depth (the record says so); the floor only guards auto-routing.
    const { best, refusals } = pickBest(e.priced, solUsd.price, e.mintInfo!.decimals, query.poolId !== undefined, quoteValueOf(e.mint, direct, hops));
    if (!best) {
      const where = query.poolId ? `pool ${query.poolId}` : `venues: ${venuesTried}`;
      const why = [...e.refusals, ...refusals];
      const scanNote = gathered.scanNotes.get(e.mint);
      if (scanNote) why.push(scanNote);
      if (e.needs.length > 0) why.push(`${e.needs.length} related account(s) still unread after ${limits.maxPriceReadPasses} reads (${e.needs.slice(0, 2).join(", ")})`);
      const because = why.length > 0 ? why.slice(0, maxReasons).join("; ") : query.poolId ? "no such account" : "no pool found";
      out.set(e.mint, { ok: false, error: new ApiError("NOT_FOUND", `No price for ${e.mint} on ${where}: ${because}`) });
      continue;
    }
    const at = mints.indexOf(e.mint);
    const launchCurve = launchCurves[at]!;
    const launchLabPool = launchLabPools[at]!;
    const graduated = graduationOf(read.lookup(launchCurve), read.lookup(launchLabPool));
    const circulating = await circulatingOf(deps, e.mint, e.mintInfo!.supply, burnAccounts, read.lookup);
    const record = toRecord(e.mint, e.mintInfo!, circulating, best, graduated, slot, now());
    if (query.receipt) {
      const more = [{ role: "mint", address: e.mint }, ...(burnAccounts.get(e.mint) ?? []).map((address) => ({ role: "burnAccount", address }))];
      // the launchpad account `graduated` was read from (graduationOf: the pump.fun curve first)
      if (graduated !== undefined) more.push(read.lookup(launchCurve) ? { role: "launchCurve", address: launchCurve } : { role: "launchPool", address: launchLabPool });
      record.receipt = await receiptOf(record, best, e.mintInfo!, circulating, more, read, solUsd);
    }
    out.set(e.mint, { ok: true, record });
  }
  return out;
}

/**
 * USD values of the quote tokens `quotes` through their own pools: fresh ones from this isolate, the rest priced
 * together in one more cold computation (candidates, one batched read) in which nothing further is followed. At most
 * `limits.maxQuoteHopMints`; the others are left out and say so.
 */
async function quoteHops(deps: PriceDeps, quotes: Address[], now: () => number): Promise<Map<Address, QuoteHop>> {
  if (quotes.length === 0) return new Map();
  const { known, missing } = cachedHops(quotes, now());
  const todo = missing.slice(0, limits.maxQuoteHopMints - Math.min(known.size, limits.maxQuoteHopMints));
  if (todo.length === 0) return known;
  const hopDeps: PriceDeps = { ...deps, quoteHop: true };
  const gathered = await gatherCandidates(hopDeps, todo, {}, now);
  const read = await readAndEvaluate(hopDeps, todo, gathered.candidatesByMint, gathered.adapters, [PYTH_SOL_USD_PRICE_ACCOUNT]);
  const solUsd = solUsdFromOracle(read.lookup(PYTH_SOL_USD_PRICE_ACCOUNT), now()) ?? (await solUsdFromPools(deps, now()));
  if (!solUsd) throw new ApiError("UPSTREAM_UNAVAILABLE", "SOL/USD price is unavailable: oracle stale and no SOL/USDC pool");
  const direct = directQuoteValue(solUsd.price, solUsd.source, read.lookup);
  for (const e of read.evaluations) {
    let hop: QuoteHop;
    if (e.mintError) hop = { reason: e.mintError.message, quotedIn: [] };
    else {
      const { best, refusals } = pickBest(e.priced, solUsd.price, e.mintInfo!.decimals, false, quoteValueOf(e.mint, direct, undefined));
      hop = best
        ? { usd: best.priceUsd, source: `pool:${best.pool}` }
        : {
            reason: [...e.refusals, ...refusals, ...(gathered.scanNotes.has(e.mint) ? [gathered.scanNotes.get(e.mint)!] : [])].slice(0, 2).join("; ") || "no pool found",
            quotedIn: hopQuotesOf(e.priced, direct),
          };
    }
    known.set(e.mint, hop);
    rememberHop(e.mint, hop, now(), deps.cache.ttl);
  }
  return known;
}

/**
 * The receipt of a record just computed (price-receipt.ts): the chosen pool's accounts as the adapter consults them, the
 * mint and its burn accounts, and the SOL/USD source. The SOL/USD of the mint wSOL is its own pool: only the oracle is
 * listed then.
 */
async function receiptOf(
  record: PriceRecord,
  best: Choice,
  mintInfo: NonNullable<Parameters<typeof capturePoolRead>[2]>,
  circulating: bigint,
  more: { role: string; address: Address }[],
  read: Awaited<ReturnType<typeof readAndEvaluate>>,
  solUsd: SolUsd,
) {
  const pool = capturePoolRead(best, record.ca as Address, mintInfo, read.lookup, read.slotOf);
  // USD per unit of the pool's other mint, as the choice applied it (pool-choice.ts)
  const quoteUsdRatio = div(best.priceUsd, best.price.priceQuotePerBase);
  const source: SolUsdSource =
    solUsd.source === "pyth"
      ? { source: "pyth", price: solUsd.price, publishTime: solUsd.publishTime!, maxAgeSeconds: limits.maxOracleAgeSeconds }
      : { source: "pool", price: solUsd.price, read: solUsd.read! };
  return buildPriceReceipt({ slot: record.slot, mint: record.ca as Address, mintInfo, pool, priceInQuote: best.price.priceQuotePerBase, quoteUsd: quoteUsdRatio, circulating, more, lookup: read.lookup, slotOf: read.slotOf, solUsd: source });
}
