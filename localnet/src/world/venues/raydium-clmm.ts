/**
 * Raydium CLMM — VENUES.md §6. AmmConfig (117 B) at PDA(["amm_config", u16 BE]), PoolState (1544 B) at PDA(["pool", config,
 * mint0, mint1]), vaults PDA(["pool_vault", pool, mint]) owned by the pool. Liquidity sits in one position spanning a
 * wide range around the price; swaps stay inside it and follow the concentrated-liquidity formulas (input fee split into
 * LP / protocol / fund shares), moving sqrt_price_x64 and tick_current consistently. SwapEvent via `Program data:`.
 * PoolState as raydium-clmm @03b44b7 lays it out (limit orders and dynamic fees): fee_on @390 = 0 (fee on the input
 * token), dynamic_fee_info @1096 zero (off), and the removed swap-amount / total-fee counters (@325–389, @1032–1064)
 * left as the zero padding they now are.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { i32be, keyBytes, pda } from "../core/keys.js";
import { Q64, ceilDiv, sqrtPriceAtTick, tickAtSqrtPrice } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { MEMO_PROGRAM, RAYDIUM_CLMM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "../programs.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { RAYDIUM_DISC, encodeRaydiumObservation, findRaydiumPoolAddress, raydiumConfigAddress, raydiumFeeShares, raydiumPoolKeys, raydiumTradeFee, writeRaydiumConfigs, type RaydiumConfig, type RaydiumConfigTier } from "./raydium-config.js";
import { defineVenue, swapBySide, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";

export const CLMM_POOL_SIZE = 1544;
export const CLMM_CONFIG_SIZE = 117;
export const CLMM_OBSERVATION_SIZE = 4483;
const SWAP_V2 = hex("2b04ed0b1ac91e62");

export interface ClmmConfig extends RaydiumConfig {
  tickSpacing: number;
}

/** Our world's configs (index 3 and 4 match mainnet ✔fx; the others follow Raydium's published tiers). */
const CONFIGS: RaydiumConfigTier<ClmmConfig>[] = [
  { index: 0, tradeFeeRate: 100n, tickSpacing: 1 },
  { index: 1, tradeFeeRate: 500n, tickSpacing: 10 },
  { index: 2, tradeFeeRate: 2500n, tickSpacing: 60 },
  { index: 3, tradeFeeRate: 10000n, tickSpacing: 120 },
  { index: 4, tradeFeeRate: 100n, tickSpacing: 1 },
];

export const clmmConfigAddress = (index: number) => raydiumConfigAddress(RAYDIUM_CLMM_PROGRAM, index);
export const clmmPoolAddress = (config: Pubkey, mint0: Pubkey, mint1: Pubkey) => findRaydiumPoolAddress(RAYDIUM_CLMM_PROGRAM, config, mint0, mint1)[0];

export interface ClmmPool extends PoolRef {
  config: ClmmConfig;
  bump: number;
  owner: Pubkey;
  mint0: Pubkey;
  mint1: Pubkey;
  vault0: Pubkey;
  vault1: Pubkey;
  observation: Pubkey;
  liquidity: bigint;
  sqrtPrice: bigint;
  sqrtLower: bigint;
  sqrtUpper: bigint;
  feeGrowth0: bigint;
  feeGrowth1: bigint;
  protocolFees: [bigint, bigint];
  fundFees: [bigint, bigint];
  openTime: bigint;
  baseIs0: boolean;
}

export function encodeClmmConfig(c: ClmmConfig, owner: Pubkey, fundOwner: Pubkey = owner): Uint8Array {
  return new FixedWriter(CLMM_CONFIG_SIZE)
    .raw(0, RAYDIUM_DISC.config)
    .u8(8, c.bump)
    .u16(9, c.index)
    .pubkey(11, owner)
    .u32(43, Number(c.protocolFeeRate))
    .u32(47, Number(c.tradeFeeRate))
    .u16(51, c.tickSpacing)
    .u32(53, Number(c.fundFeeRate))
    .pubkey(61, fundOwner).bytes;
}

