/**
 * Meteora DLMM — VENUES.md §8. LbPair (904 B) at the permissionless-v2 PDA ([min, max, bin_step, base_factor]) or the
 * PresetParameter2 PDA ([preset, min, max]); reserves PDA([lb_pair, mint]) owned by the pair; BinArray accounts (70 bins)
 * holding each bin's amounts and Q64.64 price. Swaps walk bins from active_id as lb_clmm 0.12 does (constant sum inside
 * a bin at (1 + bin_step/10⁴)^id Y per X): the volatility references are refreshed from the time since the last swap
 * (filter and decay periods), every bin visited recomputes the volatility accumulator from its distance to the index
 * reference, and each bin charges base + variable fee on its input (capped at 10 %), the protocol share of each bin's
 * fee accumulated in the pair. Limit-order pairs (function_type 2; lb_clmm 0.12 as dlmm-sdk @fb02e51a commons/src/
 * quote.rs describes it): a bin's orders on the swap's output side fill after its liquidity, processed before open, at
 * the bin's price, and half the fee on what they fill goes to the protocol. collect_fee_mode 1 takes the fee in Y only:
 * off each bin's output when X goes in. The Swap event is emitted by self-CPI.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { constantPda, compareKeys, findPda, i64le, keyBytes, pda, u16le } from "../core/keys.js";
import { Q64, ceilDiv } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { METEORA_DLMM_PROGRAM, TOKEN_2022_PROGRAM } from "../programs.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, eventCpi, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";

export const LB_PAIR_SIZE = 904;
export const BIN_ARRAY_SIZE = 10136;
export const PRESET_PARAMETER2_SIZE = 192;
export const PRESET_PARAMETER_SIZE = 36;
const BINS_PER_ARRAY = 70;
const DISC = {
  lbPair: hex("210b3162b565b10d"),
  binArray: hex("5c8e5cdc059446b5"),
  preset2: hex("abec9473a271deae"),
  oracle: hex("8bc283b38cb3e5f4"),
  preset: hex("f23ef422b5703aaa"),
  swap: hex("f8c69e91e17587c8"),
  swapEvent: hex("516ce3becdd00ac4"),
};

export const dlmmEventAuthority = constantPda(["__event_authority"], METEORA_DLMM_PROGRAM);
export const dlmmPresetParameter2 = (index: number) => pda(["preset_parameter2", u16le(index)], METEORA_DLMM_PROGRAM);

export interface Bin {
  x: bigint;
  y: bigint;
  /** limit orders (limit-order pairs): one side per bin, `ask` = they sell X; processed ones fill before open ones */
  orders?: BinOrders;
}

export interface BinOrders {
  ask: boolean;
  open: bigint;
  processed: bigint;
  /** what the orders received (fulfilled_order_amount_x/y) and their owners' fee share (limit_order_fee_ask/bid_side) */
  filledX: bigint;
  filledY: bigint;
  fee: bigint;
}

export interface DlmmPair extends PoolRef {
  bump: number;
  binStep: number;
  baseFactor: number;
  protocolShare: number;
  pairType: number;
  presetIndex: number | null;
  activeId: number;
  tokenX: Pubkey;
  tokenY: Pubkey;
  reserveX: Pubkey;
  reserveY: Pubkey;
  oracle: Pubkey;
  protocolFeeX: bigint;
  protocolFeeY: bigint;
  bins: Map<number, Bin>;
  creator: Pubkey;
  baseIsX: boolean;
  lastUpdatedAt: bigint;
  /** static fee parameters: seconds, 1e-4 shares, the variable fee's control and accumulator cap */
  filterPeriod: number;
  decayPeriod: number;
  reductionFactor: number;
  variableFeeControl: number;
  maxVolatilityAccumulator: number;
  /** v_parameters: what the variable fee remembers between swaps */
  volatilityAccumulator: number;
  volatilityReference: number;
  indexReference: number;
  lastSwapAt: bigint;
  /** function_type (0 undetermined, 2 limit orders) and collect_fee_mode (0 fee on the input, 1 fee always in Y) */
  functionType: number;
  collectFeeMode: number;
}

