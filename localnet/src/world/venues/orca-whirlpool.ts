/**
 * Orca Whirlpool — VENUES.md §12; layouts and instructions by the whirlpool program's IDL v0.6.x (orca-so/whirlpools,
 * `programs/whirlpool` at 630c0e01; IDL @65b313f0) and its newest `state/oracle.rs` (trade_enable_timestamp).
 * WhirlpoolsConfig, FeeTier at PDA(["fee_tier", config, index u16 LE]); Whirlpool (653 B) at PDA(["whirlpool", config,
 * mint_a, mint_b, fee_tier_index u16 LE]) with mint_a < mint_b by bytes; vaults are keypair accounts owned by the pool;
 * fixed TickArrays (9,988 B) at PDA(["tick_array", pool, start_tick_index as decimal text]) spanning 88 ticks. Liquidity
 * sits in one wide position whose bounds are initialized ticks of real tick arrays. A swap is the program's own walk
 * (programs/whirlpool 0.9.0 `manager/swap_manager.rs`, `math/swap_math.rs`, `util/{sparse_swap,swap_tick_sequence}.rs`):
 * the three tick arrays of its sequence (the current one and the next two in its direction, one ahead for a B→A swap on
 * the array's last tick), a step to each initialized tick met, the fee per step (⌊in·(1e6 − fee)/1e6⌋ trades; a step that
 * stops short keeps the rest as fee, one that reaches its tick pays ⌈in·fee/(1e6 − fee)⌉), `protocol_fee_rate` ‱ of each
 * step's fee owed to the protocol, the rest into fee_growth_global; the program's sqrt-price-at-tick table. A swap that
 * would run past its sequence (or leave the position into no liquidity) fails, as on chain. Instructions: swap, swapV2,
 * twoHopSwap, twoHopSwapV2; the Traded event via `Program data:`.
 * An adaptive-fee pool carries an Oracle (PDA(["oracle", pool]), 254 B) whose trade_enable_timestamp holds swaps back
 * until then, and whose variables set a fee on top of the static one (`AdaptiveFee` below, from the program's
 * `manager/fee_rate_manager.rs` and `state/oracle.rs`): each swap refreshes the reference at the block time, walks tick
 * group by tick group at the rate of each, and writes the variables back.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { compareKeys, findPda, keyBytes, pda, u16le } from "../core/keys.js";
import { Q64, ceilDiv } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { MEMO_PROGRAM, ORCA_WHIRLPOOL_PROGRAM, ORCA_WHIRLPOOLS_CONFIG } from "../programs.js";
import { tokenReserve } from "../swap-marks.js";
import { r, rs, w, type Ix, type Step } from "../tx/builder.js";
import { borsh, tokenTransfer, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { defineVenue, swapBySide, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";

export const WHIRLPOOL_SIZE = 653;
export const WHIRLPOOLS_CONFIG_SIZE = 108;
export const FEE_TIER_SIZE = 44;
export const TICK_ARRAY_SIZE = 9988;
export const TICKS_PER_ARRAY = 88;
const TICK_SIZE = 113;
export const ORACLE_SIZE = 254;
const MIN_TICK = -443636;
const MAX_TICK = 443636;
const MIN_SQRT_PRICE = 4295048016n;
const MAX_SQRT_PRICE = 79226673515401279992447579055n;
const U64_MAX = (1n << 64n) - 1n;

/**
 * `sqrt_price_from_tick_index` (programs/whirlpool 0.9.0 math/tick_math.rs): for tick ≥ 0 the Q96 factors of
 * √1.0001^(2^i) multiplied with a 96-bit shift, the result shifted down 32; for tick < 0 the Q64 factors of
 * 1/√1.0001^(2^i) with a 64-bit shift.
 */
const POSITIVE_Q96 = [
  "79232123823359799118286999567", "79236085330515764027303304731", "79244008939048815603706035061", "79259858533276714757314932305",
  "79291567232598584799939703904", "79355022692464371645785046466", "79482085999252804386437311141", "79736823300114093921829183326",
  "80248749790819932309965073892", "81282483887344747381513967011", "83390072131320151908154831281", "87770609709833776024991924138",
  "97234110755111693312479820773", "119332217159966728226237229890", "179736315981702064433883588727", "407748233172238350107850275304",
  "2098478828474011932436660412517", "55581415166113811149459800483533", "38992368544603139932233054999993551",
].map(BigInt);
const NEGATIVE_Q64 = [
  "18445821805675392311", "18444899583751176498", "18443055278223354162", "18439367220385604838", "18431993317065449817",
  "18417254355718160513", "18387811781193591352", "18329067761203520168", "18212142134806087854", "17980523815641551639",
  "17526086738831147013", "16651378430235024244", "15030750278693429944", "12247334978882834399", "8131365268884726200",
  "3584323654723342297", "696457651847595233", "26294789957452057", "37481735321082",
].map(BigInt);

export function whirlpoolSqrtPriceAtTick(tick: number): bigint {
  const abs = Math.abs(tick);
  if (tick >= 0) {
    let ratio = abs & 1 ? POSITIVE_Q96[0]! : 1n << 96n;
    for (let bit = 1; bit < 19; bit++) if (abs & (1 << bit)) ratio = (ratio * POSITIVE_Q96[bit]!) >> 96n;
    return ratio >> 32n;
  }
  let ratio = abs & 1 ? NEGATIVE_Q64[0]! : Q64;
  for (let bit = 1; bit < 19; bit++) if (abs & (1 << bit)) ratio = (ratio * NEGATIVE_Q64[bit]!) >> 64n;
  return ratio;
}