export class RaydiumClmmVenue implements PoolVenue<ClmmPool> {
  readonly pools = new Map<Pubkey, ClmmPool>();
  configs = new Map<number, ClmmConfig>();
  constructor(private readonly ctx: WorldContext, private readonly owner: Pubkey) {}

  genesis(): void {
    this.configs = writeRaydiumConfigs(this.ctx, RAYDIUM_CLMM_PROGRAM, CONFIGS, (c) => encodeClmmConfig(c, this.owner));
  }

  /**
   * A pool at `price` (quote atoms per base atom) holding `quoteDepth` quote atoms in range; the range spans
   * [price / widen², price · widen²] in sqrt-price terms.
   */
  create(opts: { configIndex: number; baseMint: Pubkey; quoteMint: Pubkey; price: number; quoteDepth: bigint; widen: number; creator: Pubkey }): ClmmPool {
    const { ctx } = this;
    const config = this.configs.get(opts.configIndex)!;
    const { address, bump, baseIs0, mint0, mint1, vault0, vault1, observation } = raydiumPoolKeys(RAYDIUM_CLMM_PROGRAM, config.address, opts.baseMint, opts.quoteMint);
    const p1per0 = baseIs0 ? opts.price : 1 / opts.price;
    const tick = Math.floor(Math.log(p1per0) / Math.log(1.0001));
    const sqrtPrice = sqrtPriceAtTick(tick) + 12345n;
    const spread = Math.ceil(Math.log(opts.widen * opts.widen) / Math.log(1.0001) / config.tickSpacing) * config.tickSpacing;
    const lowerTick = Math.floor(tick / config.tickSpacing) * config.tickSpacing - spread;
    const upperTick = Math.floor(tick / config.tickSpacing) * config.tickSpacing + spread;
    const sqrtLower = sqrtPriceAtTick(lowerTick);
    const sqrtUpper = sqrtPriceAtTick(upperTick);
    // Liquidity from the quote depth on its side of the price.
    const liquidity = baseIs0
      ? (opts.quoteDepth * Q64) / (sqrtPrice - sqrtLower) // y = L·(√P − √Pl)
      : (opts.quoteDepth * sqrtPrice * sqrtUpper) / (Q64 * (sqrtUpper - sqrtPrice)); // x = L·(√Pu − √P)/(√P·√Pu)
    const amount0 = (liquidity * Q64 * (sqrtUpper - sqrtPrice)) / (sqrtPrice * sqrtUpper) + 1n;
    const amount1 = (liquidity * (sqrtPrice - sqrtLower)) / Q64 + 1n;
    const p: ClmmPool = {
      kind: "raydium-clmm",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      config,
      bump,
      owner: opts.creator,
      mint0,
      mint1,
      vault0,
      vault1,
      observation,
      liquidity,
      sqrtPrice,
      sqrtLower,
      sqrtUpper,
      feeGrowth0: 0n,
      feeGrowth1: 0n,
      protocolFees: [0n, 0n],
      fundFees: [0n, 0n],
      openTime: BigInt(ctx.clock.blockTime - 86400 * 10),
      baseIs0,
      related: {},
    };
    p.related = { ammConfig: config.address, tokenVault0: p.vault0, tokenVault1: p.vault1, observation: p.observation };
    ctx.createTokenAccount(address, mint0, amount0, p.vault0);
    ctx.createTokenAccount(address, mint1, amount1, p.vault1);
    ctx.store.putRentExempt(p.observation, RAYDIUM_CLMM_PROGRAM, encodeRaydiumObservation(CLMM_OBSERVATION_SIZE, 19, address));
    this.pools.set(address, p);
    this.write(p);
    return p;
  }

