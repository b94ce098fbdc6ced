/**
 * `fetchTokenOverview`: identity, authorities, holders and market data of a mint, from at most three upstream round
 * trips when nothing is cached and none when everything is:
 *
 *   1. getMultipleAccounts[mint, Metaplex metadata PDA] + getTokenLargestAccounts   (one JSON-RPC batch)
 *   2. getMultipleAccounts[the largest token accounts] → their owners               (+ the price read, batched in)
 *      (or, on a local chain with 20+ accounts, getProgramAccounts over all of them: see holder-reads.ts)
 *   3. getMultipleAccounts[owners not known by address] → is the owner a venue's?   (+ a second price read, if any)
 *
 * The off-chain metadata fetch starts after 1 and runs beside 2 and 3. Parts are cached separately because they age
 * differently: the profile (identity + off-chain JSON) for minutes, holder figures for ~30 s, the market part (price
 * record, or "unpriced") for the price TTL.
 */
import type { Address } from "@solana/kit";

import { isUpstreamError, upstreamApiError } from "../errors/upstream-api-error";
import type { Deadline } from "../isolate/deadline";
import { limits } from "../limits";
import type { GuardedFetchOptions } from "../metadata/guarded-fetch";
import type { MetadataUriPolicy } from "../metadata/uri-policy";
import type { PriceRecord } from "../pricing/price-record";
import type { PriceService } from "../pricing/price-service";
import { readAccounts, type RawAccount } from "../solana/account-reader";
import { findMetaplexMetadataAddress } from "../solana/accounts/metaplex-metadata";
import type { Upstream } from "../solana/upstream";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WSOL_MINT } from "../solana/well-known";
import { parseLargestAccounts, readHoldersSummary } from "./holder-reads";
import type { HoldersSummary } from "./holders";
import { burnAccountsOf, burnedBalance, circulatingSupply } from "../pricing/circulating-supply";
import { fetchOffchainProfile, isTransientOffchainOutcome, type OffchainProfile } from "./offchain-profile";
import { OverviewPartCache } from "./overview-part-cache";
import type { TokenOverview } from "./overview-schema";
import { RoundTripBatcher } from "./round-trip-batcher";
import { buildOnchainIdentity, decodeOverviewMint, type DecodedMint, type OnchainIdentity } from "./token-profile";

/** What an overview needs from the outside world. */
export interface OverviewDeps {
  upstream: Pick<Upstream, "call" | "callRaw">;
  /** The price service (the overview lends it an RPC client that shares its round trips). */
  prices: PriceService;
  /** Where the overview's parts are kept. */
  caches: OverviewCaches;
  /** The price TTL (ms): how long the market part, priced or not, is reused. */
  priceTtlMs: number;
  metadataPolicy: MetadataUriPolicy;
  /** Guarded-fetch options (tests inject a recording `fetchImpl`). */
  metadataFetch?: GuardedFetchOptions;
  /** Whether holders may come from a full scan of the mint's token accounts (local chains only; see holder-reads.ts). */
  allowHolderScan: boolean;
  waitUntil: (p: Promise<unknown>) => void;
  requestId?: string;
  /** When the request must answer: bounds waits on price work shared with other requests. */
  deadline?: Deadline;
  now?: () => number;
  /** Add the price fields' receipt (`priceReceipt`): the market part is then priced with its receipt, past the market cache. */
  receipt?: boolean;
}

/** The cached, slowly changing part of an overview. */
export type TokenProfile = { identity: OnchainIdentity; offchain: OffchainProfile };

/** Holder figures and the circulating supply, read together (`holders.v2`: entries of the shape before it never load). */
type SupplyAndHolders = HoldersSummary & { circulatingSupply: string };

/** The overview's three cached parts (isolate + colo), handed to the service by the caller (services.ts). */
export class OverviewCaches {
  readonly profile = new OverviewPartCache<TokenProfile>("profile", limits.isolateCacheBudgets.overviewProfiles);
  readonly holders = new OverviewPartCache<SupplyAndHolders>("holders.v2", limits.isolateCacheBudgets.overviewHolders);
  /** The price record, or null when no venue prices the mint: the price service does not remember that, we must. */
  readonly market = new OverviewPartCache<PriceRecord | null>("market", limits.isolateCacheBudgets.overviewMarket);