/** `tick_index_from_sqrt_price`: the greatest tick whose sqrt price is at or below `sqrt`. */
export function whirlpoolTickAtSqrtPrice(sqrt: bigint): number {
  let [lo, hi] = [MIN_TICK, MAX_TICK];
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (whirlpoolSqrtPriceAtTick(mid) <= sqrt) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Account and instruction discriminators (IDL v0.6.x). */
export const WHIRLPOOL_DISC = {
  config: hex("9d1431e0d957c1fe"),
  feeTier: hex("384b9f4c8e44be69"),
  whirlpool: hex("3f95d10ce1806309"),
  tickArray: hex("4561bdbe6e0742bb"),
  oracle: hex("8bc283b38cb3e5f4"),
  swap: hex("f8c69e91e17587c8"),
  swapV2: hex("2b04ed0b1ac91e62"),
  twoHopSwap: hex("c360ed6c44a2dbe6"),
  twoHopSwapV2: hex("ba8fd11dfe02c275"),
  traded: hex("e1ca49af932ba096"),
} as const;

/** The world's fee tiers (tick spacing → default fee rate, 1e-6), as on mainnet's main config. */
const FEE_TIERS: [number, number][] = [
  [1, 100],
  [4, 400],
  [8, 500],
  [64, 3000],
  [128, 10000],
];
/** Protocol share of the fee in basis points (the config's default_protocol_fee_rate on mainnet: 13%). */
const PROTOCOL_FEE_RATE = 1300;

export const whirlpoolFeeTierAddress = (index: number) => pda(["fee_tier", keyBytes(ORCA_WHIRLPOOLS_CONFIG), u16le(index)], ORCA_WHIRLPOOL_PROGRAM);
export const whirlpoolOracleAddress = (pool: Pubkey) => pda(["oracle", keyBytes(pool)], ORCA_WHIRLPOOL_PROGRAM);
export const whirlpoolTickArrayAddress = (pool: Pubkey, start: number) => pda(["tick_array", keyBytes(pool), String(start)], ORCA_WHIRLPOOL_PROGRAM);

/** The pool's PDA for (mint_a, mint_b) in byte order and a fee-tier index (= tick spacing for classic tiers). */
export function whirlpoolAddress(mintA: Pubkey, mintB: Pubkey, feeTierIndex: number): [Pubkey, number] {
  return findPda(["whirlpool", keyBytes(ORCA_WHIRLPOOLS_CONFIG), keyBytes(mintA), keyBytes(mintB), u16le(feeTierIndex)], ORCA_WHIRLPOOL_PROGRAM);
}

export interface Whirlpool extends PoolRef {
  bump: number;
  tickSpacing: number;
  feeTierIndex: number;
  feeRate: number;
  mintA: Pubkey;
  mintB: Pubkey;
  vaultA: Pubkey;
  vaultB: Pubkey;
  /** in-range liquidity now; the position's own (its ticks' liquidity_net) is `positionLiquidity` */
  liquidity: bigint;
  positionLiquidity: bigint;
  /** a second, narrower position around the first price (its bounds are initialized ticks too) */
  inner: { lower: number; upper: number; liquidity: bigint } | null;
  sqrtPrice: bigint;
  /** the program's tick_current_index (one below a tick a downward swap ended on) */
  tickCurrent: number;
  lowerTick: number;
  upperTick: number;
  feeGrowthA: bigint;
  feeGrowthB: bigint;
  protocolFeeOwed: [bigint, bigint];
  /** base = mint_a ? */
  baseIsA: boolean;
  /** adaptive-fee pools: the oracle and the time swaps open (unix seconds) */
  oracle: Pubkey | null;
  tradeEnableTimestamp: number | null;
  /** every other swap uses swapV2 (TransferChecked), as wallets mix both */
  swaps: number;
  /** adaptive-fee pools: the Oracle's AdaptiveFeeVariables as the last swap left them */
  volatility: AdaptiveVariables | null;
}

/**
 * AdaptiveFeeConstants of the world's adaptive pools (Oracle @48: filter_period u16, decay_period u16, reduction_factor
 * u16, adaptive_fee_control_factor u32, max_volatility_accumulator u32, tick_group_size u16, major_swap_threshold_ticks
 * u16): filter 30 s, decay 600 s, reduction 0.5, control 1.5%, at most 35 groups, one group per tick spacing, a
 * major swap from one tick (an ordinary mainnet tier's values).
 */
const ADAPTIVE = { filterPeriod: 30, decayPeriod: 600, reductionFactor: 5000, controlFactor: 1500, maxVolatility: 350_000, majorSwapTicks: 1 } as const;

/** AdaptiveFeeVariables (Oracle @82: two u64 times, volatility_reference u32, tick_group_index_reference i32, volatility_accumulator u32). */
export interface AdaptiveVariables {
  lastReferenceUpdate: number;
  lastMajorSwap: number;
  volatilityReference: number;
  groupReference: number;
  accumulator: number;
}

const VOLATILITY_UNIT = 10_000; // one tick group of volatility (VOLATILITY_ACCUMULATOR_SCALE_FACTOR)
const MAX_TOTAL_FEE = 100_000n; // FEE_RATE_HARD_LIMIT, millionths
const REFERENCE_MAX_AGE = 3600; // MAX_REFERENCE_AGE, seconds

/**
 * One swap's adaptive fee (fee_rate_manager.rs): the reference refreshed at the swap's block time, the group the price is
 * in, steps that end at group boundaries while the accumulator can still grow, and the rate per step.
 */
class AdaptiveFee {
  private group: number;
  readonly vars: AdaptiveVariables;
  private readonly low: { group: number; sqrt: bigint } | null;
  private readonly high: { group: number; sqrt: bigint } | null;

  private constructor(private readonly size: number, private readonly staticRate: number, private readonly aToB: boolean, tick: number, vars: AdaptiveVariables) {
    this.group = Math.floor(tick / size);
    this.vars = vars;
    const span = Math.ceil((ADAPTIVE.maxVolatility - vars.volatilityReference) / VOLATILITY_UNIT);
    const lowGroup = vars.groupReference - span;
    const highGroup = vars.groupReference + span;
    this.low = lowGroup * size > MIN_TICK ? { group: lowGroup, sqrt: whirlpoolSqrtPriceAtTick(lowGroup * size) } : null;
    this.high = (highGroup + 1) * size < MAX_TICK ? { group: highGroup, sqrt: whirlpoolSqrtPriceAtTick((highGroup + 1) * size) } : null;
  }

  /** update_reference at `now`; null where the program fails (InvalidTimestamp: the Oracle's times are ahead). */
  static start(p: Whirlpool, aToB: boolean, now: number): AdaptiveFee | null {
    const prior = p.volatility!;
    const vars = { ...prior };
    const group = Math.floor(p.tickCurrent / p.tickSpacing);
    const newest = Math.max(prior.lastReferenceUpdate, prior.lastMajorSwap);
    if (now < newest) return null;
    const fresh = (volatilityReference: number) => Object.assign(vars, { groupReference: group, volatilityReference, lastReferenceUpdate: now });
    if (now - prior.lastReferenceUpdate > REFERENCE_MAX_AGE) fresh(0);
    else if (now - newest >= ADAPTIVE.decayPeriod) fresh(0);
    else if (now - newest >= ADAPTIVE.filterPeriod) fresh(Math.floor((prior.accumulator * ADAPTIVE.reductionFactor) / 10_000));
    return new AdaptiveFee(p.tickSpacing, p.feeRate, aToB, p.tickCurrent, vars);
  }

  /** The rate of the next step: the accumulator for the group the price is in, then static + ⌈c·(acc·size)²/10¹³⌉, capped. */
  rate(): bigint {
    this.vars.accumulator = Math.min(this.vars.volatilityReference + Math.abs(this.vars.groupReference - this.group) * VOLATILITY_UNIT, ADAPTIVE.maxVolatility);
    const crossed = BigInt(this.vars.accumulator * this.size);
    let variable = ceilDiv(BigInt(ADAPTIVE.controlFactor) * crossed * crossed, 100_000n * 10_000n * 10_000n);
    if (variable > MAX_TOTAL_FEE) variable = MAX_TOTAL_FEE;
    const total = BigInt(this.staticRate) + variable;
    return total > MAX_TOTAL_FEE ? MAX_TOTAL_FEE : total;
  }

  /** Where the next step stops (get_bounded_sqrt_price_target) and whether it went unbounded. */
  target(toward: bigint, liquidity: bigint): [bigint, boolean] {
    if (liquidity === 0n) return [toward, true];
    if (this.low && this.group < this.low.group) return [this.aToB ? toward : toward < this.low.sqrt ? toward : this.low.sqrt, true];
    if (this.high && this.group > this.high.group) return [this.aToB ? (toward > this.high.sqrt ? toward : this.high.sqrt) : toward, true];
    const edge = this.aToB ? this.group * this.size : (this.group + 1) * this.size;
    const edgeSqrt = whirlpoolSqrtPriceAtTick(Math.max(MIN_TICK, Math.min(MAX_TICK, edge)));
    if (this.aToB) return [toward > edgeSqrt ? toward : edgeSqrt, false];
    return [toward < edgeSqrt ? toward : edgeSqrt, false];
  }

  /** After a step to `sqrt` aiming at tick `nextTick` (advance_tick_group / advance_tick_group_after_skip). */
  stepped(sqrt: bigint, nextTick: number, nextTickSqrt: bigint, unbounded: boolean): void {
    if (unbounded) {
      const atTick = sqrt === nextTickSqrt;
      const tick = atTick ? nextTick : whirlpoolTickAtSqrtPrice(sqrt);
      const onEdge = tick % this.size === 0 && (atTick || whirlpoolSqrtPriceAtTick(tick) === sqrt);
      // going up, a price exactly on a group's lower edge last traversed the group below
      const traversed = !this.aToB && onEdge ? tick / this.size - 1 : Math.floor(tick / this.size);
      if (this.aToB ? traversed < this.group : traversed > this.group) {
        this.group = traversed;
        this.rate(); // update_volatility_accumulator
      }
    }
    this.group += this.aToB ? -1 : 1;
  }

  /** update_major_swap_timestamp: a move of at least the threshold's sqrt factor (one tick here) marks a major swap. */
  finish(before: bigint, after: bigint, now: number): AdaptiveVariables {
    const [lo, hi] = before < after ? [before, after] : [after, before];
    if (hi >= (lo * whirlpoolSqrtPriceAtTick(ADAPTIVE.majorSwapTicks)) >> 64n) this.vars.lastMajorSwap = now;
    return this.vars;
  }
}

/** One hop's result: amounts and the sqrt price after. */
interface HopQuote {
  out: bigint;
  fee: bigint;
  protocolFee: bigint;
  sqrtNext: bigint;
  tickNext: number;
  liquidityNext: bigint;
  /** fee growth added per unit of liquidity, Q64.64 (each step's LP fee over that step's liquidity) */
  growth: bigint;
  /** an adaptive pool's Oracle variables after the swap */
  volatility: AdaptiveVariables | null;
}

export class OrcaWhirlpoolVenue implements PoolVenue<Whirlpool> {
  readonly pools = new Map<Pubkey, Whirlpool>();
  constructor(private readonly ctx: WorldContext, private readonly authority: Pubkey) {}

  /** The main config and its fee tiers. */
  genesis(): void {
    const { store } = this.ctx;
    store.putRentExempt(
      ORCA_WHIRLPOOLS_CONFIG,
      ORCA_WHIRLPOOL_PROGRAM,
      new FixedWriter(WHIRLPOOLS_CONFIG_SIZE)
        .raw(0, WHIRLPOOL_DISC.config)
        .pubkey(8, this.authority)
        .pubkey(40, this.authority)
        .pubkey(72, this.authority)
        .u16(104, PROTOCOL_FEE_RATE).bytes,
    );
    for (const [spacing, fee] of FEE_TIERS) {
      store.putRentExempt(
        whirlpoolFeeTierAddress(spacing),
        ORCA_WHIRLPOOL_PROGRAM,
        new FixedWriter(FEE_TIER_SIZE).raw(0, WHIRLPOOL_DISC.feeTier).pubkey(8, ORCA_WHIRLPOOLS_CONFIG).u16(40, spacing).u16(42, fee).bytes,
      );
    }
  }

  /**
   * A pool at `price` (quote atoms per base atom) holding `quoteDepth` quote atoms in range, its position spanning
   * [price / widen², price · widen²]; `inner`: a second position as deep, over [price / inner², price · inner²] (so
   * swaps cross its ticks and walk on at the wide position's liquidity). `adaptive`: an adaptive-fee tier (index ≠ tick
   * spacing) with an oracle whose trade_enable_timestamp is `tradeEnableTimestamp`.
   */
  create(opts: {
    baseMint: Pubkey;
    quoteMint: Pubkey;
    tickSpacing: number;
    price: number;
    quoteDepth: bigint;
    widen: number;
    inner?: number;
    vaultKeys: [Pubkey, Pubkey];
    adaptive?: { feeTierIndex: number; feeRate: number; tradeEnableTimestamp: number };
  }): Whirlpool {
    const { ctx } = this;
    const baseIsA = compareKeys(opts.baseMint, opts.quoteMint) < 0;
    const [mintA, mintB] = baseIsA ? [opts.baseMint, opts.quoteMint] : [opts.quoteMint, opts.baseMint];
    const feeTierIndex = opts.adaptive?.feeTierIndex ?? opts.tickSpacing;
    const [address, bump] = whirlpoolAddress(mintA, mintB, feeTierIndex);
    const bPerA = baseIsA ? opts.price : 1 / opts.price;
    const tick = Math.floor(Math.log(bPerA) / Math.log(1.0001));
    const sqrtPrice = whirlpoolSqrtPriceAtTick(tick) + 4321n;
    const spread = Math.ceil(Math.log(opts.widen * opts.widen) / Math.log(1.0001) / opts.tickSpacing) * opts.tickSpacing;
    const aligned = Math.floor(tick / opts.tickSpacing) * opts.tickSpacing;
    const lowerTick = aligned - spread;
    const upperTick = aligned + spread + opts.tickSpacing;
    const sqrtLower = whirlpoolSqrtPriceAtTick(lowerTick);
    const sqrtUpper = whirlpoolSqrtPriceAtTick(upperTick);
    const liquidity = baseIsA
      ? (opts.quoteDepth * Q64) / (sqrtPrice - sqrtLower) // quote is B: b = L·(√P − √Pl)
      : (opts.quoteDepth * sqrtPrice * sqrtUpper) / (Q64 * (sqrtUpper - sqrtPrice)); // quote is A: a = L·(√Pu − √P)/(√P·√Pu)
    let amountA = (liquidity * Q64 * (sqrtUpper - sqrtPrice)) / (sqrtPrice * sqrtUpper) + 1n;
    let amountB = (liquidity * (sqrtPrice - sqrtLower)) / Q64 + 1n;
    let inner: Whirlpool["inner"] = null;
    if (opts.inner !== undefined) {
      const innerSpread = Math.ceil(Math.log(opts.inner * opts.inner) / Math.log(1.0001) / opts.tickSpacing) * opts.tickSpacing;
      inner = { lower: aligned - innerSpread, upper: aligned + innerSpread + opts.tickSpacing, liquidity };
      const [sl, su] = [whirlpoolSqrtPriceAtTick(inner.lower), whirlpoolSqrtPriceAtTick(inner.upper)];
      amountA += (liquidity * Q64 * (su - sqrtPrice)) / (sqrtPrice * su) + 1n;
      amountB += (liquidity * (sqrtPrice - sl)) / Q64 + 1n;
    }
    const feeRate = opts.adaptive?.feeRate ?? FEE_TIERS.find(([s]) => s === opts.tickSpacing)![1];
    const p: Whirlpool = {
      kind: "orca-whirlpool",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      related: {},
      bump,
      tickSpacing: opts.tickSpacing,
      feeTierIndex,
      feeRate,
      mintA,
      mintB,
      vaultA: opts.vaultKeys[0],
      vaultB: opts.vaultKeys[1],
      liquidity: liquidity + (inner?.liquidity ?? 0n),
      positionLiquidity: liquidity,
      inner,
      sqrtPrice,
      tickCurrent: whirlpoolTickAtSqrtPrice(sqrtPrice),
      lowerTick,
      upperTick,
      feeGrowthA: 0n,
      feeGrowthB: 0n,
      protocolFeeOwed: [0n, 0n],
      baseIsA,
      oracle: opts.adaptive ? whirlpoolOracleAddress(address) : null,
      tradeEnableTimestamp: opts.adaptive?.tradeEnableTimestamp ?? null,
      swaps: 0,
      volatility: opts.adaptive ? { lastReferenceUpdate: 0, lastMajorSwap: 0, volatilityReference: 0, groupReference: 0, accumulator: 0 } : null,
    };
    p.related = { whirlpoolsConfig: ORCA_WHIRLPOOLS_CONFIG, tokenVaultA: p.vaultA, tokenVaultB: p.vaultB, ...(p.oracle ? { oracle: p.oracle } : {}) };
    ctx.createTokenAccount(address, mintA, amountA, p.vaultA);
    ctx.createTokenAccount(address, mintB, amountB, p.vaultB);
    this.pools.set(address, p);
    this.write(p);
    this.writeTickArrays(p);
    if (p.oracle) this.writeOracle(p);
    return p;
  }

  write(p: Whirlpool): void {
    const data = new FixedWriter(WHIRLPOOL_SIZE)
      .raw(0, WHIRLPOOL_DISC.whirlpool)
      .pubkey(8, ORCA_WHIRLPOOLS_CONFIG)
      .u8(40, p.bump)
      .u16(41, p.tickSpacing)
      .u16(43, p.feeTierIndex)
      .u16(45, p.feeRate)
      .u16(47, PROTOCOL_FEE_RATE)
      .u128(49, p.liquidity)
      .u128(65, p.sqrtPrice)
      .i32(81, p.tickCurrent)
      .u64(85, p.protocolFeeOwed[0])
      .u64(93, p.protocolFeeOwed[1])
      .pubkey(101, p.mintA)
      .pubkey(133, p.vaultA)
      .u128(165, p.feeGrowthA)
      .pubkey(181, p.mintB)
      .pubkey(213, p.vaultB)
      .u128(245, p.feeGrowthB)
      .u64(261, BigInt(this.ctx.clock.blockTime)).bytes;
    this.ctx.store.putRentExempt(p.address, ORCA_WHIRLPOOL_PROGRAM, data);
  }

  /** Rewrites the oracle, e.g. after its trade_enable_timestamp was set relative to the chain's clock. */
  writeOracle(p: Whirlpool): void {
    const data = new FixedWriter(ORACLE_SIZE)
      .raw(0, WHIRLPOOL_DISC.oracle)
      .pubkey(8, p.address)
      .u64(40, BigInt(p.tradeEnableTimestamp ?? 0))
      .u16(48, ADAPTIVE.filterPeriod)
      .u16(50, ADAPTIVE.decayPeriod)
      .u16(52, ADAPTIVE.reductionFactor)
      .u32(54, ADAPTIVE.controlFactor)
      .u32(58, ADAPTIVE.maxVolatility)
      .u16(62, p.tickSpacing)
      .u16(64, ADAPTIVE.majorSwapTicks)
      .u64(82, BigInt(p.volatility!.lastReferenceUpdate))
      .u64(90, BigInt(p.volatility!.lastMajorSwap))
      .u32(98, p.volatility!.volatilityReference)
      .i32(102, p.volatility!.groupReference)
      .u32(106, p.volatility!.accumulator).bytes;
    this.ctx.store.putRentExempt(p.oracle!, ORCA_WHIRLPOOL_PROGRAM, data);
  }

  /** Start tick of the array holding `tick`. */
  arrayStart(p: Whirlpool, tick: number): number {
    const span = TICKS_PER_ARRAY * p.tickSpacing;
    return Math.floor(tick / span) * span;
  }

  /** Every tick array across the position's range (the bounds' ticks initialized): swaps inside it find theirs. */
  private writeTickArrays(p: Whirlpool): void {
    const span = TICKS_PER_ARRAY * p.tickSpacing;
    for (let start = this.arrayStart(p, p.lowerTick); start <= this.arrayStart(p, p.upperTick); start += span) {
      const data = new FixedWriter(TICK_ARRAY_SIZE).raw(0, WHIRLPOOL_DISC.tickArray).i32(8, start).pubkey(12 + TICKS_PER_ARRAY * TICK_SIZE, p.address);
      for (const [tick, net] of this.initialized(p)) {
        if (this.arrayStart(p, tick) !== start) continue;
        const o = 12 + ((tick - start) / p.tickSpacing) * TICK_SIZE;
        // liquidity_gross: every position's liquidity referencing the tick (one position per bound here)
        data.bool(o, true).i128(o + 1, net).u128(o + 17, net < 0n ? -net : net);
      }
      this.ctx.store.putRentExempt(whirlpoolTickArrayAddress(p.address, start), ORCA_WHIRLPOOL_PROGRAM, data.bytes);
    }
  }

  /**
   * The starts of a swap's tick-array sequence (sparse_swap.rs `get_start_tick_indexes`): the current array and the next
   * two in the swap's direction, one further for a B→A swap whose next tick is in the next array; starts the program
   * does not accept (past the tick range) are left out.
   */
  sequence(p: Whirlpool, aToB: boolean): number[] {
    const span = TICKS_PER_ARRAY * p.tickSpacing;
    const base = Math.floor(p.tickCurrent / span) * span;
    const offsets = aToB ? [0, -1, -2] : p.tickCurrent + p.tickSpacing >= base + span ? [1, 2, 3] : [0, 1, 2];
    // check_is_valid_start_tick: a multiple of the span in range, or the one array holding MIN_TICK (Rust's % truncates, as JS's)
    const valid = (start: number) => (start < MIN_TICK || start > MAX_TICK ? start <= MIN_TICK && start === MIN_TICK - ((MIN_TICK % span) + span) : start % span === 0);
    return offsets.map((o) => base + o * span).filter(valid);
  }

  /** The three tick arrays a swap names: its sequence's (an array never written is passed as its address, read as empty). */
  tickArrays(p: Whirlpool, aToB: boolean): Pubkey[] {
    const starts = this.sequence(p, aToB);
    return [0, 1, 2].map((i) => whirlpoolTickArrayAddress(p.address, starts[Math.min(i, starts.length - 1)]!));
  }

  price(p: Whirlpool): number {
    const s = Number(p.sqrtPrice) / 2 ** 64;
    return p.baseIsA ? s * s : 1 / (s * s);
  }

  /** True while the program refuses swaps (an adaptive pool before its trade_enable_timestamp). */
  closed(p: Whirlpool): boolean {
    return p.tradeEnableTimestamp !== null && this.ctx.clock.blockTime < p.tradeEnableTimestamp;
  }

  /** The pool's initialized ticks and their liquidity_net: each position's bounds (+L at the lower, −L at the upper). */
  private initialized(p: Whirlpool): Map<number, bigint> {
    const nets = new Map<number, bigint>();
    const add = (tick: number, net: bigint) => nets.set(tick, (nets.get(tick) ?? 0n) + net);
    for (const [lower, upper, l] of [[p.lowerTick, p.upperTick, p.positionLiquidity], ...(p.inner ? [[p.inner.lower, p.inner.upper, p.inner.liquidity] as const] : [])] as const) {
      add(lower, l);
      add(upper, -l);
    }
    return nets;
  }

  /**
   * Swapping `amountIn` of A (aToB) or B, exact input, as the program's swap loop does it; null where the program fails
   * (the sequence ends, or the price limit is reached, with input left; nothing out).
   */
  quote(p: Whirlpool, aToB: boolean, amountIn: bigint): HopQuote | null {
    if (amountIn <= 0n) return null;
    const span = TICKS_PER_ARRAY * p.tickSpacing;
    const arrays = this.sequence(p, aToB);
    const ticks = this.initialized(p);
    const feeRate = BigInt(p.feeRate);
    const now = this.ctx.clock.blockTime;
    const adaptive = p.volatility ? AdaptiveFee.start(p, aToB, now) : null;
    if (p.volatility && !adaptive) return null;
    const limit = aToB ? MIN_SQRT_PRICE : MAX_SQRT_PRICE;
    let remaining = amountIn;
    let out = 0n;
    let fee = 0n;
    let protocolFee = 0n;
    let growth = 0n;
    let sqrt = p.sqrtPrice;
    let tick = p.tickCurrent;
    let liquidity = p.liquidity;
    let arrayIndex = 0;
    while (remaining > 0n && sqrt !== limit) {
      // get_next_initialized_tick_index: search this array (down inclusive of the tick, up exclusive), then the next ones
      let found: { index: number; tick: number } | null = null;
      for (let a = arrayIndex, search = tick; a < arrays.length && !found; a++) {
        const startTick = arrays[a]!;
        if (aToB) {
          for (let t = Math.floor(Math.min(search, startTick + span - 1) / p.tickSpacing) * p.tickSpacing; t >= startTick; t -= p.tickSpacing) {
            if (ticks.has(t)) { found = { index: a, tick: t }; break; }
          }
          if (!found && startTick <= MIN_TICK) found = { index: a, tick: MIN_TICK };
          else if (!found && a === arrays.length - 1) found = { index: a, tick: startTick };
          search = startTick - 1;
        } else {
          for (let t = (Math.floor(Math.max(search, startTick - 1) / p.tickSpacing) + 1) * p.tickSpacing; t < startTick + span; t += p.tickSpacing) {
            if (ticks.has(t)) { found = { index: a, tick: t }; break; }
          }
          if (!found && startTick + span > MAX_TICK) found = { index: a, tick: MAX_TICK };
          else if (!found && a === arrays.length - 1) found = { index: a, tick: startTick + span - 1 };
          search = startTick + span - 1;
        }
      }
      if (!found) return null; // TickArraySequenceInvalidIndex: the swap ran past its arrays
      const tickSqrt = whirlpoolSqrtPriceAtTick(found.tick);
      const target = aToB ? (tickSqrt < limit ? limit : tickSqrt) : tickSqrt > limit ? limit : tickSqrt;
      // the inner loop: one step for a static fee, a step per tick group for an adaptive one
      for (;;) {
        const rate = adaptive ? adaptive.rate() : feeRate;
        const [bounded, unbounded] = adaptive ? adaptive.target(target, liquidity) : [target, true];
        const step = swapStep(remaining, rate, liquidity, sqrt, bounded, aToB);
        if (!step) return null;
        remaining -= step.amountIn + step.fee;
        out += step.out;
        fee += step.fee;
        // calculate_fees: the protocol's share rounded down, the rest into fee growth over this step's liquidity
        const protocol = (step.fee * BigInt(PROTOCOL_FEE_RATE)) / 10_000n;
        protocolFee += protocol;
        if (liquidity > 0n) growth += ((step.fee - protocol) << 64n) / liquidity;
        if (step.next === tickSqrt) {
          const net = ticks.get(found.tick);
          if (net !== undefined) liquidity += aToB ? -net : net;
          const offset = Math.floor((found.tick - arrays[found.index]!) / p.tickSpacing);
          arrayIndex = (aToB && offset === 0) || (!aToB && offset === TICKS_PER_ARRAY - 1) ? found.index + 1 : found.index;
          tick = aToB ? found.tick - 1 : found.tick;
        } else if (step.next !== sqrt) tick = whirlpoolTickAtSqrtPrice(step.next);
        sqrt = step.next;
        adaptive?.stepped(sqrt, found.tick, tickSqrt, unbounded);
        if (remaining === 0n || sqrt === target) break;
      }
    }
    // an exact input left over at the price limit is a partial fill; the world's swaps name no limit and want it all
    if (remaining > 0n || out <= 0n || out > U64_MAX) return null;
    const volatility = adaptive ? adaptive.finish(p.sqrtPrice, sqrt, now) : null;
    return { out, fee, protocolFee, sqrtNext: sqrt, tickNext: tick, liquidityNext: liquidity, growth, volatility };
  }

  /** The hop's state change: balances, fee growth, protocol fee owed, price, tick and liquidity. */
  private applyHop(p: Whirlpool, aToB: boolean, amountIn: bigint, q: HopQuote, userIn: Pubkey, userOut: Pubkey): void {
    const { ctx } = this;
    ctx.book.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(aToB ? p.vaultA : p.vaultB), amountIn);
    ctx.book.transfer(ctx.tokenAccount(aToB ? p.vaultB : p.vaultA), ctx.tokenAccount(userOut), q.out);
    if (aToB) {
      p.feeGrowthA += q.growth;
      p.protocolFeeOwed[0] += q.protocolFee;
    } else {
      p.feeGrowthB += q.growth;
      p.protocolFeeOwed[1] += q.protocolFee;
    }
    p.sqrtPrice = q.sqrtNext;
    p.tickCurrent = q.tickNext;
    p.liquidity = q.liquidityNext;
    this.write(p);
    if (q.volatility) {
      p.volatility = q.volatility;
      this.writeOracle(p);
    }
  }

  private traded(p: Whirlpool, aToB: boolean, amountIn: bigint, q: HopQuote): Step {
    return {
      data: borsh()
        .bytes(WHIRLPOOL_DISC.traded)
        .pubkey(p.address).bool(aToB).u128(p.sqrtPrice).u128(q.sqrtNext).u64(amountIn).u64(q.out).u64(0n).u64(0n)
        .u64(q.fee - q.protocolFee).u64(q.protocolFee)
        .done(),
    };
  }

  /** The transfers of a hop: v1 uses Transfer, v2 TransferChecked with the mints. */
  private transfers(p: Whirlpool, aToB: boolean, amountIn: bigint, out: bigint, user: Pubkey, userIn: Pubkey, userOut: Pubkey, v2: boolean): Step[] {
    const inMint = this.ctx.book.mint(aToB ? p.mintA : p.mintB);
    const outMint = this.ctx.book.mint(aToB ? p.mintB : p.mintA);
    const vaultIn = aToB ? p.vaultA : p.vaultB;
    const vaultOut = aToB ? p.vaultB : p.vaultA;
    return v2
      ? [
          { cpi: tokenTransferChecked(inMint.program, userIn, inMint.address, vaultIn, user, amountIn, inMint.decimals) },
          { cpi: tokenTransferChecked(outMint.program, vaultOut, outMint.address, userOut, p.address, out, outMint.decimals) },
        ]
      : [{ cpi: tokenTransfer(inMint.program, userIn, vaultIn, user, amountIn) }, { cpi: tokenTransfer(outMint.program, vaultOut, userOut, p.address, out) }];
  }

  swap(d: Draft, p: Whirlpool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    return swapBySide(side, p.baseIsA, amountIn, userBase, userQuote, (aToB, userIn, userOut) => this.swapRaw(d, p, user, aToB, amountIn, userIn, userOut, fail));
  }

  /** One `swap` or `swapV2` (alternating per pool), exact input. */
  swapRaw(d: Draft, p: Whirlpool, user: Pubkey, aToB: boolean, amountIn: bigint, userIn: Pubkey, userOut: Pubkey, fail: boolean): { out: bigint } | null {
    if (this.closed(p)) return null;
    const q = this.quote(p, aToB, amountIn);
    if (!q) return null;
    const v2 = p.swaps++ % 2 === 1;
    const threshold = fail ? q.out + q.out / 40n + 1n : (q.out * 97n) / 100n;
    const [ownerA, ownerB] = aToB ? [userIn, userOut] : [userOut, userIn];
    const mintA = this.ctx.book.mint(p.mintA);
    const mintB = this.ctx.book.mint(p.mintB);
    const arrays = this.tickArrays(p, aToB).map(w);
    const oracle = w(p.oracle ?? whirlpoolOracleAddress(p.address));
    const args = borsh().u64(amountIn).u64(threshold).u128(0n).bool(true).bool(aToB);
    const ix: Ix = v2
      ? {
          program: ORCA_WHIRLPOOL_PROGRAM,
          accounts: [r(mintA.program), r(mintB.program), r(MEMO_PROGRAM), rs(user), w(p.address), r(p.mintA), r(p.mintB), w(ownerA), w(p.vaultA), w(ownerB), w(p.vaultB), ...arrays, oracle],
          data: borsh().bytes(WHIRLPOOL_DISC.swapV2).bytes(args.u8(0).done()).done(),
          steps: [{ log: "Instruction: SwapV2" }, ...this.transfers(p, aToB, amountIn, q.out, user, userIn, userOut, true), this.traded(p, aToB, amountIn, q)],
          cu: 60000,
        }
      : {
          program: ORCA_WHIRLPOOL_PROGRAM,
          accounts: [r(mintA.program), rs(user), w(p.address), w(ownerA), w(p.vaultA), w(ownerB), w(p.vaultB), ...arrays, oracle],
          data: borsh().bytes(WHIRLPOOL_DISC.swap).bytes(args.done()).done(),
          steps: [{ log: "Instruction: Swap" }, ...this.transfers(p, aToB, amountIn, q.out, user, userIn, userOut, false), this.traded(p, aToB, amountIn, q)],
          cu: 50000,
        };
    const index = d.add(ix, () => this.applyHop(p, aToB, amountIn, q, userIn, userOut));
    if (fail) d.fail = anchorFailure(index, "programs/whirlpool/src/instructions/swap.rs", 69, 6036, "AmountOutBelowMinimum", "Amount out below minimum threshold");
    return { out: q.out };
  }

  /**
   * A `twoHopSwap` (or V2) of `amountIn` through `one` then `two`, which share the intermediate mint: the user's input
   * account pays pool one, pool one pays pool two through the user's intermediate account, pool two pays the output
   * account. Each hop's state change is its own step (`hops`), so the ground truth measures each pool around its own.
   */
  twoHop(
    d: Draft,
    hops: { one: Whirlpool; two: Whirlpool; aToBOne: boolean; aToBTwo: boolean },
    user: Pubkey,
    amountIn: bigint,
    accounts: { input: Pubkey; intermediate: Pubkey; output: Pubkey },
    v2: boolean,
    track: (hop: 0 | 1, apply: () => void) => void,
  ): { mid: bigint; out: bigint } | null {
    const { one, two, aToBOne, aToBTwo } = hops;
    if (this.closed(one) || this.closed(two)) return null;
    const q1 = this.quote(one, aToBOne, amountIn);
    if (!q1) return null;
    const q2 = this.quote(two, aToBTwo, q1.out);
    if (!q2) return null;
    const mint = (p: Whirlpool, a: boolean) => this.ctx.book.mint(a ? p.mintA : p.mintB);
    const inMint = mint(one, aToBOne);
    const midMint = mint(one, !aToBOne);
    const outMint = mint(two, !aToBTwo);
    const vault = (p: Whirlpool, a: boolean) => (a ? p.vaultA : p.vaultB);
    const arrays = [...this.tickArrays(one, aToBOne), ...this.tickArrays(two, aToBTwo)].map(w);
    const oracles = [w(one.oracle ?? whirlpoolOracleAddress(one.address)), w(two.oracle ?? whirlpoolOracleAddress(two.address))];
    const threshold = (q2.out * 97n) / 100n;
    const args = borsh().u64(amountIn).u64(threshold).bool(true).bool(aToBOne).bool(aToBTwo).u128(0n).u128(0n);
    const steps: Step[] = [
      { log: v2 ? "Instruction: TwoHopSwapV2" : "Instruction: TwoHopSwap" },
      ...this.transfers(one, aToBOne, amountIn, q1.out, user, accounts.input, accounts.intermediate, v2),
      this.traded(one, aToBOne, amountIn, q1),
      ...this.transfers(two, aToBTwo, q1.out, q2.out, user, accounts.intermediate, accounts.output, v2),
      this.traded(two, aToBTwo, q1.out, q2),
    ];
    const ix: Ix = v2
      ? {
          program: ORCA_WHIRLPOOL_PROGRAM,
          accounts: [
            w(one.address), w(two.address), r(inMint.address), r(midMint.address), r(outMint.address), r(inMint.program), r(midMint.program), r(outMint.program),
            w(accounts.input), w(vault(one, aToBOne)), w(vault(one, !aToBOne)), w(vault(two, aToBTwo)), w(vault(two, !aToBTwo)), w(accounts.output), rs(user),
            ...arrays, ...oracles, r(MEMO_PROGRAM),
          ],
          data: borsh().bytes(WHIRLPOOL_DISC.twoHopSwapV2).bytes(args.u8(0).done()).done(),
          steps,
          cu: 110000,
        }
      : {
          program: ORCA_WHIRLPOOL_PROGRAM,
          accounts: [
            r(inMint.program), rs(user), w(one.address), w(two.address),
            w(aToBOne ? accounts.input : accounts.intermediate), w(one.vaultA), w(aToBOne ? accounts.intermediate : accounts.input), w(one.vaultB),
            w(aToBTwo ? accounts.intermediate : accounts.output), w(two.vaultA), w(aToBTwo ? accounts.output : accounts.intermediate), w(two.vaultB),
            ...arrays, ...oracles,
          ],
          data: borsh().bytes(WHIRLPOOL_DISC.twoHopSwap).bytes(args.done()).done(),
          steps,
          cu: 95000,
        };
    d.add(ix);
    track(0, () => this.applyHop(one, aToBOne, amountIn, q1, accounts.input, accounts.intermediate));
    track(1, () => this.applyHop(two, aToBTwo, q1.out, q2, accounts.intermediate, accounts.output));
    return { mid: q1.out, out: q2.out };
  }
}

