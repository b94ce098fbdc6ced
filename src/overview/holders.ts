/**
 * Holder figures of the overview, pure: token accounts (the largest ones read back for their owners, or every one from
 * a scan) are summed per owner; liquidity and burn owners are set aside with their labels; the rest rank as holders.
 * Percentages are of the current supply. The definition is documented in docs/overview.md.
 */
import type { Address } from "@solana/kit";

import { AccountDecodeError } from "../solana/accounts/decode-error";
import {
  decodeTokenAccount,
  decodeTokenAccountOwnerAmount,
  TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE,
  type TokenAccount,
} from "../solana/accounts/spl-token";
import { formatPercent, formatTokenAmount } from "./amount-format";
import type { OwnerClass } from "./liquidity-owners";
import type { HolderEntry } from "./overview-schema";

/** One token account, reduced to what holder figures need. */
export type TokenHolding = { account: Address; owner: Address; amount: bigint };

/** The holder part of an overview; JSON-safe so it can be cached as is. */
export type HoldersSummary = {
  /** Supply (raw) the percentages were computed against, read with the accounts. */
  supply: string;
  top10HoldersBalance: string;
  top10HoldersPercent: string;
  top20HoldersBalance: string;
  top20HoldersPercent: string;
  holders: HolderEntry[];
  /** Whether the top-N figures provably equal those over every token account (see {@link summarizeHolders}). */
  exact: boolean;
};

/**
 * Reads mint, owner and amount of a token account of `mint`; null when the account is gone, not a token account
 * of either token program, of another mint, or uninitialized (it may have been closed and reused since it was listed).
 */
export function readTokenHolding(
  account: Address,
  raw: { owner: Address; data: Uint8Array } | null | undefined,
  mint: Address,
): TokenHolding | null {
  if (!raw) return null;
  let decoded: TokenAccount;
  try {
    decoded = decodeTokenAccount(raw);
  } catch (error) {
    if (error instanceof AccountDecodeError) return null;
    throw error;
  }
  if (decoded.state === 0 || decoded.mint !== mint) return null;
  return { account, owner: decoded.owner, amount: decoded.amount };
}

/** Reads owner and amount from a {@link TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE} of a token account; null when the slice is not 40 bytes. */
export function readHoldingSlice(account: Address, slice: Uint8Array): TokenHolding | null {
  if (slice.length !== TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE.length) return null;
  return { account, ...decodeTokenAccountOwnerAmount(slice) };
}

/** Sum of balances per owner, largest first; ties broken by owner address so the order is stable. */
export function aggregateByOwner(holdings: readonly TokenHolding[]): { owner: Address; amount: bigint }[] {
  const totals = new Map<Address, bigint>();
  for (const h of holdings) totals.set(h.owner, (totals.get(h.owner) ?? 0n) + h.amount);
  return [...totals]
    .map(([owner, amount]) => ({ owner, amount }))
    .sort((a, b) => (a.amount !== b.amount ? (a.amount > b.amount ? -1 : 1) : a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
}

/** How many real holders the `holders` list shows (the larger of the two top-N figures). */
export const LISTED_HOLDERS = 20;

/** Accounts `getTokenLargestAccounts` returns at most (Agave's NUM_LARGEST_ACCOUNTS). */
export const LARGEST_ACCOUNTS_LIMIT = 20;

const HOLDER: OwnerClass = { label: "holder", venue: null };

/** Which token accounts the holdings cover. */
export type HoldingsScope =
  /** Every token account of the mint (a full scan, or a largest-accounts list shorter than its limit). */
  | "all"
  /** Only the largest accounts: owners beyond them are unseen. */
  | "largest";

/**
 * Computes the top-10/20 figures and the labelled `holders` list. Owners with a zero total are left out (an empty
 * account is not a holding). `classify` returns undefined for an owner it could not classify; such an owner is
 * counted as a holder (most owners are wallets) but makes the figures inexact if it ranks before the 20th holder.
 *
 * `exact` is true when the top-20 figure provably equals the one over every token account: all accounts were seen,
 * or the largest accounts alone hold 20 holders (any unseen account is no larger than those).
 */
export function summarizeHolders(input: {
  holdings: readonly TokenHolding[];
  scope: HoldingsScope;
  classify: (owner: Address) => OwnerClass | undefined;
  supply: bigint;
  decimals: number;
}): HoldersSummary {
  const { supply, decimals } = input;
  const owners = aggregateByOwner(input.holdings).filter((o) => o.amount > 0n);
  const entry = (owner: Address, amount: bigint, cls: OwnerClass): HolderEntry => ({
    owner,
    balance: formatTokenAmount(amount, decimals),
    percent: formatPercent(amount, supply),
    label: cls.label,
    venue: cls.venue,
  });

  const listed: HolderEntry[] = [];
  const realAmounts: bigint[] = [];
  let unclassifiedInTop = false;
  for (const { owner, amount } of owners) {
    const known = input.classify(owner);
    if (!known && realAmounts.length < LISTED_HOLDERS) unclassifiedInTop = true;
    const cls = known ?? HOLDER;
    if (cls.label !== "holder") listed.push(entry(owner, amount, cls));
    else if (realAmounts.push(amount) <= LISTED_HOLDERS) listed.push(entry(owner, amount, cls));
  }
  const top = (n: number) => realAmounts.slice(0, n).reduce((sum, a) => sum + a, 0n);
  const top10 = top(10);
  const top20 = top(20);
  return {
    supply: supply.toString(),
    top10HoldersBalance: formatTokenAmount(top10, decimals),
    top10HoldersPercent: formatPercent(top10, supply),
    top20HoldersBalance: formatTokenAmount(top20, decimals),
    top20HoldersPercent: formatPercent(top20, supply),
    holders: listed,
    exact: !unclassifiedInTop && (input.scope === "all" || realAmounts.length >= LISTED_HOLDERS),
  };
}
