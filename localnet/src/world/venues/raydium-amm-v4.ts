/**
 * Raydium AMM v4 — VENUES.md §4. AmmInfo (752 B, packed, no discriminator) at PDA([program, market, "amm_associated_seed"])
 * over a synthetic market key; vaults owned by the AMM authority; SwapBaseIn (17 accounts) / SwapBaseInV2 (8 accounts)
 * with the program's constant product on vault − need_take_pnl, fee kept in the pool, and the `ray_log` line.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter } from "../core/bytes.js";
import { findPda, keyBytes, pda } from "../core/keys.js";
import { ceilDiv } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { OPENBOOK_PROGRAM, RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_AMM_V4_PROGRAM, TOKEN_PROGRAM } from "../programs.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, tokenTransfer } from "../tx/common.js";
import { nativeFailure } from "../tx/errors.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";

export const AMM_INFO_SIZE = 752;

export interface AmmV4Pool extends PoolRef {
  market: Pubkey;
  nonce: number;
  coinVault: Pubkey;
  pcVault: Pubkey;
  lpMint: Pubkey;
  openOrders: Pubkey;
  targetOrders: Pubkey;
  coinDecimals: number;
  pcDecimals: number;
  needTakePnlCoin: bigint;
  needTakePnlPc: bigint;
  lpAmount: bigint;
  openTime: bigint;
  /**
   * AmmStatus::WaitingTrade (7) while a pool created to open later waits for `pool_open_time` (the program refuses
   * swaps before it); SwapOnly (6) otherwise.
   */
  waitingTrade?: boolean;
  swapCoinIn: bigint;
  swapPcOut: bigint;
  swapPcIn: bigint;
  swapCoinOut: bigint;
  swapAccPcFee: bigint;
  swapAccCoinFee: bigint;
  owner: Pubkey;
}

/** The AMM v4 program's associated accounts of a market: PDA([program, market, seed]). */
export const ammV4Associated = (market: Pubkey, seed: string) => pda([keyBytes(RAYDIUM_AMM_V4_PROGRAM), keyBytes(market), seed], RAYDIUM_AMM_V4_PROGRAM);
export const ammV4Address = (market: Pubkey) => ammV4Associated(market, "amm_associated_seed");
const SWAP_FEE = { num: 25n, den: 10000n };

export function encodeAmmInfo(p: AmmV4Pool): Uint8Array {
  return new FixedWriter(AMM_INFO_SIZE)
    .u64(0, p.waitingTrade ? 7n : 6n) // status WaitingTrade until an opening pool opens, else SwapOnly
    .u64(8, BigInt(p.nonce))
    .u64(16, 7n) // max_order
    .u64(24, 3n) // depth
    .u64(32, BigInt(p.coinDecimals))
    .u64(40, BigInt(p.pcDecimals))
    .u64(48, 1n) // state
    .u64(64, 1n) // min_size
    .u64(72, 500n) // vol_max_cut_ratio
    .u64(80, 500000n) // amount_wave
    .u64(88, 1n)
    .u64(96, 1n)
    .u64(104, 1n)
    .u64(112, 1000000000n)
    .u64(120, 10n ** BigInt(Math.max(p.coinDecimals, p.pcDecimals)))
    .u64(128, 5n)
    .u64(136, 10000n)
    .u64(144, 25n)
    .u64(152, 10000n)
    .u64(160, 12n)
    .u64(168, 100n)
    .u64(176, SWAP_FEE.num)
    .u64(184, SWAP_FEE.den)
    .u64(192, p.needTakePnlCoin)
    .u64(200, p.needTakePnlPc)
    .u64(224, p.openTime)
    .u128(256, p.swapCoinIn)
    .u128(272, p.swapPcOut)
    .u64(288, p.swapAccPcFee)
    .u128(296, p.swapPcIn)
    .u128(312, p.swapCoinOut)
    .u64(328, p.swapAccCoinFee)
    .pubkey(336, p.coinVault)
    .pubkey(368, p.pcVault)
    .pubkey(400, p.baseMint)
    .pubkey(432, p.quoteMint)
    .pubkey(464, p.lpMint)
    .pubkey(496, p.openOrders)
    .pubkey(528, p.market)
    .pubkey(560, OPENBOOK_PROGRAM)
    .pubkey(592, p.targetOrders)
    .pubkey(688, p.owner)
    .u64(720, p.lpAmount).bytes;
}

