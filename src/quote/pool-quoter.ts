/**
 * What a pool kind's quoter is: the two mints it trades, its spot price, how far its state reaches, and its exact-input
 * swap in the program's own integer math. Kinds live in their own files; `quoters.ts` lists them.
 */
import type { Address } from "@solana/kit";
import type { Ratio } from "../math/fixed-point";
import type { AccountBytes } from "../solana/accounts/account-shape";
import type { PoolKind } from "../venues/pool-kinds";

/** Who a fee goes to: liquidity providers, the protocol, the fund (Raydium), the coin/pool creator, a partner, the token's transfer fee. */
export type FeeKind = "lp" | "protocol" | "fund" | "creator" | "partner" | "transfer";

export interface FeeLine {
  readonly kind: FeeKind;
  readonly mint: Address;
  readonly amount: bigint;
}

/** One exact-input swap as the program would execute it on the state read. */
export interface PoolSwap {
  /** atoms the pool takes from the user, fees included (a budget buy may use less than it was given) */
  readonly amountIn: bigint;
  /** atoms the pool pays out (a Token-2022 transfer fee on the way out is the caller's) */
  readonly amountOut: bigint;
  readonly fees: readonly FeeLine[];
  /** the pool's price after the swap: atoms of mints[1] per atom of mints[0] */
  readonly priceAfter: Ratio;
  /** what the receipt adds of this swap's own inputs (an adaptive fee's rates), in words */
  readonly note?: string;
}

export type SwapResult =
  | { readonly ok: true; readonly swap: PoolSwap }
  /** `depth`: the largest input the state read can take, when the size is what refuses it */
  | { readonly ok: false; readonly reason: string; readonly depth?: bigint };

export interface PoolQuoter {
  readonly kind: PoolKind;
  readonly pool: Address;
  readonly mints: readonly [Address, Address];
  /** spot: atoms of mints[1] per atom of mints[0] */
  readonly spot: Ratio;
  /** what the quote read and how far a walk goes, in words */
  readonly reach: string;
  /** accounts the swap math reads besides the pool's pricing accounts, by role (a receipt names them so) */
  readonly roles?: Readonly<Record<string, Address>>;
  /** Swaps `amountIn` atoms of `inputMint` (one of `mints`) into the other. */
  exactIn(inputMint: Address, amountIn: bigint): SwapResult;
}

/** Looks an address up in the accounts read: undefined = not read, null = read and absent. */
export type Lookup = (address: Address) => AccountBytes | null | undefined;

/** What building a quoter needs besides the pool account: the accounts read and the slot they were read at. */
export interface QuoteContext {
  /** the mint asked about (a pump curve does not store it) */
  readonly mint: Address;
  /** the mint the user pays in: a walk reads ahead in the swap's direction only */
  readonly inputMint: Address;
  readonly lookup: Lookup;
  readonly slot: number;
}

/**
 * One pool kind's quoting: the accounts a quote reads beyond those pricing read (fee configs, tick or bin arrays), then
 * the quoter. `extraAccounts` may be asked again after they are read (a second level); it answers [] when all are there.
 */
export interface QuoterSpec {
  readonly kind: PoolKind;
  extraAccounts(pool: Address, account: AccountBytes, context: QuoteContext): Promise<Address[]>;
  build(pool: Address, account: AccountBytes, context: QuoteContext): PoolQuoter;
}

/** A refusal the service reports for a pool (not a thrown error: other pools may still quote). */
export class QuoteRefusal extends Error {}

/** The related account at `address`, or a refusal naming its role. */
export function required(context: QuoteContext, address: Address, role: string): AccountBytes {
  const account = context.lookup(address);
  if (!account) throw new QuoteRefusal(`${role} ${address} ${account === null ? "does not exist" : "was not read"}`);
  return account;
}

/** The other mint of a pair. */
export function otherMint(mints: readonly [Address, Address], mint: Address): Address {
  return mint === mints[0] ? mints[1] : mints[0];
}

/**
 * `read` for each swap direction, computed the first time it is asked and kept: a walk's window of ticks or bins is read
 * from the accounts once, however many swaps an exact-output search makes.
 */
export function perDirection<T>(read: (direction: boolean) => T): (direction: boolean) => T {
  const kept = new Map<boolean, T>();
  return (direction) => {
    if (!kept.has(direction)) kept.set(direction, read(direction));
    return kept.get(direction)!;
  };
}
