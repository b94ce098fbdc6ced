/**
 * PumpSwap (pump_amm) — VENUES.md §3. Pool (300 B), GlobalConfig, canonical pools of graduated pump coins, and buy/sell
 * with the program's x·y=k math: LP fee stays in the quote vault, protocol and coin-creator fees leave the pool in the
 * same transaction (fx 4pCgZ28W). "Boost" pools carry `virtual_quote_reserves` (i128 @245): the program trades against
 * quote vault + virtual (pump-swap-sdk 1.20 `effectiveQuoteReserve`), while only the vault can be paid out.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { constantPda, ata, findPda, keyBytes, pda, u16le } from "../core/keys.js";
import { ceilDiv, isqrt } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { ATA_PROGRAM, PUMP_AMM_PROGRAM, PUMP_FEE_PROGRAM, PUMP_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, WSOL_MINT } from "../programs.js";
import { rentExempt } from "../spl/token.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, eventCpi, tokenTransferChecked } from "../tx/common.js";
import { tokenReserve } from "../swap-marks.js";
import { encodeFeeConfig, getFeesCpi, pumpSwapFeeConfig, PUMPSWAP_FEE_SCHEDULE, scheduledFees, type Fees } from "./pump-fees.js";
import { defineVenue } from "./types.js";

export const PUMPSWAP_POOL_SIZE = 300;
export const PUMPSWAP_GLOBAL_CONFIG_SIZE = 907;
const DISC = {
  pool: hex("f19a6d0411b16dbc"),
  globalConfig: hex("95089ccaa0fcb0d9"),
  buy: hex("66063d1201daebea"),
  sell: hex("33e685a4017f83ad"),
  createPool: hex("e992d18ecf6840bc"),
  buyEvent: hex("67f4521f2cf57777"),
  sellEvent: hex("3e2f370aa503dc2a"),
  createPoolEvent: hex("b1310cd2a076a774"),
};

/** GlobalConfig's flat lp / protocol / coin-creator bps: what the program charged before its fee config (a fallback now). */
export const PUMPSWAP_FEES = { lpBps: 20n, protocolBps: 5n, creatorBps: 5n };
const ZERO_KEY = "11111111111111111111111111111111";

export const pumpSwapGlobalConfig = constantPda(["global_config"], PUMP_AMM_PROGRAM);
export const pumpSwapEventAuthority = constantPda(["__event_authority"], PUMP_AMM_PROGRAM);
export const pumpSwapPoolAddress = (index: number, creator: Pubkey, base: Pubkey, quote: Pubkey) =>
  pda(["pool", u16le(index), keyBytes(creator), keyBytes(base), keyBytes(quote)], PUMP_AMM_PROGRAM);
export const pumpPoolAuthority = (mint: Pubkey) => pda(["pool-authority", keyBytes(mint)], PUMP_PROGRAM);
/** Canonical pool of a graduated pump coin: index 0, creator = PDA(["pool-authority", mint], pump), quote wSOL. */
export const canonicalPumpSwapPool = (mint: Pubkey) => pumpSwapPoolAddress(0, pumpPoolAuthority(mint), mint, WSOL_MINT);
const coinCreatorVaultAuthority = (coinCreator: Pubkey) => pda(["creator_vault", keyBytes(coinCreator)], PUMP_AMM_PROGRAM);

export interface PumpSwapPool {
  address: Pubkey;
  bump: number;
  index: number;
  creator: Pubkey;
  baseMint: Pubkey;
  quoteMint: Pubkey;
  lpMint: Pubkey;
  baseVault: Pubkey;
  quoteVault: Pubkey;
  lpSupply: bigint;
  coinCreator: Pubkey;
  /** quote atoms added to the quote vault balance in the swap math (0 on ordinary pools) */
  virtualQuoteReserves: bigint;
}

export function encodePumpSwapPool(p: PumpSwapPool): Uint8Array {
  return new FixedWriter(PUMPSWAP_POOL_SIZE)
    .raw(0, DISC.pool)
    .u8(8, p.bump)
    .u16(9, p.index)
    .pubkey(11, p.creator)
    .pubkey(43, p.baseMint)
    .pubkey(75, p.quoteMint)
    .pubkey(107, p.lpMint)
    .pubkey(139, p.baseVault)
    .pubkey(171, p.quoteVault)
    .u64(203, p.lpSupply)
    .pubkey(211, p.coinCreator)
    // is_mayhem_mode @243, is_cashback_coin @244: false
    .i128(245, p.virtualQuoteReserves).bytes; // creator_fee_bps @261, can_edit_creator_fee @269: 0 / false
}

