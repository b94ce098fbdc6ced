/**
 * Raydium CLMM: the swap walks initialized ticks from the current one, each step at constant liquidity, crossing a tick
 * adding (or, downwards, removing) its liquidity_net — raydium-io/raydium-clmm @03b44b7f programs/amm/src/
 * {instructions/swap.rs, libraries/swap_math.rs, libraries/sqrt_price_math.rs}, as our own code. The walk reads
 * `limits.quoteWalkArrays` tick arrays from the current one in the swap's direction; an array that does not exist
 * holds no initialized tick (the program skips it by its bitmap). A swap that would go past the last array read is
 * answered with the depth read.
 */
import type { Address } from "@solana/kit";
import { limits } from "../limits";
import { ratio } from "../math/fixed-point";
import { RAYDIUM_CLMM_PROGRAM_ADDRESS } from "../solana/well-known";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { findProgramAddressSync } from "../solana/program-address";
import { addressBytes } from "../venues/pda";
import { decodeRaydiumClmmPool } from "../venues/raydium-clmm";
import { addressAt, i128At, i32At, u128At, u16At, u32At } from "./account-fields";
import { perDirection, QuoteRefusal, required, type FeeLine, type QuoterSpec, type SwapResult } from "./pool-quoter";
import {
  ceilDiv,
  deltaAmount0X64,
  deltaAmount1X64,
  nextSqrtFromAmount0X64,
  nextSqrtFromAmount1X64,
  Q128,
  RAYDIUM_MAX_SQRT_PRICE_X64,
  RAYDIUM_MAX_TICK,
  RAYDIUM_MIN_SQRT_PRICE_X64,
  RAYDIUM_MIN_TICK,
  raydiumSqrtPriceAtTick,
  raydiumTickAtSqrtPrice,
} from "./swap-math";

const FEE_RATE_DENOMINATOR = 1_000_000n;
/** TickArrayState: pool_id @8, start_tick_index i32 @40, 60 TickStates of 168 bytes @44 (tick i32 @0, liquidity_net i128 @4, liquidity_gross u128 @20). */
const TICKS_PER_ARRAY = 60;
const TICK_STATE_SIZE = 168;
const TICKS_OFFSET = 44;

const arraySpan = (tickSpacing: number) => tickSpacing * TICKS_PER_ARRAY;
const arrayStartOf = (tick: number, tickSpacing: number) => Math.floor(tick / arraySpan(tickSpacing)) * arraySpan(tickSpacing);

function i32BigEndian(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setInt32(0, value, false);
  return bytes;
}

/** The tick array starts a walk from `tick` reads, in the swap's direction (down when token 0 comes in). */
function walkStarts(tick: number, tickSpacing: number, zeroForOne: boolean): number[] {
  const first = arrayStartOf(tick, tickSpacing);
  const span = arraySpan(tickSpacing);
  return Array.from({ length: limits.quoteWalkArrays }, (_, i) => first + (zeroForOne ? -i : i) * span).filter((start) => start >= RAYDIUM_MIN_TICK - span && start <= RAYDIUM_MAX_TICK);
}

/** TickArray PDA: ["tick_array", pool, start_tick_index i32 big-endian]. */
const tickArrayAddress = (pool: Address, start: number): Address => findProgramAddressSync(RAYDIUM_CLMM_PROGRAM_ADDRESS, ["tick_array", addressBytes(pool) as Uint8Array, i32BigEndian(start)])[0];

/** Initialized ticks (liquidity_gross ≠ 0) of one tick array, checked to belong to the pool and start where expected. */
function initializedTicks(account: AccountBytes, pool: Address, start: number): Map<number, bigint> {
  const layout = "RaydiumClmmTickArray";
  if (account.owner !== RAYDIUM_CLMM_PROGRAM_ADDRESS || addressAt(account, layout, 8) !== pool || i32At(account, layout, 40) !== start) {
    throw new QuoteRefusal(`tick array ${start} is not this pool's`);
  }
  const ticks = new Map<number, bigint>();
  for (let i = 0; i < TICKS_PER_ARRAY; i++) {
    const at = TICKS_OFFSET + i * TICK_STATE_SIZE;
    if (u128At(account, layout, at + 20) === 0n) continue;
    ticks.set(i32At(account, layout, at), i128At(account, layout, at + 4));
  }
  return ticks;
}