  /** Drops every part of `mint` from both levels, so the next overview reads the chain again. */
  async forget(mint: Address): Promise<void> {
    await Promise.all([this.profile.forget(mint), this.holders.forget(mint), this.market.forget(mint)]);
  }
}

/**
 * Builds the overview of `mint`. Throws `ApiError`: NOT_FOUND when the address is not an initialized mint,
 * UPSTREAM_UNAVAILABLE / UPSTREAM_TIMEOUT when the chain cannot be read. A token no venue prices gets null price fields.
 */
export async function fetchTokenOverview(deps: OverviewDeps, mint: Address): Promise<TokenOverview> {
  try {
    return await buildOverview(deps, mint);
  } catch (error) {
    if (isUpstreamError(error)) throw upstreamApiError(error);
    throw error;
  }
}

async function buildOverview(deps: OverviewDeps, mint: Address): Promise<TokenOverview> {
  const now = deps.now ?? Date.now;
  const [cachedProfile, cachedHolders, cachedMarket] = await Promise.all([
    deps.caches.profile.get(mint, now()),
    deps.caches.holders.get(mint, now()),
    // A receipt describes the record it comes with: the market part is then asked of the price service, which caches
    // records with receipts apart (plain market parts never carry one).
    deps.receipt ? Promise.resolve(undefined) : deps.caches.market.get(mint, now()),
  ]);
  const batcher = new RoundTripBatcher(deps.upstream, deps.requestId);
  const market = cachedMarket !== undefined ? Promise.resolve(cachedMarket) : priceMarket(deps, mint, batcher, now);
  batcher.waitForPassengers(market);
  // If the chain part fails first its error is the answer; the market outcome must not surface as an unhandled rejection.
  market.catch(() => undefined);

  let parts: { profile: Promise<TokenProfile>; holders: SupplyAndHolders };
  try {
    parts = await readChainParts(deps, mint, batcher, cachedProfile, cachedHolders, now);
  } finally {
    batcher.finish();
  }
  const [profile, record] = await Promise.all([parts.profile, market]);
  const overview = assemble(mint, profile, parts.holders, record);
  return deps.receipt ? { ...overview, priceReceipt: record?.receipt ?? null } : overview;
}

/**
 * The price record of `mint` from the price service (its reads ride in the overview's round trips), or null when no
 * venue prices it — an answer, cached like a price. An outage is not: it fails the overview.
 */
async function priceMarket(deps: OverviewDeps, mint: Address, batcher: RoundTripBatcher, now: () => number): Promise<PriceRecord | null> {
  const caller = { rpc: batcher.passenger, requestId: deps.requestId, waitUntil: deps.waitUntil, deadline: deps.deadline };
  const outcomes = await deps.prices.price([mint], caller, { receipt: deps.receipt });
  const outcome = outcomes.get(mint);
  if (outcome && !outcome.ok && outcome.error.status >= 500) throw outcome.error;
  const record = outcome?.ok ? outcome.record : null;
  if (deps.priceTtlMs > 0 && !deps.receipt) deps.caches.market.put(mint, record, deps.priceTtlMs, now(), deps.waitUntil);
  return record;
}

/**
 * The driver's round trips. Returns once the holder figures are known (the last round trip), with the profile still
 * pending on the off-chain fetch, so that waiting price reads are released as early as possible.
 */
