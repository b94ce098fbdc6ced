import type { Address } from "@solana/kit";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { PYTH_SOL_USD_PRICE_ACCOUNT, USDC_MINT, USDT_MINT, WELL_KNOWN_DECIMALS, WSOL_MINT } from "../solana/well-known";
import { decodeMint, type Mint } from "../venues/spl-token";
import { VenueDecodeError } from "../venues/errors";
import { priceOfMint } from "../venues/pool-price";
import type { AccountBytes, PoolCandidate, PoolKind, PoolPrice } from "../venues/types";
import { compare, div, fromPow10, mul, ratio, toDecimalString, type Ratio } from "./fixed-point";
import { adapterByKind, poolAdapters, type AccountLookup, type PoolAdapter } from "./pool-adapters";
import { registeredPoolsFor } from "./pool-registry";
import { readStoredCandidates, storeCandidates } from "./candidate-store";
import { priceCacheKey, type PriceCache } from "./price-cache";
import { venueOfDex, type PriceRecord, type VenueId } from "./price-record";
import { solUsdFromOracle, type SolUsd } from "./sol-usd-source";
import { burnAccountsOf, burnedBalance, circulatingSupply } from "./circulating-supply";
import { isUpstreamError, upstreamApiError } from "../errors/upstream-api-error";
import { BoundedCache, ADDRESS_BYTES } from "../isolate/bounded-cache";
import type { Deadline } from "../isolate/deadline";
import { SharedTasks, type TaskOwner } from "../isolate/shared-tasks";
import { noTimings, type Timings } from "../http/server-timing";

export interface PriceDeps {
  rpc: AccountRpc;
  db: D1Database;
  cache: PriceCache;
  waitUntil: (p: Promise<unknown>) => void;
  requestId?: string;
  /** When the calling request must answer: waits on work shared with other requests end by then. */
  deadline?: Deadline;
  now?: () => number;
  /** Stage durations for the caller's `Server-Timing`. */
  timings?: Timings;
}

export interface PriceQuery {
  venue?: VenueId;
  poolId?: Address;
}

export type PriceOutcome = { ok: true; record: PriceRecord } | { ok: false; error: ApiError };

interface Candidate {
  pool: Address;
  adapter: PoolAdapter | undefined; // undefined: a named poolId whose kind is learned from its bytes
  alsoRead: Address[];
}

const significantDigits = 15;

const candidateBytes = (list: readonly Candidate[]) => list.reduce((n, c) => n + 64 + ADDRESS_BYTES * (1 + c.alsoRead.length), 32);
const budgets = limits.isolateCacheBudgets;
// Static facts, per isolate: derivations never change, related accounts of a pool never change.
const derived = new BoundedCache<Address, Candidate[]>("derived-candidates", budgets.derivedCandidates, candidateBytes);
const relatedOfPool = new BoundedCache<Address, Address[]>("related-of-pool", budgets.relatedOfPool, (list) => 32 + ADDRESS_BYTES * list.length);
const registryMemo = new BoundedCache<Address, { until: number; pools: Candidate[] }>("registry-memo", budgets.registryMemo, (m) => 16 + candidateBytes(m.pools));
// Work shared by concurrent requests: owned by none of them (see isolate/shared-tasks.ts).
const inflightPrices = new SharedTasks<PriceOutcome>("price computation", limits.sharedTaskDeadlineMs);
const ownerOf = (deps: PriceDeps): TaskOwner => ({ waitUntil: deps.waitUntil, deadline: deps.deadline });
const readOptions = (deps: PriceDeps) => ({ requestId: deps.requestId });

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

interface Gathered {
  adapters: readonly PoolAdapter[];
  candidatesByMint: Map<Address, Candidate[]>;
  burnAccounts: Map<Address, Address[]>;
}