export const raydiumClmmQuoter: QuoterSpec = {
  kind: "raydium-clmm",
  async extraAccounts(pool, account, context) {
    const state = decodeRaydiumClmmPool(account);
    const config = addressAt(account, "RaydiumClmmPool", 9);
    const tickSpacing = u16At(account, "RaydiumClmmPool", 235);
    const zeroForOne = context.inputMint === state.mint0;
    const arrays = walkStarts(state.tickCurrent, tickSpacing, zeroForOne).map((start) => tickArrayAddress(pool, start));
    return [config, ...arrays].filter((a) => context.lookup(a) === undefined);
  },
  build(pool, account, context) {
    const state = decodeRaydiumClmmPool(account);
    const tickSpacing = u16At(account, "RaydiumClmmPool", 235);
    const config = required(context, addressAt(account, "RaydiumClmmPool", 9), "amm config");
    // AmmConfig: protocol_fee_rate u32 @43, trade_fee_rate u32 @47, fund_fee_rate u32 @53 (raydium-clmm states/config.rs)
    const protocolRate = BigInt(u32At(config, "RaydiumClmmConfig", 43));
    const tradeRate = BigInt(u32At(config, "RaydiumClmmConfig", 47));
    const fundRate = BigInt(u32At(config, "RaydiumClmmConfig", 53));
    const [mint0, mint1] = [state.mint0, state.mint1];
    // The walk's initialized ticks per direction, read from the arrays once (an exact-output search swaps many times)
    const readWindow = (zeroForOne: boolean): { ordered: [number, bigint][]; edge: number } | string => {
      const starts = walkStarts(state.tickCurrent, tickSpacing, zeroForOne);
      const known: [number, bigint][] = [];
      for (const start of starts) {
        // absent = no initialized tick in that range
        const found = context.lookup(tickArrayAddress(pool, start));
        if (found === undefined) return `tick array ${start} was not read`;
        if (found !== null) known.push(...initializedTicks(found, pool, start));
      }
      const last = starts[starts.length - 1]!;
      const edge = zeroForOne ? last : last + arraySpan(tickSpacing);
      const ordered = known
        .filter(([t]) => (zeroForOne ? t <= state.tickCurrent && t >= edge : t > state.tickCurrent && t < edge))
        .sort((a, b) => (zeroForOne ? b[0] - a[0] : a[0] - b[0]));
      return { ordered, edge };
    };
    const windowOf = perDirection(readWindow);
    return {
      kind: "raydium-clmm",
      pool,
      mints: [mint0, mint1],
      spot: ratio(state.sqrtPriceX64 * state.sqrtPriceX64, Q128),
      reach: `the pool, its amm config and ${limits.quoteWalkArrays} tick arrays of ${TICKS_PER_ARRAY} × ${tickSpacing} ticks from the current one in the swap's direction`,
      exactIn(inputMint, amountIn): SwapResult {
        if ((state.status & 16) !== 0) return { ok: false, reason: "swaps are disabled on this pool" };
        const zeroForOne = inputMint === mint0;
        const window = windowOf(zeroForOne);
        if (typeof window === "string") return { ok: false, reason: window };
        const { ordered, edge } = window;
        const limit = zeroForOne ? RAYDIUM_MIN_SQRT_PRICE_X64 + 1n : RAYDIUM_MAX_SQRT_PRICE_X64 - 1n;
        let remaining = amountIn;
        let sqrt = state.sqrtPriceX64;
        let liquidity = state.liquidity;
        let out = 0n;
        let fee = 0n;
        let protocol = 0n;
        let fund = 0n;
        let next = 0;
        while (remaining > 0n && sqrt !== limit) {
          const initialized = next < ordered.length;
          const tickNext = Math.min(Math.max(initialized ? ordered[next]![0] : edge, RAYDIUM_MIN_TICK), RAYDIUM_MAX_TICK);
          const sqrtNext = raydiumSqrtPriceAtTick(tickNext);
          const target = zeroForOne ? (sqrtNext < limit ? limit : sqrtNext) : sqrtNext > limit ? limit : sqrtNext;
          const step = swapStep(sqrt, target, liquidity, remaining, tradeRate, zeroForOne);
          remaining -= step.amountIn + step.fee;
          out += step.amountOut;
          fee += step.fee;
          // the protocol and fund shares are taken per step, each rounded down
          protocol += (step.fee * protocolRate) / FEE_RATE_DENOMINATOR;
          fund += (step.fee * fundRate) / FEE_RATE_DENOMINATOR;
          sqrt = step.sqrtNext;
          if (sqrt !== sqrtNext) continue;
          if (!initialized) {
            if (remaining > 0n) return { ok: false, reason: `the swap goes past the ${limits.quoteWalkArrays} tick arrays read`, depth: amountIn - remaining };
            break;
          }
          const net = ordered[next]![1];
          liquidity = zeroForOne ? liquidity - net : liquidity + net;
          next++;
        }
        if (remaining > 0n) return { ok: false, reason: "the swap reaches the pool's price limit", depth: amountIn - remaining };
        if (out <= 0n) return { ok: false, reason: "the amount is too small to trade" };
        const fees: FeeLine[] = [
          { kind: "lp", mint: inputMint, amount: fee - protocol - fund },
          { kind: "protocol", mint: inputMint, amount: protocol },
          { kind: "fund", mint: inputMint, amount: fund },
        ];
        return { ok: true, swap: { amountIn, amountOut: out, fees, priceAfter: ratio(sqrt * sqrt, Q128) } };
      },
    };
  },
};

/** One step at constant liquidity toward `target` (swap_math.rs compute_swap_step, exact input). */
function swapStep(sqrt: bigint, target: bigint, liquidity: bigint, remaining: bigint, feeRate: bigint, zeroForOne: boolean) {
  const lessFee = (remaining * (FEE_RATE_DENOMINATOR - feeRate)) / FEE_RATE_DENOMINATOR;
  const toTarget = zeroForOne ? deltaAmount0X64(target, sqrt, liquidity, true) : deltaAmount1X64(sqrt, target, liquidity, true);
  const sqrtNext =
    lessFee >= toTarget ? target : liquidity === 0n ? target : zeroForOne ? nextSqrtFromAmount0X64(sqrt, liquidity, lessFee) : nextSqrtFromAmount1X64(sqrt, liquidity, lessFee);
  const reached = sqrtNext === target;
  const amountIn = reached ? toTarget : zeroForOne ? deltaAmount0X64(sqrtNext, sqrt, liquidity, true) : deltaAmount1X64(sqrt, sqrtNext, liquidity, true);
  const amountOut = zeroForOne ? deltaAmount1X64(sqrtNext, sqrt, liquidity, false) : deltaAmount0X64(sqrt, sqrtNext, liquidity, false);
  const fee = reached ? ceilDiv(amountIn * feeRate, FEE_RATE_DENOMINATOR - feeRate) : remaining - amountIn;
  return { sqrtNext, amountIn, amountOut, fee };
}
