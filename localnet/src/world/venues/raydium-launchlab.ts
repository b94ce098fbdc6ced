/**
 * Raydium LaunchLab — VENUES.md §7; layouts by raydium-io/raydium-cpi @62606b07 (`programs/launch-cpi/src/states.rs`)
 * and raydium-sdk-V2 @124c625e (`src/raydium/launchpad/layout.ts`: PoolState with mint_program_flag, cpmm_creator_fee_on,
 * platform_vesting_share; PlatformConfig with creator_fee_rate … platform_cp_creator), instructions by the program's IDL
 * v0.2.0. GlobalConfig (371 B) at PDA(["global_config", quote_mint, curve_type u8, index u16 LE]); PlatformConfig (944 B,
 * an empty curve-parameter list); PoolState (429 B) at PDA(["pool", base_mint, quote_mint]) (base first, unsorted),
 * vaults PDA(["pool_vault", pool, mint]) owned by the vault authority. Every curve type the program has: 0 constant
 * product on virtual + real reserves, 1 fixed price, 2 linear (price = virtual_base · real_base / 2^64), each trade
 * computed as raydium-sdk-V2 0.2.58-alpha @124c625 `src/raydium/launchpad/curve/{curve,constantProductCurve,
 * fixedPriceCurve,linearPriceCurve}.ts` does (the program's source is not public). Fees come off the quote side: one fee
 * ⌈amount · (trade + platform + creator rate) / 1e6⌉ on a buy's input or a sell's proceeds, split ⌊fee·rate_x/total⌋ to
 * the platform and the creator, the rest to the protocol (the world's platform has no creator fee); the trade fee goes
 * into quote_protocol_fee, the platform's into platform_fee, both staying in the quote vault until claimed. Status 0
 * trades; a buy that would take more base than is left for sale takes what is left, for what it costs (the SDK's
 * buyExactOut, grossed up by the fee), and the buy that sells the last token sets status 1 (Migrate);
 * migration (migrate_to_cpswap / migrate_to_amm, slot-transactions of the world) empties the vaults into a CPMM or AMM v4
 * pool and sets status 2. TradeEvent in the log and as a self-CPI, as mainnet transactions carry it.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { constantPda, findPda, keyBytes, pda, u16le } from "../core/keys.js";
import { Q64, ceilDiv, isqrt } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { RAYDIUM_LAUNCHLAB_AUTHORITY, RAYDIUM_LAUNCHLAB_PLATFORM, RAYDIUM_LAUNCHLAB_PROGRAM, WSOL_MINT } from "../programs.js";
import { tokenReserve } from "../swap-marks.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, eventCpi, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";

export const LAUNCHLAB_POOL_SIZE = 429;
export const LAUNCHLAB_GLOBAL_CONFIG_SIZE = 371;
export const LAUNCHLAB_PLATFORM_CONFIG_SIZE = 944;

/** Discriminators (IDL v0.2.0; PoolState and GlobalConfig share theirs with CPMM/CLMM and PumpSwap, VENUES.md §1). */
export const LAUNCHLAB_DISC = {
  pool: hex("f7ede3f5d7c3de46"),
  globalConfig: hex("95089ccaa0fcb0d9"),
  platformConfig: hex("a04e8000f853e6a0"),
  buyExactIn: hex("faea0d7bd59c13ec"),
  buyExactOut: hex("18d3742869039938"),
  sellExactIn: hex("9527de9bd37c981a"),
  sellExactOut: hex("5fc8472208090ba6"),
  tradeEvent: hex("bddb7fd34ee661ee"),
} as const;

export type CurveType = 0 | 1 | 2;
export const CURVE_NAMES: Record<CurveType, string> = { 0: "constant-product", 1: "fixed-price", 2: "linear" };
/** Trade fee of the world's global configs (1e-6: 0.25%, as Raydium's wSOL config) and the platform's fee rate (0.1%). */
const TRADE_FEE_RATE = 2500n;
const PLATFORM_FEE_RATE = 1000n;
const RATE_DENOMINATOR = 1_000_000n;
/** Migration fee kept by the program at graduation (0.1 SOL-equivalent in quote atoms is charged as a share here). */
const MIGRATE_FEE_SHARE = 1000n; // 0.1% of the raised quote

