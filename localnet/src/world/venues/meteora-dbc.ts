/**
 * Meteora Dynamic Bonding Curve — VENUES.md §11. PoolConfig (1048 B) at an arbitrary key (partner-created), VirtualPool
 * (424 B) at PDA(["pool", config, max, min]), vaults PDA(["token_vault", mint, pool]) owned by the pool authority. The
 * curve is one liquidity segment from sqrt_start_price to the migration sqrt price; swaps move sqrt_price with the same
 * concentrated-liquidity formulas as DAMM v2 (quote = B), fees in quote split protocol 20 % / partner / creator; trades
 * that would cross migration_quote_threshold are not generated (migration happens at genesis only). EvtSwap and
 * EvtSwap2 by self-CPI, like the program. Accounts follow dynamic_bonding_curve 0.1.10 (MeteoraAg/dynamic-bonding-curve
 * @b4f9547): PoolConfig without the protocol/referral fee percents (constants since 0.1.8), VirtualPool with has_swap
 * @370 and protocol_liquidity_migration_fee_bps @376. A config's base fee may run a time scheduler (linear or exponential,
 * from the pool's activation point; meteora-fees.ts).
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { constantPda, compareKeys, keyBytes, pda } from "../core/keys.js";
import { Q128, ceilDiv } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { DBC_POOL_AUTHORITY, METEORA_DBC_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "../programs.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, eventCpi, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";
import { feeAt, scheduledRate } from "./meteora-fees.js";

export const DBC_POOL_SIZE = 424;
export const DBC_CONFIG_SIZE = 1048;
const DISC = {
  pool: hex("d5e005d16245775c"),
  config: hex("1a6c0e7b74e6812b"),
  swap: hex("f8c69e91e17587c8"),
  evtSwap: hex("1b3c15d58aaabb93"),
  evtSwap2: hex("bd4233a826507599"),
};
const PROTOCOL_FEE_PERCENT = 20n;
/** fee::PROTOCOL_LIQUIDITY_MIGRATION_FEE_BPS, stored in every VirtualPool at initialization (0.2 %) */
const PROTOCOL_LIQUIDITY_MIGRATION_FEE_BPS = 20;

export const dbcEventAuthority = constantPda(["__event_authority"], METEORA_DBC_PROGRAM);
export const dbcPoolAddress = (config: Pubkey, base: Pubkey, quote: Pubkey) => {
  const [max, min] = compareKeys(base, quote) > 0 ? [base, quote] : [quote, base];
  return pda(["pool", keyBytes(config), keyBytes(max), keyBytes(min)], METEORA_DBC_PROGRAM);
};

export interface DbcConfig {
  address: Pubkey;
  quoteMint: Pubkey;
  feeClaimer: Pubkey;
  feeNumerator: bigint;
  migrationQuoteThreshold: bigint;
  sqrtStart: bigint;
  sqrtMigration: bigint;
  liquidity: bigint;
  tokenDecimals: number;
  swapBaseAmount: bigint;
  migrationBaseThreshold: bigint;
  /** a time scheduler from `feeNumerator` (its cliff) down, period by period; none: the fee is fixed */
  scheduler?: { kind: "linear" | "exponential"; periods: bigint; frequency: bigint; reduction: bigint };
}

export interface DbcPool extends PoolRef {
  configState: DbcConfig;
  creator: Pubkey;
  baseVault: Pubkey;
  quoteVault: Pubkey;
  baseReserve: bigint;
  quoteReserve: bigint;
  protocolQuoteFee: bigint;
  partnerQuoteFee: bigint;
  creatorQuoteFee: bigint;
  sqrtPrice: bigint;
  activationPoint: bigint;
  isMigrated: boolean;
  /** set by the first swap (the program's `has_swap`, read for its first-swap fee rule) */
  hasSwap: boolean;
}

export class MeteoraDbcVenue implements PoolVenue<DbcPool> {
  readonly pools = new Map<Pubkey, DbcPool>();
  constructor(private readonly ctx: WorldContext) {}

