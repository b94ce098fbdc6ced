/**
 * Orca Whirlpool: concentrated liquidity, the swap walking initialized ticks from the current price, each step at
 * constant liquidity (orca-so/whirlpools @630c0e0, program 0.9.0: `manager/swap_manager.rs`, `math/{swap_math,
 * token_math,tick_math}.rs`, `util/{sparse_swap,swap_tick_sequence}.rs`; the same math as whirlpools-core 2.1.1 /
 * @orca-so/whirlpools-core 3.1.1 `swap_quote_by_input_token`), as our own code. Fee rate in millionths
 * (`fee_rate`, hundredths of a basis point), taken per step: a step that stops short of its target keeps all that is
 * left as fee, a step that reaches it pays ⌈in·fee / (1e6 − fee)⌉; `protocol_fee_rate` ‱ of each step's fee (rounded
 * down) is owed to the protocol, the rest goes to the liquidity providers.
 *
 * One swap instruction crosses at most three tick arrays (the program's swap tick sequence holds three: the current one
 * and the next two in the swap's direction, shifted one ahead when a B→A swap starts on the current array's last
 * tick), so the walk reads those three; an array that does not exist holds no initialized tick (the program takes its
 * address as an empty array). A swap that would go past them fails on chain: the size is answered with the depth read.
 *
 * Adaptive-fee pools (fee-tier index ≠ tick spacing) charge a variable fee on top that grows with the tick groups the
 * swap itself crosses and decays with the time since the Oracle's reference (whirlpool-adaptive-fee.ts): their quote
 * reads the Oracle and the Clock sysvar, and is exact for the chain time that Clock held.
 */
