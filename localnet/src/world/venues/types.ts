/** The common shape of a pool venue, as the world's trade generator drives it, and of its descriptor (venues/index.ts). */
import type { Pubkey } from "../../chain/types.js";
import type { Draft } from "../context.js";
import type { ReserveSide } from "../swap-marks.js";

export type Side = "buy" | "sell";

export interface PoolRef {
  kind: string;
  address: Pubkey;
  baseMint: Pubkey;
  quoteMint: Pubkey;
  related: Record<string, Pubkey>;
  derivable: boolean;
}

export interface SwapResult {
  /** Base atoms bought (buy) or sold (sell). */
  base: bigint;
  /** Quote atoms paid (buy) or received (sell), as seen by the user. */
  quote: bigint;
}

export interface PoolVenue<P extends PoolRef = PoolRef> {
  /**
   * Adds the venue's swap instruction (with its CPIs, events and state change) to the draft. `amountIn` is quote atoms
   * for a buy and base atoms for a sell; the user's token accounts already exist (or are created earlier in the draft).
   * Returns null when the pool cannot take the trade (then nothing was added).
   */
  swap(d: Draft, pool: P, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null;
  /** Quote atoms per base atom (float, for sizing trades and for tests). */
  price(pool: P): number;
}

/** Orders (a, b) as (base, quote) sides of a pool whose tokens are stored as token_0/token_1 or x/y. */
export function sideOf(baseIsFirst: boolean, side: Side): { inIsFirst: boolean } {
  return { inIsFirst: side === "sell" ? baseIsFirst : !baseIsFirst };
}

/**
 * A buy or sell through a venue's swap in token order (`raw`: the first token in when `inIsFirst`, from `userIn` to
 * `userOut`): the base is the pool's first token when `baseIsFirst`. What the user gave and got, in base and quote.
 */
export function swapBySide(
  side: Side,
  baseIsFirst: boolean,
  amountIn: bigint,
  userBase: Pubkey,
  userQuote: Pubkey,
  raw: (inIsFirst: boolean, userIn: Pubkey, userOut: Pubkey) => { out: bigint } | null,
): SwapResult | null {
  const sell = side === "sell";
  const res = raw(sideOf(baseIsFirst, side).inIsFirst, sell ? userBase : userQuote, sell ? userQuote : userBase);
  if (!res) return null;
  return sell ? { base: amountIn, quote: res.out } : { base: res.out, quote: amountIn };
}

/**
 * When a pool first lets swaps through, as its program checks it: a unix time (AMM v4 `pool_open_time`, CPMM/CLMM
 * `open_time`, Whirlpool's oracle `trade_enable_timestamp`, DAMM v2 timestamp activation) or a slot (DLMM, DAMM v2 slot
 * activation). Null: the pool trades now.
 */
export type Activation = { time: number } | { slot: number };

/**
 * One venue (pool kind) of the world: the kind the manifest and the trade index name, its program, where its pool keeps
 * its two reserves (the ground truth measures them around each swap), and when its pool opens. The venue's class in
 * the same file creates pools, builds the swap instructions and runs the program's math; `VENUES` (venues/index.ts)
 * lists every descriptor, and the kinds are derived from that list.
 */
export interface VenueDescriptor<P, K extends string = string, T extends string = string> {
  /** the manifest's word for the kind (`WorldPool.kind`, `WorldToken.venues`) */
  kind: K;
  /** the trade index's word for it (`GET /__localnet/trades`) */
  tradeKind: T;
  program: Pubkey;
  /** the two reserves a swap moves, base side first where the pool stores them so */
  reserves(pool: P): [ReserveSide, ReserveSide];
  /** the pool's activation as its program reads it, null when it trades now */
  activation(pool: P): Activation | null;
}

/** Declares a venue's descriptor with its kind words kept as literal types (so `VENUES` yields the kind unions). */
export function defineVenue<P>() {
  return <const K extends string, const T extends string>(d: VenueDescriptor<P, K, T>): VenueDescriptor<P, K, T> => d;
}