/** Mainnet-like dynamic fee parameters of our pairs (ESuD7dd6, bin step 80: 30 s filter, 600 s decay, 7500, 150000). */
const FEE_PARAMS = { filterPeriod: 30, decayPeriod: 600, reductionFactor: 5000, variableFeeControl: 7500, maxVolatilityAccumulator: 150_000 };

const priceCache = new Map<number, bigint>();

/** Q64.64 price of bin `id`: (1 + bin_step/10⁴)^id by square-and-multiply in fixed point (memoized). */
export function binPriceX64(binStep: number, id: number): bigint {
  const cacheKey = binStep * 1_000_000 + id;
  let p = priceCache.get(cacheKey);
  if (p === undefined) {
    p = binPriceUncached(binStep, id);
    priceCache.set(cacheKey, p);
  }
  return p;
}

function binPriceUncached(binStep: number, id: number): bigint {
  const base = Q64 + (BigInt(binStep) * Q64) / 10000n;
  let result = Q64;
  let b = base;
  let e = Math.abs(id);
  while (e > 0) {
    if (e & 1) result = (result * b) >> 64n;
    b = (b * b) >> 64n;
    e >>= 1;
  }
  return id >= 0 ? result : (Q64 * Q64) / result;
}

/** Largest bin id whose price still fits the program's Q64.64 range for this bin step (≈ ±5458 for bin step 80). */
const maxBinId = (binStep: number) => Math.floor(Math.log(2 ** 63) / Math.log(1 + binStep / 10000));

const binArrayIndex = (id: number) => Math.floor(id / BINS_PER_ARRAY);

const FEE_PRECISION = 1_000_000_000n;
/** The order owners' share (of 10⁴) of the fee paid on what their orders fill; the rest is the protocol's. */
const ORDER_OWNERS_FEE_SHARE = 5000n;
/** lb_clmm MAX_FEE_RATE: a total fee rate above 10 % is capped. */
const MAX_FEE_RATE = 100_000_000n;

export class MeteoraDlmmVenue implements PoolVenue<DlmmPair> {
  readonly pairs = new Map<Pubkey, DlmmPair>();
  constructor(private readonly ctx: WorldContext) {}

  /** PresetParameter2 accounts our pairs refer to. */
  writePreset(index: number, binStep: number, baseFactor: number): void {
    const data = new FixedWriter(PRESET_PARAMETER2_SIZE)
      .raw(0, DISC.preset2)
      .u16(8, binStep)
      .u16(10, baseFactor)
      .u16(12, FEE_PARAMS.filterPeriod)
      .u16(14, FEE_PARAMS.decayPeriod)
      .u32(16, FEE_PARAMS.variableFeeControl)
      .u32(20, FEE_PARAMS.maxVolatilityAccumulator)
      .u16(24, FEE_PARAMS.reductionFactor)
      .u16(26, 500)
      .u16(28, index).bytes;
    this.ctx.store.putRentExempt(dlmmPresetParameter2(index), METEORA_DLMM_PROGRAM, data);
  }

  /** Legacy PresetParameter at PDA(["preset_parameter", bin_step, base_factor]): what permissionless v2 pairs derive from. */
  writeLegacyPreset(binStep: number, baseFactor: number): void {
    const data = new FixedWriter(PRESET_PARAMETER_SIZE)
      .raw(0, DISC.preset)
      .u16(8, binStep)
      .u16(10, baseFactor)
      .u16(12, FEE_PARAMS.filterPeriod)
      .u16(14, FEE_PARAMS.decayPeriod)
      .u16(16, FEE_PARAMS.reductionFactor)
      .u32(18, FEE_PARAMS.variableFeeControl)
      .u32(22, FEE_PARAMS.maxVolatilityAccumulator)
      .i32(26, -maxBinId(binStep))
      .i32(30, maxBinId(binStep))
      .u16(34, 500).bytes;
    this.ctx.store.putRentExempt(pda(["preset_parameter", u16le(binStep), u16le(baseFactor)], METEORA_DLMM_PROGRAM), METEORA_DLMM_PROGRAM, data);
  }

