/**
 * Meteora DAMM v2 (cp_amm) — VENUES.md §10. Config (328 B) at PDA(["config", u64 LE]) and the DBC migration configs; Pool
 * (1112 B) at PDA(["pool", config, max, min]); vaults PDA(["token_vault", mint, pool]) owned by the pool authority.
 * Swaps follow the concentrated-liquidity formulas on sqrt_price with Meteora's liquidity scale (L·2⁶⁴): A→B moves
 * √P to ⌈L·√P/(L + Δa·√P)⌉ (rounded up, as the program's get_next_sqrt_price_from_amount_a_rounding_up: the pool
 * never pays out the rounding), B→A to √P + ⌊Δb·2¹²⁸/L⌋. Compounding pools (collect_fee_mode 2) have no range: x·y = k
 * on the reserves the pool tracks (token_a/b_amount), out ⌊r_out·in/(r_in + in)⌋, √P recomputed ⌊√(b·2¹²⁸/a)⌋, and keep
 * compounding_fee_bps of the LP fee in their B reserve. Fees are taken in token B (collect_fee_mode 1 and 2: on the input
 * of a buy, the output of a sell), 20 % of them to the protocol bucket; the rate is the pool's base fee (fixed, a time
 * scheduler or a rate limiter) plus its dynamic fee (meteora-fees.ts). EvtSwap2 by self-CPI.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { constantPda, compareKeys, keyBytes, pda, u64le } from "../core/keys.js";
import { Q128, ceilDiv, isqrt } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { DAMM_V2_POOL_AUTHORITY, METEORA_DAMM_V2_PROGRAM, TOKEN_2022_PROGRAM } from "../programs.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, eventCpi, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";
import { feeAt, rateLimitedRate, scheduledRate, variableRate, volatilityAfterSwap, volatilityBeforeSwap, type BaseFee, type Volatility } from "./meteora-fees.js";

export const DAMM_V2_POOL_SIZE = 1112;
export const DAMM_V2_CONFIG_SIZE = 328;
export const MIN_SQRT_PRICE = 4295048016n;
export const MAX_SQRT_PRICE = 79226673521066979257578248091n;
const DISC = {
  pool: hex("f19a6d0411b16dbc"),
  config: hex("9b0caae01efacc82"),
  swap: hex("f8c69e91e17587c8"),
  evtSwap2: hex("bd4233a826507599"),
};
const PROTOCOL_FEE_PERCENT = 20n;
/** fee_version 0 pools cap the total rate at 50 % */
const MAX_FEE = 500_000_000n;
const U64_MAX = (1n << 64n) - 1n;
/** bin_step 1 as the dynamic fee stores it: 2⁶⁴/10⁴ (BIN_STEP_BPS_U128_DEFAULT) */
export const DAMM_V2_BIN_STEP_Q64 = 1844674407370955n;

/** A pool's fee setup beyond its fixed rate: its base fee, compounding, its dynamic fee. */
export interface DammV2FeeSetup {
  base?: BaseFee;
  /** collect_fee_mode 2: x·y = k, this share (bps) of the LP fee compounded into the B reserve */
  compoundingBps?: bigint;
  dynamic?: Volatility;
}
export const dammV2EventAuthority = constantPda(["__event_authority"], METEORA_DAMM_V2_PROGRAM);
export const dammV2ConfigAddress = (index: bigint) => pda(["config", u64le(index)], METEORA_DAMM_V2_PROGRAM);
export const dammV2PoolAddress = (config: Pubkey, a: Pubkey, b: Pubkey) => {
  const [max, min] = compareKeys(a, b) > 0 ? [a, b] : [b, a];
  return pda(["pool", keyBytes(config), keyBytes(max), keyBytes(min)], METEORA_DAMM_V2_PROGRAM);
};

