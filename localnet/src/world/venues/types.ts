/** The common shape of a pool venue, as the world's trade generator drives it. */
import type { Pubkey } from "../../chain/types.js";
import type { Draft } from "../context.js";

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