async function readChainParts(
  deps: OverviewDeps,
  mint: Address,
  batcher: RoundTripBatcher,
  cachedProfile: TokenProfile | undefined,
  cachedHolders: SupplyAndHolders | undefined,
  now: () => number,
): Promise<{ profile: Promise<TokenProfile>; holders: SupplyAndHolders }> {
  if (cachedProfile && cachedHolders) return { profile: Promise.resolve(cachedProfile), holders: cachedHolders };

  const metadataPda = cachedProfile ? undefined : await findMetaplexMetadataAddress(mint);
  // The incinerator's ATAs are read with the mint: circulating supply = supply − their balances.
  const burnAccounts = cachedHolders ? [] : await burnAccountsOf(mint);
  // Round trip 1: both calls are issued in this turn, so they leave as one batch.
  const accountsRead = readAccounts(batcher.driver, [mint, ...(metadataPda ? [metadataPda] : []), ...burnAccounts], { requestId: deps.requestId });
  const largestRead = cachedHolders
    ? undefined
    : batcher.driver.call<unknown>("getTokenLargestAccounts", [mint, { commitment: "confirmed" }], { idempotent: true, requestId: deps.requestId });
  // A non-mint makes getTokenLargestAccounts fail; the mint check below reports that better (404), so wait for it first.
  largestRead?.catch(() => undefined);

  const snapshot = await accountsRead;
  const decoded = decodeOverviewMint(mint, snapshot.accounts.get(mint));
  const profile = cachedProfile
    ? Promise.resolve(cachedProfile)
    : loadProfile(deps, mint, decoded, metadataPda ? snapshot.accounts.get(metadataPda) : undefined, now);
  // Metadata failures never fail the overview, but an unexpected bug there must not go unhandled while holders load.
  profile.catch(() => undefined);
  const burned = burnedBalance(mint, burnAccounts, (a) => snapshot.accounts.get(a));
  const holders = cachedHolders ?? (await loadHolders(deps, mint, decoded, burned, largestRead!, batcher, now));
  return { profile, holders };
}

async function loadProfile(
  deps: OverviewDeps,
  mint: Address,
  decoded: DecodedMint,
  metaplexAccount: RawAccount | null | undefined,
  now: () => number,
): Promise<TokenProfile> {
  const identity = buildOnchainIdentity(mint, decoded, metaplexAccount);
  const { profile: offchain, outcome } = await fetchOffchainProfile(identity.uri, deps.metadataPolicy, deps.metadataFetch);
  const profile = { identity, offchain };
  const ttl = isTransientOffchainOutcome(outcome) ? limits.overviewProfileRetryTtlMs : limits.overviewProfileTtlMs;
  deps.caches.profile.put(mint, profile, ttl, now(), deps.waitUntil);
  return profile;
}

async function loadHolders(
  deps: OverviewDeps,
  mint: Address,
  decoded: DecodedMint,
  burned: bigint,
  largestRead: Promise<{ result: unknown }>,
  batcher: RoundTripBatcher,
  now: () => number,
): Promise<SupplyAndHolders> {
  const largest = parseLargestAccounts((await largestRead).result);
  // The wSOL mint counts only wrapped SOL: SOL's supply is the chain's (getSupply), and holders' shares are of it.
  const sol = mint === WSOL_MINT ? await deps.prices.solSupply({ requestId: deps.requestId }) : undefined;
  const summary = await readHoldersSummary(batcher.driver, largest, {
    mint,
    tokenProgram: decoded.isToken2022 ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS,
    supply: sol ? sol.total : decoded.supply,
    decimals: decoded.decimals,
    allowScan: deps.allowHolderScan,
    requestId: deps.requestId,
  });
  const figures = { ...summary, circulatingSupply: (sol ? sol.circulating : circulatingSupply(BigInt(decoded.supply), burned)).toString() };
  deps.caches.holders.put(mint, figures, limits.overviewHoldersTtlMs, now(), deps.waitUntil);
  return figures;
}

function assemble(mint: Address, profile: TokenProfile, holders: SupplyAndHolders, record: PriceRecord | null): TokenOverview {
  const { identity, offchain } = profile;
  return {
    ca: mint,
    name: identity.name,
    symbol: identity.symbol,
    image: offchain.image,
    description: offchain.description,
    socials: offchain.socials,
    decimals: String(identity.decimals),
    supply: holders.supply,
    circulatingSupply: holders.circulatingSupply,
    mintAuthority: identity.mintAuthority,
    freezeAuthority: identity.freezeAuthority,
    updateAuthority: identity.updateAuthority,
    creators: identity.creators,
    isToken2022: identity.isToken2022,
    top10HoldersBalance: holders.top10HoldersBalance,
    top10HoldersPercent: holders.top10HoldersPercent,
    top20HoldersBalance: holders.top20HoldersBalance,
    top20HoldersPercent: holders.top20HoldersPercent,
    dex: record?.dex ?? null,
    priceInSol: record?.priceInSol ?? null,
    priceInUsd: record?.priceInUsd ?? null,
    marketCap: record?.marketCap ?? null,
    holders: holders.holders,
    holdersExact: holders.exact,
    transferFee: identity.transferFee,
  };
}
