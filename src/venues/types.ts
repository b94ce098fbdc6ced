import type { Address } from "@solana/kit";
import type { Ratio } from "../math/fixed-point";
import type { AccountBytes } from "../solana/accounts/account-shape";
import type { PoolKind } from "./pool-kind-registry";

/** A derived address where a pool of `kind` for a mint may exist (existence is checked by reading it). */
export interface PoolCandidate {
  readonly pool: Address;
  readonly kind: PoolKind;
  /** the other mint of the pair; `null` when only the decoded account tells it (pump curve) */
  readonly quoteMint: Address | null;
}

/** A pool seen swapped, as the pool registry stores it: enough to find it by either mint and price it in one read. */
export interface SwappedPool {
  address: Address;
  kind: PoolKind;
  /** the pair ranked as trades rank it (trades/pair-orientation.ts) */
  baseMint: Address;
  quoteMint: Address;
  /** accounts a pricer reads besides the pool (vaults, config), by role */
  related: Record<string, Address>;
}

/** Decimals of a mint; throws when the caller does not know them. Pools that store decimals do not ask. */
export type DecimalsOf = (mint: Address) => number;

/** Spot state of one pool, oriented base → quote as the pool stores its pair. */
export interface PoolPrice {
  readonly kind: PoolKind;
  readonly baseMint: Address;
  readonly quoteMint: Address;
  /** quote per base in human units (decimals applied), exact */
  readonly priceQuotePerBase: Ratio;
  /** raw quote-side reserve usable by swaps (fee buckets excluded) */
  readonly quoteLiquidity: bigint;
  /** raw base-side reserve usable by swaps (fee buckets excluded) */
  readonly baseReserve: bigint;
  /** false when the pool's status disables swaps (or a curve is complete) */
  readonly tradable: boolean;
  readonly extra: {
    /** bonding curves: share of the curve sold, in [0, 1] */
    readonly curveProgress?: Ratio;
    /** bonding curves: graduation reached, the price now lives in the migrated pool */
    readonly complete?: boolean;
  };
}

/** Addresses a pool needs read to be priced, keyed by role; the same keys name the accounts passed back. */
export type RelatedAddresses<K extends string> = { readonly [role in K]: Address };
export type RelatedAccounts<K extends string> = { readonly [role in K]: AccountBytes };

/** One reserve of a pool as a swap instruction names it: a token account (vault), or an account's own lamports. */
export interface SwapReserve {
  readonly account: Address;
  /** the reserve's mint when the instruction names it; otherwise the transaction's token balances tell */
  readonly mint: Address | undefined;
  /** the reserve is the account's native lamports (pump.fun curve), not a token amount */
  readonly lamports?: boolean;
}

/**
 * A swap instruction's pool and its two reserves. `order` says how the pool orders its pair: "given" = [base side,
 * quote side] as listed; "mint-bytes" = the pool sorts its mints (token0 < token1 by raw bytes) and the instruction
 * lists them by direction (input, output).
 */
export interface SwapReserves {
  readonly kind: PoolKind;
  readonly pool: Address;
  readonly reserves: readonly [SwapReserve, SwapReserve];
  readonly order: "given" | "mint-bytes";
  /**
   * The trader: the user / payer account the swap instruction names at the venue's position for it (the signer whose
   * tokens move, or the authority of the user-side token accounts) — the trade's wallet, whoever paid the fees.
   */
  readonly user: Address;
}

/**
 * What the pool registry stores of a pool seen swapped besides its pair, for the kinds it learns from swaps (pools
 * derived from the mint alone, pump.fun curves and DAMM v1, have none): the roles of the two reserves in the pool's own
 * order (after "mint-bytes" sorting) and the other accounts its pricer reads, taken from the swap instruction's accounts
 * — the roles the venue's pool lifecycle reader gives.
 */
export interface SwappedPoolRoles {
  readonly reserveRoles?: readonly [string, string];
  readonly related?: (key: (position: number) => Address | undefined) => Record<string, Address> | undefined;
}

/**
 * Reads a venue's swap instruction by its account positions (VENUES.md): the pool and its reserves, or undefined when
 * the instruction is not a swap of a shape it knows. `key(i)` is the instruction's i-th account, `count` how many.
 */
export type SwapReservesReader = (
  data: Uint8Array,
  key: (position: number) => Address | undefined,
  count: number,
) => SwapReserves | undefined;

/** A pool life event read from one instruction, the pair in the pool's own order (base side, quote side). */
export interface PoolLifecycle {
  readonly type: "create" | "migrate" | "graduate";
  readonly kind: PoolKind;
  readonly pool: Address;
  readonly mints: readonly [Address, Address];
  /** what the pool's swap readers / pricer read besides the pool, by role */
  readonly related: Record<string, Address>;
}

/** Reads the pool events (create, migrate) an instruction of the venue's program stands for; [] for any other instruction. */
export type PoolLifecycleReader = (
  data: Uint8Array,
  key: (position: number) => Address | undefined,
  count: number,
) => PoolLifecycle[];

/**
 * Reads the event by which a swap's pool says the swap completed its curve (an Anchor self-CPI inside the swap, its data
 * base58 as the transaction holds it): the pool graduated. Undefined for any other data, or an event of another pool.
 */
export type PoolGraduationReader = (eventData: string, swap: SwapReserves) => PoolLifecycle | undefined;
