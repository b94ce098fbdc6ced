/**
 * Meteora DLMM (lb_clmm `LBUZKhRx…`): the swap walks bins from `active_id`, one bin at a time, each a constant-sum
 * market at its Q64.64 price; the fee rate is the base fee plus a variable fee from the volatility accumulator, which
 * the program recomputes for every bin it visits. Math of lb_clmm 0.12 as its SDKs mirror it (dlmm-sdk @fb02e51a
 * commons/src/{quote.rs, extensions/lb_pair.rs, math/{u64x64_math,price_math}.rs}; @meteora-ag/dlmm 1.9.14
 * swapQuote / swapExactInQuoteAtBin for the per-bin fill), as our own code:
 * - at swap start, `update_references(now)`: `elapsed = now − last_update_timestamp`; when elapsed ≥ filter_period the
 *   index reference becomes the active id and the volatility reference decays to accumulator·reduction_factor/10⁴ (or
 *   to 0 once elapsed ≥ decay_period);
 * - at every bin visited, `volatility_accumulator = min(volatility_reference + |index_reference − active_id|·10⁴,
 *   max_volatility_accumulator)`; fee rate (1e-9) = min(base_factor·bin_step·10·10^power +
 *   ⌈variable_fee_control·(accumulator·bin_step)²/10¹¹⌉, 10⁸);
 * - in a bin (fee on the input, collect_fee_mode 0): fee ⌈in·r/10⁹⌉ first; the rest gets ⌊net·price/2⁶⁴⌋ (X in) or
 *   ⌊net·2⁶⁴/price⌋ (Y in) unless it reaches what the bin holds (⌈out·2⁶⁴/price⌉ or ⌈out·price/2⁶⁴⌉): then the bin pays
 *   all it holds and keeps that input grossed up, ⌈in·10⁹/(10⁹ − r)⌉, the rest going on to the next bin; the protocol
 *   takes ⌊fee·protocol_share/10⁴⌋ of each bin's fee; a bin empty on the output side is skipped;
 * - collect_fee_mode 1 (OnlyY): the fee is always in Y — on the input as above when Y goes in; when X goes in, the bin
 *   fills with all the input and the fee ⌈out·r/10⁹⌉ comes off the Y it pays;
 * - limit orders (function_type 2, or 0 while the pair has no reward): a bin's orders on the output side fill after its
 *   liquidity, processed ones first, at the bin's price; the fee on what orders fill is split half to their owners and
 *   half to the protocol (dlmm-sdk @fb02e51a commons/src/quote.rs split_fee, the prod program of that commit's tests).
 * The walk reads `limits.quoteWalkArrays` bin arrays of 70 bins from the active one in the swap's direction, in one
 * batched read. A bin array that does not exist ends the walk (the program would jump the gap to the next array its
 * bitmap marks; we do not follow it): a swap that needs more answers with the depth read.
 */
import type { Address } from "@solana/kit";
import { limits } from "../limits";
import { ratio } from "../math/fixed-point";
import { decodeClockSysvar, SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { findProgramAddressSync } from "../solana/program-address";
import { METEORA_DLMM_PROGRAM_ADDRESS } from "../solana/well-known";
import { decodeMeteoraDlmmPair } from "../venues/meteora-dlmm";
import { addressBytes } from "../venues/pda";
import { addressAt, DEFAULT_ADDRESS, i32At, u128At, u16At, u32At, u64At, u8At } from "./account-fields";
import { perDirection, QuoteRefusal, type FeeLine, type QuoterSpec, type SwapResult } from "./pool-quoter";
import { ceilDiv, Q64, U128_MAX, U64_MAX } from "./swap-math";

const LAYOUT = "MeteoraDlmmPair";
const BINS_PER_ARRAY = 70;
/** BinArray: index i64 @8, lb_pair @24, 70 bins of 144 B @56 (amount_x u64 @0, amount_y u64 @8, price u128 @16). */
const BIN_ARRAY_SIZE = 10136;
const BINS_OFFSET = 56;
const BIN_SIZE = 144;
const FEE_PRECISION = 1_000_000_000n;
/** MAX_FEE_RATE: the total fee rate is capped at 10 % (1e-9 units). */
const MAX_FEE_RATE = 100_000_000n;
const BASIS_POINT_MAX = 10_000n;
/** LIMIT_ORDER_FEE_SHARE: the order owners' share (10⁻⁴) of the fee paid on what limit orders fill. */
const LIMIT_ORDER_FEE_SHARE = 5_000n;
/** The program's bin id bounds (u64x64 prices of 1-bps bins stay below 2⁶⁴ up to here). */
const MIN_BIN_ID = -443636;
const MAX_BIN_ID = 443636;

const arrayIndexOf = (binId: number) => Math.floor(binId / BINS_PER_ARRAY);

function i64LittleEndian(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt(value), true);
  return bytes;
}