  /**
   * A pair around `price` (Y atoms per X atom for the X = base orientation) with `quoteDepth` quote atoms spread over
   * `bins` bins on the quote side and the matching base amount on the other side.
   */
  create(opts: { baseMint: Pubkey; quoteMint: Pubkey; binStep: number; baseFactor: number; preset?: number; price: number; quoteDepth: bigint; bins: number; creator: Pubkey; limitOrders?: { collectFeeMode: 0 | 1 } }): DlmmPair {
    const { ctx } = this;
    const baseIsX = compareKeys(opts.baseMint, opts.quoteMint) < 0 || opts.preset !== undefined;
    const [tokenX, tokenY] = baseIsX ? [opts.baseMint, opts.quoteMint] : [opts.quoteMint, opts.baseMint];
    const [min, max] = compareKeys(tokenX, tokenY) < 0 ? [tokenX, tokenY] : [tokenY, tokenX];
    const [address, bump] =
      opts.preset !== undefined
        ? findPda([keyBytes(dlmmPresetParameter2(opts.preset)), keyBytes(min), keyBytes(max)], METEORA_DLMM_PROGRAM)
        : findPda([keyBytes(min), keyBytes(max), u16le(opts.binStep), u16le(opts.baseFactor)], METEORA_DLMM_PROGRAM);
    const yPerX = baseIsX ? opts.price : 1 / opts.price;
    const activeId = Math.round(Math.log(yPerX) / Math.log(1 + opts.binStep / 10000));
    const p: DlmmPair = {
      kind: "meteora-dlmm",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      bump,
      binStep: opts.binStep,
      baseFactor: opts.baseFactor,
      protocolShare: 500,
      pairType: opts.preset !== undefined ? 3 : 0,
      presetIndex: opts.preset ?? null,
      activeId,
      tokenX,
      tokenY,
      reserveX: pda([keyBytes(address), keyBytes(tokenX)], METEORA_DLMM_PROGRAM),
      reserveY: pda([keyBytes(address), keyBytes(tokenY)], METEORA_DLMM_PROGRAM),
      oracle: pda(["oracle", keyBytes(address)], METEORA_DLMM_PROGRAM),
      protocolFeeX: 0n,
      protocolFeeY: 0n,
      bins: new Map(),
      creator: opts.creator,
      baseIsX,
      lastUpdatedAt: BigInt(ctx.clock.blockTime),
      ...FEE_PARAMS,
      volatilityAccumulator: 0,
      volatilityReference: 0,
      indexReference: activeId,
      lastSwapAt: BigInt(ctx.clock.blockTime),
      functionType: opts.limitOrders ? 2 : 0,
      collectFeeMode: opts.limitOrders?.collectFeeMode ?? 0,
      related: {},
    };
    p.related = { reserveX: p.reserveX, reserveY: p.reserveY, oracle: p.oracle };
    if (opts.preset !== undefined) p.related.presetParameter2 = dlmmPresetParameter2(opts.preset);
    else {
      this.writeLegacyPreset(opts.binStep, opts.baseFactor);
      p.related.presetParameter = pda(["preset_parameter", u16le(opts.binStep), u16le(opts.baseFactor)], METEORA_DLMM_PROGRAM);
    }
    // Quote liquidity spread evenly over `bins` bins on its side; base bins mirror it at each bin's price.
    const perBin = opts.quoteDepth / BigInt(opts.bins);
    let sumX = 0n;
    let sumY = 0n;
    for (let k = -opts.bins; k <= opts.bins; k++) {
      const id = activeId + k;
      const price = binPriceX64(opts.binStep, id);
      const quoteAmt = k === 0 ? perBin / 2n : perBin;
      // Y side: bins below active (for X = base, quote = Y); X side above.
      const bin: Bin = { x: 0n, y: 0n };
      const quoteIsY = baseIsX;
      const belowOrAt = k <= 0;
      const aboveOrAt = k >= 0;
      if (quoteIsY) {
        if (belowOrAt) bin.y = quoteAmt;
        if (aboveOrAt) bin.x = (quoteAmt * Q64) / price;
      } else {
        // quote is X: X liquidity above active, Y (base) below.
        if (aboveOrAt) bin.x = quoteAmt;
        if (belowOrAt) bin.y = (quoteAmt * price) / Q64;
      }
      sumX += bin.x;
      sumY += bin.y;
      p.bins.set(id, bin);
    }
    if (opts.limitOrders) {
      // Orders on both sides of the price: Y bids in the active bin and below, X asks above, some open, some processed
      const place = (k: number, ask: boolean, open: bigint, processed: bigint) => {
        p.bins.get(activeId + k)!.orders = { ask, open, processed, filledX: 0n, filledY: 0n, fee: 0n };
        if (ask) sumX += open + processed;
        else sumY += open + processed;
      };
      const xAt = (k: number) => p.bins.get(activeId + k)!.x;
      const yAt = (k: number) => p.bins.get(activeId + k)!.y;
      place(0, false, yAt(0) / 3n, yAt(0) / 7n);
      place(-2, false, yAt(-2) / 2n, 0n);
      place(-5, false, 0n, yAt(-5));
      place(1, true, xAt(1) / 2n, xAt(1) / 4n);
      place(4, true, xAt(4), 0n);
    }
    // Oracle with an empty observation ring (idx, active_size, length + 32-byte observations).
    const oracle = new FixedWriter(32 + 32 * 10).raw(0, DISC.oracle).u64(8, 0n).u64(16, 0n).u64(24, 10n).bytes;
    ctx.store.putRentExempt(p.oracle, METEORA_DLMM_PROGRAM, oracle);
    ctx.createTokenAccount(address, tokenX, sumX, p.reserveX);
    ctx.createTokenAccount(address, tokenY, sumY, p.reserveY);
    this.pairs.set(address, p);
    this.write(p);
    for (const idx of new Set([...p.bins.keys()].map(binArrayIndex))) this.writeBinArray(p, idx);
    return p;
  }