export const launchlabEventAuthority = constantPda(["__event_authority"], RAYDIUM_LAUNCHLAB_PROGRAM);
export const launchlabGlobalConfigAddress = (quoteMint: Pubkey, curve: CurveType, index = 0) =>
  pda(["global_config", keyBytes(quoteMint), Uint8Array.of(curve), u16le(index)], RAYDIUM_LAUNCHLAB_PROGRAM);
export const launchlabPoolAddress = (baseMint: Pubkey, quoteMint: Pubkey) => findPda(["pool", keyBytes(baseMint), keyBytes(quoteMint)], RAYDIUM_LAUNCHLAB_PROGRAM);
export const launchlabVaultAddress = (pool: Pubkey, mint: Pubkey) => pda(["pool_vault", keyBytes(pool), keyBytes(mint)], RAYDIUM_LAUNCHLAB_PROGRAM);

export interface LaunchLabPool extends PoolRef {
  curveType: CurveType;
  globalConfig: Pubkey;
  authBump: number;
  /** 0 trading, 1 funding ended (awaiting migration), 2 migrated */
  status: 0 | 1 | 2;
  /** 0 → AMM v4, 1 → CPMM */
  migrateType: 0 | 1;
  supply: bigint;
  totalBaseSell: bigint;
  virtualBase: bigint;
  virtualQuote: bigint;
  realBase: bigint;
  realQuote: bigint;
  totalQuoteFundRaising: bigint;
  protocolFee: bigint;
  platformFee: bigint;
  migrateFee: bigint;
  baseVault: Pubkey;
  quoteVault: Pubkey;
  creator: Pubkey;
  /** the AMM pool it migrated to */
  migratedPool: Pubkey | null;
  /** the slot its funding completed (status 1) */
  completedAtSlot: number | null;
  /** rotates the four trade instructions */
  trades: number;
}

/** A trade on the curve: base and quote atoms moved (quote gross of fees), the fees. */
interface CurveTrade {
  base: bigint;
  /** quote into (buy) or out of (sell) the curve's real reserve */
  quoteNet: bigint;
  /** what the user pays (buy) or receives (sell) */
  quoteUser: bigint;
  protocolFee: bigint;
  platformFee: bigint;
  completes: boolean;
}

/** Trade + platform (+ creator: none on the world's platform) fee rates, 1e-6. */
const TOTAL_FEE_RATE = TRADE_FEE_RATE + PLATFORM_FEE_RATE;
/** The fee on `amount` rounded up, and its split: the platform's share rounded down, the rest the protocol's. */
function fees(total: bigint): { protocolFee: bigint; platformFee: bigint } {
  const platformFee = (total * PLATFORM_FEE_RATE) / TOTAL_FEE_RATE;
  return { protocolFee: total - platformFee, platformFee };
}
const feeOn = (amount: bigint) => ceilDiv(amount * TOTAL_FEE_RATE, RATE_DENOMINATOR);

/** √n rounded to the nearest integer, halves up (the SDK takes a decimal square root and rounds it so). */
function roundSqrt(n: bigint): bigint {
  const r = isqrt(n);
  return (r + 1n) * (r + 1n) - n <= n - r * r ? r + 1n : r;
}

type CurveState = Pick<LaunchLabPool, "curveType" | "virtualBase" | "virtualQuote" | "realBase" | "realQuote">;

/** Base atoms out for `quoteIn` quote atoms added to the curve's real reserve (the SDK's curve `buyExactIn`). */
export function curveBuyOut(p: CurveState, quoteIn: bigint): bigint {
  switch (p.curveType) {
    case 0:
      return ((p.virtualBase - p.realBase) * quoteIn) / (p.virtualQuote + p.realQuote + quoteIn);
    case 1:
      return (quoteIn * p.virtualBase) / p.virtualQuote;
    case 2:
      // ∫ a·x/2^64 dx from 0 to x1 = real quote after → x1 = √(2·quote·2^64/a)
      return roundSqrt((2n * (p.realQuote + quoteIn) * Q64) / p.virtualBase) - p.realBase;
  }
}

/** Quote atoms into the real reserve that buy exactly `baseOut` (the SDK's curve `buyExactOut`), rounded up. */
export function curveBuyCost(p: CurveState, baseOut: bigint): bigint {
  switch (p.curveType) {
    case 0:
      return ceilDiv((p.virtualQuote + p.realQuote) * baseOut, p.virtualBase - p.realBase - baseOut);
    case 1:
      return ceilDiv(p.virtualQuote * baseOut, p.virtualBase);
    case 2: {
      const x1 = p.realBase + baseOut;
      return ceilDiv(p.virtualBase * x1 * x1, 2n * Q64) - p.realQuote;
    }
  }
}