import type { Address } from "@solana/kit";
import { ratio } from "../math/fixed-point";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { findProgramAddressSync } from "../solana/program-address";
import { ORCA_WHIRLPOOL_PROGRAM_ADDRESS } from "../solana/well-known";
import { addressBytes } from "../venues/pda";
import { decodeClockSysvar, SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import {
  decodeOrcaTickArray,
  decodeOrcaWhirlpool,
  decodeOrcaWhirlpoolOracle,
  isAdaptiveFeeWhirlpool,
  ORCA_TICKS_PER_ARRAY,
  orcaWhirlpoolOracleAddress,
  ticksOfOrcaTickArray,
  type OrcaWhirlpoolOracle,
} from "../venues/orca-whirlpool";
import { perDirection, QuoteRefusal, required, type FeeLine, type QuoterSpec, type SwapResult } from "./pool-quoter";
import { whirlpoolAdaptiveFeeWalk } from "./whirlpool-adaptive-fee";
import {
  ceilDiv,
  deltaAmount0X64,
  deltaAmount1X64,
  nextSqrtFromAmount0X64,
  nextSqrtFromAmount1X64,
  ORCA_MAX_SQRT_PRICE_X64,
  ORCA_MAX_TICK,
  ORCA_MIN_SQRT_PRICE_X64,
  ORCA_MIN_TICK,
  orcaSqrtPriceAtTick,
  Q128,
  U64_MAX,
} from "./swap-math";

const FEE_RATE_DENOMINATOR = 1_000_000n;
const PROTOCOL_FEE_DENOMINATOR = 10_000n;
/** Tick arrays in one swap's sequence (sparse_swap.rs `get_start_tick_indexes`). */
export const WHIRLPOOL_SWAP_TICK_ARRAYS = 3;

const spanOf = (tickSpacing: number) => tickSpacing * ORCA_TICKS_PER_ARRAY;

/** A start the program accepts: a multiple of the span inside the tick range, or the one array holding MIN_TICK. */
function validStart(start: number, tickSpacing: number): boolean {
  const span = spanOf(tickSpacing);
  return start % span === 0 && start >= Math.floor(ORCA_MIN_TICK / span) * span && start <= ORCA_MAX_TICK;
}

/** The starts of the tick arrays a swap from `tick` uses, in its direction (sparse_swap.rs `get_start_tick_indexes`). */
export function whirlpoolWalkStarts(tick: number, tickSpacing: number, aToB: boolean): number[] {
  const span = spanOf(tickSpacing);
  const base = Math.floor(tick / span) * span;
  const shifted = !aToB && tick + tickSpacing >= base + span;
  const offsets = aToB ? [0, -1, -2] : shifted ? [1, 2, 3] : [0, 1, 2];
  return offsets.map((o) => base + o * span).filter((start) => validStart(start, tickSpacing));
}

/** TickArray PDA: ["tick_array", pool, start tick index as decimal text]. */
export const whirlpoolTickArrayAddress = (pool: Address, start: number): Address =>
  findProgramAddressSync(ORCA_WHIRLPOOL_PROGRAM_ADDRESS, ["tick_array", addressBytes(pool) as Uint8Array, String(start)])[0];

/**
 * Where the walk ends when no initialized tick is left: the last array's first tick going down (MIN_TICK on the array
 * that holds it), its last tick going up (MAX_TICK likewise) — `get_next_initialized_tick_index`.
 */
function walkEdge(lastStart: number, tickSpacing: number, aToB: boolean): number {
  const span = spanOf(tickSpacing);
  if (aToB) return lastStart <= ORCA_MIN_TICK ? ORCA_MIN_TICK : lastStart;
  return lastStart + span > ORCA_MAX_TICK ? ORCA_MAX_TICK : lastStart + span - 1;
}

export const orcaWhirlpoolQuoter: QuoterSpec = {
  kind: "orca-whirlpool",
  async extraAccounts(pool, account, context) {
    const state = decodeOrcaWhirlpool(account);
    const aToB = context.inputMint === state.mintA;
    const wanted = whirlpoolWalkStarts(state.tickCurrentIndex, state.tickSpacing, aToB).map((start) => whirlpoolTickArrayAddress(pool, start));
    // an adaptive fee: the Oracle's variables and the chain time they decay by
    if (isAdaptiveFeeWhirlpool(state)) wanted.push(orcaWhirlpoolOracleAddress(account, state), SYSVAR_CLOCK_ADDRESS);
    return wanted.filter((a) => context.lookup(a) === undefined);
  },
  build(pool, account, context) {
    const state = decodeOrcaWhirlpool(account);
    const { tickSpacing, mintA, mintB } = state;
    const feeRate = BigInt(state.feeRate);
    const protocolRate = BigInt(state.protocolFeeRate);
    let adaptive: { oracle: OrcaWhirlpoolOracle; oracleAddress: Address; now: bigint } | undefined;
    if (isAdaptiveFeeWhirlpool(state)) {
      const oracleAddress = orcaWhirlpoolOracleAddress(account, state);
      const oracle = decodeOrcaWhirlpoolOracle(required(context, oracleAddress, "the pool's Oracle"));
      if (oracle.whirlpool !== pool) throw new QuoteRefusal(`the Oracle ${oracleAddress} is not this pool's`);
      const clock = context.lookup(SYSVAR_CLOCK_ADDRESS);
      if (!clock) throw new QuoteRefusal("the Clock sysvar was not read (the adaptive fee depends on the time since the Oracle's reference)");
      adaptive = { oracle, oracleAddress, now: decodeClockSysvar(clock).unixTimestamp };
    }
    // The initialized ticks of the walk per direction, read once (an exact-output search swaps many times)
    const readWindow = (aToB: boolean): { ordered: [number, bigint][]; edge: number; arrays: number } | string => {
      const starts = whirlpoolWalkStarts(state.tickCurrentIndex, tickSpacing, aToB);
      if (starts.length === 0) return "no tick array holds the pool's price";
      const known: [number, bigint][] = [];
      for (const start of starts) {
        const found = context.lookup(whirlpoolTickArrayAddress(pool, start));
        if (found === undefined) return `tick array ${start} was not read`;
        if (found === null) continue; // absent = no initialized tick in that range
        let array;
        try {
          array = decodeOrcaTickArray(found);
        } catch (err) {
          return `tick array ${start}: ${err instanceof Error ? err.message : String(err)}`;
        }
        if (array.whirlpool !== pool || array.startTickIndex !== start) throw new QuoteRefusal(`tick array ${start} is not this pool's`);
        for (const t of ticksOfOrcaTickArray(array, tickSpacing)) known.push([t.index, t.liquidityNet]);
      }
      const edge = walkEdge(starts[starts.length - 1]!, tickSpacing, aToB);
      const current = state.tickCurrentIndex;
      const ordered = known
        .filter(([t]) => (aToB ? t <= current && t >= edge : t > current && t <= edge))
        .sort((a, b) => (aToB ? b[0] - a[0] : a[0] - b[0]));
      return { ordered, edge, arrays: starts.length };
    };
    const windowOf = perDirection(readWindow);
    return {
      kind: "orca-whirlpool",
      pool,
      mints: [mintA, mintB],
      spot: ratio(state.sqrtPrice * state.sqrtPrice, Q128),
      reach:
        `the pool${adaptive ? ", its Oracle (adaptive fee) and the Clock" : ""} and the ${WHIRLPOOL_SWAP_TICK_ARRAYS} tick arrays of ${ORCA_TICKS_PER_ARRAY} × ${tickSpacing} ticks ` +
        "one swap can cross (the current one and the next two in the swap's direction)",
      ...(adaptive ? { roles: { oracle: adaptive.oracleAddress, clock: SYSVAR_CLOCK_ADDRESS } } : {}),
      exactIn(inputMint, amountIn): SwapResult {
        const aToB = inputMint === mintA;
        const window = windowOf(aToB);
        if (typeof window === "string") return { ok: false, reason: window };
        const feeWalk = adaptive && whirlpoolAdaptiveFeeWalk(adaptive.oracle, adaptive.now, state.feeRate, state.tickCurrentIndex, aToB);
        if (typeof feeWalk === "string") return { ok: false, reason: feeWalk };
        let lowestRate: bigint | undefined;
        let highestRate = 0n;
        const { ordered, edge } = window;
        const limit = aToB ? ORCA_MIN_SQRT_PRICE_X64 : ORCA_MAX_SQRT_PRICE_X64;
        let remaining = amountIn;
        let sqrt = state.sqrtPrice;
        let liquidity = state.liquidity;
        let out = 0n;
        let fee = 0n;
        let protocol = 0n;
        let next = 0;
        while (remaining > 0n && sqrt !== limit) {
          const initialized = next < ordered.length;
          const tickNext = initialized ? ordered[next]![0] : edge;
          const sqrtNext = orcaSqrtPriceAtTick(tickNext);
          const target = aToB ? (sqrtNext < limit ? limit : sqrtNext) : sqrtNext > limit ? limit : sqrtNext;
          // an adaptive fee steps tick group by tick group toward the target, each step at the rate of its group
          do {
            const rate = feeWalk ? feeWalk.rate() : feeRate;
            const bounded = feeWalk ? feeWalk.bound(target, liquidity) : { target, skipped: true };
            const step = swapStep(sqrt, bounded.target, liquidity, remaining, rate, aToB);
            if (typeof step === "string") return { ok: false, reason: step };
            if (lowestRate === undefined || rate < lowestRate) lowestRate = rate;
            if (rate > highestRate) highestRate = rate;
            remaining -= step.amountIn + step.fee;
            out += step.amountOut;
            fee += step.fee;
            // calculate_fees: the protocol's share of each step's fee, rounded down
            protocol += (step.fee * protocolRate) / PROTOCOL_FEE_DENOMINATOR;
            sqrt = step.sqrtNext;
            if (feeWalk) feeWalk.advance(sqrt, sqrtNext, tickNext, bounded.skipped);
          } while (feeWalk && remaining > 0n && sqrt !== target);
          if (sqrt !== sqrtNext) continue;
          if (!initialized) {
            if (remaining > 0n) {
              const why = edge === ORCA_MIN_TICK || edge === ORCA_MAX_TICK ? "the swap reaches the pool's price limit" : `the swap goes past the ${window.arrays} tick array${window.arrays === 1 ? "" : "s"} one swap can cross`;
              return { ok: false, reason: why, depth: amountIn - remaining };
            }
            break;
          }
          const net = ordered[next]![1];
          liquidity = aToB ? liquidity - net : liquidity + net;
          if (liquidity < 0n) return { ok: false, reason: "the tick arrays read give a negative liquidity" };
          next++;
        }
        if (remaining > 0n) return { ok: false, reason: "the swap reaches the pool's price limit", depth: amountIn - remaining };
        if (out > U64_MAX) return { ok: false, reason: "the output is beyond u64" };
        if (out <= 0n) return { ok: false, reason: "the amount is too small to trade" };
        const fees: FeeLine[] = [
          { kind: "lp", mint: inputMint, amount: fee - protocol },
          { kind: "protocol", mint: inputMint, amount: protocol },
        ];
        const swap = { amountIn, amountOut: out, fees, priceAfter: ratio(sqrt * sqrt, Q128) };
        if (!adaptive) return { ok: true, swap };
        const rates = lowestRate === highestRate ? `${highestRate}` : `${lowestRate} to ${highestRate}`;
        const note = `fee rate ${rates} millionths: the static ${feeRate} plus the adaptive fee of Oracle ${adaptive.oracleAddress} at Clock unix time ${adaptive.now}`;
        return { ok: true, swap: { ...swap, note } };
      },
    };
  },
};

/**
 * One step at constant liquidity toward `target`, exact input (swap_math.rs `compute_swap`): the input after the fee,
 * ⌊remaining·(1e6 − fee)/1e6⌋, reaches the target when the rounded-up amount to it fits (an amount beyond u64 never
 * fits); token A amounts are L·2^64·Δ√P/(√P_a·√P_b), token B amounts L·Δ√P/2^64, inputs rounded up, outputs down.
 */
function swapStep(sqrt: bigint, target: bigint, liquidity: bigint, remaining: bigint, feeRate: bigint, aToB: boolean) {
  const lessFee = (remaining * (FEE_RATE_DENOMINATOR - feeRate)) / FEE_RATE_DENOMINATOR;
  const toTarget = aToB ? deltaAmount0X64(target, sqrt, liquidity, true) : deltaAmount1X64(sqrt, target, liquidity, true);
  let sqrtNext = target;
  if (toTarget > U64_MAX || toTarget > lessFee) {
    sqrtNext = aToB ? nextSqrtFromAmount0X64(sqrt, liquidity, lessFee) : nextSqrtFromAmount1X64(sqrt, liquidity, lessFee);
    if (sqrtNext < ORCA_MIN_SQRT_PRICE_X64 || sqrtNext > ORCA_MAX_SQRT_PRICE_X64) return "the swap reaches the pool's price limit";
  }
  const reached = sqrtNext === target;
  const amountIn = reached && toTarget <= U64_MAX ? toTarget : aToB ? deltaAmount0X64(sqrtNext, sqrt, liquidity, true) : deltaAmount1X64(sqrt, sqrtNext, liquidity, true);
  const amountOut = aToB ? deltaAmount1X64(sqrtNext, sqrt, liquidity, false) : deltaAmount0X64(sqrt, sqrtNext, liquidity, false);
  if (amountIn > U64_MAX || amountOut > U64_MAX) return "a step's amount is beyond u64";
  const fee = reached ? ceilDiv(amountIn * feeRate, FEE_RATE_DENOMINATOR - feeRate) : remaining - amountIn;
  return { sqrtNext, amountIn, amountOut, fee };
}
