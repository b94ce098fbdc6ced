/**
 * The one list of venues: every pool kind priced here with its `dex` word (the price record's `dex`, the overview's
 * liquidity label), and the venues whose accounts hold liquidity but which are not priced. Pool kinds are stored in
 * the pool registry (D1) and the candidate cache, and `dex` words are API values: append, never rename.
 */

/** Pool kind → its `dex` word. The order is the order of the API's `dex` enum. */
export const dexOfPoolKind = {
  "pump-bonding-curve": "pumpfun",
  pumpswap: "pumpswap",
  "raydium-amm-v4": "raydium-amm-v4",
  "raydium-cpmm": "raydium-cpmm",
  "raydium-clmm": "raydium-clmm",
  "meteora-dlmm": "meteora-dlmm",
  "meteora-damm-v1": "meteora-damm-v1",
  "meteora-damm-v2": "meteora-damm-v2",
  "meteora-dbc": "meteora-dbc",
} as const;

export type PoolKind = keyof typeof dexOfPoolKind;
/** `dex` values: the venue and pool kind, precisely. */
export type DexName = (typeof dexOfPoolKind)[PoolKind];
export const dexNames = Object.values(dexOfPoolKind) as [DexName, ...DexName[]];

/** Venue names shown beside liquidity owners: the `dex` words, plus venues whose pools own tokens but are not priced. */
export type LiquidityVenue = DexName | "raydium-launchlab" | "orca-whirlpool";