/** Quote atoms out of the real reserve for `baseIn` base atoms sold back (the SDK's curve `sellExactIn`). */
export function curveSellOut(p: CurveState, baseIn: bigint): bigint {
  switch (p.curveType) {
    case 0:
      return ((p.virtualQuote + p.realQuote) * baseIn) / (p.virtualBase - p.realBase + baseIn);
    case 1:
      return (baseIn * p.virtualQuote) / p.virtualBase;
    case 2: {
      const x1 = p.realBase - baseIn;
      return p.realQuote - ceilDiv(p.virtualBase * x1 * x1, 2n * Q64);
    }
  }
}

/** Quote per base atom at the curve's state (VENUES.md §7 Price). */
export function curvePrice(p: Pick<LaunchLabPool, "curveType" | "virtualBase" | "virtualQuote" | "realBase" | "realQuote">): number {
  switch (p.curveType) {
    case 0:
      return Number(p.virtualQuote + p.realQuote) / Number(p.virtualBase - p.realBase);
    case 1:
      return Number(p.virtualQuote) / Number(p.virtualBase);
    case 2:
      return (Number(p.virtualBase) * Number(p.realBase)) / 2 ** 64;
  }
}

/**
 * The virtual reserves of a curve that sells `totalSell` base atoms for `fundRaising` quote atoms: constant product
 * with `virtualQuote` of virtual quote (vA = S·(vB + F)/F), fixed price F/S, linear a = 2·F·2^64/S².
 */
export function curveParams(curve: CurveType, totalSell: bigint, fundRaising: bigint, virtualQuote: bigint): { virtualBase: bigint; virtualQuote: bigint } {
  if (curve === 0) return { virtualBase: (totalSell * (virtualQuote + fundRaising)) / fundRaising, virtualQuote };
  if (curve === 1) return { virtualBase: totalSell, virtualQuote: fundRaising };
  return { virtualBase: ceilDiv(2n * fundRaising * Q64, totalSell * totalSell), virtualQuote: 0n };
}

export class RaydiumLaunchLabVenue implements PoolVenue<LaunchLabPool> {
  readonly pools = new Map<Pubkey, LaunchLabPool>();
  constructor(private readonly ctx: WorldContext, private readonly admin: Pubkey, private readonly cpswapConfig: Pubkey) {}

  /** Global configs for `quotes` × every curve type (index 0), and Raydium's default platform. */
  genesis(quotes: Pubkey[]): void {
    const { store } = this.ctx;
    for (const quote of quotes) {
      for (const curve of [0, 1, 2] as CurveType[]) {
        store.putRentExempt(
          launchlabGlobalConfigAddress(quote, curve),
          RAYDIUM_LAUNCHLAB_PROGRAM,
          new FixedWriter(LAUNCHLAB_GLOBAL_CONFIG_SIZE)
            .raw(0, LAUNCHLAB_DISC.globalConfig)
            .u64(8, 0n)
            .u8(16, curve)
            .u16(17, 0)
            .u64(19, 0n)
            .u64(27, TRADE_FEE_RATE)
            .u64(35, 10_000n)
            .u64(43, 10_000_000n)
            .u64(51, 300_000n)
            .u64(59, 200_000n)
            .u64(67, 200_000n)
            .u64(75, 1n)
            .pubkey(83, quote)
            .pubkey(115, this.admin)
            .pubkey(147, this.admin)
            .pubkey(179, this.admin)
            .pubkey(211, this.admin).bytes,
        );
      }
    }
    const name = new TextEncoder().encode("Raydium");
    store.putRentExempt(
      RAYDIUM_LAUNCHLAB_PLATFORM,
      RAYDIUM_LAUNCHLAB_PROGRAM,
      new FixedWriter(LAUNCHLAB_PLATFORM_CONFIG_SIZE)
        .raw(0, LAUNCHLAB_DISC.platformConfig)
        .pubkey(16, this.admin)
        .pubkey(48, this.admin)
        .u64(80, 0n)
        .u64(88, 0n)
        .u64(96, 1_000_000n)
        .u64(104, PLATFORM_FEE_RATE)
        .raw(112, name)
        .pubkey(688, this.cpswapConfig).bytes,
    );
  }