/** BinArray PDA: ["bin_array", lb_pair, index i64 LE]. */
export const dlmmBinArrayAddress = (pair: Address, index: number): Address =>
  findProgramAddressSync(METEORA_DLMM_PROGRAM_ADDRESS, ["bin_array", addressBytes(pair) as Uint8Array, i64LittleEndian(index)])[0];

/** The bin array indices a walk from `activeId` reads: the active one and the next ones in the swap's direction. */
function walkIndices(activeId: number, swapForY: boolean): number[] {
  const first = arrayIndexOf(activeId);
  return Array.from({ length: limits.quoteWalkArrays }, (_, i) => first + (swapForY ? -i : i));
}

/**
 * Q64.64 price of bin `id`: (1 + bin_step/10⁴)^id by the program's `pow` (u64x64_math.rs) — the base inverted first
 * when ≥ 1 so every square stays below 2¹²⁸, 19 exponent bits, the result inverted back with u128::MAX / r.
 */
export function dlmmPriceFromId(id: number, binStep: number): bigint {
  const base = Q64 + (BigInt(binStep) << 64n) / BASIS_POINT_MAX;
  if (id === 0) return Q64;
  let invert = id < 0;
  const exp = Math.abs(id);
  if (exp >= 0x80000) throw new QuoteRefusal(`bin ${id} is beyond the program's price range`);
  let squared = base;
  let result = Q64;
  if (squared >= result) {
    squared = U128_MAX / squared;
    invert = !invert;
  }
  for (let bit = 0; bit < 19; bit++) {
    if (exp & (1 << bit)) result = (result * squared) >> 64n;
    squared = (squared * squared) >> 64n;
  }
  if (result === 0n) throw new QuoteRefusal(`bin ${id} has no representable price`);
  return invert ? U128_MAX / result : result;
}

interface Bin {
  readonly x: bigint;
  readonly y: bigint;
  /** stored Q64.64 price, 0 when the bin was never written (the program computes and stores it then) */
  readonly price: bigint;
  /** limit orders: open_order_amount @112, processed_order_remaining_amount @128, and their side
   * (limit_order_ask_side @140: set = they sell X, so they fill swaps that buy X) */
  readonly open: bigint;
  readonly processed: bigint;
  readonly ordersAsk: boolean;
}

const EMPTY_BIN: Bin = { x: 0n, y: 0n, price: 0n, open: 0n, processed: 0n, ordersAsk: false };

/** The bins of one bin array, checked to be this pair's and at this index. */
function binsOf(account: AccountBytes, pair: Address, index: number): Map<number, Bin> {
  const layout = "MeteoraDlmmBinArray";
  if (account.owner !== METEORA_DLMM_PROGRAM_ADDRESS || account.data.length !== BIN_ARRAY_SIZE || addressAt(account, layout, 24) !== pair) {
    throw new QuoteRefusal(`bin array ${index} is not this pair's`);
  }
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.length);
  if (view.getBigInt64(8, true) !== BigInt(index)) throw new QuoteRefusal(`bin array at index ${index} holds another index`);
  const bins = new Map<number, Bin>();
  for (let i = 0; i < BINS_PER_ARRAY; i++) {
    const at = BINS_OFFSET + i * BIN_SIZE;
    const x = u64At(account, layout, at);
    const y = u64At(account, layout, at + 8);
    const open = u64At(account, layout, at + 112);
    const processed = u64At(account, layout, at + 128);
    if (x === 0n && y === 0n && open === 0n && processed === 0n) continue;
    bins.set(index * BINS_PER_ARRAY + i, { x, y, price: u128At(account, layout, at + 16), open, processed, ordersAsk: u8At(account, layout, at + 140) !== 0 });
  }
  return bins;
}