export interface DammV2Pool extends PoolRef {
  config: Pubkey;
  feeNumerator: bigint;
  tokenA: Pubkey;
  tokenB: Pubkey;
  vaultA: Pubkey;
  vaultB: Pubkey;
  liquidity: bigint;
  sqrtMin: bigint;
  sqrtMax: bigint;
  sqrtPrice: bigint;
  protocolAFee: bigint;
  protocolBFee: bigint;
  creator: Pubkey;
  activationPoint: bigint;
  totalLpBFee: bigint;
  totalProtocolBFee: bigint;
  base: BaseFee;
  /** 1 fees in B; 2 compounding */
  collectFeeMode: 1 | 2;
  compoundingBps: bigint;
  dynamic?: Volatility;
  /** reserves the pool tracks (token_a/b_amount): a compounding pool's curve */
  tokenAAmount: bigint;
  tokenBAmount: bigint;
}

/** Token amounts of a position of liquidity L at √P in [√min, √max] (Meteora scale). */
export function amountsForLiquidity(L: bigint, s: bigint, sMin: bigint, sMax: bigint): { a: bigint; b: bigint } {
  return { a: (L * (sMax - s)) / (s * sMax), b: (L * (s - sMin)) / Q128 };
}

export class MeteoraDammV2Venue implements PoolVenue<DammV2Pool> {
  readonly pools = new Map<Pubkey, DammV2Pool>();
  constructor(private readonly ctx: WorldContext) {}

  writeConfig(address: Pubkey, index: bigint, feeNumerator: bigint, collectFeeMode: number): void {
    const data = new FixedWriter(DAMM_V2_CONFIG_SIZE)
      .raw(0, DISC.config)
      .pubkey(40, "11111111111111111111111111111111")
      .u64(72, feeNumerator)
      .u8(152, Number(PROTOCOL_FEE_PERCENT))
      .u8(154, 20)
      .u8(200, 1)
      .u8(201, collectFeeMode)
      .u8(202, 0)
      .u64(208, index)
      .u128(216, MIN_SQRT_PRICE)
      .u128(232, MAX_SQRT_PRICE).bytes;
    this.ctx.store.putRentExempt(address, METEORA_DAMM_V2_PROGRAM, data);
  }

  /**
   * A pool (A = base, B = quote) at `price` (B atoms per A atom) with `quoteDepth` B atoms. `concentrated` narrows the
   * range to [price/4, price·4]; otherwise full range like most DAMM v2 pools.
   */
  create(opts: { config: Pubkey; feeNumerator: bigint; baseMint: Pubkey; quoteMint: Pubkey; price: number; quoteDepth: bigint; creator: Pubkey; concentrated?: boolean; fees?: DammV2FeeSetup }): DammV2Pool {
    const { ctx } = this;
    const address = dammV2PoolAddress(opts.config, opts.baseMint, opts.quoteMint);
    const compounding = opts.fees?.compoundingBps !== undefined;
    let s = BigInt(Math.floor(Math.sqrt(opts.price) * 2 ** 32)) << 32n;
    const sMin = compounding ? 0n : opts.concentrated ? s / 2n : MIN_SQRT_PRICE;
    const sMax = compounding ? (1n << 128n) - 1n : opts.concentrated ? s * 2n : MAX_SQRT_PRICE;
    const L = compounding ? (opts.quoteDepth * Q128) / s : (opts.quoteDepth * Q128) / (s - sMin);
    // a compounding pool starts with a = ⌈L/√P⌉, b = ⌈L·√P/2¹²⁸⌉ and the √P of those reserves
    const [ra, rb] = compounding ? [ceilDiv(L, s), ceilDiv(L * s, Q128)] : [0n, 0n];
    if (compounding) s = isqrt((rb << 128n) / ra);
    const p: DammV2Pool = {
      kind: "meteora-damm-v2",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      config: opts.config,
      feeNumerator: opts.feeNumerator,
      tokenA: opts.baseMint,
      tokenB: opts.quoteMint,
      vaultA: pda(["token_vault", keyBytes(opts.baseMint), keyBytes(address)], METEORA_DAMM_V2_PROGRAM),
      vaultB: pda(["token_vault", keyBytes(opts.quoteMint), keyBytes(address)], METEORA_DAMM_V2_PROGRAM),
      liquidity: L,
      sqrtMin: sMin,
      sqrtMax: sMax,
      sqrtPrice: s,
      protocolAFee: 0n,
      protocolBFee: 0n,
      creator: opts.creator,
      activationPoint: BigInt(ctx.clock.blockTime - 86400),
      totalLpBFee: 0n,
      totalProtocolBFee: 0n,
      base: opts.fees?.base ?? { kind: "fixed", cliff: opts.feeNumerator },
      collectFeeMode: compounding ? 2 : 1,
      compoundingBps: opts.fees?.compoundingBps ?? 0n,
      ...(opts.fees?.dynamic ? { dynamic: { ...opts.fees.dynamic, sqrtReference: s } } : {}),
      tokenAAmount: ra,
      tokenBAmount: rb,
      related: {},
    };
    p.related = { config: opts.config, tokenAVault: p.vaultA, tokenBVault: p.vaultB, poolAuthority: DAMM_V2_POOL_AUTHORITY };
    const { a, b } = this.reserves(p);
    ctx.createTokenAccount(DAMM_V2_POOL_AUTHORITY, p.tokenA, a + 1n, p.vaultA);
    ctx.createTokenAccount(DAMM_V2_POOL_AUTHORITY, p.tokenB, b + 1n, p.vaultB);
    this.pools.set(address, p);
    this.write(p);
    return p;
  }