/**
 * One step of the swap at constant liquidity toward `target`, exact input (swap_math.rs `compute_swap`, token_math.rs):
 * Δa = L·2^64·(√u − √l)/(√u·√l) and Δb = L·(√u − √l)/2^64, the input rounded up, the output down; null where the
 * program errs (a price out of bounds).
 */
function swapStep(remaining: bigint, feeRate: bigint, liquidity: bigint, sqrt: bigint, target: bigint, aToB: boolean): { amountIn: bigint; out: bigint; fee: bigint; next: bigint } | null {
  const deltaA = (x: bigint, y: bigint, up: boolean) => {
    const [lo, hi] = x < y ? [x, y] : [y, x];
    const num = ((liquidity * (hi - lo)) << 64n);
    const den = hi * lo;
    return up ? ceilDiv(num, den) : num / den;
  };
  const deltaB = (x: bigint, y: bigint, up: boolean) => {
    const [lo, hi] = x < y ? [x, y] : [y, x];
    const product = liquidity * (hi - lo);
    return up ? ceilDiv(product, Q64) : product >> 64n;
  };
  const fixed = (to: bigint) => (aToB ? deltaA(sqrt, to, true) : deltaB(sqrt, to, true));
  const initial = fixed(target);
  const calc = (remaining * (1_000_000n - feeRate)) / 1_000_000n;
  let next = target;
  if (initial > U64_MAX || initial > calc) {
    // get_next_sqrt_price: from A rounding up (price falls), from B rounding down (price rises)
    next = aToB ? ceilDiv((liquidity * sqrt) << 64n, (liquidity << 64n) + sqrt * calc) : sqrt + (calc << 64n) / liquidity;
    if (next < MIN_SQRT_PRICE || next > MAX_SQRT_PRICE) return null;
  }
  const max = next === target;
  const amountIn = max && initial <= U64_MAX ? initial : fixed(next);
  const out = aToB ? deltaB(sqrt, next, false) : deltaA(sqrt, next, false);
  if (amountIn > U64_MAX || out > U64_MAX) return null;
  const fee = max ? ceilDiv(amountIn * feeRate, 1_000_000n - feeRate) : remaining - amountIn;
  return { amountIn, out, fee, next };
}

/** Orca Whirlpool: token_a/token_b vaults owned by the pool; an adaptive pool opens at its oracle's trade_enable_timestamp (VENUES.md §12). */
export const orcaWhirlpool = defineVenue<Whirlpool>()({
  kind: "orca-whirlpool",
  tradeKind: "orca-whirlpool",
  program: ORCA_WHIRLPOOL_PROGRAM,
  reserves: (p) => [tokenReserve(p.mintA, p.vaultA), tokenReserve(p.mintB, p.vaultB)],
  activation: (p) => (p.tradeEnableTimestamp === null ? null : { time: p.tradeEnableTimestamp }),
});