  baseFeeRate(p: DlmmPair): bigint {
    // base_factor · bin_step · 10 · 10^power (power 0), in 1e-9 units.
    return BigInt(p.baseFactor) * BigInt(p.binStep) * 10n;
  }

  /** Base + variable fee rate (1e-9) at volatility accumulator `va`: variable = ⌈control·(va·bin_step)²/10¹¹⌉, total ≤ 10 %. */
  feeRate(p: DlmmPair, va: number): bigint {
    const scaled = BigInt(va) * BigInt(p.binStep);
    const variable = p.variableFeeControl === 0 ? 0n : ceilDiv(BigInt(p.variableFeeControl) * scaled * scaled, 100_000_000_000n);
    const total = this.baseFeeRate(p) + variable;
    return total > MAX_FEE_RATE ? MAX_FEE_RATE : total;
  }

  write(p: DlmmPair): void {
    const { book } = this.ctx;
    const data = new FixedWriter(LB_PAIR_SIZE)
      .raw(0, DISC.lbPair)
      .u16(8, p.baseFactor)
      .u16(10, p.filterPeriod)
      .u16(12, p.decayPeriod)
      .u16(14, p.reductionFactor)
      .u32(16, p.variableFeeControl)
      .u32(20, p.maxVolatilityAccumulator)
      .i32(24, -maxBinId(p.binStep))
      .i32(28, maxBinId(p.binStep))
      .u16(32, p.protocolShare)
      .u8(35, p.functionType)
      .u8(36, p.collectFeeMode)
      .u32(40, p.volatilityAccumulator)
      .u32(44, p.volatilityReference)
      .i32(48, p.indexReference)
      .i64(56, p.lastSwapAt)
      .u8(72, p.bump)
      .u16(73, p.binStep)
      .u8(75, p.pairType)
      .i32(76, p.activeId)
      .u16(80, p.binStep)
      .u8(82, 0)
      .u8(83, p.pairType === 0 ? 1 : 0)
      .u16(84, p.baseFactor)
      .u8(86, 1)
      .pubkey(88, p.tokenX)
      .pubkey(120, p.tokenY)
      .pubkey(152, p.reserveX)
      .pubkey(184, p.reserveY)
      .u64(216, p.protocolFeeX)
      .u64(224, p.protocolFeeY)
      .pubkey(552, p.oracle)
      .i64(712, p.lastUpdatedAt)
      .pubkey(784, p.presetIndex !== null ? dlmmPresetParameter2(p.presetIndex) : "11111111111111111111111111111111")
      .pubkey(848, p.creator)
      .u8(880, book.mint(p.tokenX).program === TOKEN_2022_PROGRAM ? 1 : 0)
      .u8(881, book.mint(p.tokenY).program === TOKEN_2022_PROGRAM ? 1 : 0)
      .u8(882, 1);
    // bin_array_bitmap: bit (index + 512) for each bin array in use.
    for (const idx of new Set([...p.bins.keys()].map(binArrayIndex))) {
      const bit = idx + 512;
      if (bit < 0 || bit >= 1024) continue;
      const word = 584 + 8 * Math.floor(bit / 64);
      const cur = new DataView(data.bytes.buffer).getBigUint64(word, true);
      data.u64(word, cur | (1n << BigInt(bit % 64)));
    }
    this.ctx.store.putRentExempt(p.address, METEORA_DLMM_PROGRAM, data.bytes);
  }