  write(p: ClmmPool): void {
    const { book } = this.ctx;
    const tick = tickAtSqrtPrice(p.sqrtPrice);
    const data = new FixedWriter(CLMM_POOL_SIZE)
      .raw(0, RAYDIUM_DISC.pool)
      .u8(8, p.bump)
      .pubkey(9, p.config.address)
      .pubkey(41, p.owner)
      .pubkey(73, p.mint0)
      .pubkey(105, p.mint1)
      .pubkey(137, p.vault0)
      .pubkey(169, p.vault1)
      .pubkey(201, p.observation)
      .u8(233, book.mint(p.mint0).decimals)
      .u8(234, book.mint(p.mint1).decimals)
      .u16(235, p.config.tickSpacing)
      .u128(237, p.liquidity)
      .u128(253, p.sqrtPrice)
      .i32(269, tick)
      .u128(277, p.feeGrowth0)
      .u128(293, p.feeGrowth1)
      .u64(309, p.protocolFees[0])
      .u64(317, p.protocolFees[1])
      .u8(389, 0)
      .u8(390, 0)
      .u64(1064, p.fundFees[0])
      .u64(1072, p.fundFees[1])
      .u64(1080, p.openTime)
      .u64(1088, BigInt(Math.floor(this.ctx.clock.slot / 432000))).bytes;
    this.ctx.store.putRentExempt(p.address, RAYDIUM_CLMM_PROGRAM, data);
  }

  price(p: ClmmPool): number {
    const s = Number(p.sqrtPrice) / 2 ** 64;
    const p1per0 = s * s;
    return p.baseIs0 ? p1per0 : 1 / p1per0;
  }

  /** Result of swapping `amountIn` (before fee) of token0 (zeroForOne) or token1, or null if it would leave the range. */
  quote(p: ClmmPool, zeroForOne: boolean, amountIn: bigint): { out: bigint; fee: bigint; sqrtNext: bigint } | null {
    const fee = raydiumTradeFee(p.config, amountIn);
    const inLess = amountIn - fee;
    const L = p.liquidity;
    const s = p.sqrtPrice;
    let sqrtNext: bigint;
    let out: bigint;
    if (zeroForOne) {
      sqrtNext = ceilDiv(L * s * Q64, L * Q64 + inLess * s);
      if (sqrtNext <= p.sqrtLower) return null;
      out = (L * (s - sqrtNext)) / Q64;
    } else {
      sqrtNext = s + (inLess * Q64) / L;
      if (sqrtNext >= p.sqrtUpper) return null;
      out = (L * Q64 * (sqrtNext - s)) / (s * sqrtNext);
    }
    if (out <= 0n) return null;
    return { out, fee, sqrtNext };
  }

  /** Amount of token0 (zeroForOne) or token1 to put in to move the price to `sqrtTarget` (fee included). */
  amountToReach(p: ClmmPool, sqrtTarget: bigint): { zeroForOne: boolean; amountIn: bigint } {
    const L = p.liquidity;
    const s = p.sqrtPrice;
    const zeroForOne = sqrtTarget < s;
    const net = zeroForOne ? (L * Q64 * (s - sqrtTarget)) / (s * sqrtTarget) : (L * (sqrtTarget - s)) / Q64;
    const gross = (net * 1_000_000n) / (1_000_000n - p.config.tradeFeeRate);
    return { zeroForOne, amountIn: gross };
  }

  swap(d: Draft, p: ClmmPool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    return swapBySide(side, p.baseIs0, amountIn, userBase, userQuote, (zeroForOne, userIn, userOut) => this.swapRaw(d, p, user, zeroForOne, amountIn, userIn, userOut, fail));
  }