  /** The reserves behind swaps: a compounding pool's tracked ones, else those of L on [√min, √max] at √P. */
  reserves(p: DammV2Pool): { a: bigint; b: bigint } {
    return p.collectFeeMode === 2 ? { a: p.tokenAAmount, b: p.tokenBAmount } : amountsForLiquidity(p.liquidity, p.sqrtPrice, p.sqrtMin, p.sqrtMax);
  }

  write(p: DammV2Pool): void {
    const { book } = this.ctx;
    const { a, b } = this.reserves(p);
    const w = new FixedWriter(DAMM_V2_POOL_SIZE)
      .raw(0, DISC.pool)
      .u64(8, p.base.cliff);
    // BaseFeeInfo: mode @16, then the mode's fields (time scheduler @22/@24/@32, rate limiter @22/@24/@28/@32)
    if (p.base.kind === "linear" || p.base.kind === "exponential") {
      w.u8(16, p.base.kind === "linear" ? 0 : 1).u16(22, Number(p.base.periods)).u64(24, p.base.frequency).u64(32, p.base.reduction);
    } else if (p.base.kind === "rate-limiter") {
      w.u8(16, 2).u16(22, Number(p.base.incrementBps)).u32(24, Number(p.base.duration)).u32(28, Number(p.base.maxFeeBps)).u64(32, p.base.reference);
    }
    w.u8(48, Number(PROTOCOL_FEE_PERCENT)).u8(50, 20).u16(54, Number(p.compoundingBps));
    const v = p.dynamic;
    if (v) {
      w.u8(56, 1).u32(64, Number(v.maxAccumulator)).u32(68, Number(v.variableFeeControl)).u16(72, Number(v.binStep)).u16(74, Number(v.filterPeriod))
        .u16(76, Number(v.decayPeriod)).u16(78, Number(v.reductionFactor)).u64(80, v.lastUpdate).u128(88, v.binStepQ64).u128(104, v.sqrtReference)
        .u128(120, v.accumulator).u128(136, v.reference);
    }
    const data = w
      .pubkey(168, p.tokenA)
      .pubkey(200, p.tokenB)
      .pubkey(232, p.vaultA)
      .pubkey(264, p.vaultB)
      .u128(360, p.liquidity)
      .u64(392, p.protocolAFee)
      .u64(400, p.protocolBFee)
      .u128(424, p.sqrtMin)
      .u128(440, p.sqrtMax)
      .u128(456, p.sqrtPrice)
      .u64(472, p.activationPoint)
      .u8(480, 1)
      .u8(481, 0)
      .u8(482, book.mint(p.tokenA).program === TOKEN_2022_PROGRAM ? 1 : 0)
      .u8(483, book.mint(p.tokenB).program === TOKEN_2022_PROGRAM ? 1 : 0)
      .u8(484, p.collectFeeMode)
      .u8(485, 0)
      .u128(552, 0n)
      .u128(584, p.totalLpBFee)
      .u64(608, p.totalProtocolBFee)
      .u64(632, 1n)
      .pubkey(648, p.creator)
      .u64(680, a)
      .u64(688, b)
      .u8(696, 1).bytes;
    this.ctx.store.putRentExempt(p.address, METEORA_DAMM_V2_PROGRAM, data);
  }