  /**
   * A config whose single curve segment takes the price from `startPrice` to `migrationPrice` (quote atoms per base
   * atom) while raising `threshold` quote atoms.
   */
  makeConfig(address: Pubkey, opts: { quoteMint: Pubkey; feeClaimer: Pubkey; startPrice: number; migrationPrice: number; threshold: bigint; feeNumerator: bigint; tokenDecimals: number; scheduler?: DbcConfig["scheduler"] }): DbcConfig {
    const sqrtStart = BigInt(Math.floor(Math.sqrt(opts.startPrice) * 2 ** 32)) << 32n;
    const sqrtMigration = BigInt(Math.floor(Math.sqrt(opts.migrationPrice) * 2 ** 32)) << 32n;
    const liquidity = (opts.threshold * Q128) / (sqrtMigration - sqrtStart);
    const swapBaseAmount = (liquidity * (sqrtMigration - sqrtStart)) / (sqrtStart * sqrtMigration);
    const migrationBaseThreshold = (opts.threshold * 2n ** 64n) / ((sqrtMigration * sqrtMigration) >> 64n);
    const c: DbcConfig = { address, quoteMint: opts.quoteMint, feeClaimer: opts.feeClaimer, feeNumerator: opts.feeNumerator, migrationQuoteThreshold: opts.threshold, sqrtStart, sqrtMigration, liquidity, tokenDecimals: opts.tokenDecimals, swapBaseAmount, migrationBaseThreshold, ...(opts.scheduler ? { scheduler: opts.scheduler } : {}) };
    const data = new FixedWriter(DBC_CONFIG_SIZE)
      .raw(0, DISC.config)
      .pubkey(8, c.quoteMint)
      .pubkey(40, c.feeClaimer)
      .pubkey(72, c.feeClaimer)
      .u64(104, c.feeNumerator)
      // BaseFeeConfig: second_factor (period_frequency) @112, third_factor (reduction_factor) @120, first_factor (number_of_period) @128, mode @130
      .u64(112, c.scheduler?.frequency ?? 0n)
      .u64(120, c.scheduler?.reduction ?? 0n)
      .u16(128, Number(c.scheduler?.periods ?? 0n))
      .u8(130, c.scheduler?.kind === "exponential" ? 1 : 0)
      .u8(232, 0) // collect_fee_mode: quote
      .u8(233, 1) // migration_option: DAMM v2
      .u8(234, 1)
      .u8(235, c.tokenDecimals)
      .u8(236, 0)
      .u8(237, 0) // token_type SPL
      .u8(243, 0) // migration_fee_option FixedBps25
      .u8(245, 50)
      .u64(256, c.swapBaseAmount)
      .u64(264, c.migrationQuoteThreshold)
      .u64(272, c.migrationBaseThreshold)
      .u128(280, c.sqrtMigration)
      .u128(392, c.sqrtStart)
      .u128(408, c.sqrtMigration)
      .u128(424, c.liquidity);
    this.ctx.store.putRentExempt(address, METEORA_DBC_PROGRAM, data.bytes);
    return c;
  }

  /** A pool `progress` (0..1) of the way to migration; the base vault holds `baseSupplyInPool` tokens at the start. */
  create(opts: { config: DbcConfig; baseMint: Pubkey; creator: Pubkey; baseSupplyInPool: bigint; progress: number; migrated?: boolean }): { pool: DbcPool; sold: bigint } {
    const { ctx } = this;
    const c = opts.config;
    const address = dbcPoolAddress(c.address, opts.baseMint, c.quoteMint);
    const span = c.sqrtMigration - c.sqrtStart;
    const s = c.sqrtStart + (span * BigInt(Math.floor(opts.progress * 1e6))) / 1_000_000n;
    const quoteReserve = (c.liquidity * (s - c.sqrtStart)) / Q128;
    const sold = (c.liquidity * (s - c.sqrtStart)) / (c.sqrtStart * s);
    const p: DbcPool = {
      kind: "meteora-dbc",
      address,
      baseMint: opts.baseMint,
      quoteMint: c.quoteMint,
      derivable: false,
      configState: c,
      creator: opts.creator,
      baseVault: pda(["token_vault", keyBytes(opts.baseMint), keyBytes(address)], METEORA_DBC_PROGRAM),
      quoteVault: pda(["token_vault", keyBytes(c.quoteMint), keyBytes(address)], METEORA_DBC_PROGRAM),
      baseReserve: opts.baseSupplyInPool - sold,
      quoteReserve,
      protocolQuoteFee: 0n,
      partnerQuoteFee: 0n,
      creatorQuoteFee: 0n,
      sqrtPrice: s,
      activationPoint: BigInt(ctx.clock.blockTime - 3600 * 6),
      isMigrated: !!opts.migrated,
      hasSwap: !!opts.migrated || opts.progress > 0, // a curve past its start price was bought on
      related: {},
    };
    p.related = { config: c.address, baseVault: p.baseVault, quoteVault: p.quoteVault, poolAuthority: DBC_POOL_AUTHORITY };
    const inVaultBase = p.isMigrated ? 0n : p.baseReserve;
    const inVaultQuote = p.isMigrated ? 0n : p.quoteReserve;
    ctx.createTokenAccount(DBC_POOL_AUTHORITY, opts.baseMint, inVaultBase, p.baseVault);
    ctx.createTokenAccount(DBC_POOL_AUTHORITY, c.quoteMint, inVaultQuote, p.quoteVault);
    this.pools.set(address, p);
    this.write(p);
    return { pool: p, sold };
  }