  binArrayAddress(p: DlmmPair, index: number): Pubkey {
    return pda(["bin_array", keyBytes(p.address), i64le(index)], METEORA_DLMM_PROGRAM);
  }

  writeBinArray(p: DlmmPair, index: number): void {
    const data = new FixedWriter(BIN_ARRAY_SIZE).raw(0, DISC.binArray).i64(8, BigInt(index)).u8(16, 1).pubkey(24, p.address);
    for (let i = 0; i < BINS_PER_ARRAY; i++) {
      const id = index * BINS_PER_ARRAY + i;
      const bin = p.bins.get(id);
      if (!bin) continue;
      const o = 56 + i * 144;
      data.u64(o, bin.x).u64(o + 8, bin.y).u128(o + 16, binPriceX64(p.binStep, id));
      const liq = (bin.x * binPriceX64(p.binStep, id)) / Q64 + bin.y;
      data.u128(o + 32, liq << 64n);
      const orders = bin.orders;
      if (orders) {
        // fulfilled_order_amount_x/y @48/@56, limit_order_fee_ask/bid_side @64/@72, open_order_amount @112,
        // processed_order_remaining_amount @128, limit_order_ask_side @140
        data.u64(o + 48, orders.filledX).u64(o + 56, orders.filledY).u64(o + (orders.ask ? 64 : 72), orders.fee);
        data.u64(o + 112, orders.open).u64(o + 128, orders.processed).u8(o + 140, orders.ask ? 1 : 0);
      }
    }
    this.ctx.store.putRentExempt(this.binArrayAddress(p, index), METEORA_DLMM_PROGRAM, data.bytes);
  }

  price(p: DlmmPair): number {
    const yPerX = Number(binPriceX64(p.binStep, p.activeId)) / 2 ** 64;
    return p.baseIsX ? yPerX : 1 / yPerX;
  }