export class RaydiumAmmV4Venue implements PoolVenue<AmmV4Pool> {
  readonly pools = new Map<Pubkey, AmmV4Pool>();
  constructor(private readonly ctx: WorldContext) {}

  create(opts: { market: Pubkey; coinMint: Pubkey; pcMint: Pubkey; coin: bigint; pc: bigint; owner: Pubkey; needTakePnl?: [bigint, bigint] }): AmmV4Pool {
    const { ctx } = this;
    const address = ammV4Address(opts.market);
    const [, nonce] = findPda(["amm authority"], RAYDIUM_AMM_V4_PROGRAM);
    const p: AmmV4Pool = {
      kind: "raydium-amm-v4",
      address,
      baseMint: opts.coinMint,
      quoteMint: opts.pcMint,
      derivable: false,
      market: opts.market,
      nonce,
      coinVault: ammV4Associated(opts.market, "coin_vault_associated_seed"),
      pcVault: ammV4Associated(opts.market, "pc_vault_associated_seed"),
      lpMint: ammV4Associated(opts.market, "lp_mint_associated_seed"),
      openOrders: ammV4Associated(opts.market, "open_order_associated_seed"),
      targetOrders: ammV4Associated(opts.market, "target_associated_seed"),
      coinDecimals: ctx.book.mint(opts.coinMint).decimals,
      pcDecimals: ctx.book.mint(opts.pcMint).decimals,
      needTakePnlCoin: opts.needTakePnl?.[0] ?? 0n,
      needTakePnlPc: opts.needTakePnl?.[1] ?? 0n,
      lpAmount: 0n,
      openTime: BigInt(ctx.clock.blockTime - 86400 * 30),
      swapCoinIn: 0n,
      swapPcOut: 0n,
      swapPcIn: 0n,
      swapCoinOut: 0n,
      swapAccPcFee: 0n,
      swapAccCoinFee: 0n,
      owner: opts.owner,
      related: {},
    };
    p.related = { coinVault: p.coinVault, pcVault: p.pcVault, lpMint: p.lpMint, authority: RAYDIUM_AMM_V4_AUTHORITY };
    ctx.createTokenAccount(RAYDIUM_AMM_V4_AUTHORITY, opts.coinMint, opts.coin + p.needTakePnlCoin, p.coinVault);
    ctx.createTokenAccount(RAYDIUM_AMM_V4_AUTHORITY, opts.pcMint, opts.pc + p.needTakePnlPc, p.pcVault);
    const lp = BigInt(Math.floor(Math.sqrt(Number(opts.coin) * Number(opts.pc))));
    p.lpAmount = lp;
    ctx.book.writeMint({ address: p.lpMint, program: TOKEN_PROGRAM, decimals: p.coinDecimals, supply: 0n, mintAuthority: RAYDIUM_AMM_V4_AUTHORITY, freezeAuthority: null });
    ctx.book.mintTo(ctx.createTokenAccount(opts.owner, p.lpMint, 0n), lp);
    this.pools.set(address, p);
    this.write(p);
    return p;
  }

  write(p: AmmV4Pool): void {
    this.ctx.store.putRentExempt(p.address, RAYDIUM_AMM_V4_PROGRAM, encodeAmmInfo(p));
  }

  reserves(p: AmmV4Pool): { coin: bigint; pc: bigint } {
    return {
      coin: this.ctx.tokenAccount(p.coinVault).amount - p.needTakePnlCoin,
      pc: this.ctx.tokenAccount(p.pcVault).amount - p.needTakePnlPc,
    };
  }