  write(p: DbcPool): void {
    const data = new FixedWriter(DBC_POOL_SIZE)
      .raw(0, DISC.pool)
      .u64(8, BigInt(this.ctx.clock.blockTime))
      .u128(24, p.sqrtPrice)
      .pubkey(72, p.configState.address)
      .pubkey(104, p.creator)
      .pubkey(136, p.baseMint)
      .pubkey(168, p.baseVault)
      .pubkey(200, p.quoteVault)
      .u64(232, p.baseReserve)
      .u64(240, p.quoteReserve)
      .u64(256, p.protocolQuoteFee)
      .u64(272, p.partnerQuoteFee)
      .u128(280, p.sqrtPrice)
      .u64(296, p.activationPoint)
      .u8(304, this.ctx.book.mint(p.baseMint).program === TOKEN_2022_PROGRAM ? 1 : 0)
      .u8(305, p.isMigrated ? 1 : 0)
      .u8(308, p.isMigrated ? 3 : 0)
      .u64(360, p.creatorQuoteFee)
      .u8(370, p.hasSwap ? 1 : 0)
      .u16(376, PROTOCOL_LIQUIDITY_MIGRATION_FEE_BPS).bytes;
    this.ctx.store.putRentExempt(p.address, METEORA_DBC_PROGRAM, data);
  }

  price(p: DbcPool): number {
    const s = Number(p.sqrtPrice) / 2 ** 64;
    return s * s;
  }