  /**
   * A token's curve: the whole supply minted into the base vault (the pool's mint authority is the program's at
   * launch), `progress` of the funding raised already by earlier buys (their tokens are with the holders: `circulating`).
   */
  create(opts: { baseMint: Pubkey; quoteMint: Pubkey; curveType: CurveType; migrateType: 0 | 1; supply: bigint; totalSell: bigint; fundRaising: bigint; virtualQuote: bigint; creator: Pubkey; progress: number }): { pool: LaunchLabPool; circulating: bigint } {
    const { ctx } = this;
    const [address] = launchlabPoolAddress(opts.baseMint, opts.quoteMint);
    const [, authBump] = findPda(["vault_auth_seed"], RAYDIUM_LAUNCHLAB_PROGRAM);
    const v = curveParams(opts.curveType, opts.totalSell, opts.fundRaising, opts.virtualQuote);
    const p: LaunchLabPool = {
      kind: "raydium-launchlab",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      related: {},
      curveType: opts.curveType,
      globalConfig: launchlabGlobalConfigAddress(opts.quoteMint, opts.curveType),
      authBump,
      status: 0,
      migrateType: opts.migrateType,
      supply: opts.supply,
      totalBaseSell: opts.totalSell,
      virtualBase: v.virtualBase,
      virtualQuote: v.virtualQuote,
      realBase: 0n,
      realQuote: 0n,
      totalQuoteFundRaising: opts.fundRaising,
      protocolFee: 0n,
      platformFee: 0n,
      migrateFee: 0n,
      baseVault: launchlabVaultAddress(address, opts.baseMint),
      quoteVault: launchlabVaultAddress(address, opts.quoteMint),
      creator: opts.creator,
      migratedPool: null,
      completedAtSlot: null,
      trades: 0,
    };
    p.related = { globalConfig: p.globalConfig, platformConfig: RAYDIUM_LAUNCHLAB_PLATFORM, baseVault: p.baseVault, quoteVault: p.quoteVault, authority: RAYDIUM_LAUNCHLAB_AUTHORITY };
    // Earlier buys: the quote they raised (net of fees) is in the real reserve, their fees in the fee buckets.
    const raised = BigInt(Math.floor(Number(opts.fundRaising) * Math.min(opts.progress, 1)));
    const sold = raised > 0n ? curveBuyOut(p, raised) : 0n;
    p.realBase = sold > opts.totalSell ? opts.totalSell : sold;
    p.realQuote = raised;
    ({ protocolFee: p.protocolFee, platformFee: p.platformFee } = fees(feeOn(raised)));
    if (p.realQuote >= p.totalQuoteFundRaising || p.realBase >= p.totalBaseSell) {
      p.status = 1;
      p.completedAtSlot = 0;
    }
    ctx.createTokenAccount(RAYDIUM_LAUNCHLAB_AUTHORITY, opts.baseMint, opts.supply - p.realBase, p.baseVault);
    ctx.createTokenAccount(RAYDIUM_LAUNCHLAB_AUTHORITY, opts.quoteMint, p.realQuote + p.protocolFee + p.platformFee, p.quoteVault);
    this.pools.set(address, p);
    this.write(p);
    return { pool: p, circulating: p.realBase };
  }

  write(p: LaunchLabPool): void {
    const { book } = this.ctx;
    const data = new FixedWriter(LAUNCHLAB_POOL_SIZE)
      .raw(0, LAUNCHLAB_DISC.pool)
      .u64(8, BigInt(Math.floor(this.ctx.clock.slot / 432000)))
      .u8(16, p.authBump)
      .u8(17, p.status)
      .u8(18, book.mint(p.baseMint).decimals)
      .u8(19, book.mint(p.quoteMint).decimals)
      .u8(20, p.migrateType)
      .u64(21, p.supply)
      .u64(29, p.totalBaseSell)
      .u64(37, p.virtualBase)
      .u64(45, p.virtualQuote)
      .u64(53, p.realBase)
      .u64(61, p.realQuote)
      .u64(69, p.totalQuoteFundRaising)
      .u64(77, p.protocolFee)
      .u64(85, p.platformFee)
      .u64(93, p.migrateFee)
      .pubkey(141, p.globalConfig)
      .pubkey(173, RAYDIUM_LAUNCHLAB_PLATFORM)
      .pubkey(205, p.baseMint)
      .pubkey(237, p.quoteMint)
      .pubkey(269, p.baseVault)
      .pubkey(301, p.quoteVault)
      .pubkey(333, p.creator)
      .u8(365, 0).bytes;
    this.ctx.store.putRentExempt(p.address, RAYDIUM_LAUNCHLAB_PROGRAM, data);
  }

