/**
 * The trade index's records. A swap is read from a transaction as the pool's own balances moved (extraction, no prices);
 * a trade is that swap priced with the block's SOL/USD. One pool swapped twice in one transaction gives two swaps; a
 * routed transaction through three pools gives three. Failed transactions give none.
 */
import { z } from "zod/mini";
import { dexOfPoolKind, type PoolKind } from "../venues/pool-kinds";

export const poolKinds = Object.keys(dexOfPoolKind) as [PoolKind, ...PoolKind[]];

export const tradeSideSchema = z.enum(["buy", "sell"]);
export type TradeSide = z.infer<typeof tradeSideSchema>;

/** Where a swap sits: the transaction's place in its block, then the swap's ordinal among the swaps of that transaction. */
export const tradePositionSchema = z.object({
  slot: z.number(),
  /** index of the transaction in the block's `transactions` array */
  txIndex: z.number(),
  /** 0, 1, ... in instruction order (top-level, then its inner instructions) among this transaction's swaps */
  ordinal: z.number(),
});
export type TradePosition = z.infer<typeof tradePositionSchema>;

/**
 * One swap against one pool. `base` is the token traded, `quote` what it is paid in (by rank: USDC/USDT, then wSOL,
 * else the pool's own quote side). `side` is the trader's: "buy" = base left the pool. Amounts are raw units moved in
 * or out of the pool's reserves (vaults, curve lamports, a DAMM v1 pool's vault shares at the vault's token amount),
 * always > 0.
 */
export const poolSwapSchema = z.object({
  ...tradePositionSchema.shape,
  signature: z.string(),
  blockTime: z.nullable(z.number()),
  pool: z.string(),
  kind: z.enum(poolKinds),
  baseMint: z.string(),
  quoteMint: z.string(),
  side: tradeSideSchema,
  baseAmount: z.bigint(),
  quoteAmount: z.bigint(),
  baseDecimals: z.number(),
  quoteDecimals: z.number(),
  /**
   * the trader: the user account the swap instruction names (its venue's user / payer position) when it signed the
   * transaction; the fee payer when a program's account (a router's PDA) is that user
   */
  wallet: z.string(),
});
export type PoolSwap = z.infer<typeof poolSwapSchema>;

/** A pool's life events seen in a transaction (they enter the pool registry). */
export const poolEventSchema = z.object({
  ...tradePositionSchema.shape,
  signature: z.string(),
  type: z.enum(["create", "migrate", "graduate"]),
  pool: z.string(),
  kind: z.enum(poolKinds),
  baseMint: z.string(),
  quoteMint: z.string(),
  /** accounts a pricer reads besides the pool (vaults, ...), by role, as the registry stores them */
  related: z.record(z.string(), z.string()),
});
export type PoolEvent = z.infer<typeof poolEventSchema>;

/** A swap with its prices: quote per base in human units, and the same in SOL and USD (null when the quote has no USD price). */
export interface Trade extends PoolSwap {
  priceQuote: number;
  priceSol: number | null;
  priceUsd: number | null;
  valueUsd: number | null;
}