/**
 * What one bin pays for `amount` (net of any input fee): each layer in turn (the bin's liquidity, then its orders) takes
 * what it can pay in full, ⌈out·2⁶⁴/price⌉ X or ⌈out·price/2⁶⁴⌉ Y, or — the first one it cannot — all that is left for
 * ⌊in·price/2⁶⁴⌋ (X in) or ⌊in·2⁶⁴/price⌋ (Y in). `takenByLiquidity` is what the bin's own liquidity took.
 */
function fillBin(layers: readonly bigint[], amount: bigint, price: bigint, swapForY: boolean) {
  let rest = amount;
  let out = 0n;
  let takenByLiquidity = 0n;
  for (const [i, capacity] of layers.entries()) {
    if (capacity === 0n || rest === 0n) continue;
    const needed = swapForY ? ceilDiv(capacity << 64n, price) : ceilDiv(capacity * price, Q64);
    const taken = rest >= needed ? needed : rest;
    out += rest >= needed ? capacity : swapForY ? (rest * price) >> 64n : (rest << 64n) / price;
    rest -= taken;
    if (i === 0) takenByLiquidity = taken;
  }
  return { taken: amount - rest, rest, out, takenByLiquidity };
}

/**
 * The protocol's part of a bin's fee: the liquidity's share of the fee, ⌈fee·liquidity_in/in⌉, gives protocol_share/10⁴
 * of itself (floor); the orders' share gives half (LIMIT_ORDER_FEE_SHARE 5000/10⁴ to the order owners, floor; the
 * rest to the protocol).
 */
function protocolPart(fee: bigint, protocolShare: bigint, takenByLiquidity: bigint, taken: bigint): bigint {
  if (fee === 0n || taken === 0n) return 0n;
  const liquidityFee = ceilDiv(fee * takenByLiquidity, taken);
  const ordersFee = fee - liquidityFee;
  return ordersFee - (ordersFee * LIMIT_ORDER_FEE_SHARE) / BASIS_POINT_MAX + (liquidityFee * protocolShare) / BASIS_POINT_MAX;
}

