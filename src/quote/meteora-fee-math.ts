/**
 * Meteora's fee rates for DAMM v2 and DBC swaps: the base fee (a time scheduler, linear or exponential; a rate limiter
 * that raises the rate with the size of a buy; DAMM v2's market-cap scheduler) plus the dynamic fee of the volatility
 * accumulator, capped. Our own code after MeteoraAg/damm-v2 @a3d3827f (cp_amm 0.2.1) programs/cp-amm/src/{base_fee/*,
 * math/fee_math.rs, state/fee.rs} and MeteoraAg/dynamic-bonding-curve @b4f95473 (0.1.10) programs/dynamic-bonding-curve/
 * src/{base_fee/*, state/config.rs}: every rate is a numerator over 10⁹.
 */
import { QuoteRefusal } from "./pool-quoter";
import { ceilDiv, Q64, U128_MAX } from "./swap-math";

export const FEE_DENOMINATOR = 1_000_000_000n;
const BASIS_POINT_MAX = 10_000n;

/** cliff · (1 − reduction/10⁴)^period in Q64.64 (`fee_math::get_fee_in_period`), the power as the programs take it. */
export function feeInPeriod(cliff: bigint, reduction: bigint, period: bigint): bigint {
  if (reduction === 0n) return cliff;
  const base = Q64 - (reduction << 64n) / BASIS_POINT_MAX;
  return (powQ64(base, period) * cliff) >> 64n;
}

/** `fee_math::pow` for a base below 1 and a non-negative exponent: invert the base, square-and-multiply 19 bits, invert back. */
function powQ64(base: bigint, exp: bigint): bigint {
  if (exp === 0n) return Q64;
  if (exp >= 0x80000n) throw new QuoteRefusal("the fee period is beyond the program's power range");
  let squared = base;
  let result = Q64;
  let invert = false;
  if (squared >= result) {
    squared = U128_MAX / squared;
    invert = true;
  }
  for (let bit = 0n; bit < 19n; bit++) {
    if (exp & (1n << bit)) result = (result * squared) >> 64n;
    squared = (squared * squared) >> 64n;
  }
  if (result === 0n) throw new QuoteRefusal("the fee scheduler's power underflows");
  return invert ? U128_MAX / result : result;
}

/** A time scheduler's rate at `period` periods after activation (capped at its number of periods). */
export function scheduledFee(mode: "linear" | "exponential", cliff: bigint, numberOfPeriod: bigint, reduction: bigint, period: bigint): bigint {
  const p = period < numberOfPeriod ? period : numberOfPeriod;
  if (mode === "linear") {
    const fee = cliff - reduction * p;
    if (fee < 0n) throw new QuoteRefusal("the linear fee scheduler falls below zero: the program refuses the swap");
    return fee;
  }
  return feeInPeriod(cliff, reduction, p);
}

/** bps → numerator over 10⁹ (`to_numerator`). */
export const bpsToNumerator = (bps: bigint) => (bps * FEE_DENOMINATOR) / BASIS_POINT_MAX;

/**
 * The rate limiter's rate for a buy of `amountIn` (fee included): up to the reference amount the cliff rate; each further
 * reference amount pays `increment` more, up to `maxFee` (`get_fee_numerator_from_included_fee_amount`): the fee of the
 * whole input summed over its slices, rounded up, then as a rate ⌈fee·10⁹/amountIn⌉.
 */
export function rateLimiterFee(cliff: bigint, incrementBps: bigint, referenceAmount: bigint, maxFee: bigint, amountIn: bigint): bigint {
  if (amountIn <= referenceAmount) return cliff;
  const increment = bpsToNumerator(incrementBps);
  if (referenceAmount === 0n || increment === 0n) throw new QuoteRefusal("the rate limiter has no reference amount or increment: the program refuses the swap");
  const maxIndex = (maxFee - cliff) / increment;
  const a = (amountIn - referenceAmount) / referenceAmount;
  const b = (amountIn - referenceAmount) % referenceAmount;
  let total: bigint;
  if (a < maxIndex) {
    const first = cliff + cliff * a + (increment * a * (a + 1n)) / 2n;
    total = referenceAmount * first + b * (cliff + increment * (a + 1n));
  } else {
    const first = cliff + cliff * maxIndex + (increment * maxIndex * (maxIndex + 1n)) / 2n;
    total = referenceAmount * first + ((a - maxIndex) * referenceAmount + b) * maxFee;
  }
  const fee = ceilDiv(total, FEE_DENOMINATOR);
  return ceilDiv(fee * FEE_DENOMINATOR, amountIn);
}

/**
 * The variable fee of a volatility accumulator: ⌈(accumulator·bin_step)²·variable_fee_control / 10¹¹⌉ (`get_variable_fee`).
 * It reads the accumulator the last swap stored: the references a swap updates first do not change its own fee.
 */
export function variableFee(accumulator: bigint, binStep: bigint, variableFeeControl: bigint): bigint {
  const square = (accumulator * binStep) ** 2n;
  return (square * variableFeeControl + 99_999_999_999n) / 100_000_000_000n;
}

/** The trading fee of an amount at a rate, rounded up, and what is left (`get_excluded_fee_amount`). */
export function feeOn(amount: bigint, rate: bigint): { fee: bigint; rest: bigint } {
  const fee = ceilDiv(amount * rate, FEE_DENOMINATOR);
  return { fee, rest: amount - fee };
}