  price(p: AmmV4Pool): number {
    const { coin, pc } = this.reserves(p);
    return Number(pc) / Number(coin);
  }

  swap(d: Draft, p: AmmV4Pool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    const { ctx } = this;
    const { coin, pc } = this.reserves(p);
    const coinIn = side === "sell";
    const [rIn, rOut] = coinIn ? [coin, pc] : [pc, coin];
    const fee = ceilDiv(amountIn * SWAP_FEE.num, SWAP_FEE.den);
    const inAfter = amountIn - fee;
    const out = (rOut * inAfter) / (rIn + inAfter);
    if (out <= 0n || out >= rOut) return null;
    const minOut = fail ? out + out / 50n + 1n : (out * 97n) / 100n;
    const userSource = coinIn ? userBase : userQuote;
    const userDest = coinIn ? userQuote : userBase;
    const vaultIn = coinIn ? p.coinVault : p.pcVault;
    const vaultOut = coinIn ? p.pcVault : p.coinVault;
    const sourceBefore = side === "sell" ? (ctx.book.account(userSource)?.amount ?? 0n) : amountIn;
    const rayLog = borsh().u8(3).u64(amountIn).u64(minOut).u64(coinIn ? 2n : 1n).u64(sourceBefore).u64(coin).u64(pc).u64(out).done();
    const v2 = ctx.clock.slot % 5 === 0;
    const accounts = v2
      ? [r(TOKEN_PROGRAM), w(p.address), r(RAYDIUM_AMM_V4_AUTHORITY), w(p.coinVault), w(p.pcVault), w(userSource), w(userDest), ws(user)]
      : [
          r(TOKEN_PROGRAM), w(p.address), r(RAYDIUM_AMM_V4_AUTHORITY), w(p.openOrders), w(p.coinVault), w(p.pcVault),
          ...Array.from({ length: 8 }, () => w(p.openOrders)), w(userSource), w(userDest), ws(user),
        ];
    const ix: Ix = {
      program: RAYDIUM_AMM_V4_PROGRAM,
      accounts,
      data: borsh().u8(v2 ? 16 : 9).u64(amountIn).u64(minOut).done(),
      steps: [
        { log: `ray_log: ${Buffer.from(rayLog).toString("base64")}` },
        { cpi: tokenTransfer(TOKEN_PROGRAM, userSource, vaultIn, user, amountIn) },
        { cpi: tokenTransfer(TOKEN_PROGRAM, vaultOut, userDest, RAYDIUM_AMM_V4_AUTHORITY, out) },
      ],
      cu: 19000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userSource), ctx.tokenAccount(vaultIn), amountIn);
      ctx.book.transfer(ctx.tokenAccount(vaultOut), ctx.tokenAccount(userDest), out);
      if (coinIn) {
        p.swapCoinIn += amountIn;
        p.swapPcOut += out;
        p.swapAccCoinFee += fee;
      } else {
        p.swapPcIn += amountIn;
        p.swapCoinOut += out;
        p.swapAccPcFee += fee;
      }
      this.write(p);
    });
    if (fail) d.fail = nativeFailure(index, 30, "Error: exceeds desired slippage limit");
    return side === "buy" ? { base: out, quote: amountIn } : { base: amountIn, quote: out };
  }
}

/** Raydium AMM v4: coin/pc vaults owned by the AMM authority; swaps wait for `pool_open_time` (VENUES.md §4). */
export const raydiumAmmV4 = defineVenue<AmmV4Pool>()({
  kind: "raydium-amm-v4",
  tradeKind: "raydium-amm-v4",
  program: RAYDIUM_AMM_V4_PROGRAM,
  reserves: (p) => [tokenReserve(p.baseMint, p.coinVault), tokenReserve(p.quoteMint, p.pcVault)],
  activation: (p) => ({ time: Number(p.openTime) }),
});