export const meteoraDlmmQuoter: QuoterSpec = {
  kind: "meteora-dlmm",
  async extraAccounts(pool, account, context) {
    const pair = decodeMeteoraDlmmPair(account);
    const swapForY = context.inputMint === pair.tokenXMint;
    const wanted = walkIndices(pair.activeId, swapForY).map((index) => dlmmBinArrayAddress(pool, index));
    if (context.lookup(SYSVAR_CLOCK_ADDRESS) === undefined) wanted.push(SYSVAR_CLOCK_ADDRESS);
    return wanted.filter((a) => context.lookup(a) === undefined);
  },
  build(pool, account, context) {
    const pair = decodeMeteoraDlmmPair(account);
    // StaticParameters @8: base_factor u16 @8, filter_period u16 @10, decay_period u16 @12, reduction_factor u16 @14,
    // variable_fee_control u32 @16, max_volatility_accumulator u32 @20, protocol_share u16 @32,
    // base_fee_power_factor u8 @34, function_type u8 @35, collect_fee_mode u8 @36
    const baseFactor = BigInt(u16At(account, LAYOUT, 8));
    const filterPeriod = BigInt(u16At(account, LAYOUT, 10));
    const decayPeriod = BigInt(u16At(account, LAYOUT, 12));
    const reductionFactor = BigInt(u16At(account, LAYOUT, 14));
    const variableFeeControl = BigInt(u32At(account, LAYOUT, 16));
    const maxVolatility = BigInt(u32At(account, LAYOUT, 20));
    const protocolShare = BigInt(u16At(account, LAYOUT, 32));
    const powerFactor = u8At(account, LAYOUT, 34);
    const functionType = u8At(account, LAYOUT, 35);
    const collectFeeMode = u8At(account, LAYOUT, 36);
    // function_type 0 (undetermined) supports limit orders while no reward is set up (RewardInfo × 2 @264, mint first)
    const rewardsSet = addressAt(account, LAYOUT, 264) !== DEFAULT_ADDRESS || addressAt(account, LAYOUT, 408) !== DEFAULT_ADDRESS;
    const ordersPossible = functionType === 2 || (functionType === 0 && !rewardsSet);
    // VariableParameters @40: volatility_accumulator u32 @40, volatility_reference u32 @44, index_reference i32 @48,
    // last_update_timestamp i64 @56
    const accumulator = BigInt(u32At(account, LAYOUT, 40));
    const volatilityReference = BigInt(u32At(account, LAYOUT, 44));
    const indexReference = i32At(account, LAYOUT, 48);
    const lastUpdate = BigInt.asIntN(64, u64At(account, LAYOUT, 56));
    const clock = context.lookup(SYSVAR_CLOCK_ADDRESS);
    if (!clock) throw new QuoteRefusal("the Clock sysvar was not read (the variable fee depends on the time since the last swap)");
    const now = decodeClockSysvar(clock).unixTimestamp;
    const binStep = BigInt(pair.binStep);
    const baseFee = baseFactor * binStep * 10n * 10n ** BigInt(powerFactor);

    // update_references at the read's chain time: what any swap in this block starts from
    const elapsed = now - lastUpdate;
    let startReference = volatilityReference;
    let startIndex = indexReference;
    if (elapsed >= filterPeriod) {
      startIndex = pair.activeId;
      startReference = elapsed < decayPeriod ? (accumulator * reductionFactor) / BASIS_POINT_MAX : 0n;
    }
    const feeRateAt = (activeId: number): bigint => {
      const delta = BigInt(Math.abs(startIndex - activeId));
      const candidate = startReference + delta * BASIS_POINT_MAX;
      const volatility = candidate < maxVolatility ? candidate : maxVolatility;
      let variable = 0n;
      if (variableFeeControl > 0n) {
        const square = (volatility * binStep) ** 2n;
        variable = (variableFeeControl * square + 99_999_999_999n) / 100_000_000_000n;
      }
      const total = baseFee + variable;
      return total < MAX_FEE_RATE ? total : MAX_FEE_RATE;
    };

    // The walk's bins per direction, read from the arrays once (an exact-output search swaps many times)
    const readWindow = (swapForY: boolean): { bins: Map<number, Bin>; indices: Set<number> } | string => {
      const bins = new Map<number, Bin>();
      const indices = new Set<number>();
      for (const index of walkIndices(pair.activeId, swapForY)) {
        const found = context.lookup(dlmmBinArrayAddress(pool, index));
        if (found === undefined) return `bin array ${index} was not read`;
        // a bin array that does not exist ends the walk: the swap would jump a gap we do not follow
        if (found === null) break;
        for (const [id, bin] of binsOf(found, pool, index)) bins.set(id, bin);
        indices.add(index);
      }
      return { bins, indices };
    };
    const windowOf = perDirection(readWindow);

    const [mintX, mintY] = [pair.tokenXMint, pair.tokenYMint];
    const activeBin = (id: number) => dlmmPriceFromId(id, pair.binStep);
    return {
      kind: "meteora-dlmm",
      pool,
      mints: [mintX, mintY],
      spot: ratio(activeBin(pair.activeId), Q64),
      reach: [
        `the pair, the Clock and ${limits.quoteWalkArrays} bin arrays of ${BINS_PER_ARRAY} bins from the active one in the swap's direction (a bin array that does not exist ends the walk)`,
        ...(functionType === 2 ? ["a limit-order pair: orders on the output side fill after each bin's liquidity, half of their fee to the protocol"] : []),
        ...(collectFeeMode === 1 ? ["the fee is taken in Y only (off the output when X goes in)"] : []),
      ].join("; "),
      exactIn(inputMint, amountIn): SwapResult {
        if (pair.status !== 0) return { ok: false, reason: "the pair is disabled" };
        const swapForY = inputMint === mintX;
        if (functionType > 2) return { ok: false, reason: `the pair's function type ${functionType} is unknown to lb_clmm 0.12` };
        if (collectFeeMode > 1) return { ok: false, reason: `the pair's collect fee mode ${collectFeeMode} is unknown to lb_clmm 0.12` };
        // collect_fee_mode 1 (OnlyY): the fee is always taken in Y — on the input when Y goes in, on the output otherwise
        const feeOnInput = collectFeeMode === 0 || !swapForY;
        const window = windowOf(swapForY);
        if (typeof window === "string") return { ok: false, reason: window };
        let left = amountIn;
        let out = 0n;
        let fee = 0n;
        let protocol = 0n;
        let active = pair.activeId;
        for (;;) {
          if (!window.indices.has(arrayIndexOf(active))) {
            return { ok: false, reason: `the swap goes past the ${window.indices.size} bin arrays read`, depth: amountIn - left };
          }
          const bin = window.bins.get(active) ?? EMPTY_BIN;
          // the bin's layers in the order they fill: its liquidity, then (limit-order pairs) the orders on the output
          // side, those being processed before the open ones
          const layers = [swapForY ? bin.y : bin.x];
          if (ordersPossible && bin.ordersAsk !== swapForY) layers.push(bin.processed, bin.open);
          if (layers.some((amount) => amount > 0n)) {
            const rate = feeRateAt(active);
            const price = bin.price !== 0n ? bin.price : dlmmPriceFromId(active, pair.binStep);
            const fill = fillBin(layers, feeOnInput ? left - ceilDiv(left * rate, FEE_PRECISION) : left, price, swapForY);
            // fee on the input: ⌈in·r/10⁹⌉ of all that is left when the bin takes it all, else the bin keeps only its
            // own share grossed up, ⌈taken·r/(10⁹ − r)⌉; fee on the output: ⌈out·r/10⁹⌉ off what the bin pays
            let binFee = 0n;
            let taken = left;
            if (fill.rest > 0n) {
              binFee = feeOnInput ? ceilDiv(fill.taken * rate, FEE_PRECISION - rate) : 0n;
              taken = fill.taken + binFee;
            } else if (feeOnInput) binFee = ceilDiv(left * rate, FEE_PRECISION);
            let paid = fill.out;
            if (!feeOnInput) {
              binFee = ceilDiv(fill.out * rate, FEE_PRECISION);
              paid -= binFee;
            }
            left -= taken;
            out += paid;
            fee += binFee;
            protocol += protocolPart(binFee, protocolShare, fill.takenByLiquidity, fill.taken);
          }
          if (left === 0n) break;
          active += swapForY ? -1 : 1;
          if (active < MIN_BIN_ID || active > MAX_BIN_ID) return { ok: false, reason: "the swap runs out of bins", depth: amountIn - left };
        }
        if (out <= 0n) return { ok: false, reason: "the amount is too small to trade" };
        if (out > U64_MAX) return { ok: false, reason: "the output is beyond u64" };
        // the "lp" line is what the protocol does not take: the liquidity's fee and the order owners' share
        const feeMint = feeOnInput ? inputMint : inputMint === mintX ? mintY : mintX;
        const fees: FeeLine[] = [
          { kind: "lp", mint: feeMint, amount: fee - protocol },
          { kind: "protocol", mint: feeMint, amount: protocol },
        ];
        return { ok: true, swap: { amountIn, amountOut: out, fees, priceAfter: ratio(activeBin(active), Q64) } };
      },
    };
  },
};
