/**
 * The holder census of a mint: every owner with a positive balance (token accounts summed per owner), largest first,
 * each labelled — a pool or curve of a venue, a burn address, a locker, the launchpad's creator, or a holder.
 *
 * Reads, at most two round trips after the mint:
 *   1. every token account of the mint in one getProgramAccounts sliced to owner + amount (40 bytes an account), under
 *      a byte and a time budget — only where the deployment allows scans (`HOLDERS_FULL_SCAN`); else, or past a
 *      budget, getTokenLargestAccounts and those ≤20 accounts (then the census is `complete: false`, with its reason);
 *   2. the accounts of the largest owners their address does not label, to tell a pool, curve or locker (an account
 *      owned by its program) from a wallet. Owners past `overviewMaxOwnersClassified` are labelled by address only.
 */
import type { Address } from "@solana/kit";

import { isUpstreamError } from "../errors/upstream-api-error";
import { limits } from "../limits";
import { parseLargestAccounts, readLargestHoldings, scanHoldings } from "../overview/holder-reads";
import { aggregateByOwner, LARGEST_ACCOUNTS_LIMIT, type TokenHolding } from "../overview/holders";
import { BURN_OWNERS, VENUE_AUTHORITIES, VENUE_PROGRAMS } from "../overview/liquidity-owners";
import { readAccounts, type AccountRpc, type RawAccount } from "../solana/account-reader";
import type { LiquidityVenue } from "../venues/pool-kinds";
import { LOCKER_AUTHORITIES, LOCKER_PROGRAMS } from "./lockers";
import type { HolderLabel } from "./security-schema";

/** One owner of the census (JSON-safe: amounts as integer strings). */
export type CensusRow = { owner: string; amount: string; label: HolderLabel; venue: string | null };

/** The census, JSON-safe so it can be cached as is. */
export type HolderCensus = {
  slot: number;
  supply: string;
  decimals: number;
  /** Every owner with a positive balance, largest first (ties by address); only the largest when not `complete`. */
  rows: CensusRow[];
  /** Whether every token account of the mint was read. */
  complete: boolean;
  /** Why not (null when complete). */
  reason: string | null;
  /** Token accounts read. */
  accountsRead: number;
};

/** Venues whose accounts are bonding curves (a launchpad's), not pools. */
const CURVE_VENUES: ReadonlySet<LiquidityVenue> = new Set<LiquidityVenue>(["pumpfun", "meteora-dbc", "raydium-launchlab"]);

type Label = { label: HolderLabel; venue: string | null };

function venueLabel(venue: LiquidityVenue): Label {
  return { label: CURVE_VENUES.has(venue) ? "curve" : "pool", venue };
}

/** The label an owner's address alone gives (burn, a venue's or a locker's authority, the creator); undefined if none. */
export function labelByAddress(owner: Address, creator: Address | null): Label | undefined {
  if (BURN_OWNERS.has(owner)) return { label: "burn", venue: null };
  const locker = LOCKER_AUTHORITIES.get(owner);
  if (locker) return { label: "locker", venue: locker };
  const venue = VENUE_AUTHORITIES.get(owner);
  if (venue) return venueLabel(venue);
  if (creator !== null && owner === creator) return { label: "creator", venue: null };
  return undefined;
}

/** The label from the program owning the owner's account (null: it has none, like a wallet with no SOL or a PDA). */
export function labelByProgram(ownerProgram: Address | null): Label {
  if (ownerProgram !== null) {
    const venue = VENUE_PROGRAMS.get(ownerProgram);
    if (venue) return venueLabel(venue);
    const locker = LOCKER_PROGRAMS.get(ownerProgram);
    if (locker) return { label: "locker", venue: locker };
  }
  return { label: "holder", venue: null };
}

