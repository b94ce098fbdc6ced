/**
 * The fee of an adaptive-fee Whirlpool: the pool's static `fee_rate` plus a variable part that grows with the tick groups
 * the price has moved from the Oracle's reference, capped at the program's 10% (orca-so/whirlpools @630c0e0, program
 * 0.9.0 `manager/fee_rate_manager.rs`, `state/oracle.rs` AdaptiveFeeVariables; the same rules as whirlpools-core 2.1.1
 * `swap_quote_by_input_token` with an Oracle), as our own code.
 *
 * At the swap's start the reference is refreshed from the Clock's unix time: older than an hour → reset to the current
 * tick group with no volatility; within `filter_period` of the last reference or major-swap time → kept; within
 * `decay_period` → moved to the current group, the volatility reference the accumulator × `reduction_factor` / 10⁴;
 * later → reset. The Oracle's times ahead of the Clock make the program fail. Inside the walk every step stops at the
 * next tick-group boundary (while the group is within the range where the accumulator is not yet at its maximum), and
 * before each step the accumulator is the reference + 10⁴ per group between the reference group and the current one,
 * at most `max_volatility_accumulator`; the variable rate is ⌈control·(accumulator·group size)² / (10⁵·10⁸)⌉ millionths.
 */
import type { OrcaWhirlpoolOracle } from "../venues/orca-whirlpool";
import { ORCA_MAX_TICK, ORCA_MIN_TICK, orcaSqrtPriceAtTick, orcaTickAtSqrtPrice } from "./swap-math";

/** Program constants (state/oracle.rs, manager/fee_rate_manager.rs). */
export const WHIRLPOOL_ADAPTIVE_FEE = {
  volatilityScale: 10_000n,
  reductionDenominator: 10_000n,
  controlDenominator: 100_000n,
  maxReferenceAgeSeconds: 3_600n,
  /** FEE_RATE_HARD_LIMIT: the total fee rate's cap, millionths */
  feeRateHardLimit: 100_000n,
} as const;

const floorDiv = (a: number, b: number) => Math.floor(a / b);

/** The reference a swap at `now` starts from (`update_reference`), or why the program refuses it. */
export function whirlpoolAdaptiveReference(
  oracle: OrcaWhirlpoolOracle,
  now: bigint,
  tickGroupIndex: number,
): { volatilityReference: bigint; tickGroupIndexReference: number } | string {
  const { lastReferenceUpdateTimestamp: lastReference, lastMajorSwapTimestamp: lastMajor } = oracle;
  const latest = lastReference > lastMajor ? lastReference : lastMajor;
  if (now < latest) return `the Oracle's last update (${latest}) is after the Clock read (${now})`;
  const reset = { volatilityReference: 0n, tickGroupIndexReference: tickGroupIndex };
  if (now - lastReference > WHIRLPOOL_ADAPTIVE_FEE.maxReferenceAgeSeconds) return reset;
  const elapsed = now - latest;
  if (elapsed < BigInt(oracle.filterPeriod)) {
    return { volatilityReference: BigInt(oracle.volatilityReference), tickGroupIndexReference: oracle.tickGroupIndexReference };
  }
  if (elapsed < BigInt(oracle.decayPeriod)) {
    const decayed = (BigInt(oracle.volatilityAccumulator) * BigInt(oracle.reductionFactor)) / WHIRLPOOL_ADAPTIVE_FEE.reductionDenominator;
    return { volatilityReference: decayed, tickGroupIndexReference: tickGroupIndex };
  }
  return reset;
}

/** The variable rate for an accumulator, millionths (`compute_adaptive_fee_rate`). */
export function whirlpoolAdaptiveFeeRate(accumulator: bigint, tickGroupSize: number, controlFactor: number): bigint {
  const crossed = accumulator * BigInt(tickGroupSize);
  const { controlDenominator, volatilityScale, feeRateHardLimit } = WHIRLPOOL_ADAPTIVE_FEE;
  const denominator = controlDenominator * volatilityScale * volatilityScale;
  const rate = (BigInt(controlFactor) * crossed * crossed + denominator - 1n) / denominator;
  return rate > feeRateHardLimit ? feeRateHardLimit : rate;
}

