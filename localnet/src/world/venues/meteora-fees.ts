/**
 * The fee rates Meteora's DAMM v2 and DBC programs charge a swap, as localnet's venues run them (VENUES.md §10, §11):
 * a base fee — fixed, a time scheduler (linear: cliff − periods·reduction; exponential: cliff·(1 − reduction/10⁴)^periods
 * in Q64.64 with the programs' 19-bit power) or a rate limiter (each further reference amount of a buy pays one more
 * increment, up to a maximum) — plus the dynamic fee of a volatility accumulator, capped. After MeteoraAg/damm-v2
 * @a3d3827 (cp_amm 0.2.1) base_fee/*, math/fee_math.rs, state/fee.rs and MeteoraAg/dynamic-bonding-curve @b4f9547
 * (0.1.10) base_fee/*, state/fee.rs; rates are numerators over 10⁹.
 */
import { Q64, ceilDiv } from "../core/math.js";

export const FEE_SCALE = 1_000_000_000n;
const U128_MAX = (1n << 128n) - 1n;

export type BaseFee =
  | { kind: "fixed"; cliff: bigint }
  | { kind: "linear" | "exponential"; cliff: bigint; periods: bigint; frequency: bigint; reduction: bigint }
  | { kind: "rate-limiter"; cliff: bigint; incrementBps: bigint; duration: bigint; maxFeeBps: bigint; reference: bigint };

/** Dynamic fee parameters and the volatility state the pool carries (DAMM v2 keeps both in the pool; DBC splits them). */
export interface Volatility {
  binStep: bigint;
  binStepQ64: bigint;
  filterPeriod: bigint;
  decayPeriod: bigint;
  reductionFactor: bigint;
  maxAccumulator: bigint;
  variableFeeControl: bigint;
  lastUpdate: bigint;
  sqrtReference: bigint;
  accumulator: bigint;
  reference: bigint;
}

/** base^exp in Q64.64, bits 0..18 of the exponent squared and multiplied. */
function power(base: bigint, exp: bigint): bigint {
  if (exp === 0n) return Q64;
  // a base of one or more is inverted first (and the result back), so squares stay below 2¹²⁸
  const flip = base >= Q64;
  let sq = flip ? U128_MAX / base : base;
  let acc = Q64;
  for (let i = 0; i < 19; i++) {
    if ((exp >> BigInt(i)) & 1n) acc = (acc * sq) >> 64n;
    sq = (sq * sq) >> 64n;
  }
  return flip ? U128_MAX / acc : acc;
}

/** The time scheduler's rate `elapsedPeriods` after activation (never past its last period). */
export function scheduledRate(fee: { kind: "linear" | "exponential"; cliff: bigint; periods: bigint; reduction: bigint }, elapsedPeriods: bigint): bigint {
  const n = elapsedPeriods > fee.periods ? fee.periods : elapsedPeriods;
  if (fee.kind === "linear") return fee.cliff - n * fee.reduction;
  if (fee.reduction === 0n) return fee.cliff;
  const step = Q64 - (fee.reduction << 64n) / 10_000n;
  return (power(step, n) * fee.cliff) >> 64n;
}

/** The rate limiter's rate for a buy of `amount` (fee included): the fees of its reference-sized slices, summed, as a rate. */
export function rateLimitedRate(cliff: bigint, incrementBps: bigint, reference: bigint, maxFee: bigint, amount: bigint): bigint {
  if (amount <= reference) return cliff;
  const step = (incrementBps * FEE_SCALE) / 10_000n;
  const lastIndex = (maxFee - cliff) / step;
  const full = (amount - reference) / reference;
  const rest = (amount - reference) % reference;
  // slice k (k = 0 the first reference amount) pays cliff + k·step, until the rate reaches maxFee
  const sliced = full < lastIndex ? full : lastIndex;
  const sumOfSlices = reference * (cliff * (sliced + 1n) + (step * sliced * (sliced + 1n)) / 2n);
  const tail = full < lastIndex ? rest * (cliff + step * (full + 1n)) : ((full - lastIndex) * reference + rest) * maxFee;
  const fee = ceilDiv(sumOfSlices + tail, FEE_SCALE);
  return ceilDiv(fee * FEE_SCALE, amount);
}

/** The variable fee from the stored accumulator: ⌈(acc·bin_step)²·control/10¹¹⌉. */
export function variableRate(v: Volatility | undefined): bigint {
  if (!v) return 0n;
  const x = v.accumulator * v.binStep;
  return (x * x * v.variableFeeControl + 99_999_999_999n) / 100_000_000_000n;
}

/** Before a swap: the references move when `filter_period` has passed since the last bin crossing (decayed, or reset). */
export function volatilityBeforeSwap(v: Volatility, sqrtPrice: bigint, now: bigint): void {
  const elapsed = now > v.lastUpdate ? now - v.lastUpdate : 0n;
  if (elapsed < v.filterPeriod) return;
  v.sqrtReference = sqrtPrice;
  v.reference = elapsed < v.decayPeriod ? (v.accumulator * v.reductionFactor) / 10_000n : 0n;
}

/** Bins between two sqrt prices, as the programs approximate them: 2·(⌊hi·2⁶⁴/lo⌋ − 2⁶⁴)/bin_step_u128. */
function binsBetween(v: Volatility, a: bigint, b: bigint): bigint {
  const [hi, lo] = a > b ? [a, b] : [b, a];
  return (((hi << 64n) / lo - Q64) / v.binStepQ64) * 2n;
}

/** After a swap: the accumulator from the reference and the bins moved since the reference price; time kept when a bin was crossed. */
export function volatilityAfterSwap(v: Volatility, before: bigint, after: bigint, now: bigint): void {
  const acc = v.reference + binsBetween(v, after, v.sqrtReference) * 10_000n;
  v.accumulator = acc < v.maxAccumulator ? acc : v.maxAccumulator;
  if (binsBetween(v, before, after) > 0n) v.lastUpdate = now;
}

/** The fee on an amount at a rate, rounded up. */
export const feeAt = (amount: bigint, rate: bigint) => ceilDiv(amount * rate, FEE_SCALE);
