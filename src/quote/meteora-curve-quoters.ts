/**
 * Quoters of Meteora's sqrt-price kinds: DAMM v2 (one liquidity L over [sqrt_min, sqrt_max], or x·y = k on tracked
 * reserves for compounding pools) and DBC (a bonding curve of up to 20 segments, each a liquidity up to a sqrt price).
 * Math: MeteoraAg/damm-v2 @a3d3827f (cp_amm 0.2.1) programs/cp-amm/src/{liquidity_handler/*, math/*, state/fee.rs} and
 * MeteoraAg/dynamic-bonding-curve @b4f95473 (0.1.10) programs/**, as our own formulas: sqrt prices rounded up when token
 * A / base comes in and down when token B / quote comes in, amounts out rounded down, fees rounded up; fee rates as
 * meteora-fee-math.ts computes them, at the chain's slot or time from the Clock sysvar read with the pool.
 */
import { ratio, type Ratio } from "../math/fixed-point";
import { decodeClockSysvar, SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { decodeMeteoraDammV2Pool } from "../venues/meteora-damm-v2";
import { decodeMeteoraDbcConfig, decodeMeteoraDbcPool } from "../venues/meteora-dbc";
import { u128At, u16At, u32At, u64At, u8At } from "./account-fields";
import { bpsToNumerator, FEE_DENOMINATOR, rateLimiterFee, scheduledFee, variableFee } from "./meteora-fee-math";
import { QuoteRefusal, required, type FeeLine, type QuoteContext, type QuoterSpec, type SwapResult } from "./pool-quoter";
import { ceilDiv, meteoraDeltaA, meteoraDeltaB, meteoraNextSqrtFromA, meteoraNextSqrtFromB, Q128, U64_MAX } from "./swap-math";
import { isqrt } from "../math/integer-sqrt";

const priceOfSqrt = (sqrt: bigint) => ratio(sqrt * sqrt, Q128);
const tooSmall: SwapResult = { ok: false, reason: "the amount is too small to trade" };

/** Largest input that still fits when the fee comes off it first: ⌊curve·10⁹ / (10⁹ − fee)⌋. */
const grossOf = (curveAmount: bigint, feeNumerator: bigint, feeOnInput: boolean) => (feeOnInput ? (curveAmount * FEE_DENOMINATOR) / (FEE_DENOMINATOR - feeNumerator) : curveAmount);

/** A pool's trading fee rate (1e-9) for a swap of `amountIn` in a direction, and what the rate follows, in words. */
type FeeRate = { rateOf: (direction: boolean, amountIn: bigint) => bigint; schedule: string };

/** The base fee of a swap plus the dynamic fee (`variable`, when on), capped at `maxFee`; `words` the base fee's schedule. */
function withDynamicFee(baseOf: (direction: boolean, amountIn: bigint) => bigint, dynamicOn: boolean, variable: bigint, maxFee: bigint, words: string[]): FeeRate {
  if (dynamicOn) words.push(`a dynamic fee of ${variable} / 10⁹ from the volatility the last swap left`);
  return {
    rateOf: (direction, amountIn) => {
      const total = baseOf(direction, amountIn) + variable;
      return total > maxFee ? maxFee : total;
    },
    schedule: words.length > 0 ? words.join(" and ") : "a fixed fee",
  };
}

// ---- DAMM v2 ----

const LAYOUT_V2 = "MeteoraDammV2Pool";
/** The trading fee is capped at 50 % (fee_version 0) or 99 % (fee_version 1): `get_max_fee_numerator`. */
const maxFeeOfVersion = (version: number) => (version === 0 ? 500_000_000n : 990_000_000n);

/** The chain's current point for a pool: the slot (activation type 0) or the unix time (1), from the Clock read. */
function currentPoint(context: QuoteContext, activationType: number, what: string): bigint {
  const clock = context.lookup(SYSVAR_CLOCK_ADDRESS);
  if (!clock) throw new QuoteRefusal(`the Clock sysvar was not read (${what} depends on the chain's ${activationType === 0 ? "slot" : "time"})`);
  const { slot, unixTimestamp } = decodeClockSysvar(clock);
  return activationType === 0 ? slot : unixTimestamp;
}

/**
 * A DAMM v2 pool's trading fee rate (1e-9) for a swap of `amountIn` in a direction, as `get_total_trading_fee_from_included_fee_amount`
 * computes it, and what the rate follows, in words. PoolFeesStruct @8: BaseFeeInfo @8 (cliff_fee_numerator u64 @8,
 * base_fee_mode u8 @16, then by mode: time scheduler number_of_period u16 @22, period_frequency u64 @24, reduction_factor
 * u64 @32; rate limiter fee_increment_bps u16 @22, max_limiter_duration u32 @24, max_fee_bps u32 @28, reference_amount
 * u64 @32; market-cap scheduler number_of_period u16 @22, sqrt_price_step_bps u32 @24, scheduler_expiration_duration u32
 * @28, reduction_factor u64 @32), protocol_fee_percent u8 @48, compounding_fee_bps u16 @54, DynamicFeeStruct @56
 * (initialized u8 @56, variable_fee_control u32 @68, bin_step u16 @72, volatility_accumulator u128 @120),
 * init_sqrt_price u128 @152; activation_type u8 @480, fee_version u8 @486.
 */
function dammV2FeeRate(account: AccountBytes, context: QuoteContext, activationPoint: bigint, activationType: number, sqrtPrice: bigint): FeeRate {
  const cliff = u64At(account, LAYOUT_V2, 8);
  const mode = u8At(account, LAYOUT_V2, 16);
  const maxFee = maxFeeOfVersion(u8At(account, LAYOUT_V2, 486));
  const dynamicOn = u8At(account, LAYOUT_V2, 56) !== 0;
  const variable = dynamicOn ? variableFee(u128At(account, LAYOUT_V2, 120), BigInt(u16At(account, LAYOUT_V2, 72)), BigInt(u32At(account, LAYOUT_V2, 68))) : 0n;
  const words: string[] = [];
  let baseOf: (aToB: boolean, amountIn: bigint) => bigint;
  if (mode === 0 || mode === 1) {
    const periods = BigInt(u16At(account, LAYOUT_V2, 22));
    const frequency = u64At(account, LAYOUT_V2, 24);
    const reduction = u64At(account, LAYOUT_V2, 32);
    let base = cliff;
    if (frequency !== 0n) {
      const now = currentPoint(context, activationType, "the fee scheduler");
      const period = now < activationPoint ? periods : (now - activationPoint) / frequency;
      base = scheduledFee(mode === 0 ? "linear" : "exponential", cliff, periods, reduction, period);
      words.push(`a ${mode === 0 ? "linear" : "exponential"} fee scheduler (${base} / 10⁹ now)`);
    }
    baseOf = () => base;
  } else if (mode === 2) {
    const incrementBps = BigInt(u16At(account, LAYOUT_V2, 22));
    const duration = BigInt(u32At(account, LAYOUT_V2, 24));
    const maxFeeBps = BigInt(u32At(account, LAYOUT_V2, 28));
    const reference = u64At(account, LAYOUT_V2, 32);
    const zero = incrementBps === 0n && duration === 0n && maxFeeBps === 0n && reference === 0n;
    const now = zero ? 0n : currentPoint(context, activationType, "the rate limiter");
    const applies = !zero && now >= activationPoint && now <= activationPoint + duration;
    if (applies) words.push("a rate limiter (buys pay more the larger they are)");
    baseOf = (aToB, amountIn) => (applies && !aToB ? rateLimiterFee(cliff, incrementBps, reference, bpsToNumerator(maxFeeBps), amountIn) : cliff);
  } else if (mode === 3 || mode === 4) {
    const periods = BigInt(u16At(account, LAYOUT_V2, 22));
    const stepBps = BigInt(u32At(account, LAYOUT_V2, 24));
    const expiry = BigInt(u32At(account, LAYOUT_V2, 28));
    const reduction = u64At(account, LAYOUT_V2, 32);
    const initSqrt = u128At(account, LAYOUT_V2, 152);
    const now = currentPoint(context, activationType, "the market-cap fee scheduler");
    let period: bigint;
    if (now > activationPoint + expiry || now < activationPoint) period = periods;
    else if (sqrtPrice <= initSqrt) period = 0n;
    else if (initSqrt === 0n || stepBps === 0n) throw new QuoteRefusal("the market-cap fee scheduler has no init price or step");
    else period = ((sqrtPrice - initSqrt) * 10_000n) / initSqrt / stepBps;
    const base = scheduledFee(mode === 3 ? "linear" : "exponential", cliff, periods, reduction, period);
    words.push(`a market-cap fee scheduler (${base} / 10⁹ now)`);
    baseOf = () => base;
  } else {
    throw new QuoteRefusal(`unknown base fee mode ${mode}`);
  }
  return withDynamicFee(baseOf, dynamicOn, variable, maxFee, words);
}


/** A compounding pool's sqrt price from its reserves: ⌊√(b·2¹²⁸ / a)⌋ (`get_sqrt_price_from_amounts`). */
const compoundingSqrt = (a: bigint, b: bigint) => isqrt((b << 128n) / a);

/**
 * DAMM v2: concentrated liquidity L over [sqrt_min, sqrt_max] or, compounding pools (collect_fee_mode 2), x·y = k on
 * the token_a/b_amount it tracks. Fees (FeeMode): mode 0 on the output; 1 and 2 in token B (the input of a B→A swap,
 * else the output); protocol ⌊fee·protocol_fee_percent/100⌋, of the rest a compounding pool keeps
 * ⌊·compounding_fee_bps/10⁴⌋ in its B reserve.
 */
export const meteoraDammV2Quoter: QuoterSpec = {
  kind: "meteora-damm-v2",
  extraAccounts: async (_pool, _account, context) => (context.lookup(SYSVAR_CLOCK_ADDRESS) === undefined ? [SYSVAR_CLOCK_ADDRESS] : []),
  build(pool, account, context) {
    const state = decodeMeteoraDammV2Pool(account);
    const protocolPercent = BigInt(u8At(account, LAYOUT_V2, 48));
    const compoundingBps = BigInt(u16At(account, LAYOUT_V2, 54));
    const compounding = state.collectFeeMode === 2;
    const { liquidity: L, sqrtPrice: s, sqrtMinPrice: min, sqrtMaxPrice: max, tokenAAmount: ra, tokenBAmount: rb } = state;
    const fees = dammV2FeeRate(account, context, state.activationPoint, state.activationType, s);
    const [mintA, mintB] = [state.tokenAMint, state.tokenBMint];
    return {
      kind: "meteora-damm-v2",
      pool,
      mints: [mintA, mintB],
      spot: compounding ? ratio(rb, ra > 0n ? ra : 1n) : priceOfSqrt(s),
      reach: compounding
        ? `the pool account alone: x·y = k on the reserves it tracks; fees: ${fees.schedule}, ${compoundingBps} bps of the LP share compounded`
        : `the pool account alone: its one liquidity over [sqrt_min_price, sqrt_max_price]; fees: ${fees.schedule}`,
      exactIn(inputMint, amountIn): SwapResult {
        if (state.poolStatus !== 0) return { ok: false, reason: "the pool is disabled" };
        if (state.collectFeeMode > 2) return { ok: false, reason: `unknown collect fee mode ${state.collectFeeMode}` };
        const aToB = inputMint === mintA;
        const feeNumerator = fees.rateOf(aToB, amountIn);
        // collect_fee_mode 0: fee from the output; 1 and 2 (token B only): from B, so on the input when B comes in
        const feeOnInput = state.collectFeeMode !== 0 && !aToB;
        const inputFee = feeOnInput ? ceilDiv(amountIn * feeNumerator, FEE_DENOMINATOR) : 0n;
        const curveIn = amountIn - inputFee;
        let gross: bigint;
        let next: bigint | undefined;
        if (compounding) {
          if (ra === 0n || rb === 0n) return { ok: false, reason: "no liquidity" };
          const [rIn, rOut] = aToB ? [ra, rb] : [rb, ra];
          if (rIn + curveIn > U64_MAX) return { ok: false, reason: "the reserve would pass u64" };
          gross = (rOut * curveIn) / (rIn + curveIn);
        } else {
          if (L === 0n) return { ok: false, reason: "no liquidity" };
          if (aToB) {
            next = meteoraNextSqrtFromA(s, L, curveIn);
            if (next < min) return { ok: false, reason: "past the pool's lowest price", depth: meteoraDeltaA(min, s, L, false) };
            gross = meteoraDeltaB(next, s, L, false);
          } else {
            next = meteoraNextSqrtFromB(s, L, curveIn);
            if (next > max) return { ok: false, reason: "past the pool's highest price", depth: grossOf(meteoraDeltaB(s, max, L, false), feeNumerator, feeOnInput) };
            gross = meteoraDeltaA(s, next, L, false);
          }
        }
        const fee = feeOnInput ? inputFee : ceilDiv(gross * feeNumerator, FEE_DENOMINATOR);
        const out = feeOnInput ? gross : gross - fee;
        if (out <= 0n) return tooSmall;
        const protocol = (fee * protocolPercent) / 100n;
        const kept = compoundingBps > 0n ? ((fee - protocol) * compoundingBps) / 10_000n : 0n;
        const feeMint = feeOnInput ? inputMint : aToB ? mintB : mintA;
        const feeLines: FeeLine[] = [
          { kind: "lp", mint: feeMint, amount: fee - protocol },
          { kind: "protocol", mint: feeMint, amount: protocol },
        ];
        let priceAfter: Ratio;
        if (compounding) {
          // A→B: A grows by the input, B loses the output with every fee and keeps the compounded part; B→A: B grows by
          // the input less the fee, plus the compounded part
          const [a2, b2] = aToB ? [ra + amountIn, rb - gross + kept] : [ra - out, rb + curveIn + kept];
          priceAfter = priceOfSqrt(compoundingSqrt(a2, b2));
        } else priceAfter = priceOfSqrt(next!);
        return { ok: true, swap: { amountIn, amountOut: out, fees: feeLines, priceAfter } };
      },
    };
  },
};

// ---- DBC ----

/** Segments of a DBC curve: PoolConfig.curve @408, 20 × {sqrt_price u128, liquidity u128}; sqrt_start_price u128 @392. */
const CURVE_OFFSET = 408;
const CURVE_POINTS = 20;
/** Share of the trading fee that goes to the protocol (DBC constant; unconfirmed beyond our world's configs). */
const DBC_PROTOCOL_FEE_PERCENT = 20n;

/** DBC's cap on the total trading fee (fee::MAX_FEE_NUMERATOR, 99 %). */
const DBC_MAX_FEE = 990_000_000n;

/**
 * A DBC pool's trading fee rate (1e-9) for a swap of `amountIn`, as `get_total_fee_numerator_from_included_fee_amount`
 * computes it. PoolConfig.pool_fees @104: BaseFeeConfig (cliff_fee_numerator u64 @104, second_factor u64 @112,
 * third_factor u64 @120, first_factor u16 @128, base_fee_mode u8 @130: 0/1 fee scheduler linear/exponential with
 * number_of_period = first, period_frequency = second, reduction_factor = third; 2 rate limiter with fee_increment_bps =
 * first, max_limiter_duration = second, reference_amount = third), DynamicFeeConfig @136 (initialized u8 @136,
 * variable_fee_control u32 @148, bin_step u16 @152); activation_type u8 @234. The pool's activation_point u64 @296 and
 * volatility_accumulator u128 @40.
 */
function dbcFeeRate(config: AccountBytes, pool: AccountBytes, context: QuoteContext): FeeRate | string {
  const layout = "MeteoraDbcConfig";
  const cliff = u64At(config, layout, 104);
  const second = u64At(config, layout, 112);
  const third = u64At(config, layout, 120);
  const first = BigInt(u16At(config, layout, 128));
  const mode = u8At(config, layout, 130);
  const activationType = u8At(config, layout, 234);
  const activationPoint = u64At(pool, "MeteoraDbcPool", 296);
  const dynamicOn = u8At(config, layout, 136) !== 0;
  const variable = dynamicOn ? variableFee(u128At(pool, "MeteoraDbcPool", 40), BigInt(u16At(config, layout, 152)), BigInt(u32At(config, layout, 148))) : 0n;
  const words: string[] = [];
  let baseOf: (buy: boolean, amountIn: bigint) => bigint;
  if (mode === 0 || mode === 1) {
    let base = cliff;
    if (second !== 0n) {
      const now = currentPoint(context, activationType, "the fee scheduler");
      if (now < activationPoint) return "the curve is not active yet: its fee scheduler has not started";
      base = scheduledFee(mode === 0 ? "linear" : "exponential", cliff, first, third, (now - activationPoint) / second);
      words.push(`a ${mode === 0 ? "linear" : "exponential"} fee scheduler (${base} / 10⁹ now)`);
    }
    baseOf = () => base;
  } else if (mode === 2) {
    const zero = first === 0n && second === 0n && third === 0n;
    const applies = !zero && currentPoint(context, activationType, "the rate limiter") <= activationPoint + second;
    if (applies) words.push("a rate limiter (buys pay more the larger they are)");
    baseOf = (buy, amountIn) => (applies && buy ? rateLimiterFee(cliff, first, third, DBC_MAX_FEE, amountIn) : cliff);
  } else {
    return `unknown base fee mode ${mode}`;
  }
  return withDynamicFee(baseOf, dynamicOn, variable, DBC_MAX_FEE, words);
}

export const meteoraDbcQuoter: QuoterSpec = {
  kind: "meteora-dbc",
  extraAccounts: async (_pool, _account, context) => (context.lookup(SYSVAR_CLOCK_ADDRESS) === undefined ? [SYSVAR_CLOCK_ADDRESS] : []),
  build(pool, account, context) {
    const state = decodeMeteoraDbcPool(account);
    const configAccount = required(context, state.config, "pool config");
    const config = decodeMeteoraDbcConfig(configAccount);
    // collect_fee_mode u8 @232
    const feeRate = dbcFeeRate(configAccount, account, context);
    const collectFeeMode = u8At(configAccount, "MeteoraDbcConfig", 232);
    const sqrtStart = u128At(configAccount, "MeteoraDbcConfig", 392);
    const curve: { sqrt: bigint; liquidity: bigint }[] = [];
    for (let i = 0; i < CURVE_POINTS; i++) {
      const sqrt = u128At(configAccount, "MeteoraDbcConfig", CURVE_OFFSET + 32 * i);
      const liquidity = u128At(configAccount, "MeteoraDbcConfig", CURVE_OFFSET + 32 * i + 16);
      if (sqrt === 0n || liquidity === 0n) break;
      curve.push({ sqrt, liquidity });
    }
    if (curve.length === 0) throw new QuoteRefusal("the pool config holds no curve");
    const [base, quote] = [state.baseMint, config.quoteMint];
    const s = state.sqrtPrice;
    return {
      kind: "meteora-dbc",
      pool,
      mints: [base, quote],
      spot: priceOfSqrt(s),
      reach: `the pool and its config: ${curve.length} curve segment(s) from the start price to the migration price; fees: ${typeof feeRate === "string" ? feeRate : feeRate.schedule}`,
      exactIn(inputMint, amountIn): SwapResult {
        if (state.isMigrated || state.quoteReserve >= config.migrationQuoteThreshold) return { ok: false, reason: "the curve is complete: the token trades in its migrated pool" };
        if (typeof feeRate === "string") return { ok: false, reason: feeRate };
        const buy = inputMint === quote;
        const feeNumerator = feeRate.rateOf(buy, amountIn);
        // collect_fee_mode 0: fees in the quote token (on the input of a buy, the output of a sell); 1: on the output
        const feeOnInput = collectFeeMode === 0 && buy;
        const inputFee = feeOnInput ? ceilDiv(amountIn * feeNumerator, FEE_DENOMINATOR) : 0n;
        let left = amountIn - inputFee;
        let sqrt = s;
        let gross = 0n;
        if (buy) {
          // up the curve: each segment to its sqrt price, the last partly
          let room = 0n;
          for (const point of curve) {
            if (point.sqrt <= sqrt) continue;
            const full = meteoraDeltaB(sqrt, point.sqrt, point.liquidity, true);
            if (left < full) {
              const next = meteoraNextSqrtFromB(sqrt, point.liquidity, left);
              gross += meteoraDeltaA(sqrt, next, point.liquidity, false);
              sqrt = next;
              left = 0n;
              break;
            }
            gross += meteoraDeltaA(sqrt, point.sqrt, point.liquidity, false);
            room += full;
            sqrt = point.sqrt;
            left -= full;
          }
          if (left > 0n) return { ok: false, reason: "past the migration price: the curve completes", depth: grossOf(room, feeNumerator, feeOnInput) };
          if (gross >= state.baseReserve) return { ok: false, reason: `the curve holds ${state.baseReserve} base atoms` };
        } else {
          // down the curve: segment i+1's liquidity holds between point i and point i+1; below point 0, segment 0's
          let room = 0n;
          for (let i = curve.length - 2; i >= 0 && left > 0n; i--) {
            const point = curve[i]!;
            if (point.sqrt >= sqrt) continue;
            const liquidity = curve[i + 1]!.liquidity;
            const full = meteoraDeltaA(point.sqrt, sqrt, liquidity, true);
            if (left < full) {
              const next = meteoraNextSqrtFromA(sqrt, liquidity, left);
              gross += meteoraDeltaB(next, sqrt, liquidity, false);
              sqrt = next;
              left = 0n;
              break;
            }
            gross += meteoraDeltaB(point.sqrt, sqrt, liquidity, false);
            room += full;
            sqrt = point.sqrt;
            left -= full;
          }
          if (left > 0n) {
            const liquidity = curve[0]!.liquidity;
            const next = meteoraNextSqrtFromA(sqrt, liquidity, left);
            if (next < sqrtStart) return { ok: false, reason: "below the curve's start price", depth: room + meteoraDeltaA(sqrtStart, sqrt, liquidity, false) };
            gross += meteoraDeltaB(next, sqrt, liquidity, false);
            sqrt = next;
          }
        }
        const fee = feeOnInput ? inputFee : ceilDiv(gross * feeNumerator, FEE_DENOMINATOR);
        const out = feeOnInput ? gross : gross - fee;
        if (out <= 0n) return tooSmall;
        const protocol = (fee * DBC_PROTOCOL_FEE_PERCENT) / 100n;
        const feeMint = feeOnInput ? inputMint : buy ? base : quote;
        const fees: FeeLine[] = [
          { kind: "partner", mint: feeMint, amount: fee - protocol },
          { kind: "protocol", mint: feeMint, amount: protocol },
        ];
        return { ok: true, swap: { amountIn, amountOut: out, fees, priceAfter: priceOfSqrt(sqrt) } };
      },
    };
  },
};