  price(p: LaunchLabPool): number {
    return curvePrice(p);
  }

  /** What a buy of `quoteIn` (fees included) or a sell of `baseIn` does; null when the curve cannot take it. */
  quote(p: LaunchLabPool, side: Side, amount: bigint): CurveTrade | null {
    if (p.status !== 0 || amount <= 0n) return null;
    if (side === "buy") {
      const unsold = p.totalBaseSell - p.realBase;
      let total = feeOn(amount);
      let base = curveBuyOut(p, amount - total);
      let user = amount;
      if (base > unsold) {
        // the buy that ends the sale takes what is left, for what that costs, fee included (the rest stays with the buyer)
        base = unsold;
        const net = curveBuyCost(p, base);
        user = ceilDiv(net * RATE_DENOMINATOR, RATE_DENOMINATOR - TOTAL_FEE_RATE);
        total = user - net;
      }
      if (base <= 0n) return null;
      return { base, quoteNet: user - total, quoteUser: user, ...fees(total), completes: base === unsold };
    }
    if (amount > p.realBase) return null;
    const gross = curveSellOut(p, amount);
    if (gross > p.realQuote) return null;
    const total = feeOn(gross);
    if (gross - total <= 0n) return null;
    return { base: amount, quoteNet: gross, quoteUser: gross - total, ...fees(total), completes: false };
  }

