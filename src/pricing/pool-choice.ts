/**
 * Choosing the pool a price comes from (deepest USD liquidity, with the rules below) and the record it makes. Every pool
 * passed over says why, for the 404 message.
 */
import type { Address } from "@solana/kit";
import { limits } from "../limits";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import type { Mint } from "../solana/accounts/spl-token";
import type { PoolPrice } from "../venues/types";
import { dexOfPoolKind } from "../venues/pool-kinds";
import { compare, div, fromPow10, mul, ratio, toDecimalString, type Ratio } from "../math/fixed-point";
import type { Priced } from "./pool-evaluation";
import type { PriceRecord } from "./price-record";

const significantDigits = 15;
/** Reasons a 404 lists at most (a mint may have dozens of unpriceable pools). */
export const maxReasons = 5;

/** USD per quote unit for the quotes we can price directly. */
export function quoteUsd(quote: Address, solUsd: Ratio): Ratio | undefined {
  if (quote === WSOL_MINT) return solUsd;
  if (quote === USDC_MINT || quote === USDT_MINT) return ratio(1n);
  return undefined;
}

const isCurve = (p: PoolPrice) => p.kind === "pump-bonding-curve" || p.kind === "meteora-dbc";

/** The USD value of one quote unit and where it came from (the record's `quotePriceSource`). */
export interface QuoteValue {
  usd: Ratio;
  source: string;
}
/** A quote's USD value, or why it has none (said in the 404 of every pool quoted in it). */
export type QuoteValueOf = (quote: Address) => QuoteValue | string;

/** SOL, USDC and USDT only: SOL at `solUsd` (from `solSource`), the two dollar stables at $1 by definition. */
export function baseQuoteValue(solUsd: Ratio, solSource: "pyth" | "pool"): QuoteValueOf {
  return (quote) => {
    const usd = quoteUsd(quote, solUsd);
    if (!usd) return `${quote} has no USD price here (SOL, USDC, USDT only)`;
    return { usd, source: quote === WSOL_MINT ? `sol-usd:${solSource}` : "fixed-usd" };
  };
}

export interface Choice extends Priced {
  priceUsd: Ratio;
  priceSol: Ratio;
  liquidityUsd: Ratio;
  /** a named pool under the auto-routing liquidity floor */
  belowFloor: boolean;
  /** how the quote's USD value was found (`quotePriceSource`) */
  quoteSource: string;
}

/**
 * Deepest USD liquidity wins. Curves never once complete; AMM pools only above a minimum depth (dust pools are trivially
 * moved) unless the caller named the pool; a live bonding curve always qualifies because its price is set by the curve,
 * not by depth. Every pool passed over says why.
 */
export function pickBest(
  priced: Priced[],
  solUsd: Ratio,
  baseDecimals: number,
  named = false,
  quoteValueOf: QuoteValueOf = baseQuoteValue(solUsd, "pool"),
): { best?: Choice; refusals: string[] } {
  let best: Choice | undefined;
  const refusals: string[] = [];
  const minimum = ratio(BigInt(limits.minPoolLiquidityUsd));
  for (const p of priced) {
    const label = `pool ${p.pool} (${p.price.kind})`;
    if (!p.price.tradable) {
      refusals.push(`${label} is not tradable (${isCurve(p.price) ? "curve complete" : "swaps disabled"})`);
      continue;
    }
    const quote = quoteValueOf(p.price.quoteMint);
    if (typeof quote === "string") {
      refusals.push(`${label} quotes ${p.price.baseMint} in ${p.price.quoteMint}: ${quote}`);
      continue;
    }
    const qUsd = quote.usd;
    const priceUsd = mul(p.price.priceQuotePerBase, qUsd);
    const priceSol = div(priceUsd, solUsd);
    const liquidityUsd = liquidityInUsd(p, qUsd, priceUsd, baseDecimals);
    const belowFloor = !isCurve(p.price) && compare(liquidityUsd, minimum) < 0;
    if (belowFloor && !named) {
      refusals.push(`${label} holds $${toDecimalString(liquidityUsd, 4)} of liquidity, below the $${limits.minPoolLiquidityUsd} floor of automatic routing (name it with poolId to price it anyway)`);
      continue;
    }
    if (!best || compare(liquidityUsd, best.liquidityUsd) > 0) best = { ...p, priceUsd, priceSol, liquidityUsd, belowFloor, quoteSource: quote.source };
  }
  return { best, refusals };
}

/**
 * Both sides at spot for pools; only the real quote reserve for curves (what selling can actually take out). The quote
 * side is in the quote's own decimals and USD value, so a pool quoted in JitoSOL, USD1 or a memecoin competes with SOL-
 * and USDC-quoted pools by its real dollar depth.
 */
function liquidityInUsd(p: Priced, qUsd: Ratio, priceUsd: Ratio, baseDecimals: number): Ratio {
  const quoteSide = mul(mul(ratio(p.price.quoteLiquidity), fromPow10(-p.quoteDecimals)), qUsd);
  if (isCurve(p.price)) return quoteSide;
  const baseSide = mul(mul(ratio(p.price.baseReserve), fromPow10(-baseDecimals)), priceUsd);
  return { num: quoteSide.num * baseSide.den + baseSide.num * quoteSide.den, den: quoteSide.den * baseSide.den };
}

/** `circulating`: the raw circulating supply the market cap is of (circulating-supply.ts; SOL's own from the chain). */
export function toRecord(mint: Address, info: Mint, circulating: bigint, best: Choice, graduated: boolean | undefined, slot: number, now: number): PriceRecord {
  const supply = mul(ratio(circulating), fromPow10(-info.decimals));
  const record: PriceRecord = {
    ca: mint,
    dex: dexOfPoolKind[best.adapter.kind],
    // wSOL is SOL: exactly 1 by definition, whatever pool set its USD price.
    priceInSol: mint === WSOL_MINT ? "1" : toDecimalString(best.priceSol, significantDigits),
    priceInUsd: toDecimalString(best.priceUsd, significantDigits),
    marketCap: toDecimalString(mul(supply, best.priceUsd), significantDigits),
    pool: best.pool,
    poolType: best.price.kind,
    liquidityUsd: toDecimalString(best.liquidityUsd, significantDigits),
    quoteMint: best.price.quoteMint,
    quotePriceSource: best.quoteSource,
    slot,
    updatedAt: now,
  };
  if (best.price.extra.curveProgress) record.curveProgress = toDecimalString(mul(best.price.extra.curveProgress, ratio(100n)), 8);
  if (graduated !== undefined) record.graduated = graduated;
  if (best.belowFloor) record.belowLiquidityFloor = true;
  return record;
}