/** One swap's fee as it walks: the rate before each step, the step's bounded target, and the group moved after it. */
export interface AdaptiveFeeWalk {
  /** the total rate for the next step (accumulator refreshed for the current group) */
  rate(): bigint;
  /** the step's target: `target` or the next tick-group boundary before it; `skipped` = not bounded */
  bound(target: bigint, liquidity: bigint): { target: bigint; skipped: boolean };
  /** after a step to `sqrt`, toward the tick `nextTick` (price `nextTickSqrt`) */
  advance(sqrt: bigint, nextTickSqrt: bigint, nextTick: number, skipped: boolean): void;
}

/** The walk of one swap from `tickCurrentIndex` at the Clock's `now` (`FeeRateManager::new`), or why it is refused. */
export function whirlpoolAdaptiveFeeWalk(oracle: OrcaWhirlpoolOracle, now: bigint, staticFeeRate: number, tickCurrentIndex: number, aToB: boolean): AdaptiveFeeWalk | string {
  const size = oracle.tickGroupSize;
  if (size <= 0) return "the Oracle's tick group size is 0";
  let group = floorDiv(tickCurrentIndex, size);
  const reference = whirlpoolAdaptiveReference(oracle, now, group);
  if (typeof reference === "string") return reference;
  const { volatilityReference, tickGroupIndexReference } = reference;
  const maxAccumulator = BigInt(oracle.maxVolatilityAccumulator);
  if (maxAccumulator < volatilityReference) return "the Oracle's volatility reference exceeds its maximum";
  // the groups around the reference inside which the accumulator is below its maximum: steps are bounded there only
  const reach = Number((maxAccumulator - volatilityReference + WHIRLPOOL_ADAPTIVE_FEE.volatilityScale - 1n) / WHIRLPOOL_ADAPTIVE_FEE.volatilityScale);
  const lowerGroup = tickGroupIndexReference - reach;
  const upperGroup = tickGroupIndexReference + reach;
  const lowerSqrt = lowerGroup * size > ORCA_MIN_TICK ? orcaSqrtPriceAtTick(lowerGroup * size) : undefined;
  const upperSqrt = upperGroup * size + size < ORCA_MAX_TICK ? orcaSqrtPriceAtTick(upperGroup * size + size) : undefined;
  let accumulator = 0n;
  const refresh = () => {
    const moved = BigInt(Math.abs(tickGroupIndexReference - group)) * WHIRLPOOL_ADAPTIVE_FEE.volatilityScale;
    const candidate = volatilityReference + moved;
    accumulator = candidate < maxAccumulator ? candidate : maxAccumulator;
  };
  const step = aToB ? -1 : 1;
  return {
    rate() {
      refresh();
      const total = BigInt(staticFeeRate) + whirlpoolAdaptiveFeeRate(accumulator, size, oracle.adaptiveFeeControlFactor);
      return total > WHIRLPOOL_ADAPTIVE_FEE.feeRateHardLimit ? WHIRLPOOL_ADAPTIVE_FEE.feeRateHardLimit : total;
    },
    bound(target, liquidity) {
      if (oracle.adaptiveFeeControlFactor === 0 || liquidity === 0n) return { target, skipped: true };
      if (lowerSqrt !== undefined && group < lowerGroup) return { target: aToB || target < lowerSqrt ? target : lowerSqrt, skipped: true };
      if (upperSqrt !== undefined && group > upperGroup) return { target: !aToB || target > upperSqrt ? target : upperSqrt, skipped: true };
      const boundaryTick = aToB ? group * size : group * size + size;
      const boundary = orcaSqrtPriceAtTick(Math.min(Math.max(boundaryTick, ORCA_MIN_TICK), ORCA_MAX_TICK));
      return { target: aToB ? (target > boundary ? target : boundary) : target < boundary ? target : boundary, skipped: false };
    },
    advance(sqrt, nextTickSqrt, nextTick, skipped) {
      if (skipped) {
        // the group the price ended in (a B→A step ending exactly on a group boundary last traversed the group below)
        const tick = sqrt === nextTickSqrt ? nextTick : orcaTickAtSqrtPrice(sqrt);
        const onBoundary = tick % size === 0 && (sqrt === nextTickSqrt || sqrt === orcaSqrtPriceAtTick(tick));
        const last = onBoundary && !aToB ? tick / size - 1 : floorDiv(tick, size);
        if ((aToB && last < group) || (!aToB && last > group)) group = last;
      }
      group += step;
    },
  };
}