export class PumpSwapVenue {
  readonly pools = new Map<Pubkey, PumpSwapPool>();
  readonly protocolFeeRecipients: Pubkey[];
  readonly admin: Pubkey;

  constructor(private readonly ctx: WorldContext, keys: (label: string) => Pubkey) {
    this.admin = keys("pumpswap:admin");
    this.protocolFeeRecipients = Array.from({ length: 8 }, (_, i) => keys(`pumpswap:protocol-fee-recipient:${i}`));
  }

  genesis(): void {
    const w = new FixedWriter(PUMPSWAP_GLOBAL_CONFIG_SIZE)
      .raw(0, DISC.globalConfig)
      .pubkey(8, this.admin)
      .u64(40, PUMPSWAP_FEES.lpBps)
      .u64(48, PUMPSWAP_FEES.protocolBps)
      .u8(56, 0);
    this.protocolFeeRecipients.forEach((k, i) => w.pubkey(57 + 32 * i, k));
    w.u64(313, PUMPSWAP_FEES.creatorBps).pubkey(321, this.admin);
    this.ctx.store.putRentExempt(pumpSwapGlobalConfig(), PUMP_AMM_PROGRAM, w.bytes);
    this.ctx.store.putRentExempt(pumpSwapFeeConfig(), PUMP_FEE_PROGRAM, encodeFeeConfig(PUMPSWAP_FEE_SCHEDULE, this.admin));
    for (const k of this.protocolFeeRecipients) {
      this.ctx.store.put(k, SYSTEM_PROGRAM, new Uint8Array(0), 50_000_000_000n);
      this.ctx.createTokenAccount(k, WSOL_MINT, 0n);
    }
  }

  /** Creates a pool's accounts (genesis or migration) holding `base`/`quote` in its vaults. */
  createPool(opts: { index: number; creator: Pubkey; baseMint: Pubkey; coinCreator: Pubkey; base: bigint; quote: bigint; lpHolder: Pubkey; virtualQuote?: bigint }): PumpSwapPool {
    const { ctx } = this;
    const [address, bump] = findPda(
      ["pool", u16le(opts.index), keyBytes(opts.creator), keyBytes(opts.baseMint), keyBytes(WSOL_MINT)],
      PUMP_AMM_PROGRAM,
    );
    const lpMint = pda(["pool_lp_mint", keyBytes(address)], PUMP_AMM_PROGRAM);
    const baseProgram = ctx.book.mint(opts.baseMint).program;
    const pool: PumpSwapPool = {
      address,
      bump,
      index: opts.index,
      creator: opts.creator,
      baseMint: opts.baseMint,
      quoteMint: WSOL_MINT,
      lpMint,
      baseVault: ata(address, opts.baseMint, baseProgram),
      quoteVault: ata(address, WSOL_MINT, TOKEN_PROGRAM),
      lpSupply: 0n,
      coinCreator: opts.coinCreator,
      virtualQuoteReserves: opts.virtualQuote ?? 0n,
    };
    const lp = isqrt(opts.base * opts.quote);
    pool.lpSupply = lp;
    ctx.book.writeMint({ address: lpMint, program: TOKEN_2022_PROGRAM, decimals: 9, supply: 0n, mintAuthority: pda(["pool-authority"], PUMP_AMM_PROGRAM), freezeAuthority: null });
    ctx.createTokenAccount(address, opts.baseMint, opts.base);
    ctx.createTokenAccount(address, WSOL_MINT, opts.quote);
    const lpAcct = ctx.createTokenAccount(opts.lpHolder, lpMint, 0n);
    ctx.book.mintTo(lpAcct, lp);
    const vaultAuth = coinCreatorVaultAuthority(opts.coinCreator);
    if (!ctx.book.account(ata(vaultAuth, WSOL_MINT, TOKEN_PROGRAM))) ctx.createTokenAccount(vaultAuth, WSOL_MINT, 0n);
    this.pools.set(address, pool);
    this.write(pool);
    return pool;
  }

  write(p: PumpSwapPool): void {
    this.ctx.store.putRentExempt(p.address, PUMP_AMM_PROGRAM, encodePumpSwapPool(p));
  }

  /** Vault balances, and the effective quote reserve the program's swap math uses (quote vault + virtual). */
  reserves(p: PumpSwapPool): { base: bigint; quote: bigint; effectiveQuote: bigint } {
    const quote = this.ctx.tokenAccount(p.quoteVault).amount;
    return { base: this.ctx.tokenAccount(p.baseVault).amount, quote, effectiveQuote: quote + p.virtualQuoteReserves };
  }

