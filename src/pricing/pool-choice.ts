/**
 * Choosing the pool a price comes from (deepest USD liquidity, with the rules below) and the record it makes. Every pool
 * passed over says why, for the 404 message.
 */
import type { Address } from "@solana/kit";
import { limits } from "../limits";
import { USDC_MINT, USDT_MINT, WELL_KNOWN_DECIMALS, WSOL_MINT } from "../solana/well-known";
import type { Mint } from "../solana/accounts/spl-token";
import type { PoolPrice } from "../venues/types";
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

export interface Choice extends Priced {
  priceUsd: Ratio;
  priceSol: Ratio;
  liquidityUsd: Ratio;
  /** a named pool under the auto-routing liquidity floor */
  belowFloor: boolean;
}

/**
 * Deepest USD liquidity wins. Curves never once complete; AMM pools only above a minimum depth (dust pools are trivially
 * moved) unless the caller named the pool; a live bonding curve always qualifies because its price is set by the curve,
 * not by depth. Every pool passed over says why.
 */
export function pickBest(priced: Priced[], solUsd: Ratio, baseDecimals: number, named = false): { best?: Choice; refusals: string[] } {
  let best: Choice | undefined;
  const refusals: string[] = [];
  const minimum = ratio(BigInt(limits.minPoolLiquidityUsd));
  for (const p of priced) {
    const label = `pool ${p.pool} (${p.price.kind})`;
    if (!p.price.tradable) {
      refusals.push(`${label} is not tradable (${isCurve(p.price) ? "curve complete" : "swaps disabled"})`);
      continue;
    }
    const qUsd = quoteUsd(p.price.quoteMint, solUsd);
    if (!qUsd) {
      refusals.push(`${label} quotes ${p.price.baseMint} in ${p.price.quoteMint}, which has no USD price here (SOL, USDC, USDT only)`);
      continue;
    }
    const priceUsd = mul(p.price.priceQuotePerBase, qUsd);
    const priceSol = div(priceUsd, solUsd);
    const liquidityUsd = liquidityInUsd(p, qUsd, priceUsd, baseDecimals);
    const belowFloor = !isCurve(p.price) && compare(liquidityUsd, minimum) < 0;
    if (belowFloor && !named) {
      refusals.push(`${label} holds $${toDecimalString(liquidityUsd, 4)} of liquidity, below the $${limits.minPoolLiquidityUsd} floor of automatic routing (name it with poolId to price it anyway)`);
      continue;
    }
    if (!best || compare(liquidityUsd, best.liquidityUsd) > 0) best = { ...p, priceUsd, priceSol, liquidityUsd, belowFloor };
  }
  return { best, refusals };
}

/** Both sides at spot for pools; only the real quote reserve for curves (what selling can actually take out). */
function liquidityInUsd(p: Priced, qUsd: Ratio, priceUsd: Ratio, baseDecimals: number): Ratio {
  const quoteDecimals = WELL_KNOWN_DECIMALS.get(p.price.quoteMint) ?? 9;
  const quoteSide = mul(mul(ratio(p.price.quoteLiquidity), fromPow10(-quoteDecimals)), qUsd);
  if (isCurve(p.price)) return quoteSide;
  const baseSide = mul(mul(ratio(p.price.baseReserve), fromPow10(-baseDecimals)), priceUsd);
  return { num: quoteSide.num * baseSide.den + baseSide.num * quoteSide.den, den: quoteSide.den * baseSide.den };
}

/** `circulating`: the raw circulating supply the market cap is of (circulating-supply.ts; SOL's own from the chain). */
export function toRecord(mint: Address, info: Mint, circulating: bigint, best: Choice, graduated: boolean | undefined, slot: number, now: number): PriceRecord {
  const supply = mul(ratio(circulating), fromPow10(-info.decimals));
  const record: PriceRecord = {
    ca: mint,
    dex: best.adapter.dex,
    // wSOL is SOL: exactly 1 by definition, whatever pool set its USD price.
    priceInSol: mint === WSOL_MINT ? "1" : toDecimalString(best.priceSol, significantDigits),
    priceInUsd: toDecimalString(best.priceUsd, significantDigits),
    marketCap: toDecimalString(mul(supply, best.priceUsd), significantDigits),
    pool: best.pool,
    poolType: best.price.kind,
    liquidityUsd: toDecimalString(best.liquidityUsd, significantDigits),
    slot,
    updatedAt: now,
  };
  if (best.price.extra.curveProgress) record.curveProgress = toDecimalString(mul(best.price.extra.curveProgress, ratio(100n)), 8);
  if (graduated !== undefined) record.graduated = graduated;
  if (best.belowFloor) record.belowLiquidityFloor = true;
  return record;
}