  swap(d: Draft, p: DlmmPair, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    const { ctx } = this;
    const swapForY = side === "sell" ? p.baseIsX : !p.baseIsX; // X in → Y out
    const now = BigInt(ctx.clock.blockTime);
    // Volatility references at swap start: a swap more than filter_period after the last one re-anchors the index
    // reference and decays the reference (to 0 past decay_period).
    let indexReference = p.indexReference;
    let volatilityReference = p.volatilityReference;
    const sinceLast = now - p.lastSwapAt;
    if (sinceLast >= BigInt(p.filterPeriod)) {
      indexReference = p.activeId;
      volatilityReference = sinceLast < BigInt(p.decayPeriod) ? Math.floor((p.volatilityAccumulator * p.reductionFactor) / 10000) : 0;
    }
    let volatility = p.volatilityAccumulator;
    let remaining = amountIn;
    let out = 0n;
    let fee = 0n;
    let protocolFee = 0n;
    let feeRate = 0n;
    let id = p.activeId;
    const touched: [number, Bin][] = [];
    // bin arrays that exist: a bin missing from the map inside one is an empty bin; past them the pair has no liquidity
    const arraysWritten = new Set([...p.bins.keys()].map(binArrayIndex));
    for (;;) {
      // every bin visited, empty or not, moves the accumulator
      volatility = Math.min(volatilityReference + Math.abs(indexReference - id) * 10000, p.maxVolatilityAccumulator);
      if (!arraysWritten.has(binArrayIndex(id))) return null;
      const bin = p.bins.get(id) ?? { x: 0n, y: 0n };
      // a bin's orders fill a swap that buys what they sell (bids hold Y, asks X), after the bin's own liquidity
      const orders = p.functionType === 2 && bin.orders && bin.orders.ask !== swapForY ? bin.orders : undefined;
      const liquidityOut = swapForY ? bin.y : bin.x;
      if (liquidityOut + (orders ? orders.processed + orders.open : 0n) > 0n) {
        feeRate = this.feeRate(p, volatility);
        const price = binPriceX64(p.binStep, id);
        // fee in Y only (collect_fee_mode 1): on the input when Y goes in, off the output when X goes in
        const feeOnInput = p.collectFeeMode === 0 || !swapForY;
        // fee off the input first; the net fills the bin's liquidity, then its processed orders, then its open ones,
        // each at the bin's price, until it runs out or the bin does; an emptied bin keeps only its worth of input
        // grossed up for the fee (the rest walks on)
        const upfrontFee = feeOnInput ? ceilDiv(remaining * feeRate, FEE_PRECISION) : 0n;
        let net = remaining - upfrontFee;
        const fills = [liquidityOut, orders?.processed ?? 0n, orders?.open ?? 0n].map((holds) => {
          if (holds === 0n || net === 0n) return { in: 0n, out: 0n };
          const worth = swapForY ? ceilDiv(holds * Q64, price) : ceilDiv(holds * price, Q64);
          const taken = net < worth ? net : worth;
          net -= taken;
          return { in: taken, out: taken === worth ? holds : swapForY ? (taken * price) / Q64 : (taken * Q64) / price };
        });
        const [liquidity, processed, open] = fills as [{ in: bigint; out: bigint }, { in: bigint; out: bigint }, { in: bigint; out: bigint }];
        const intoBin = liquidity.in + processed.in + open.in;
        const got = liquidity.out + processed.out + open.out;
        let paid = remaining;
        let binFee = upfrontFee;
        if (net > 0n) {
          binFee = feeOnInput ? ceilDiv(intoBin * feeRate, FEE_PRECISION - feeRate) : 0n;
          paid = intoBin + binFee;
        }
        if (!feeOnInput) binFee = ceilDiv(got * feeRate, FEE_PRECISION);
        // the fee splits by what the liquidity took (rounded its way up): the protocol has protocol_share of the
        // liquidity's part and half of the orders' part, the orders' owners the other half
        let ownersFee = 0n;
        if (binFee > 0n && intoBin > 0n) {
          const liquidityFee = ceilDiv(binFee * liquidity.in, intoBin);
          ownersFee = ((binFee - liquidityFee) * ORDER_OWNERS_FEE_SHARE) / 10000n;
          protocolFee += binFee - liquidityFee - ownersFee + (liquidityFee * BigInt(p.protocolShare)) / 10000n;
        }
        out += feeOnInput ? got : got - binFee;
        const after: Bin = swapForY ? { x: bin.x + liquidity.in, y: bin.y - liquidity.out } : { x: bin.x - liquidity.out, y: bin.y + liquidity.in };
        if (bin.orders) after.orders = { ...bin.orders };
        if (orders && after.orders) {
          after.orders.processed -= processed.out;
          after.orders.open -= open.out;
          if (swapForY) after.orders.filledX += processed.in + open.in;
          else after.orders.filledY += processed.in + open.in;
          after.orders.fee += ownersFee;
        }
        touched.push([id, after]);
        remaining -= paid;
        fee += binFee;
      }
      if (remaining === 0n) break;
      id += swapForY ? -1 : 1;
    }
    if (out <= 0n) return null;
    // the active bin is where the swap stopped
    const newActive = id;
    const inMint = ctx.book.mint(swapForY ? p.tokenX : p.tokenY);
    const outMint = ctx.book.mint(swapForY ? p.tokenY : p.tokenX);
    const reserveIn = swapForY ? p.reserveX : p.reserveY;
    const reserveOut = swapForY ? p.reserveY : p.reserveX;
    const userIn = side === "sell" ? userBase : userQuote;
    const userOut = side === "sell" ? userQuote : userBase;
    const minOut = fail ? out + out / 40n + 1n : (out * 97n) / 100n;
    const event = borsh()
      .bytes(DISC.swapEvent)
      .pubkey(p.address).pubkey(user).i32(p.activeId).i32(newActive).u64(amountIn).u64(out).bool(swapForY)
      .u64(fee).u64(protocolFee).u128(feeRate).u64(0n) // fee_bps carries the rate in 1e-9 units (fx 2DfsmTYv: 172000 = 0.0172 %)
      .done();
    const arrays = [...new Set(touched.map(([i]) => binArrayIndex(i)).concat(binArrayIndex(newActive)))];
    const ix: Ix = {
      program: METEORA_DLMM_PROGRAM,
      accounts: [
        w(p.address), r(METEORA_DLMM_PROGRAM), w(p.reserveX), w(p.reserveY), w(userIn), w(userOut), r(p.tokenX), r(p.tokenY), w(p.oracle),
        r(METEORA_DLMM_PROGRAM), ws(user), r(ctx.book.mint(p.tokenX).program), r(ctx.book.mint(p.tokenY).program), r(dlmmEventAuthority()),
        r(METEORA_DLMM_PROGRAM), ...arrays.map((i) => w(this.binArrayAddress(p, i))),
      ],
      data: borsh().bytes(DISC.swap).u64(amountIn).u64(minOut).done(),
      steps: [
        { log: "Instruction: Swap" },
        { cpi: tokenTransferChecked(inMint.program, userIn, inMint.address, reserveIn, user, amountIn, inMint.decimals) },
        { cpi: tokenTransferChecked(outMint.program, reserveOut, outMint.address, userOut, p.address, out, outMint.decimals) },
        { cpi: eventCpi(METEORA_DLMM_PROGRAM, dlmmEventAuthority(), event) },
      ],
      cu: 38000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(reserveIn), amountIn);
      ctx.book.transfer(ctx.tokenAccount(reserveOut), ctx.tokenAccount(userOut), out);
      for (const [i, b] of touched) p.bins.set(i, b);
      if (!p.bins.has(newActive)) p.bins.set(newActive, { x: 0n, y: 0n });
      p.activeId = newActive;
      p.indexReference = indexReference;
      p.volatilityReference = volatilityReference;
      p.volatilityAccumulator = volatility;
      p.lastSwapAt = now;
      // the fee is in X only when X goes in and the pair takes its fee on the input
      if (swapForY && p.collectFeeMode === 0) p.protocolFeeX += protocolFee;
      else p.protocolFeeY += protocolFee;
      p.lastUpdatedAt = BigInt(ctx.clock.blockTime);
      this.write(p);
      for (const i of arrays) this.writeBinArray(p, i);
    });
    if (fail) d.fail = anchorFailure(index, "programs/lb_clmm/src/instructions/swap.rs", 207, 6003, "ExceededAmountSlippageTolerance", "Exceeded amount slippage tolerance");
    return side === "buy" ? { base: out, quote: amountIn } : { base: amountIn, quote: out };
  }
}

/** Meteora DLMM: reserve_x/reserve_y token accounts of the pair (VENUES.md §8). */
export const meteoraDlmm = defineVenue<DlmmPair>()({
  kind: "meteora-dlmm",
  tradeKind: "meteora-dlmm",
  program: METEORA_DLMM_PROGRAM,
  reserves: (p) => [tokenReserve(p.tokenX, p.reserveX), tokenReserve(p.tokenY, p.reserveY)],
  activation: () => null,
});
