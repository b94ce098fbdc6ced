/**
 * What a transaction draft records of each swap it makes (swap-truth.ts measures and reports them). Kept apart from
 * swap-truth.ts and the venues so the draft (context.ts), the venues and the truth all stand on it without importing
 * each other in a circle.
 */
import type { Pubkey } from "../chain/types.js";

export interface TokenAmount {
  mint: Pubkey;
  /** raw integer, as a decimal string */
  amount: string;
}

/** A reserve of a pool: a token account's amount, or (pump.fun's SOL side) an account's lamports. */
export interface ReserveSide {
  mint: Pubkey;
  account: Pubkey;
  lamports: boolean;
}

/** A reserve kept in a token account. */
export const tokenReserve = (mint: Pubkey, account: Pubkey): ReserveSide => ({ mint, account, lamports: false });

/** A swap tracked in a draft: its plan, and the reserve balances measured around its state change. */
export interface SwapMark {
  pool: Pubkey;
  /** the trade index's kind (venues/index.ts `SwapKind`) */
  kind: string;
  wallet: Pubkey;
  baseMint: Pubkey;
  quoteMint: Pubkey;
  sides: [ReserveSide, ReserveSide];
  planned: { in: TokenAmount; out: TokenAmount } | null;
  before: bigint[] | null;
  after: bigint[] | null;
}