/** Candidate pools of each mint (derived and registered, or the named pool) and its burn accounts, looked up at once. */
async function gatherCandidates(deps: PriceDeps, mints: Address[], query: PriceQuery, now: () => number): Promise<Gathered> {
  const timings = deps.timings ?? noTimings;
  const adapters = poolAdapters.filter((a) => !query.venue || venueOfDex[a.dex] === query.venue);
  const candidatesByMint = new Map<Address, Candidate[]>();
  // The incinerator's ATAs of every mint ride in the first read, like the oracle: market caps use circulating supply.
  const burns = Promise.all(mints.map(async (mint) => [mint, await burnAccountsOf(mint)] as const));
  if (query.poolId) {
    const pool = query.poolId;
    for (const mint of mints) candidatesByMint.set(mint, [{ pool, adapter: undefined, alsoRead: relatedOfPool.get(pool) ?? [] }]);
  } else {
    const [registered, derivedLists] = await Promise.all([
      timings.time("registry", () => registryCandidates(deps.db, mints, now())),
      timings.time("candidates", () => Promise.all(mints.map((mint) => derivedCandidates(mint, deps)))),
    ]);
    mints.forEach((mint, i) => {
      const list = [...derivedLists[i]!, ...(registered.get(mint) ?? [])].filter((c) => c.adapter && adapters.includes(c.adapter));
      // A registered pool may also be derivable: read and price it once.
      const seen = new Set<Address>();
      candidatesByMint.set(mint, list.filter((c) => !seen.has(c.pool) && seen.add(c.pool)));
    });
  }
  return { adapters, candidatesByMint, burnAccounts: new Map(await burns) };
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

/** Reasons a 404 lists at most (a mint may have dozens of unpriceable pools). */
const maxReasons = 5;

/**
 * One batched read of every mint, candidate pool and known related account (plus `extra`), then evaluation; further
 * reads only for what evaluation says it still needs (a non-standard quote mint, vaults of a never-seen pool, DAMM v1's
 * vault LP mints) — at most `maxPriceReadPasses` in all. What is learned is remembered, so the next cold read is one.
 */
async function readAndEvaluate(deps: PriceDeps, mints: Address[], candidatesByMint: Map<Address, Candidate[]>, adapters: readonly PoolAdapter[], extra: Address[]) {
  const addresses: Address[] = [...extra];
  for (const [mint, list] of candidatesByMint) {
    addresses.push(mint);
    for (const c of list) addresses.push(c.pool, ...c.alsoRead, ...(relatedOfPool.get(c.pool) ?? []));
  }
  const timings = deps.timings ?? noTimings;
  const snapshot = await timings.time("upstream", () => readAccounts(deps.rpc, addresses, readOptions(deps)));
  const accounts = new Map(snapshot.accounts);
  const lookup: AccountLookup = (a) => accounts.get(a);
  let slot = snapshot.slot;
  let evaluations = timings.timeSync("decode", () => evaluateAll(mints, candidatesByMint, lookup, adapters));
  for (let pass = 1; pass < limits.maxPriceReadPasses; pass++) {
    const needed = [...new Set(evaluations.flatMap((e) => e.needs))].filter((a) => !accounts.has(a));
    if (needed.length === 0) break;
    const more = await timings.time("upstream", () => readAccounts(deps.rpc, needed, readOptions(deps)));
    for (const [a, acc] of more.accounts) accounts.set(a, acc);
    slot = Math.min(slot, more.slot);
    evaluations = timings.timeSync("decode", () => evaluateAll(mints, candidatesByMint, lookup, adapters));
  }
  return { evaluations, lookup, slot };
}

let poolSolUsd: { value: SolUsd; until: number } | undefined;

/** SOL/USD from the deepest SOL/USDC (or USDT) pool, when the oracle is stale. Remembered for the price TTL. */
async function solUsdFromPools(deps: PriceDeps, now: number): Promise<SolUsd | undefined> {
  if (poolSolUsd && poolSolUsd.until > now) return poolSolUsd.value;
  const registered = await registryCandidates(deps.db, [WSOL_MINT], now);
  const candidates = [...(await derivedCandidates(WSOL_MINT, deps)), ...(registered.get(WSOL_MINT) ?? [])];
  const { evaluations } = await readAndEvaluate(deps, [WSOL_MINT], new Map([[WSOL_MINT, candidates]]), poolAdapters, []);
  const usdQuoted = (evaluations[0]?.priced ?? []).filter((p) => quoteUsd(p.price.quoteMint, ratio(1n)) && p.price.quoteMint !== WSOL_MINT);
  // The SOL price passed in only orders pools by their USD depth, which for USD-quoted pools does not depend on it.
  const { best } = pickBest(usdQuoted, ratio(1n), 9);
  if (!best) return undefined;
  const value: SolUsd = { price: best.priceUsd, source: "pool" };
  poolSolUsd = { value, until: now + 1000 };
  return value;
}

interface Priced {
  adapter: PoolAdapter;
  pool: Address;
  price: PoolPrice; // oriented: base = the requested mint
}

interface MintEvaluation {
  mint: Address;
  mintInfo?: Mint;
  mintError?: ApiError;
  priced: Priced[];
  needs: Address[];
  /** Why existing candidate pools could not be priced, for the 404 message. */
  refusals: string[];
  graduated?: boolean;
}

function evaluateAll(mints: Address[], candidatesByMint: Map<Address, Candidate[]>, lookup: AccountLookup, adapters: readonly PoolAdapter[]): MintEvaluation[] {
  return mints.map((mint) => evaluateMint(mint, candidatesByMint.get(mint) ?? [], lookup, adapters));
}

function evaluateMint(mint: Address, candidates: Candidate[], lookup: AccountLookup, adapters: readonly PoolAdapter[]): MintEvaluation {
  const result: MintEvaluation = { mint, priced: [], needs: [], refusals: [] };
  const mintAccount = lookup(mint);
  if (!mintAccount) {
    result.mintError = new ApiError("NOT_FOUND", `Unknown mint ${mint}: no such account`);
    return result;
  }
  try {
    result.mintInfo = decodeMint(mintAccount);
  } catch {
    result.mintError = new ApiError("NOT_FOUND", `${mint} is not a token mint`);
    return result;
  }
  const decimalsOf = (m: Address): number => {
    if (m === mint) return result.mintInfo!.decimals;
    const known = WELL_KNOWN_DECIMALS.get(m);
    if (known !== undefined) return known;
    const acc = lookup(m);
    if (acc === undefined) throw new NeedAccount(m);
    if (acc === null) throw new VenueDecodeError("Mint", "value", `quote mint ${m} missing`);
    return decodeMint(acc).decimals;
  };

  for (const c of candidates) {
    const account = lookup(c.pool);
    if (!account) continue;
    const errors: VenueDecodeError[] = [];
    for (const adapter of c.adapter ? [c.adapter] : adapters) {
      try {
        const evaluation = adapter.evaluate(account, mint, lookup, decimalsOf);
        relatedOfPool.set(c.pool, Object.values(evaluation.related));
        if (evaluation.kind === "needs") {
          result.needs.push(...evaluation.addresses);
        } else {
          const oriented = priceOfMint(evaluation.price, mint);
          if (oriented.kind === "pump-bonding-curve" && oriented.extra.complete !== undefined) result.graduated = oriented.extra.complete;
          result.priced.push({ adapter, pool: c.pool, price: oriented });
        }
        break;
      } catch (err) {
        if (err instanceof NeedAccount) {
          result.needs.push(err.address);
          break;
        }
        if (!(err instanceof VenueDecodeError)) throw err;
        // not this kind (or an unpriceable pool): try the next adapter / candidate
        errors.push(err);
      }
    }
    const refusal = refusalOf(c, account, errors, c.adapter ? [c.adapter] : adapters);
    if (refusal) result.refusals.push(refusal);
  }
  return result;
}

/**
 * Why an existing pool account was not priced, when no adapter took it: the error of the kind whose program owns it
 * (a wrong size, a vault of another mint, an empty reserve), or, for a named pool owned by none, whose it is.
 */
function refusalOf(c: Candidate, account: AccountBytes, errors: VenueDecodeError[], tried: readonly PoolAdapter[]): string | undefined {
  if (errors.length < tried.length) return undefined; // priced, or waiting for more accounts
  const telling = errors.find((e) => e.reason !== "owner");
  if (telling) return `pool ${c.pool}: ${telling.message}`;
  // A derived address owned by another program is only a PDA collision: not worth a line unless the caller named it.
  if (c.adapter) return undefined;
  return `pool ${c.pool} is owned by ${account.owner}, not by a program of ${[...new Set(tried.map((a) => a.dex))].join(", ")}`;
}

class NeedAccount extends Error {
  constructor(readonly address: Address) {
    super(`need ${address}`);
  }
}

/** USD per quote unit for the quotes we can price directly. */
function quoteUsd(quote: Address, solUsd: Ratio): Ratio | undefined {
  if (quote === WSOL_MINT) return solUsd;
  if (quote === USDC_MINT || quote === USDT_MINT) return ratio(1n);
  return undefined;
}

const isCurve = (p: PoolPrice) => p.kind === "pump-bonding-curve" || p.kind === "meteora-dbc";

interface Choice extends Priced {
  priceUsd: Ratio;
  priceSol: Ratio;
  liquidityUsd: Ratio;
  /** a named pool under the auto-routing liquidity floor */
  belowFloor: boolean;
}

/**
 * Deepest USD liquidity wins. Curves never once complete; AMM pools only above a minimum depth (dust pools are trivially
 * moved) unless the caller named the pool; a live bonding curve always qualifies because its price is set by the curve,
 * not by depth. Every pool passed over says why.
 */
function pickBest(priced: Priced[], solUsd: Ratio, baseDecimals: number, named = false): { best?: Choice; refusals: string[] } {
  let best: Choice | undefined;
  const refusals: string[] = [];
  const minimum = ratio(BigInt(limits.minPoolLiquidityUsd));
  for (const p of priced) {
    const label = `pool ${p.pool} (${p.price.kind})`;
    if (!p.price.tradable) {
      refusals.push(`${label} is not tradable (${isCurve(p.price) ? "curve complete" : "swaps disabled"})`);
      continue;
    }
    const qUsd = quoteUsd(p.price.quoteMint, solUsd);
    if (!qUsd) {
      refusals.push(`${label} quotes ${p.price.baseMint} in ${p.price.quoteMint}, which has no USD price here (SOL, USDC, USDT only)`);
      continue;
    }
    const priceUsd = mul(p.price.priceQuotePerBase, qUsd);
    const priceSol = div(priceUsd, solUsd);
    const liquidityUsd = liquidityInUsd(p, qUsd, priceUsd, baseDecimals);
    const belowFloor = !isCurve(p.price) && compare(liquidityUsd, minimum) < 0;
    if (belowFloor && !named) {
      refusals.push(`${label} holds $${toDecimalString(liquidityUsd, 4)} of liquidity, below the $${limits.minPoolLiquidityUsd} floor of automatic routing (name it with poolId to price it anyway)`);
      continue;
    }
    if (!best || compare(liquidityUsd, best.liquidityUsd) > 0) best = { ...p, priceUsd, priceSol, liquidityUsd, belowFloor };
  }
  return { best, refusals };
}

/** Both sides at spot for pools; only the real quote reserve for curves (what selling can actually take out). */
function liquidityInUsd(p: Priced, qUsd: Ratio, priceUsd: Ratio, baseDecimals: number): Ratio {
  const quoteDecimals = WELL_KNOWN_DECIMALS.get(p.price.quoteMint) ?? 9;
  const quoteSide = mul(mul(ratio(p.price.quoteLiquidity), fromPow10(-quoteDecimals)), qUsd);
  if (isCurve(p.price)) return quoteSide;
  const baseSide = mul(mul(ratio(p.price.baseReserve), fromPow10(-baseDecimals)), priceUsd);
  return { num: quoteSide.num * baseSide.den + baseSide.num * quoteSide.den, den: quoteSide.den * baseSide.den };
}

function toRecord(mint: Address, info: Mint, burned: bigint, best: Choice, graduated: boolean | undefined, slot: number, now: number): PriceRecord {
  // Circulating supply: what the incinerator holds is out of the market though still in the mint's supply.
  const supply = mul(ratio(circulatingSupply(info.supply, burned)), fromPow10(-info.decimals));
  const record: PriceRecord = {
    ca: mint,
    dex: best.adapter.dex,
    // wSOL is SOL: exactly 1 by definition, whatever pool set its USD price.
    priceInSol: mint === WSOL_MINT ? "1" : toDecimalString(best.priceSol, significantDigits),
    priceInUsd: toDecimalString(best.priceUsd, significantDigits),
    marketCap: toDecimalString(mul(supply, best.priceUsd), significantDigits),
    pool: best.pool,
    poolType: best.price.kind,
    liquidityUsd: toDecimalString(best.liquidityUsd, significantDigits),
    slot,
    updatedAt: now,
  };
  if (best.price.extra.curveProgress) record.curveProgress = toDecimalString(mul(best.price.extra.curveProgress, ratio(100n)), 8);
  if (graduated !== undefined) record.graduated = graduated;
  if (best.belowFloor) record.belowLiquidityFloor = true;
  return record;
}

async function derivedCandidates(mint: Address, deps: PriceDeps): Promise<Candidate[]> {
  const known = derived.get(mint);
  if (known) return known;
  // Not shared between requests: a Cache API read and ~4 ms of CPU for a never-seen mint are cheaper than another
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
function rememberLearnedRelated(mint: Address, waitUntil: (p: Promise<unknown>) => void): void {
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

async function registryCandidates(db: D1Database, mints: Address[], now: number): Promise<Map<Address, Candidate[]>> {
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
    registryMemo.set(mint, { until: now + limits.registryMemoMs, pools });
    out.set(mint, pools);
  }
  return out;
}