  price(p: DammV2Pool): number {
    const s = Number(p.sqrtPrice) / 2 ** 64;
    return s * s;
  }

  /** The pool's total rate for a swap at `now` (its activation is timestamp-based): base fee plus dynamic fee, capped. */
  rateOf(p: DammV2Pool, buy: boolean, amountIn: bigint, now: bigint): bigint {
    const base = p.base;
    let rate: bigint;
    if (base.kind === "fixed") rate = base.cliff;
    else if (base.kind === "rate-limiter") {
      const on = buy && now >= p.activationPoint && now <= p.activationPoint + base.duration;
      rate = on ? rateLimitedRate(base.cliff, base.incrementBps, base.reference, (base.maxFeeBps * 1_000_000_000n) / 10_000n, amountIn) : base.cliff;
    } else rate = now < p.activationPoint ? scheduledRate(base, base.periods) : scheduledRate(base, (now - p.activationPoint) / base.frequency);
    rate += variableRate(p.dynamic);
    return rate > MAX_FEE ? MAX_FEE : rate;
  }

  swap(d: Draft, p: DammV2Pool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    const { ctx } = this;
    const aToB = side === "sell";
    const L = p.liquidity;
    const s = p.sqrtPrice;
    const now = BigInt(ctx.clock.blockTime);
    const rate = this.rateOf(p, !aToB, amountIn, now);
    const compounding = p.collectFeeMode === 2;
    let next: bigint;
    let out: bigint;
    let fee: bigint;
    let curveIn: bigint;
    if (aToB) {
      curveIn = amountIn;
      let gross: bigint;
      if (compounding) {
        if (p.tokenAAmount + amountIn > U64_MAX) return null;
        gross = (p.tokenBAmount * amountIn) / (p.tokenAAmount + amountIn);
        next = 0n;
      } else {
        next = ceilDiv(L * s, L + amountIn * s);
        if (next < p.sqrtMin) return null;
        gross = (L * (s - next)) / Q128;
      }
      fee = feeAt(gross, rate);
      out = gross - fee;
    } else {
      fee = feeAt(amountIn, rate);
      curveIn = amountIn - fee;
      if (compounding) {
        if (p.tokenBAmount + curveIn > U64_MAX) return null;
        out = (p.tokenAAmount * curveIn) / (p.tokenBAmount + curveIn);
        next = 0n;
      } else {
        next = s + (curveIn * Q128) / L;
        if (next > p.sqrtMax) return null;
        out = (L * (next - s)) / (s * next);
      }
    }
    if (out <= 0n) return null;
    const compounded = compounding ? ((fee - (fee * PROTOCOL_FEE_PERCENT) / 100n) * p.compoundingBps) / 10_000n : 0n;
    if (compounding) {
      // the reserves after the swap, and the √P they give
      const a2 = aToB ? p.tokenAAmount + amountIn : p.tokenAAmount - out;
      const b2 = aToB ? p.tokenBAmount - out - fee + compounded : p.tokenBAmount + curveIn + compounded;
      next = isqrt((b2 << 128n) / a2);
    }
    const protocolFee = (fee * PROTOCOL_FEE_PERCENT) / 100n;
    const inMint = ctx.book.mint(aToB ? p.tokenA : p.tokenB);
    const outMint = ctx.book.mint(aToB ? p.tokenB : p.tokenA);
    const vaultIn = aToB ? p.vaultA : p.vaultB;
    const vaultOut = aToB ? p.vaultB : p.vaultA;
    const userIn = side === "sell" ? userBase : userQuote;
    const userOut = side === "sell" ? userQuote : userBase;
    const minOut = fail ? out + out / 40n + 1n : (out * 97n) / 100n;
    const after = compounding
      ? { a: aToB ? p.tokenAAmount + amountIn : p.tokenAAmount - out, b: aToB ? p.tokenBAmount - out - fee + compounded : p.tokenBAmount + curveIn + compounded }
      : amountsForLiquidity(L, next, p.sqrtMin, p.sqrtMax);
    const event = borsh()
      .bytes(DISC.evtSwap2)
      .pubkey(p.address).u8(aToB ? 0 : 1).u8(p.collectFeeMode).bool(false)
      .u64(amountIn).u64(minOut).u8(0)
      .u64(amountIn).u64(curveIn).u64(0n).u64(out).u128(next).u64(fee - protocolFee - compounded).u64(protocolFee).u64(compounded).u64(0n)
      .u64(amountIn).u64(out).u64(out).u64(BigInt(ctx.clock.blockTime)).u64(after.a).u64(after.b)
      .done();
    const ix: Ix = {
      program: METEORA_DAMM_V2_PROGRAM,
      accounts: [
        r(DAMM_V2_POOL_AUTHORITY), w(p.address), w(userIn), w(userOut), w(p.vaultA), w(p.vaultB), r(p.tokenA), r(p.tokenB), ws(user),
        r(ctx.book.mint(p.tokenA).program), r(ctx.book.mint(p.tokenB).program), r(METEORA_DAMM_V2_PROGRAM), r(dammV2EventAuthority()),
        r(METEORA_DAMM_V2_PROGRAM),
      ],
      data: borsh().bytes(DISC.swap).u64(amountIn).u64(minOut).done(),
      steps: [
        { log: "Instruction: Swap" },
        { cpi: tokenTransferChecked(inMint.program, userIn, inMint.address, vaultIn, user, amountIn, inMint.decimals) },
        { cpi: tokenTransferChecked(outMint.program, vaultOut, outMint.address, userOut, DAMM_V2_POOL_AUTHORITY, out, outMint.decimals) },
        { cpi: eventCpi(METEORA_DAMM_V2_PROGRAM, dammV2EventAuthority(), event) },
      ],
      cu: 37000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(vaultIn), amountIn);
      ctx.book.transfer(ctx.tokenAccount(vaultOut), ctx.tokenAccount(userOut), out);
      p.protocolBFee += protocolFee;
      p.totalProtocolBFee += protocolFee;
      p.totalLpBFee += fee - protocolFee;
      if (p.dynamic) volatilityBeforeSwap(p.dynamic, p.sqrtPrice, now);
      const before = p.sqrtPrice;
      p.sqrtPrice = next;
      p.tokenAAmount = after.a;
      p.tokenBAmount = after.b;
      if (p.dynamic) volatilityAfterSwap(p.dynamic, before, next, now);
      this.write(p);
    });
    if (fail) d.fail = anchorFailure(index, "programs/cp-amm/src/instructions/ix_swap.rs", 291, 6002, "ExceededSlippage", "Exceeded slippage tolerance");
    return side === "buy" ? { base: out, quote: amountIn } : { base: amountIn, quote: out };
  }
}

/** Meteora DAMM v2: token_a/token_b vaults; swaps wait for the (timestamp) activation point (VENUES.md §10). */
export const meteoraDammV2 = defineVenue<DammV2Pool>()({
  kind: "meteora-damm-v2",
  tradeKind: "meteora-damm-v2",
  program: METEORA_DAMM_V2_PROGRAM,
  reserves: (p) => [tokenReserve(p.tokenA, p.vaultA), tokenReserve(p.tokenB, p.vaultB)],
  activation: (p) => ({ time: Number(p.activationPoint) }),
});
