/**
 * Meteora DLMM — VENUES.md §8. LbPair (904 B) at the permissionless-v2 PDA ([min, max, bin_step, base_factor]) or the
 * PresetParameter2 PDA ([preset, min, max]); reserves PDA([lb_pair, mint]) owned by the pair; BinArray accounts (70 bins)
 * holding each bin's amounts and Q64.64 price. Swaps walk bins from active_id (constant sum inside a bin at
 * (1 + bin_step/10⁴)^id Y per X), move active_id when a bin empties, charge the base fee on the input (protocol share
 * accumulated in the pair), and emit the Swap event by self-CPI.
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
import type { PoolRef, PoolVenue, Side, SwapResult } from "./types.js";

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
}

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

export class MeteoraDlmmVenue implements PoolVenue<DlmmPair> {
  readonly pairs = new Map<Pubkey, DlmmPair>();
  constructor(private readonly ctx: WorldContext) {}

  /** PresetParameter2 accounts our pairs refer to. */
  writePreset(index: number, binStep: number, baseFactor: number): void {
    const data = new FixedWriter(PRESET_PARAMETER2_SIZE)
      .raw(0, DISC.preset2)
      .u16(8, binStep)
      .u16(10, baseFactor)
      .u16(12, 30)
      .u16(14, 600)
      .u32(16, 0)
      .u32(20, 0)
      .u16(24, 5000)
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
      .u16(12, 30)
      .u16(14, 600)
      .u16(16, 5000)
      .u32(18, 0)
      .u32(22, 0)
      .i32(26, -maxBinId(binStep))
      .i32(30, maxBinId(binStep))
      .u16(34, 500).bytes;
    this.ctx.store.putRentExempt(pda(["preset_parameter", u16le(binStep), u16le(baseFactor)], METEORA_DLMM_PROGRAM), METEORA_DLMM_PROGRAM, data);
  }

  /**
   * A pair around `price` (Y atoms per X atom for the X = base orientation) with `quoteDepth` quote atoms spread over
   * `bins` bins on the quote side and the matching base amount on the other side.
   */
  create(opts: { baseMint: Pubkey; quoteMint: Pubkey; binStep: number; baseFactor: number; preset?: number; price: number; quoteDepth: bigint; bins: number; creator: Pubkey }): DlmmPair {
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

  write(p: DlmmPair): void {
    const { book } = this.ctx;
    const data = new FixedWriter(LB_PAIR_SIZE)
      .raw(0, DISC.lbPair)
      .u16(8, p.baseFactor)
      .u16(10, 30)
      .u16(12, 600)
      .u16(14, 5000)
      .i32(24, -maxBinId(p.binStep))
      .i32(28, maxBinId(p.binStep))
      .u16(32, p.protocolShare)
      .i32(48, p.activeId)
      .i64(56, p.lastUpdatedAt)
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
    const feeRate = this.baseFeeRate(p);
    const fee = ceilDiv(amountIn * feeRate, 1_000_000_000n);
    let remaining = amountIn - fee;
    let out = 0n;
    let id = p.activeId;
    const touched: [number, Bin][] = [];
    for (let steps = 0; remaining > 0n && steps < 40; steps++) {
      const bin = p.bins.get(id);
      if (!bin) break;
      const price = binPriceX64(p.binStep, id);
      const next: Bin = { ...bin };
      if (swapForY) {
        const maxOut = bin.y;
        const wantOut = (remaining * price) / Q64;
        if (wantOut <= maxOut) {
          next.y -= wantOut;
          next.x += remaining;
          out += wantOut;
          remaining = 0n;
        } else {
          const used = ceilDiv(maxOut * Q64, price);
          next.y = 0n;
          next.x += used;
          out += maxOut;
          remaining -= used;
        }
      } else {
        const maxOut = bin.x;
        const wantOut = (remaining * Q64) / price;
        if (wantOut <= maxOut) {
          next.x -= wantOut;
          next.y += remaining;
          out += wantOut;
          remaining = 0n;
        } else {
          const used = ceilDiv(maxOut * price, Q64);
          next.x = 0n;
          next.y += used;
          out += maxOut;
          remaining -= used;
        }
      }
      touched.push([id, next]);
      if (remaining > 0n) id += swapForY ? -1 : 1;
    }
    if (remaining > 0n || out <= 0n) return null; // not enough liquidity in the modelled bins
    const endId = touched[touched.length - 1]![0];
    // The active bin moves past a bin the swap emptied on the output side.
    const lastBin = touched[touched.length - 1]![1];
    const newActive = (swapForY ? lastBin.y : lastBin.x) === 0n ? endId + (swapForY ? -1 : 1) : endId;
    const protocolFee = (fee * BigInt(p.protocolShare)) / 10000n;
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
      if (swapForY) p.protocolFeeX += protocolFee;
      else p.protocolFeeY += protocolFee;
      p.lastUpdatedAt = BigInt(ctx.clock.blockTime);
      this.write(p);
      for (const i of arrays) this.writeBinArray(p, i);
    });
    if (fail) d.fail = anchorFailure(index, "programs/lb_clmm/src/instructions/swap.rs", 207, 6003, "ExceededAmountSlippageTolerance", "Exceeded amount slippage tolerance");
    return side === "buy" ? { base: out, quote: amountIn } : { base: amountIn, quote: out };
  }
}
