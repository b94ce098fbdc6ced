import type { Address } from "@solana/kit";
import { fromPow10, invert, mul, ratio, type Ratio } from "../math/fixed-point";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import type { PoolPrice } from "./types";

const Q128 = 1n << 128n;

/** Raw price (quote atoms per base atom) to human units: × 10^(baseDecimals − quoteDecimals). */
export function toHumanPrice(raw: Ratio, baseDecimals: number, quoteDecimals: number): Ratio {
  return mul(raw, fromPow10(baseDecimals - quoteDecimals));
}

/** Constant-product spot price quoteReserve / baseReserve in human units; an empty side cannot be priced. */
export function reservePrice(
  layout: string,
  baseReserve: bigint,
  quoteReserve: bigint,
  baseDecimals: number,
  quoteDecimals: number,
): Ratio {
  if (baseReserve <= 0n || quoteReserve <= 0n) {
    throw new AccountDecodeError(layout, "value", "empty reserve");
  }
  return toHumanPrice(ratio(quoteReserve, baseReserve), baseDecimals, quoteDecimals);
}

/** Q64.64 square-root price squared exactly: (sqrtPriceX64 / 2^64)^2 = sqrtPriceX64^2 / 2^128, in human units. */
export function sqrtPriceX64Price(
  layout: string,
  sqrtPriceX64: bigint,
  baseDecimals: number,
  quoteDecimals: number,
): Ratio {
  if (sqrtPriceX64 <= 0n) throw new AccountDecodeError(layout, "value", "zero sqrt price");
  return toHumanPrice({ num: sqrtPriceX64 * sqrtPriceX64, den: Q128 }, baseDecimals, quoteDecimals);
}

/** Reserve net of fee buckets that sit in the same vault but do not back swaps (never below zero). */
export function netOfFees(vaultAmount: bigint, ...feeBuckets: bigint[]): bigint {
  const net = feeBuckets.reduce((left, fee) => left - fee, vaultAmount);
  return net > 0n ? net : 0n;
}

/** The same pool state seen from the other side: base ↔ quote, price inverted, reserves swapped. */
export function invertPoolPrice(price: PoolPrice): PoolPrice {
  return {
    ...price,
    baseMint: price.quoteMint,
    quoteMint: price.baseMint,
    priceQuotePerBase: invert(price.priceQuotePerBase),
    quoteLiquidity: price.baseReserve,
    baseReserve: price.quoteLiquidity,
  };
}

/**
 * Orients a pool price so that `mint` is the base (the price is then "`mint` in the other mint").
 * Pools store pairs in their own order (sorted mints, X/Y, A/B), so callers pricing a token use this.
 */
export function priceOfMint(price: PoolPrice, mint: Address): PoolPrice {
  if (price.baseMint === mint) return price;
  if (price.quoteMint === mint) return invertPoolPrice(price);
  throw new AccountDecodeError(price.kind, "mismatch", `pool does not trade ${mint}`);
}