  /**
   * The lp / protocol / creator bps a swap on `p` pays: a canonical pool (created by pump's pool authority of its base
   * mint) by the fee config's tier for its market cap before the swap (effective quote × base mint supply / base; the
   * world has no mayhem-mode pools), any other pool the flat fees; no creator fee without a coin creator.
   */
  fees(p: PumpSwapPool): Fees {
    const { base, effectiveQuote } = this.reserves(p);
    const marketCap = base > 0n ? (effectiveQuote * this.ctx.book.mint(p.baseMint).supply) / base : 0n;
    const f = scheduledFees(PUMPSWAP_FEE_SCHEDULE, p.creator === pumpPoolAuthority(p.baseMint), p.quoteMint, marketCap);
    return { lp: f.lp, protocol: f.protocol, creator: p.coinCreator === ZERO_KEY ? 0n : f.creator };
  }

  /** Quote atoms per base atom, as a float (for sizing trades only; tests recompute from bytes). */
  price(p: PumpSwapPool): number {
    const { base, effectiveQuote } = this.reserves(p);
    return Number(effectiveQuote) / Number(base);
  }

  createPoolInstruction(payer: Pubkey, p: PumpSwapPool, base: bigint, quote: bigint, userBase: Pubkey, userQuote: Pubkey, userLp: Pubkey): Ix {
    const data = borsh().bytes(DISC.createPool).u16(p.index).u64(base).u64(quote).pubkey(p.coinCreator).bool(false).done();
    const decimals = this.ctx.book.mint(p.baseMint).decimals;
    const event = borsh()
      .bytes(DISC.createPoolEvent)
      .i64(BigInt(this.ctx.clock.blockTime))
      .u16(p.index)
      .pubkey(p.creator)
      .pubkey(p.baseMint)
      .pubkey(p.quoteMint)
      .u8(decimals)
      .u8(9)
      .u64(base)
      .u64(quote)
      .u64(base)
      .u64(quote)
      .u64(100n)
      .u64(p.lpSupply)
      .u64(p.lpSupply - 100n)
      .u8(p.bump)
      .pubkey(p.address)
      .pubkey(p.lpMint)
      .pubkey(userBase)
      .pubkey(userQuote)
      .pubkey(p.coinCreator)
      .bool(false)
      .done();
    const baseProgram = this.ctx.book.mint(p.baseMint).program;
    return {
      program: PUMP_AMM_PROGRAM,
      accounts: [
        w(p.address), r(pumpSwapGlobalConfig()), ws(payer), r(p.baseMint), r(p.quoteMint), w(p.lpMint), w(userBase), w(userQuote),
        w(userLp), w(p.baseVault), w(p.quoteVault), r(SYSTEM_PROGRAM), r(TOKEN_2022_PROGRAM), r(baseProgram), r(TOKEN_PROGRAM),
        r(ATA_PROGRAM), r(pumpSwapEventAuthority()), r(PUMP_AMM_PROGRAM),
        // the coin creator's fee vault (created with the pool when missing)
        w(ata(coinCreatorVaultAuthority(p.coinCreator), WSOL_MINT, TOKEN_PROGRAM)), r(coinCreatorVaultAuthority(p.coinCreator)),
      ],
      data,
      steps: [
        { log: "Instruction: CreatePool" },
        { cpi: tokenTransferChecked(baseProgram, userBase, p.baseMint, p.baseVault, payer, base, decimals) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, userQuote, WSOL_MINT, p.quoteVault, payer, quote, 9) },
        { cpi: { program: TOKEN_2022_PROGRAM, accounts: [w(p.lpMint), w(userLp), r(pda(["pool-authority"], PUMP_AMM_PROGRAM))], data: hex("07"), steps: [{ log: "Instruction: MintTo" }], cu: 4492 } },
        { cpi: eventCpi(PUMP_AMM_PROGRAM, pumpSwapEventAuthority(), event) },
      ],
      cu: 60000,
    };
  }

  /**
   * Adds a buy (quote→base, `quoteBudget` atoms incl. fees at most) or sell (`baseIn` atoms) to the draft.
   * The user's quote leg (wSOL wrap/unwrap) is handled by the caller.
   */
  swap(d: Draft, p: PumpSwapPool, user: Pubkey, side: "buy" | "sell", amount: bigint, userBase: Pubkey, userQuote: Pubkey): { base: bigint; quote: bigint } | null {
    const { ctx } = this;
    // rq is what the curve sees (vault + virtual); the event reports the vault balance (vaultQuote).
    const { base: rb, quote: vaultQuote, effectiveQuote: rq } = this.reserves(p);
    const baseMint = ctx.book.mint(p.baseMint);
    const feeRecipient = this.protocolFeeRecipients[ctx.clock.slot % 8]!;
    const feeRecipientAta = ata(feeRecipient, WSOL_MINT, TOKEN_PROGRAM);
    const vaultAuth = coinCreatorVaultAuthority(p.coinCreator);
    const creatorVaultAta = ata(vaultAuth, WSOL_MINT, TOKEN_PROGRAM);
    const f = this.fees(p);
    const bps = { lpBps: f.lp, protocolBps: f.protocol, creatorBps: f.creator };
    const ts = BigInt(ctx.clock.blockTime);
    const userBaseBefore = ctx.book.account(userBase)?.amount ?? 0n;

    let ev: Uint8Array;
    let ix: Ix;
    let apply: () => void;
    let result: { base: bigint; quote: bigint };
    if (side === "buy") {
      // Largest base_out whose total cost (quote_in + lp + protocol + creator fees) fits the budget.
      const feeBps = bps.lpBps + bps.protocolBps + bps.creatorBps;
      const quoteIn0 = (amount * 10000n) / (10000n + feeBps) - 3n;
      if (quoteIn0 <= 0n) return null;
      const baseOut = (rb * quoteIn0) / (rq + quoteIn0);
      if (baseOut <= 0n || baseOut >= rb) return null;
      const quoteIn = ceilDiv(rq * baseOut, rb - baseOut);
      const lpFee = ceilDiv(quoteIn * bps.lpBps, 10000n);
      const protocolFee = ceilDiv(quoteIn * bps.protocolBps, 10000n);
      const creatorFee = ceilDiv(quoteIn * bps.creatorBps, 10000n);
      const total = quoteIn + lpFee + protocolFee + creatorFee;
      if (total > amount) return null;
      result = { base: baseOut, quote: total };
      ev = borsh()
        .bytes(DISC.buyEvent)
        .i64(ts).u64(baseOut).u64(amount).u64(userBaseBefore).u64(amount).u64(rb).u64(vaultQuote).u64(quoteIn)
        .u64(bps.lpBps).u64(lpFee).u64(bps.protocolBps).u64(protocolFee).u64(quoteIn + lpFee).u64(total)
        .pubkey(p.address).pubkey(user).pubkey(userBase).pubkey(userQuote).pubkey(feeRecipient).pubkey(feeRecipientAta)
        .pubkey(p.coinCreator).u64(bps.creatorBps).u64(creatorFee).bool(false).u64(0n).u64(0n).u64(0n).i64(0n).u64(baseOut).string("buy")
        .done();
      ix = this.swapIx("buy", f, p, user, userBase, userQuote, feeRecipient, feeRecipientAta, creatorVaultAta, vaultAuth, borsh().bytes(DISC.buy).u64(baseOut).u64(amount).done(), [
        { cpi: tokenTransferChecked(baseMint.program, p.baseVault, p.baseMint, userBase, p.address, baseOut, baseMint.decimals) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, userQuote, WSOL_MINT, p.quoteVault, user, quoteIn + lpFee, 9) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, userQuote, WSOL_MINT, feeRecipientAta, user, protocolFee, 9) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, userQuote, WSOL_MINT, creatorVaultAta, user, creatorFee, 9) },
      ], ev);
      apply = () => {
        const b = ctx.book;
        b.transfer(ctx.tokenAccount(p.baseVault), ctx.tokenAccount(userBase), baseOut);
        b.transfer(ctx.tokenAccount(userQuote), ctx.tokenAccount(p.quoteVault), quoteIn + lpFee);
        b.transfer(ctx.tokenAccount(userQuote), ctx.tokenAccount(feeRecipientAta), protocolFee);
        b.transfer(ctx.tokenAccount(userQuote), ctx.tokenAccount(creatorVaultAta), creatorFee);
      };
    } else {
      const baseIn = amount;
      const quoteOut = (rq * baseIn) / (rb + baseIn);
      const lpFee = ceilDiv(quoteOut * bps.lpBps, 10000n);
      const protocolFee = ceilDiv(quoteOut * bps.protocolBps, 10000n);
      const creatorFee = ceilDiv(quoteOut * bps.creatorBps, 10000n);
      const userOut = quoteOut - lpFee - protocolFee - creatorFee;
      if (userOut <= 0n) return null;
      // Virtual reserves price the trade but cannot be paid out: the vault must hold everything that leaves it.
      if (userOut + protocolFee + creatorFee > vaultQuote) return null;
      result = { base: baseIn, quote: userOut };
      ev = borsh()
        .bytes(DISC.sellEvent)
        .i64(ts).u64(baseIn).u64(0n).u64(userBaseBefore).u64(0n).u64(rb).u64(vaultQuote).u64(quoteOut)
        .u64(bps.lpBps).u64(lpFee).u64(bps.protocolBps).u64(protocolFee).u64(quoteOut - lpFee).u64(userOut)
        .pubkey(p.address).pubkey(user).pubkey(userBase).pubkey(userQuote).pubkey(feeRecipient).pubkey(feeRecipientAta)
        .pubkey(p.coinCreator).u64(bps.creatorBps).u64(creatorFee).u64(0n).u64(0n).u64(0n).u64(0n)
        .done();
      ix = this.swapIx("sell", f, p, user, userBase, userQuote, feeRecipient, feeRecipientAta, creatorVaultAta, vaultAuth, borsh().bytes(DISC.sell).u64(baseIn).u64(0n).done(), [
        { cpi: tokenTransferChecked(baseMint.program, userBase, p.baseMint, p.baseVault, user, baseIn, baseMint.decimals) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, userQuote, p.address, userOut, 9) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, feeRecipientAta, p.address, protocolFee, 9) },
        { cpi: tokenTransferChecked(TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, creatorVaultAta, p.address, creatorFee, 9) },
      ], ev);
      apply = () => {
        const b = ctx.book;
        b.transfer(ctx.tokenAccount(userBase), ctx.tokenAccount(p.baseVault), baseIn);
        b.transfer(ctx.tokenAccount(p.quoteVault), ctx.tokenAccount(userQuote), userOut);
        b.transfer(ctx.tokenAccount(p.quoteVault), ctx.tokenAccount(feeRecipientAta), protocolFee);
        b.transfer(ctx.tokenAccount(p.quoteVault), ctx.tokenAccount(creatorVaultAta), creatorFee);
      };
    }
    d.add(ix, apply);
    return result;
  }

  private swapIx(
    side: "buy" | "sell",
    f: Fees,
    p: PumpSwapPool,
    user: Pubkey,
    userBase: Pubkey,
    userQuote: Pubkey,
    feeRecipient: Pubkey,
    feeRecipientAta: Pubkey,
    creatorVaultAta: Pubkey,
    vaultAuth: Pubkey,
    data: Uint8Array,
    transfers: Ix["steps"],
    event: Uint8Array,
  ): Ix {
    const baseProgram = this.ctx.book.mint(p.baseMint).program;
    const accounts = [
      w(p.address), ws(user), r(pumpSwapGlobalConfig()), r(p.baseMint), r(p.quoteMint), w(userBase), w(userQuote), w(p.baseVault),
      w(p.quoteVault), r(feeRecipient), w(feeRecipientAta), r(baseProgram), r(TOKEN_PROGRAM), r(SYSTEM_PROGRAM), r(ATA_PROGRAM),
      r(pumpSwapEventAuthority()), r(PUMP_AMM_PROGRAM), w(creatorVaultAta), r(vaultAuth),
    ];
    if (side === "buy") {
      accounts.push(r(pda(["global_volume_accumulator"], PUMP_AMM_PROGRAM)), w(pda(["user_volume_accumulator", keyBytes(user)], PUMP_AMM_PROGRAM)));
    }
    accounts.push(r(pumpSwapFeeConfig()), r(PUMP_FEE_PROGRAM));
    return {
      program: PUMP_AMM_PROGRAM,
      accounts,
      data,
      steps: [
        { log: side === "buy" ? "Instruction: Buy" : "Instruction: Sell" },
        { cpi: getFeesCpi(pumpSwapFeeConfig(), PUMP_AMM_PROGRAM, f, 4641) },
        ...transfers,
        { data: event },
        { cpi: eventCpi(PUMP_AMM_PROGRAM, pumpSwapEventAuthority(), event) },
      ],
      cu: 62000,
    };
  }

  rentFor(): bigint {
    return rentExempt(PUMPSWAP_POOL_SIZE);
  }
}

/** PumpSwap pools: ATA vaults of the pool (VENUES.md §3). */
export const pumpSwap = defineVenue<PumpSwapPool>()({
  kind: "pumpswap",
  tradeKind: "pumpswap",
  program: PUMP_AMM_PROGRAM,
  reserves: (p) => [tokenReserve(p.baseMint, p.baseVault), tokenReserve(p.quoteMint, p.quoteVault)],
  activation: () => null,
});