  swapRaw(d: Draft, p: ClmmPool, user: Pubkey, zeroForOne: boolean, amountIn: bigint, userIn: Pubkey, userOut: Pubkey, fail: boolean): { out: bigint } | null {
    const { ctx } = this;
    const q = this.quote(p, zeroForOne, amountIn);
    if (!q) return null;
    const { out, fee, sqrtNext } = q;
    const { protocolFee, fundFee } = raydiumFeeShares(p.config, fee);
    const lpFee = fee - protocolFee - fundFee;
    const inMint = ctx.book.mint(zeroForOne ? p.mint0 : p.mint1);
    const outMint = ctx.book.mint(zeroForOne ? p.mint1 : p.mint0);
    const vaultIn = zeroForOne ? p.vault0 : p.vault1;
    const vaultOut = zeroForOne ? p.vault1 : p.vault0;
    const tickNext = tickAtSqrtPrice(sqrtNext);
    const spacing = p.config.tickSpacing * 60;
    const arrayStart = Math.floor(tickNext / spacing) * spacing;
    const tickArray = pda(["tick_array", keyBytes(p.address), i32be(arrayStart)], RAYDIUM_CLMM_PROGRAM);
    const bitmapExt = pda(["pool_tick_array_bitmap_extension", keyBytes(p.address)], RAYDIUM_CLMM_PROGRAM);
    const threshold = fail ? out + out / 40n + 1n : (out * 97n) / 100n;
    const [acct0, acct1] = zeroForOne ? [userIn, userOut] : [userOut, userIn];
    const event = borsh()
      .bytes(RAYDIUM_DISC.swapEvent)
      .pubkey(p.address).pubkey(user).pubkey(acct0).pubkey(acct1)
      .u64(zeroForOne ? amountIn : out).u64(0n).u64(zeroForOne ? out : amountIn).u64(0n)
      .bool(zeroForOne).u128(sqrtNext).u128(p.liquidity).i32(tickNext)
      .done();
    const ix: Ix = {
      program: RAYDIUM_CLMM_PROGRAM,
      accounts: [
        ws(user), r(p.config.address), w(p.address), w(userIn), w(userOut), w(vaultIn), w(vaultOut), w(p.observation), r(TOKEN_PROGRAM),
        r(TOKEN_2022_PROGRAM), r(MEMO_PROGRAM), r(inMint.address), r(outMint.address), w(bitmapExt), w(tickArray),
      ],
      data: borsh().bytes(SWAP_V2).u64(amountIn).u64(threshold).u128(0n).bool(true).done(),
      steps: [
        { log: "Instruction: SwapV2" },
        { cpi: tokenTransferChecked(inMint.program, userIn, inMint.address, vaultIn, user, amountIn, inMint.decimals) },
        { cpi: tokenTransferChecked(outMint.program, vaultOut, outMint.address, userOut, p.address, out, outMint.decimals) },
        { data: event },
      ],
      cu: 70000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(vaultIn), amountIn);
      ctx.book.transfer(ctx.tokenAccount(vaultOut), ctx.tokenAccount(userOut), out);
      const i = zeroForOne ? 0 : 1;
      p.protocolFees[i] += protocolFee;
      p.fundFees[i] += fundFee;
      if (i === 0) p.feeGrowth0 += (lpFee * Q64) / p.liquidity;
      else p.feeGrowth1 += (lpFee * Q64) / p.liquidity;
      p.sqrtPrice = sqrtNext;
      this.write(p);
    });
    if (fail) d.fail = anchorFailure(index, "programs/amm/src/instructions/swap.rs", 488, 6022, "TooLittleOutputReceived", "Too little output received");
    return { out };
  }
}

/** Raydium CLMM: token_0/token_1 vaults owned by the pool; swaps wait for `open_time` (VENUES.md §6). */
export const raydiumClmm = defineVenue<ClmmPool>()({
  kind: "raydium-clmm",
  tradeKind: "raydium-clmm",
  program: RAYDIUM_CLMM_PROGRAM,
  reserves: (p) => [tokenReserve(p.mint0, p.vault0), tokenReserve(p.mint1, p.vault1)],
  activation: (p) => ({ time: Number(p.openTime) }),
});