  /**
   * One trade, rotating the program's four instructions: buy_exact_in / sell_exact_in name the exact input,
   * buy_exact_out / sell_exact_out the exact output with a limit on the input (the amounts are the same trade).
   */
  swap(d: Draft, p: LaunchLabPool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    const { ctx } = this;
    const t = this.quote(p, side, amountIn);
    if (!t) return null;
    const exactIn = p.trades++ % 2 === 0;
    const baseMint = ctx.book.mint(p.baseMint);
    const quoteMint = ctx.book.mint(p.quoteMint);
    const buy = side === "buy";
    const slack = (x: bigint) => (fail ? x + x / 40n + 1n : (x * 97n) / 100n);
    const disc = buy ? (exactIn ? LAUNCHLAB_DISC.buyExactIn : LAUNCHLAB_DISC.buyExactOut) : exactIn ? LAUNCHLAB_DISC.sellExactIn : LAUNCHLAB_DISC.sellExactOut;
    // exact in: (amount in, minimum out); exact out: (amount out, maximum in) — a failing trade misses its limit.
    const [inAmount, outAmount] = buy ? [t.quoteUser, t.base] : [t.base, t.quoteUser];
    const args = exactIn ? [inAmount, slack(outAmount)] : [outAmount, fail ? inAmount - inAmount / 40n - 1n : (inAmount * 103n) / 100n];
    const before = { base: p.realBase, quote: p.realQuote };
    const after = buy ? { base: p.realBase + t.base, quote: p.realQuote + t.quoteNet } : { base: p.realBase - t.base, quote: p.realQuote - t.quoteNet };
    const status = t.completes ? 1 : 0;
    const event = borsh()
      .bytes(LAUNCHLAB_DISC.tradeEvent)
      .pubkey(p.address).u64(p.totalBaseSell).u64(p.virtualBase).u64(p.virtualQuote)
      .u64(before.base).u64(before.quote).u64(after.base).u64(after.quote)
      .u64(inAmount).u64(outAmount).u64(t.protocolFee).u64(t.platformFee).u64(0n).u64(0n)
      .u8(buy ? 0 : 1).u8(status).bool(exactIn)
      .done();
    const transfers = buy
      ? [
          { cpi: tokenTransferChecked(quoteMint.program, userQuote, quoteMint.address, p.quoteVault, user, t.quoteUser, quoteMint.decimals) },
          { cpi: tokenTransferChecked(baseMint.program, p.baseVault, baseMint.address, userBase, RAYDIUM_LAUNCHLAB_AUTHORITY, t.base, baseMint.decimals) },
        ]
      : [
          { cpi: tokenTransferChecked(baseMint.program, userBase, baseMint.address, p.baseVault, user, t.base, baseMint.decimals) },
          { cpi: tokenTransferChecked(quoteMint.program, p.quoteVault, quoteMint.address, userQuote, RAYDIUM_LAUNCHLAB_AUTHORITY, t.quoteUser, quoteMint.decimals) },
        ];
    const name = `${buy ? "Buy" : "Sell"}Exact${exactIn ? "In" : "Out"}`;
    const ix: Ix = {
      program: RAYDIUM_LAUNCHLAB_PROGRAM,
      accounts: [
        ws(user), r(RAYDIUM_LAUNCHLAB_AUTHORITY), r(p.globalConfig), r(RAYDIUM_LAUNCHLAB_PLATFORM), w(p.address), w(userBase), w(userQuote), w(p.baseVault),
        w(p.quoteVault), r(p.baseMint), r(p.quoteMint), r(baseMint.program), r(quoteMint.program), r(launchlabEventAuthority()), r(RAYDIUM_LAUNCHLAB_PROGRAM),
      ],
      data: borsh().bytes(disc).u64(args[0]!).u64(args[1]!).u64(0n).done(),
      steps: [{ log: `Instruction: ${name}` }, { data: event }, ...transfers, { cpi: eventCpi(RAYDIUM_LAUNCHLAB_PROGRAM, launchlabEventAuthority(), event) }],
      cu: 55000,
    };
    const index = d.add(ix, () => {
      if (buy) {
        ctx.book.transfer(ctx.tokenAccount(userQuote), ctx.tokenAccount(p.quoteVault), t.quoteUser);
        ctx.book.transfer(ctx.tokenAccount(p.baseVault), ctx.tokenAccount(userBase), t.base);
      } else {
        ctx.book.transfer(ctx.tokenAccount(userBase), ctx.tokenAccount(p.baseVault), t.base);
        ctx.book.transfer(ctx.tokenAccount(p.quoteVault), ctx.tokenAccount(userQuote), t.quoteUser);
      }
      p.realBase = after.base;
      p.realQuote = after.quote;
      p.protocolFee += t.protocolFee;
      p.platformFee += t.platformFee;
      if (t.completes) {
        p.status = 1;
        p.completedAtSlot = ctx.clock.slot;
      }
      this.write(p);
    });
    if (fail) d.fail = anchorFailure(index, "programs/launchpad/src/instructions/swap.rs", 120, 6003, "ExceededSlippage", "Exceeds desired slippage limit");
    return buy ? { base: t.base, quote: t.quoteUser } : { base: t.base, quote: t.quoteUser };
  }

  /** The migration fee and what the curve's vaults hand to its AMM pool (base left in the vault, quote raised net of it). */
  migrationAmounts(p: LaunchLabPool): { base: bigint; quote: bigint; fee: bigint } {
    const fee = (p.realQuote * MIGRATE_FEE_SHARE) / RATE_DENOMINATOR;
    return { base: this.ctx.tokenAccount(p.baseVault).amount, quote: p.realQuote - fee, fee };
  }

  /** The state change of a migration: the vaults emptied into the AMM pool (its create put the amounts in), status 2. */
  markMigrated(p: LaunchLabPool, ammPool: Pubkey): void {
    const { ctx } = this;
    const { base, quote, fee } = this.migrationAmounts(p);
    const bv = ctx.tokenAccount(p.baseVault);
    bv.amount -= base;
    ctx.book.write(bv);
    const qv = ctx.tokenAccount(p.quoteVault);
    qv.amount -= quote;
    if (qv.mint === WSOL_MINT) qv.lamports -= quote;
    ctx.book.write(qv);
    p.migrateFee = fee;
    p.status = 2;
    p.migratedPool = ammPool;
    this.write(p);
  }
}

/** Raydium LaunchLab: base/quote vaults owned by the vault authority; trades only in status 0 (VENUES.md §7). */
export const raydiumLaunchLab = defineVenue<LaunchLabPool>()({
  kind: "raydium-launchlab",
  tradeKind: "raydium-launchlab",
  program: RAYDIUM_LAUNCHLAB_PROGRAM,
  reserves: (p) => [tokenReserve(p.baseMint, p.baseVault), tokenReserve(p.quoteMint, p.quoteVault)],
  activation: () => null,
});