/** Builds the rows, pure: `ownerAccounts` holds the owners read in round trip 2 (an owner absent from it is a holder). */
export function censusRows(holdings: readonly TokenHolding[], creator: Address | null, ownerAccounts: ReadonlyMap<Address, RawAccount | null>): CensusRow[] {
  return aggregateByOwner(holdings)
    .filter((o) => o.amount > 0n)
    .map(({ owner, amount }) => {
      const known = labelByAddress(owner, creator);
      const read = ownerAccounts.get(owner);
      const { label, venue } = known ?? (read === undefined ? { label: "holder" as const, venue: null } : labelByProgram(read?.owner ?? null));
      return { owner, amount: amount.toString(), label, venue };
    });
}

export interface CensusInput {
  mint: Address;
  tokenProgram: Address;
  supply: bigint;
  decimals: number;
  /** The slot the mint was read at (the census's own slot). */
  slot: number;
  /** The launchpad's creator, labelled `creator`. */
  creator: Address | null;
  allowScan: boolean;
  requestId?: string;
}

/** Reads the census of `input.mint` (see the module comment). Upstream outages throw; budgets degrade to `complete: false`. */
export async function readHolderCensus(rpc: AccountRpc, input: CensusInput): Promise<HolderCensus> {
  const { holdings, complete, reason } = await readHoldings(rpc, input);
  const ranked = aggregateByOwner(holdings).filter((o) => o.amount > 0n).map((o) => o.owner);
  const toRead = ranked.slice(0, limits.overviewMaxOwnersClassified).filter((owner) => !labelByAddress(owner, input.creator));
  const ownerAccounts = toRead.length > 0 ? (await readAccounts(rpc, toRead, { requestId: input.requestId })).accounts : new Map<Address, RawAccount | null>();
  return {
    slot: input.slot,
    supply: input.supply.toString(),
    decimals: input.decimals,
    rows: censusRows(holdings, input.creator, ownerAccounts),
    complete,
    reason,
    accountsRead: holdings.length,
  };
}

async function readHoldings(rpc: AccountRpc, input: CensusInput): Promise<{ holdings: TokenHolding[]; complete: boolean; reason: string | null }> {
  let fallback: string;
  if (input.allowScan) {
    try {
      const holdings = await scanHoldings(rpc, {
        mint: input.mint,
        tokenProgram: input.tokenProgram,
        requestId: input.requestId,
        scanBudget: { maxAnswerBytes: limits.security.holderScanMaxBytes, timeoutMs: limits.security.holderScanTimeoutMs },
      });
      return { holdings, complete: true, reason: null };
    } catch (error) {
      // Past a budget the census degrades to the largest accounts; an outage is an outage.
      if (!isUpstreamError(error) || (error.kind !== "answer-too-large" && error.kind !== "timeout")) throw error;
      fallback =
        error.kind === "answer-too-large"
          ? `the mint has more token accounts than one scan reads (${limits.security.holderScanMaxBytes} bytes): only the ${LARGEST_ACCOUNTS_LIMIT} largest accounts were read`
          : `the scan of every token account took longer than ${limits.security.holderScanTimeoutMs} ms: only the ${LARGEST_ACCOUNTS_LIMIT} largest accounts were read`;
    }
  } else {
    fallback = `this deployment does not scan every token account of a mint: only the ${LARGEST_ACCOUNTS_LIMIT} largest accounts were read`;
  }
  const { result } = await rpc.call<unknown>("getTokenLargestAccounts", [input.mint, { commitment: "confirmed" }], { idempotent: true, requestId: input.requestId });
  const largest = parseLargestAccounts(result);
  const holdings = await readLargestHoldings(rpc, largest, input);
  // Fewer accounts than the node returns at most: those are all of them.
  const complete = largest.length < LARGEST_ACCOUNTS_LIMIT;
  return { holdings, complete, reason: complete ? null : fallback };
}

/** Owners counted as holders: wallets and the creator (pools, curves, burn addresses and lockers are not). */
export const isHolderRow = (row: Pick<CensusRow, "label">): boolean => row.label === "holder" || row.label === "creator";
