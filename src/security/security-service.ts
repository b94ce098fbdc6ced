/**
 * `fetchSecurityReport` (GET /api/v1/security, and the overview's `risk`) and `fetchHoldersPage` (GET /api/v1/holders).
 *
 * A cold report reads, upstream: [mint, Metaplex metadata, pump.fun curve, LaunchLab pools, Clock] (one
 * getMultipleAccounts; then the Meteora DBC pool when neither names a creator: launchpad-creator.ts), then in
 * parallel the holder census (holder-census.ts: a scan or the largest accounts, then owners), the price (the price
 * service: the pool that prices the token and its liquidity in USD) followed by that pool's LP (lp-locks.ts) or
 * positions (position-locks.ts), and the
 * balances of the launch's buyers; from D1, the launch and creator facts (launch-trades.ts). The report is cached
 * `limits.security.reportTtlMs`, the census the same, so a warm report makes no upstream request at all.
 * docs/security.md explains every figure, its source and its limits.
 */
import type { Address } from "@solana/kit";

import { isUpstreamError, upstreamApiError } from "../errors/upstream-api-error";
import type { Deadline } from "../isolate/deadline";
import { limits } from "../limits";
import { formatPercent } from "../overview/amount-format";
import { OverviewPartCache } from "../overview/overview-part-cache";
import { buildOnchainIdentity, decodeOverviewMint, type DecodedMint } from "../overview/token-profile";
import type { PriceService } from "../pricing/price-service";
import { readAccounts, type AccountRpc, type AccountSnapshot, type RawAccount } from "../solana/account-reader";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { decodeClockSysvar, SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import { findMetaplexMetadataAddress } from "../solana/accounts/metaplex-metadata";
import { findAssociatedTokenAddress, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../solana/well-known";
import { findPumpBondingCurveAddress } from "../venues/pump-bonding-curve";
import { readTokenHolding } from "../overview/holders";
import { isHolderRow, readHolderCensus, type CensusRow, type HolderCensus } from "./holder-census";
import { buyersOf, creatorFlows, readLaunchIndexFacts, type LaunchIndexFacts } from "./launch-trades";
import { launchLabPoolsOf, launchpadCreatorOf, registeredDbcPool, scanDbcPools, type Launchpad, type LaunchpadCreator } from "./launchpad-creator";
import { readLpLocks, type LpAnswer } from "./lp-locks";
import { authorityFacts, extensionRisks } from "./mint-risks";
import type { FactSource, HoldersPage, HolderRow, SecurityReport } from "./security-schema";

export interface SecurityDeps {
  upstream: AccountRpc;
  prices: PriceService;
  db: D1Database;
  /** Whether the census may scan every token account of a mint (HOLDERS_FULL_SCAN; see holder-census.ts). */
  allowHolderScan: boolean;
  caches: SecurityCaches;
  waitUntil: (p: Promise<unknown>) => void;
  requestId?: string;
  deadline?: Deadline;
  now?: () => number;
}

/** A census with the facts read beside the mint that the holders page needs again (JSON-safe). */
type CachedCensus = HolderCensus & { creator: string | null; tokenProgram: string };

/** The report and census caches (isolate + colo), one set per isolate. */
export class SecurityCaches {
  readonly reports = new OverviewPartCache<SecurityReport>("security.v1", limits.isolateCacheBudgets.securityReports);
  readonly censuses = new OverviewPartCache<CachedCensus>("census.v1", limits.isolateCacheBudgets.holderCensuses);

  /** Drops what is kept of `mint`, so the next answer reads the chain again. */
  async forget(mint: Address): Promise<void> {
    await Promise.all([this.reports.forget(mint), this.censuses.forget(mint)]);
  }
}

/** The isolate's caches (module state, like the overview's in services.ts). */
export const securityCaches = new SecurityCaches();

/** What the first read gives: the mint and what stands beside it. */
type TokenBasics = {
  mint: Address;
  decoded: DecodedMint;
  tokenProgram: Address;
  snapshot: AccountSnapshot;
  metadataPda: Address;
  /** The launchpad accounts read for a creator (pump.fun curve, LaunchLab pools, the registry's DBC pool). */
  launchpadAccounts: Address[];
  /** The creator a launchpad account names (launchpad-creator.ts), when one does. */
  launchpad: LaunchpadCreator | null;
  creator: Address | null;
  epoch: bigint | null;
};

/**
 * Reads the mint, its Metaplex metadata, the pump.fun curve, the LaunchLab pools and the Clock in one
 * getMultipleAccounts, while D1 says which DBC pool the registry knows for the mint. Only when no curve or LaunchLab
 * pool names a creator: the DBC pool is looked up on chain if the registry knows none (one keys-only
 * getProgramAccounts), then read.
 */
async function readTokenBasics(rpc: AccountRpc, db: D1Database, mint: Address, requestId?: string): Promise<TokenBasics> {
  const [metadataPda, curvePda, launchLabPools] = await Promise.all([findMetaplexMetadataAddress(mint), findPumpBondingCurveAddress(mint), launchLabPoolsOf(mint)]);
  const [snapshot, registered] = await Promise.all([
    readAccounts(rpc, [mint, metadataPda, curvePda, SYSVAR_CLOCK_ADDRESS, ...launchLabPools], { requestId }),
    registeredDbcPool(db, mint),
  ]);
  const decoded = decodeOverviewMint(mint, snapshot.accounts.get(mint));
  const curve = { address: curvePda, account: snapshot.accounts.get(curvePda) };
  const launchLab = launchLabPools.map((address) => ({ address, account: snapshot.accounts.get(address) }));
  let launchpad = launchpadCreatorOf(mint, curve, launchLab, null);
  let dbcPool = registered;
  if (!launchpad && !dbcPool && decoded.supply > 0n) dbcPool = (await scanDbcPools(rpc, mint, requestId))[0] ?? null;
  if (!launchpad && dbcPool) {
    const dbcRead = await readAccounts(rpc, [dbcPool], { requestId });
    launchpad = launchpadCreatorOf(mint, curve, [], { address: dbcPool, account: dbcRead.accounts.get(dbcPool) });
  }
  return {
    mint,
    decoded,
    tokenProgram: decoded.isToken2022 ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS,
    snapshot,
    metadataPda,
    launchpadAccounts: [curvePda, ...launchLabPools, ...(dbcPool ? [dbcPool] : [])],
    launchpad,
    creator: launchpad?.address ?? null,
    epoch: clockEpoch(snapshot.accounts.get(SYSVAR_CLOCK_ADDRESS)),
  };
}

function clockEpoch(account: RawAccount | null | undefined): bigint | null {
  if (!account) return null;
  try {
    return decodeClockSysvar(account).epoch;
  } catch (error) {
    if (error instanceof AccountDecodeError) return null;
    throw error;
  }
}

async function censusOf(deps: SecurityDeps, basics: TokenBasics, now: () => number): Promise<CachedCensus> {
  const cached = await deps.caches.censuses.get(basics.mint, now());
  if (cached) return cached;
  const census = await readHolderCensus(deps.upstream, {
    mint: basics.mint,
    tokenProgram: basics.tokenProgram,
    supply: basics.decoded.supply,
    decimals: basics.decoded.decimals,
    slot: basics.snapshot.slot,
    creator: basics.creator,
    allowScan: deps.allowHolderScan,
    requestId: deps.requestId,
  });
  const entry: CachedCensus = { ...census, creator: basics.creator, tokenProgram: basics.tokenProgram };
  deps.caches.censuses.put(basics.mint, entry, limits.security.reportTtlMs, now(), deps.waitUntil);
  return entry;
}

/** Upstream failures become the API's 503/504; everything else passes through. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUpstreamError(error)) throw upstreamApiError(error);
    throw error;
  }
}

/**
 * The security report of `mint`. Throws `ApiError`: NOT_FOUND when the address is not an initialized mint,
 * UPSTREAM_UNAVAILABLE / UPSTREAM_TIMEOUT when the chain cannot be read.
 */
export function fetchSecurityReport(deps: SecurityDeps, mint: Address): Promise<SecurityReport> {
  return answering(async () => {
    const now = deps.now ?? Date.now;
    const cached = await deps.caches.reports.get(mint, now());
    if (cached) return cached;
    const report = await buildReport(deps, mint, now);
    deps.caches.reports.put(mint, report, limits.security.reportTtlMs, now(), deps.waitUntil);
    return report;
  });
}

async function buildReport(deps: SecurityDeps, mint: Address, now: () => number): Promise<SecurityReport> {
  const basics = await readTokenBasics(deps.upstream, deps.db, mint, deps.requestId);
  const { decoded, snapshot } = basics;
  const supply = decoded.supply;
  const [census, liquidity, indexFacts] = await Promise.all([
    censusOf(deps, basics, now),
    liquidityOf(deps, mint),
    readLaunchIndexFacts(deps.db, mint, basics.creator),
  ]);
  const balances = await balancesOf(deps, basics, census, [...(basics.creator ? [basics.creator] : []), ...([...buyersOf(indexFacts.windowTrades, basics.creator).keys()] as Address[])]);

  const metaplexAccount = snapshot.accounts.get(basics.metadataPda);
  const identity = buildOnchainIdentity(mint, decoded, metaplexAccount);
  const authorities = authorityFacts(mint, identity, metaplexAccount);
  const mintSource: FactSource = { accounts: [mint], slot: snapshot.slot, trades: null, unseen: null };
  const extensions = extensionRisks(decoded, basics.epoch ?? 0n).map((risk) => ({
    ...risk,
    source: risk.id === "transferFee" ? { ...mintSource, accounts: [mint, SYSVAR_CLOCK_ADDRESS] } : mintSource,
  }));
  return {
    ca: mint,
    slot: snapshot.slot,
    decimals: decoded.decimals,
    supply: supply.toString(),
    isToken2022: decoded.isToken2022,
    authorities: {
      ...authorities,
      source: { accounts: identity.metadataSource === "metaplex" ? [mint, basics.metadataPda] : [mint], slot: snapshot.slot, trades: null, unseen: null },
    },
    extensions,
    liquidity,
    creator: creatorSection(basics, indexFacts, balances, supply),
    launch: launchSection(basics, indexFacts, balances, supply),
    holders: holdersSection(census, supply),
  };
}

/** The pool that prices the token, its liquidity, and its LP. */
async function liquidityOf(deps: SecurityDeps, mint: Address): Promise<SecurityReport["liquidity"]> {
  const outcome = (await deps.prices.price([mint], { requestId: deps.requestId, waitUntil: deps.waitUntil, deadline: deps.deadline })).get(mint);
  if (outcome && !outcome.ok && outcome.error.status >= 500) throw outcome.error;
  if (!outcome?.ok) {
    return { pool: null, dex: null, liquidityUsd: null, lp: null, positions: null, message: "No venue prices this token: there is no pool to assess.", source: { accounts: [], slot: null, trades: null, unseen: null } };
  }
  const record = outcome.record;
  const answer: LpAnswer = await readLpLocks(deps.upstream, record.pool as Address, record.dex, deps.requestId);
  return { pool: record.pool, dex: record.dex, liquidityUsd: record.liquidityUsd, ...answer };
}

/**
 * Balances of `owners` now: from the census when it read every account, else their associated token accounts
 * (at most `limits.security.maxLaunchBuyersRead`; tokens they keep elsewhere are not seen).
 */
async function balancesOf(deps: SecurityDeps, basics: TokenBasics, census: HolderCensus, owners: readonly Address[]): Promise<Map<string, bigint>> {
  const balances = new Map<string, bigint>();
  if (census.complete) {
    const wanted = new Set<string>(owners);
    for (const row of census.rows) if (wanted.has(row.owner)) balances.set(row.owner, BigInt(row.amount));
    return balances;
  }
  const read = owners.slice(0, limits.security.maxLaunchBuyersRead);
  if (read.length === 0) return balances;
  const atas = await Promise.all(read.map((owner) => findAssociatedTokenAddress(owner, basics.mint, basics.tokenProgram)));
  const accounts = (await readAccounts(deps.upstream, atas, { requestId: deps.requestId })).accounts;
  read.forEach((owner, i) => {
    const holding = readTokenHolding(atas[i]!, accounts.get(atas[i]!), basics.mint);
    if (holding) balances.set(owner, holding.amount);
  });
  return balances;
}

function indexUnseen(facts: LaunchIndexFacts): string {
  const parts = [
    facts.oldestSlot === null ? "the trade index holds no trades yet" : `trades before slot ${facts.oldestSlot} (the trade index's retention)`,
    "tokens moved by transfers rather than trades",
  ];
  return parts.join("; ");
}

const LAUNCHPAD_NAMES: Record<Launchpad, string> = { pumpfun: "pump.fun bonding curve", "meteora-dbc": "Meteora DBC pool", "raydium-launchlab": "Raydium LaunchLab pool" };

function creatorSection(basics: TokenBasics, facts: LaunchIndexFacts, balances: Map<string, bigint>, supply: bigint): SecurityReport["creator"] {
  const launchpad = basics.launchpad;
  if (!launchpad) {
    return {
      address: null,
      launchpad: null,
      holding: null,
      holdingPercent: null,
      bought: null,
      sold: null,
      soldPercentOfBought: null,
      message: "The token has no launchpad account naming a creator (a pump.fun bonding curve, a Meteora DBC pool or a Raydium LaunchLab pool).",
      source: {
        accounts: basics.launchpadAccounts,
        slot: basics.snapshot.slot,
        trades: null,
        unseen: "creators of tokens launched elsewhere, and Meteora DBC pools the pool registry has not learned yet",
      },
    };
  }
  const creator = launchpad.address;
  const holding = balances.get(creator) ?? 0n;
  const { bought, sold } = creatorFlows(facts.creatorTrades);
  const soldPercent = bought > 0n ? formatPercent(sold, bought) : null;
  return {
    address: creator,
    launchpad: launchpad.launchpad,
    holding: holding.toString(),
    holdingPercent: formatPercent(holding, supply),
    bought: bought.toString(),
    sold: sold.toString(),
    soldPercentOfBought: soldPercent,
    message:
      `The ${LAUNCHPAD_NAMES[launchpad.launchpad]} names ${creator} as the creator; it holds ${formatPercent(holding, supply)}% of the supply` +
      (soldPercent === null ? "; the trade index saw it buy none." : ` and has sold ${soldPercent}% of what it bought.`),
    source: { accounts: [launchpad.account], slot: basics.snapshot.slot, trades: facts.creatorTrades.length, unseen: indexUnseen(facts) },
  };
}

function buyerGroup(buyers: Map<string, bigint>, balances: Map<string, bigint>, supply: bigint) {
  let bought = 0n;
  let held = 0n;
  for (const [wallet, amount] of buyers) {
    bought += amount;
    held += balances.get(wallet) ?? 0n;
  }
  return {
    count: buyers.size,
    wallets: [...buyers.keys()],
    bought: bought.toString(),
    boughtPercent: formatPercent(bought, supply),
    held: held.toString(),
    heldPercent: formatPercent(held, supply),
  };
}

function launchSection(basics: TokenBasics, facts: LaunchIndexFacts, balances: Map<string, bigint>, supply: bigint): SecurityReport["launch"] {
  const window = limits.security.sniperWindowSlots;
  const creationSlot = facts.creationSlot;
  const snipers = buyerGroup(buyersOf(facts.windowTrades, basics.creator), balances, supply);
  const bundleBuyers = buyersOf(
    facts.windowTrades.filter((t) => t.slot === creationSlot),
    basics.creator,
  );
  const bundle = { ...buyerGroup(bundleBuyers, balances, supply), detected: bundleBuyers.size > 0 };
  const unseen: string[] = [];
  if (creationSlot === null) unseen.push("launches the trade index did not see (before its retention, or not by a pump.fun, Meteora DBC or Raydium LaunchLab create)");
  else {
    if (facts.frontier === null || facts.frontier < creationSlot + window) unseen.push(`slots after ${facts.frontier ?? "none"} (the trade index has not read the whole window yet)`);
    if (facts.failedSlots > 0) unseen.push(`${facts.failedSlots} block(s) of the window the trade index could not read`);
  }
  unseen.push("buyers' tokens held outside their associated token accounts when the holder census is partial");
  const message =
    creationSlot === null
      ? "The trade index did not see this token's launch."
      : `${snipers.count} wallet(s) bought ${snipers.boughtPercent}% of the supply within ${window} slot(s) of the creation (slot ${creationSlot}) and still hold ${snipers.heldPercent}%` +
        (bundle.detected ? `; ${bundle.count} other signer(s) bought ${bundle.boughtPercent}% in the creation slot itself (a bundle).` : ".");
  return {
    creationSlot,
    windowSlots: window,
    snipers,
    bundle,
    message,
    source: { accounts: [], slot: creationSlot === null ? null : basics.snapshot.slot, trades: facts.windowTrades.length, unseen: unseen.join("; ") },
  };
}

const toHolderRow = (row: CensusRow, supply: bigint): HolderRow => ({ ...row, percent: formatPercent(BigInt(row.amount), supply) });

function holdersSection(census: HolderCensus, supply: bigint): SecurityReport["holders"] {
  const holders = census.rows.filter(isHolderRow);
  const sum = (n: number) => holders.slice(0, n).reduce((s, r) => s + BigInt(r.amount), 0n);
  const top10 = sum(10);
  const top20 = sum(20);
  // Pools, curves, burn addresses and lockers ranking before the 20th holder: those the top-N figures step over.
  const excluded: CensusRow[] = [];
  let seen = 0;
  for (const row of census.rows) {
    if (!isHolderRow(row)) excluded.push(row);
    else if (++seen >= 20) break;
  }
  return {
    count: census.complete ? holders.length : null,
    top10: top10.toString(),
    top10Percent: formatPercent(top10, supply),
    top20: top20.toString(),
    top20Percent: formatPercent(top20, supply),
    excluded: excluded.map((r) => toHolderRow(r, supply)),
    exact: census.complete || holders.length >= 20,
    partial: !census.complete,
    source: { accounts: [], slot: census.slot, trades: null, unseen: census.reason },
  };
}

// ---- GET /api/v1/holders ----

/** A page position: the last row given (amount, owner), as an opaque base64url token. */
export function encodeHoldersCursor(row: { amount: string; owner: string }): string {
  return btoa(`${row.amount}:${row.owner}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The position a cursor names, or undefined when it is not one of ours. */
export function decodeHoldersCursor(cursor: string): { amount: bigint; owner: string } | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return undefined;
  }
  const match = /^(\d{1,20}):([1-9A-HJ-NP-Za-km-z]{32,44})$/.exec(text);
  return match ? { amount: BigInt(match[1]!), owner: match[2]! } : undefined;
}

/** Rows after `after` in the census's order (amount descending, owner ascending). */
export function rowsAfter(rows: readonly CensusRow[], after: { amount: bigint; owner: string } | undefined): readonly CensusRow[] {
  if (!after) return rows;
  const start = rows.findIndex((r) => {
    const amount = BigInt(r.amount);
    return amount < after.amount || (amount === after.amount && r.owner > after.owner);
  });
  return start === -1 ? [] : rows.slice(start);
}

/** One page of the holders of `mint`. Throws like {@link fetchSecurityReport}. */
export function fetchHoldersPage(deps: SecurityDeps, mint: Address, limit: number, after: { amount: bigint; owner: string } | undefined): Promise<HoldersPage> {
  return answering(async () => {
    const now = deps.now ?? Date.now;
    const census = (await deps.caches.censuses.get(mint, now())) ?? (await censusOf(deps, await readTokenBasics(deps.upstream, deps.db, mint, deps.requestId), now));
    const supply = BigInt(census.supply);
    const rest = rowsAfter(census.rows, after);
    const items = rest.slice(0, limit).map((r) => toHolderRow(r, supply));
    const last = items.at(-1);
    return {
      ca: mint,
      slot: census.slot,
      decimals: census.decimals,
      supply: census.supply,
      count: census.complete ? census.rows.filter(isHolderRow).length : null,
      owners: census.complete ? census.rows.length : null,
      items,
      nextCursor: rest.length > limit && last ? encodeHoldersCursor(last) : null,
      partial: !census.complete,
      reason: census.reason,
    };
  });
}