  swap(d: Draft, p: DbcPool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    if (p.isMigrated) return null;
    const { ctx } = this;
    const c = p.configState;
    const L = c.liquidity;
    const s = p.sqrtPrice;
    const quoteToBase = side === "buy";
    // the fee scheduler counts periods from the pool's activation (unix time: the config's activation type 1)
    const now = BigInt(ctx.clock.blockTime);
    if (c.scheduler && now < p.activationPoint) return null;
    const rate = c.scheduler ? scheduledRate({ ...c.scheduler, cliff: c.feeNumerator }, (now - p.activationPoint) / c.scheduler.frequency) : c.feeNumerator;
    let next: bigint;
    let out: bigint;
    let fee: bigint;
    let curveIn: bigint;
    if (quoteToBase) {
      fee = feeAt(amountIn, rate);
      curveIn = amountIn - fee;
      next = s + (curveIn * Q128) / L;
      // would complete the curve (not modelled during life). The program's test is the quote reserve reaching the
      // threshold (is_curve_complete); rounding lets it get there a few atoms before sqrt_price reaches the migration
      // price, so both are checked: a pool the program would call complete never trades on here.
      if (next >= c.sqrtMigration || p.quoteReserve + curveIn >= c.migrationQuoteThreshold) return null;
      out = (L * (next - s)) / (s * next);
      if (out >= p.baseReserve) return null;
    } else {
      curveIn = amountIn;
      next = ceilDiv(L * s, L + amountIn * s); // rounded up, as the program (get_next_sqrt_price_from_amount_a_rounding_up)
      if (next <= c.sqrtStart) return null;
      const gross = (L * (s - next)) / Q128;
      fee = feeAt(gross, rate);
      out = gross - fee;
    }
    if (out <= 0n) return null;
    const protocolFee = (fee * PROTOCOL_FEE_PERCENT) / 100n;
    const tradingFee = fee - protocolFee;
    const baseMint = ctx.book.mint(p.baseMint);
    const quoteMint = ctx.book.mint(p.quoteMint);
    const [inMint, outMint] = quoteToBase ? [quoteMint, baseMint] : [baseMint, quoteMint];
    const [vaultIn, vaultOut] = quoteToBase ? [p.quoteVault, p.baseVault] : [p.baseVault, p.quoteVault];
    const userIn = quoteToBase ? userQuote : userBase;
    const userOut = quoteToBase ? userBase : userQuote;
    const minOut = fail ? out + out / 40n + 1n : (out * 97n) / 100n;
    const dir = quoteToBase ? 1 : 0;
    const quoteAfter = quoteToBase ? p.quoteReserve + curveIn : p.quoteReserve - (out + fee);
    const ts = BigInt(ctx.clock.blockTime);
    const evt1 = borsh()
      .bytes(DISC.evtSwap)
      .pubkey(p.address).pubkey(c.address).u8(dir).bool(false).u64(amountIn).u64(minOut)
      .u64(curveIn).u64(out).u128(next).u64(tradingFee).u64(protocolFee).u64(0n).u64(amountIn).u64(ts)
      .done();
    const evt2 = borsh()
      .bytes(DISC.evtSwap2)
      .pubkey(p.address).pubkey(c.address).u8(dir).bool(false).u64(amountIn).u64(minOut).u8(0)
      .u64(amountIn).u64(curveIn).u64(0n).u64(out).u128(next).u64(tradingFee).u64(protocolFee).u64(0n)
      .u64(quoteAfter).u64(c.migrationQuoteThreshold).u64(ts)
      .done();
    const ix: Ix = {
      program: METEORA_DBC_PROGRAM,
      accounts: [
        r(DBC_POOL_AUTHORITY), r(c.address), w(p.address), w(userIn), w(userOut), w(p.baseVault), w(p.quoteVault), r(p.baseMint), r(p.quoteMint),
        ws(user), r(baseMint.program), r(TOKEN_PROGRAM), r(METEORA_DBC_PROGRAM), r(dbcEventAuthority()), r(METEORA_DBC_PROGRAM),
      ],
      data: borsh().bytes(DISC.swap).u64(amountIn).u64(minOut).done(),
      steps: [
        { log: "Instruction: Swap" },
        { cpi: tokenTransferChecked(inMint.program, userIn, inMint.address, vaultIn, user, amountIn, inMint.decimals) },
        { cpi: tokenTransferChecked(outMint.program, vaultOut, outMint.address, userOut, DBC_POOL_AUTHORITY, out, outMint.decimals) },
        { cpi: eventCpi(METEORA_DBC_PROGRAM, dbcEventAuthority(), evt1) },
        { cpi: eventCpi(METEORA_DBC_PROGRAM, dbcEventAuthority(), evt2) },
      ],
      cu: 45000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(vaultIn), amountIn);
      ctx.book.transfer(ctx.tokenAccount(vaultOut), ctx.tokenAccount(userOut), out);
      if (quoteToBase) {
        p.quoteReserve += curveIn;
        p.baseReserve -= out;
      } else {
        p.quoteReserve -= out + fee;
        p.baseReserve += amountIn;
      }
      p.protocolQuoteFee += protocolFee;
      const creatorShare = (tradingFee * 50n) / 100n;
      p.creatorQuoteFee += creatorShare;
      p.partnerQuoteFee += tradingFee - creatorShare;
      p.sqrtPrice = next;
      p.hasSwap = true;
      this.write(p);
    });
    if (fail) d.fail = anchorFailure(index, "programs/dynamic-bonding-curve/src/instructions/swap/ix_swap.rs", 233, 6002, "ExceededSlippage", "Exceeded slippage tolerance");
    return side === "buy" ? { base: out, quote: amountIn } : { base: amountIn, quote: out };
  }
}

/** Meteora DBC: base/quote vaults; its activation point only drives fees, so it never holds swaps back (VENUES.md §11). */
export const meteoraDbc = defineVenue<DbcPool>()({
  kind: "meteora-dbc",
  tradeKind: "meteora-dbc",
  program: METEORA_DBC_PROGRAM,
  reserves: (p) => [tokenReserve(p.baseMint, p.baseVault), tokenReserve(p.quoteMint, p.quoteVault)],
  activation: () => null,
});
