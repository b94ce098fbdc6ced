/**
 * pump.fun bonding curve — VENUES.md §2. Global (IDL layout), BondingCurve (150 B, SOL side = the curve's own lamports),
 * create (SPL + Metaplex) / create_v2 (Token-2022 with its own TokenMetadata), buy/sell with the constant-product math on
 * virtual reserves plus protocol and creator fees in bps, completion, and `migrate` to the canonical PumpSwap pool.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, concat, hex } from "../core/bytes.js";
import { constantPda, ata, findPda, keyBytes, pda } from "../core/keys.js";
import { ceilDiv, isqrt } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { ATA_PROGRAM, METAPLEX_PROGRAM, PUMP_AMM_PROGRAM, PUMP_FEE_PROGRAM, PUMP_FEE_RECIPIENT, PUMP_GLOBAL_AUTHORITY, PUMP_PROGRAM, PUMP_WITHDRAW_AUTHORITY, RENT_SYSVAR, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, WSOL_MINT } from "../programs.js";
import { encodeMetaplexMetadata, METADATA_ACCOUNT_SIZE } from "../spl/metaplex.js";
import { rentExempt, tokenAccountSize, type MintState } from "../spl/token.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { ataCreate, borsh, eventCpi, systemCreateAccount, systemTransfer, tokenMintTo, tokenTransfer } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { canonicalPumpSwapPool, pumpPoolAuthority, pumpSwapEventAuthority, pumpSwapGlobalConfig, type PumpSwapVenue } from "./pumpswap.js";
import { tokenReserve } from "../swap-marks.js";
import { encodeFeeConfig, getFeesCpi, pumpFeeConfig, PUMP_CURVE_FEE_SCHEDULE, scheduledFees, type Fees } from "./pump-fees.js";
import { defineVenue } from "./types.js";

export const BONDING_CURVE_SIZE = 150;
export const PUMP_GLOBAL_SIZE = 1045;
export const PUMP = {
  initialVirtualTokenReserves: 1_073_000_000_000_000n,
  initialVirtualSolReserves: 30_000_000_000n,
  initialRealTokenReserves: 793_100_000_000_000n,
  tokenTotalSupply: 1_000_000_000_000_000n,
  /** Global's flat fee_basis_points / creator_fee_basis_points: what the program charged before its fee config (a fallback now) */
  feeBps: 95n,
  creatorFeeBps: 5n,
  poolMigrationFee: 15_000_001n,
  decimals: 6,
};
const DISC = {
  curve: hex("17b7f83760d8ac60"),
  global: hex("a7e8e8b1c86c727f"),
  buy: hex("66063d1201daebea"),
  sell: hex("33e685a4017f83ad"),
  create: hex("181ec828051c0777"),
  createV2: hex("d6904cec5f8b31b4"),
  migrate: hex("9beae792ec9ea21e"),
  tradeEvent: hex("bddb7fd34ee661ee"),
  createEvent: hex("1b72a94ddeeb6376"),
  completeEvent: hex("5f72619cd42e9808"),
  migrationEvent: hex("bde95db95c94ea94"),
};
/** Fee recipients listed in the pump README (Global.fee_recipient + Global.fee_recipients). */
export const PUMP_FEE_RECIPIENTS = [
  PUMP_FEE_RECIPIENT,
  "7VtfL8fvgNfhz17qKRMjzQEXgbdpnHHHQRh54R9jP2RJ",
  "7hTckgnGnLQR6sdH7YkqFTAA7VwTfYFaZ6EhEsU3saCX",
  "9rPYyANsfQZw3DnDmKE3YCQF5E8oD89UXoHn9JFEhJUz",
  "AVmoTthdrX6tKt4nDjco2D775W2YK3sDhxPcMmzUAmTY",
  "CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM",
  "FWsW1xNtWscwNmKv6wVsU1iTzRN6wmmk3MjxRP5tT7hz",
  "G5UZAVbAf46s7cKWoyKu8kYTip9DGTpbLZ2qa9Aq69dP",
];
const ZERO_KEY = "11111111111111111111111111111111";

export const pumpGlobal = constantPda(["global"], PUMP_PROGRAM);
export const pumpMintAuthority = constantPda(["mint-authority"], PUMP_PROGRAM);
export const pumpEventAuthority = constantPda(["__event_authority"], PUMP_PROGRAM);
export const bondingCurveAddress = (mint: Pubkey) => pda(["bonding-curve", keyBytes(mint)], PUMP_PROGRAM);
export const creatorVault = (creator: Pubkey) => pda(["creator-vault", keyBytes(creator)], PUMP_PROGRAM);
export const metaplexMetadataAddress = (mint: Pubkey) => pda(["metadata", keyBytes(METAPLEX_PROGRAM), keyBytes(mint)], METAPLEX_PROGRAM);

export interface PumpCurve {
  mint: Pubkey;
  address: Pubkey;
  ata: Pubkey;
  tokenProgram: Pubkey;
  vtr: bigint;
  vqr: bigint;
  rtr: bigint;
  rqr: bigint;
  supply: bigint;
  complete: boolean;
  creator: Pubkey;
  completedAtSlot: number | null;
  migratedPool: Pubkey | null;
  /** A coin quoted in another token (`quote_mint` @83; VENUES.md §2): that mint and the curve's ATA of it. Absent: SOL. */
  quoteMint?: Pubkey;
  quoteAta?: Pubkey;
  /** The account's size when it is not the world's usual 150 B (mainnet holds 125-, 151- and 256-byte curves too). */
  size?: number;
}

export function encodeBondingCurve(c: PumpCurve): Uint8Array {
  return new FixedWriter(c.size ?? BONDING_CURVE_SIZE)
    .raw(0, DISC.curve)
    .u64(8, c.vtr)
    .u64(16, c.vqr)
    .u64(24, c.rtr)
    .u64(32, c.rqr)
    .u64(40, c.supply)
    .bool(48, c.complete)
    .pubkey(49, c.creator)
    .bool(81, false)
    .bool(82, false)
    .pubkey(83, c.quoteMint ?? ZERO_KEY).bytes;
}

export function encodePumpGlobal(): Uint8Array {
  const wr = new FixedWriter(PUMP_GLOBAL_SIZE)
    .raw(0, DISC.global)
    .bool(8, true)
    .pubkey(9, PUMP_GLOBAL_AUTHORITY)
    .pubkey(41, PUMP_FEE_RECIPIENT)
    .u64(73, PUMP.initialVirtualTokenReserves)
    .u64(81, PUMP.initialVirtualSolReserves)
    .u64(89, PUMP.initialRealTokenReserves)
    .u64(97, PUMP.tokenTotalSupply)
    .u64(105, PUMP.feeBps)
    .pubkey(113, PUMP_WITHDRAW_AUTHORITY)
    .bool(145, true)
    .u64(146, PUMP.poolMigrationFee)
    .u64(154, PUMP.creatorFeeBps);
  PUMP_FEE_RECIPIENTS.slice(1).forEach((k, i) => wr.pubkey(162 + 32 * i, k));
  wr.pubkey(386, PUMP_GLOBAL_AUTHORITY).pubkey(418, PUMP_GLOBAL_AUTHORITY).bool(450, true);
  wr.u64(1005, PUMP.initialVirtualSolReserves);
  return wr.bytes;
}

/** Reserves of a curve `progress` (0..1) of the way to completion, on the constant-product path from the initial state. */
export function curveAtProgress(progress: number): { vtr: bigint; vqr: bigint; rtr: bigint; rqr: bigint } {
  const sold = BigInt(Math.floor(Number(PUMP.initialRealTokenReserves) * progress));
  const rtr = PUMP.initialRealTokenReserves - sold;
  const vtr = PUMP.initialVirtualTokenReserves - sold;
  const vqr = ceilDiv(PUMP.initialVirtualTokenReserves * PUMP.initialVirtualSolReserves, vtr);
  return { vtr, vqr, rtr, rqr: vqr - PUMP.initialVirtualSolReserves };
}

/**
 * The protocol and creator bps a swap on `c` pays: the fee config's tier for the curve's market cap before the swap
 * (virtual quote × 10^15 / virtual tokens; the world has no mayhem-mode coins), by its quote mint; no creator fee for a
 * curve without a creator.
 */
export function curveFees(c: PumpCurve): Fees {
  const marketCap = (c.vqr * PUMP.tokenTotalSupply) / c.vtr;
  const f = scheduledFees(PUMP_CURVE_FEE_SCHEDULE, true, c.quoteMint ?? ZERO_KEY, marketCap);
  return { lp: 0n, protocol: f.protocol, creator: c.creator === ZERO_KEY ? 0n : f.creator };
}

export interface CoinInfo {
  mint: Pubkey;
  name: string;
  symbol: string;
  uri: string;
  creator: Pubkey;
  tokenProgram: Pubkey;
}

export class PumpFunVenue {
  readonly curves = new Map<Pubkey, PumpCurve>();

  constructor(
    private readonly ctx: WorldContext,
    private readonly pumpswap: PumpSwapVenue,
  ) {}

  genesis(): void {
    const { store } = this.ctx;
    store.putRentExempt(pumpGlobal(), PUMP_PROGRAM, encodePumpGlobal());
    store.putRentExempt(pumpFeeConfig(), PUMP_FEE_PROGRAM, encodeFeeConfig(PUMP_CURVE_FEE_SCHEDULE, PUMP_GLOBAL_AUTHORITY));
    for (const k of PUMP_FEE_RECIPIENTS) store.put(k, SYSTEM_PROGRAM, new Uint8Array(0), 120_000_000_000n);
    store.put(PUMP_WITHDRAW_AUTHORITY, SYSTEM_PROGRAM, new Uint8Array(0), 250_000_000_000n);
    store.put(pumpMintAuthority(), SYSTEM_PROGRAM, new Uint8Array(0), 323_296_939n);
  }

  mintState(info: CoinInfo): MintState {
    const m: MintState = {
      address: info.mint,
      program: info.tokenProgram,
      decimals: PUMP.decimals,
      supply: PUMP.tokenTotalSupply,
      mintAuthority: null,
      freezeAuthority: null,
      revokedMintAuthority: pumpMintAuthority(),
    };
    if (info.tokenProgram === TOKEN_2022_PROGRAM) {
      m.metadataPointer = { authority: pumpMintAuthority(), address: info.mint };
      m.tokenMetadata = { updateAuthority: pumpMintAuthority(), name: info.name, symbol: info.symbol, uri: info.uri, additional: [] };
    }
    return m;
  }

  metaplex(info: CoinInfo): Uint8Array {
    return encodeMetaplexMetadata({
      updateAuthority: pumpMintAuthority(),
      mint: info.mint,
      name: info.name,
      symbol: info.symbol,
      uri: info.uri,
      sellerFeeBasisPoints: 0,
      creators: null,
      primarySaleHappened: false,
      isMutable: false,
      editionNonce: 255,
      tokenStandard: 2,
    });
  }

  /** Genesis: a coin whose curve is `progress` of the way through; returns the circulating tokens to hand to holders. */
  createAtGenesis(info: CoinInfo, progress: number): { curve: PumpCurve; circulating: bigint } {
    const { ctx } = this;
    ctx.book.writeMint(this.mintState(info));
    if (info.tokenProgram === TOKEN_PROGRAM) ctx.store.putRentExempt(metaplexMetadataAddress(info.mint), METAPLEX_PROGRAM, this.metaplex(info));
    const curve = this.newCurve(info);
    const s = progress >= 1 ? { ...curveAtProgress(1), rtr: 0n } : curveAtProgress(progress);
    Object.assign(curve, s);
    const unsellable = PUMP.tokenTotalSupply - PUMP.initialRealTokenReserves;
    ctx.createTokenAccount(curve.address, info.mint, curve.rtr + unsellable);
    if (curve.rtr === 0n) {
      curve.complete = true;
      curve.completedAtSlot = 0;
    }
    this.writeCurve(curve);
    this.ensureCreatorVault(info.creator);
    return { curve, circulating: PUMP.initialRealTokenReserves - curve.rtr };
  }

  /**
   * Genesis: a coin that graduated long ago — curve complete and emptied, canonical PumpSwap pool holding `base`/`quote`
   * (a "boost" pool when `virtualQuote` > 0).
   */
  graduatedAtGenesis(info: CoinInfo, base: bigint, quote: bigint, virtualQuote = 0n): { curve: PumpCurve; circulating: bigint } {
    const { ctx } = this;
    ctx.book.writeMint(this.mintState(info));
    if (info.tokenProgram === TOKEN_PROGRAM) ctx.store.putRentExempt(metaplexMetadataAddress(info.mint), METAPLEX_PROGRAM, this.metaplex(info));
    const curve = this.newCurve(info);
    Object.assign(curve, curveAtProgress(1), { rtr: 0n, rqr: 0n, complete: true, completedAtSlot: 0 });
    ctx.createTokenAccount(curve.address, info.mint, 0n);
    const pool = this.pumpswap.createPool({ index: 0, creator: pumpPoolAuthority(info.mint), baseMint: info.mint, coinCreator: info.creator, base, quote, lpHolder: pumpPoolAuthority(info.mint), virtualQuote });
    curve.migratedPool = pool.address;
    this.writeCurve(curve);
    this.ensureCreatorVault(info.creator);
    return { curve, circulating: PUMP.tokenTotalSupply - base };
  }

  newCurve(info: CoinInfo): PumpCurve {
    const address = bondingCurveAddress(info.mint);
    const curve: PumpCurve = {
      mint: info.mint,
      address,
      ata: ata(address, info.mint, info.tokenProgram),
      tokenProgram: info.tokenProgram,
      vtr: PUMP.initialVirtualTokenReserves,
      vqr: PUMP.initialVirtualSolReserves,
      rtr: PUMP.initialRealTokenReserves,
      rqr: 0n,
      supply: PUMP.tokenTotalSupply,
      complete: false,
      creator: info.creator,
      completedAtSlot: null,
      migratedPool: null,
    };
    this.curves.set(info.mint, curve);
    return curve;
  }

  private ensureCreatorVault(creator: Pubkey): void {
    const v = creatorVault(creator);
    if (!this.ctx.store.get(v)) this.ctx.store.put(v, SYSTEM_PROGRAM, new Uint8Array(0), 890_880n);
  }

  writeCurve(c: PumpCurve): void {
    // A SOL-quoted curve holds its real quote reserves as its own lamports; another quote sits in the curve's ATA of it.
    this.ctx.store.put(c.address, PUMP_PROGRAM, encodeBondingCurve(c), rentExempt(c.size ?? BONDING_CURVE_SIZE) + (c.quoteMint ? 0n : c.rqr));
  }

  /** SOL per token atom (lamports per atom) from virtual reserves. */
  price(c: PumpCurve): number {
    return Number(c.vqr) / Number(c.vtr);
  }

  fees(c: PumpCurve): Fees {
    return curveFees(c);
  }

  private tradeEvent(c: PumpCurve, f: Fees, user: Pubkey, isBuy: boolean, sol: bigint, tokens: bigint, fee: bigint, creatorFee: bigint, feeRecipient: Pubkey): Uint8Array {
    return borsh()
      .bytes(DISC.tradeEvent)
      .pubkey(c.mint).u64(sol).u64(tokens).bool(isBuy).pubkey(user).i64(BigInt(this.ctx.clock.blockTime))
      .u64(c.vqr).u64(c.vtr).u64(c.rqr).u64(c.rtr)
      .pubkey(feeRecipient).u64(f.protocol).u64(fee).pubkey(c.creator).u64(f.creator).u64(creatorFee)
      .bool(false).u64(0n).u64(0n).u64(0n).i64(0n)
      .string(isBuy ? "buy" : "sell")
      .bool(false).u64(0n).u64(0n).u64(0n).u64(0n).u32(0)
      .pubkey(ZERO_KEY).u64(sol).u64(c.vqr).u64(c.rqr)
      .done();
  }

  private getFeesCpi(f: Fees): Ix {
    return getFeesCpi(pumpFeeConfig(), PUMP_PROGRAM, f, 3119);
  }

  /** Lamports (fees included) a buy needs to take every token the curve has left: the buy that completes it. */
  buyOutBudget(c: PumpCurve): bigint {
    const solIn = ceilDiv(c.vqr * c.rtr, c.vtr - c.rtr) + 1n;
    const f = this.fees(c);
    return ceilDiv((solIn + 2n) * (10000n + f.protocol + f.creator), 10000n) + 1n;
  }

  /** Buy with at most `solBudget` lamports (fees included). Returns tokens bought, or null when nothing can be bought. */
  buy(d: Draft, c: PumpCurve, user: Pubkey, solBudget: bigint, opts: { fail?: boolean } = {}): { tokens: bigint; sol: bigint; completes: boolean } | null {
    if (c.complete) return null;
    const { ctx } = this;
    const f = this.fees(c);
    const totalBps = 10000n + f.protocol + f.creator;
    const solIn = (solBudget * 10000n) / totalBps - 2n;
    if (solIn <= 0n) return null;
    let tokens = (c.vtr * solIn) / (c.vqr + solIn);
    if (tokens > c.rtr) tokens = c.rtr;
    if (tokens <= 0n) return null;
    const solCost = (c.vqr * tokens) / (c.vtr - tokens) + 1n;
    const fee = ceilDiv(solCost * f.protocol, 10000n);
    const creatorFee = ceilDiv(solCost * f.creator, 10000n);
    const total = solCost + fee + creatorFee;
    const maxSolCost = opts.fail ? total - total / 50n : solBudget > total ? solBudget : total;
    const feeRecipient = PUMP_FEE_RECIPIENTS[ctx.clock.slot % PUMP_FEE_RECIPIENTS.length]!;
    const vault = creatorVault(c.creator);
    const userAta = d.ensureAta(user, c.mint);
    const after: PumpCurve = { ...c, vtr: c.vtr - tokens, vqr: c.vqr + solCost, rtr: c.rtr - tokens, rqr: c.rqr + solCost };
    const completes = after.rtr === 0n;
    const event = this.tradeEvent(after, f, user, true, solCost, tokens, fee, creatorFee, feeRecipient);
    const steps: Ix["steps"] = [
      { log: "Instruction: Buy" },
      { cpi: this.getFeesCpi(f) },
      { cpi: tokenTransfer(c.tokenProgram, c.ata, userAta, c.address, tokens) },
      { cpi: systemTransfer(user, c.address, solCost, false) },
      { cpi: systemTransfer(user, feeRecipient, fee, false) },
      { cpi: systemTransfer(user, vault, creatorFee, false) },
      { data: event },
      { cpi: eventCpi(PUMP_PROGRAM, pumpEventAuthority(), event) },
    ];
    if (completes) {
      const complete = borsh().bytes(DISC.completeEvent).pubkey(user).pubkey(c.mint).pubkey(c.address).i64(BigInt(ctx.clock.blockTime)).pubkey(ZERO_KEY).done();
      steps.push({ data: complete }, { cpi: eventCpi(PUMP_PROGRAM, pumpEventAuthority(), complete) });
    }
    const ix: Ix = {
      program: PUMP_PROGRAM,
      accounts: [
        r(pumpGlobal()), w(feeRecipient), r(c.mint), w(c.address), w(c.ata), w(userAta), ws(user), r(SYSTEM_PROGRAM), r(c.tokenProgram),
        w(vault), r(pumpEventAuthority()), r(PUMP_PROGRAM), r(pda(["global_volume_accumulator"], PUMP_PROGRAM)),
        w(pda(["user_volume_accumulator", keyBytes(user)], PUMP_PROGRAM)), r(pumpFeeConfig()), r(PUMP_FEE_PROGRAM),
      ],
      data: borsh().bytes(DISC.buy).u64(tokens).u64(maxSolCost).done(),
      steps,
      cu: 58000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(c.ata), ctx.tokenAccount(userAta), tokens);
      ctx.store.addLamports(user, -total);
      ctx.store.addLamports(feeRecipient, fee);
      ctx.store.addLamports(vault, creatorFee);
      Object.assign(c, { vtr: after.vtr, vqr: after.vqr, rtr: after.rtr, rqr: after.rqr });
      if (completes) {
        c.complete = true;
        c.completedAtSlot = ctx.clock.slot;
      }
      this.writeCurve(c);
    });
    if (opts.fail) d.fail = anchorFailure(index, "programs/pump/src/lib.rs", 531, 6002, "TooMuchSolRequired", "slippage: Too much SOL required to buy the given amount of tokens.");
    return { tokens, sol: total, completes };
  }

  sell(d: Draft, c: PumpCurve, user: Pubkey, tokens: bigint, opts: { fail?: boolean } = {}): { sol: bigint } | null {
    if (c.complete || tokens <= 0n) return null;
    const { ctx } = this;
    const userAta = ata(user, c.mint, c.tokenProgram);
    const solOut = (c.vqr * tokens) / (c.vtr + tokens);
    if (solOut > c.rqr) return null;
    const f = this.fees(c);
    const fee = ceilDiv(solOut * f.protocol, 10000n);
    const creatorFee = ceilDiv(solOut * f.creator, 10000n);
    const received = solOut - fee - creatorFee;
    if (received <= 0n) return null;
    const feeRecipient = PUMP_FEE_RECIPIENTS[ctx.clock.slot % PUMP_FEE_RECIPIENTS.length]!;
    const vault = creatorVault(c.creator);
    const after: PumpCurve = { ...c, vtr: c.vtr + tokens, vqr: c.vqr - solOut, rtr: c.rtr + tokens, rqr: c.rqr - solOut };
    const event = this.tradeEvent(after, f, user, false, solOut, tokens, fee, creatorFee, feeRecipient);
    const minOut = opts.fail ? received + received / 40n + 1n : (received * 95n) / 100n;
    const ix: Ix = {
      program: PUMP_PROGRAM,
      accounts: [
        r(pumpGlobal()), w(feeRecipient), r(c.mint), w(c.address), w(c.ata), w(userAta), ws(user), r(SYSTEM_PROGRAM), w(vault),
        r(c.tokenProgram), r(pumpEventAuthority()), r(PUMP_PROGRAM), r(pumpFeeConfig()), r(PUMP_FEE_PROGRAM),
      ],
      data: borsh().bytes(DISC.sell).u64(tokens).u64(minOut).done(),
      steps: [
        { log: "Instruction: Sell" },
        { cpi: this.getFeesCpi(f) },
        { cpi: tokenTransfer(c.tokenProgram, userAta, c.ata, user, tokens) },
        { data: event },
        { cpi: eventCpi(PUMP_PROGRAM, pumpEventAuthority(), event) },
      ],
      cu: 36000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userAta), ctx.tokenAccount(c.ata), tokens);
      Object.assign(c, { vtr: after.vtr, vqr: after.vqr, rtr: after.rtr, rqr: after.rqr });
      this.writeCurve(c); // curve lamports drop by solOut
      ctx.store.addLamports(user, received);
      ctx.store.addLamports(feeRecipient, fee);
      ctx.store.addLamports(vault, creatorFee);
    });
    if (opts.fail) d.fail = anchorFailure(index, "programs/pump/src/lib.rs", 612, 6003, "TooLittleSolReceived", "slippage: Too little SOL received to sell the given amount of tokens.");
    return { sol: received };
  }

  /** A new coin: `create` (SPL + Metaplex) or `create_v2` (Token-2022), as the first instruction of a launch transaction. */
  create(d: Draft, info: CoinInfo): PumpCurve {
    const { ctx } = this;
    const t22 = info.tokenProgram === TOKEN_2022_PROGRAM;
    const curveAddr = bondingCurveAddress(info.mint);
    const curveAta = ata(curveAddr, info.mint, info.tokenProgram);
    const user = d.payer;
    const mint = this.mintState(info);
    const metadata = metaplexMetadataAddress(info.mint);
    const createEvent = borsh()
      .bytes(DISC.createEvent)
      .string(info.name).string(info.symbol).string(info.uri)
      .pubkey(info.mint).pubkey(curveAddr).pubkey(user).pubkey(info.creator).i64(BigInt(ctx.clock.blockTime))
      .u64(PUMP.initialVirtualTokenReserves).u64(PUMP.initialVirtualSolReserves).u64(PUMP.initialRealTokenReserves).u64(PUMP.tokenTotalSupply)
      .pubkey(info.tokenProgram).bool(false).bool(false).pubkey(ZERO_KEY).u64(PUMP.initialVirtualSolReserves)
      .done();
    const mintSize = t22 ? 0 : 82;
    const ataSize = tokenAccountSize(info.tokenProgram, t22, false);
    const tokenIx = (name: string, accounts: Ix["accounts"], data: Uint8Array, cu: number): Ix => ({
      program: info.tokenProgram, accounts, data, steps: [{ log: `Instruction: ${name}` }], cu,
    });
    const steps: Ix["steps"] = [{ log: t22 ? "Instruction: CreateV2" : "Instruction: Create" }];
    steps.push({ cpi: systemCreateAccount(user, info.mint, rentExempt(t22 ? 234 : mintSize), t22 ? 234 : mintSize, info.tokenProgram) });
    if (t22) steps.push({ cpi: tokenIx("MetadataPointerInstruction::Initialize", [w(info.mint)], concat(hex("2700"), keyBytes(pumpMintAuthority()), keyBytes(info.mint)), 1200) });
    steps.push({ cpi: tokenIx("InitializeMint2", [w(info.mint)], concat(hex("1406"), keyBytes(pumpMintAuthority()), hex("00")), 2780) });
    if (t22) {
      steps.push({
        cpi: {
          program: TOKEN_2022_PROGRAM,
          accounts: [w(info.mint), r(pumpMintAuthority()), r(info.mint), r(pumpMintAuthority())],
          data: borsh().bytes(hex("d2e11ea258b84d8d")).string(info.name).string(info.symbol).string(info.uri).done(),
          steps: [{ log: "Instruction: TokenMetadataInstruction: Initialize" }],
          cu: 9800,
        },
      });
    }
    steps.push({ cpi: systemCreateAccount(user, curveAddr, rentExempt(BONDING_CURVE_SIZE), BONDING_CURVE_SIZE, PUMP_PROGRAM) });
    steps.push({ cpi: ataCreate(user, curveAta, curveAddr, info.mint, info.tokenProgram, ataSize, false) });
    if (!t22) {
      steps.push({
        cpi: {
          program: METAPLEX_PROGRAM,
          accounts: [w(metadata), r(info.mint), r(pumpMintAuthority()), w(user), r(pumpMintAuthority()), r(SYSTEM_PROGRAM)],
          data: borsh().u8(33).string(info.name).string(info.symbol).string(info.uri).u16(0).u8(0).u8(0).u8(0).bool(false).u8(0).done(),
          steps: [
            { log: "IX: Create Metadata Accounts v3" },
            { cpi: systemTransfer(user, metadata, rentExempt(METADATA_ACCOUNT_SIZE), false) },
            { log: "Allocate space for the account" },
            { cpi: { program: SYSTEM_PROGRAM, accounts: [w(metadata)], data: new FixedWriter(12).u32(0, 8).u64(4, BigInt(METADATA_ACCOUNT_SIZE)).bytes, steps: [], cu: 150 } },
            { log: "Assign the account to the owning program" },
            { cpi: { program: SYSTEM_PROGRAM, accounts: [w(metadata)], data: concat(new FixedWriter(4).u32(0, 1).bytes, keyBytes(METAPLEX_PROGRAM)), steps: [], cu: 150 } },
          ],
          cu: 40000,
        },
      });
    }
    steps.push({ cpi: tokenMintTo(info.tokenProgram, info.mint, curveAta, pumpMintAuthority(), PUMP.tokenTotalSupply) });
    steps.push({ cpi: tokenIx("SetAuthority", [w(info.mint), r(pumpMintAuthority())], hex("060000"), 2911) });
    steps.push({ data: createEvent }, { cpi: eventCpi(PUMP_PROGRAM, pumpEventAuthority(), createEvent) });

    const accounts = t22
      ? [
          ws(info.mint), r(pumpMintAuthority()), w(curveAddr), w(curveAta), r(pumpGlobal()), ws(user), r(SYSTEM_PROGRAM), r(TOKEN_2022_PROGRAM),
          r(ATA_PROGRAM), w("MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e"), r(pda(["global-params"], "MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e")),
          w(pda(["sol-vault"], "MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e")), w(pda(["mayhem-state", keyBytes(info.mint)], "MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e")),
          w(ata(pda(["sol-vault"], "MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e"), info.mint, TOKEN_2022_PROGRAM)), r(pumpEventAuthority()), r(PUMP_PROGRAM),
        ]
      : [
          ws(info.mint), r(pumpMintAuthority()), w(curveAddr), w(curveAta), r(pumpGlobal()), r(METAPLEX_PROGRAM), w(metadata), ws(user),
          r(SYSTEM_PROGRAM), r(TOKEN_PROGRAM), r(ATA_PROGRAM), r(RENT_SYSVAR), r(pumpEventAuthority()), r(PUMP_PROGRAM),
        ];
    // The creator's fee vault is funded when the coin is created (remaining account).
    accounts.push(w(creatorVault(info.creator)));
    const data = borsh().bytes(t22 ? DISC.createV2 : DISC.create).string(info.name).string(info.symbol).string(info.uri).pubkey(info.creator);
    if (t22) data.bool(false).bool(false);
    const curve = this.newCurve(info);
    this.curves.delete(info.mint); // registered when the transaction applies
    d.add({ program: PUMP_PROGRAM, accounts, data: data.done(), steps, cu: 120000 }, () => {
      const before = this.ctx.store.lamports(user);
      ctx.book.writeMint(mint);
      if (!t22) ctx.store.putRentExempt(metadata, METAPLEX_PROGRAM, this.metaplex(info));
      this.curves.set(info.mint, curve);
      this.writeCurve(curve);
      ctx.createTokenAccount(curveAddr, info.mint, PUMP.tokenTotalSupply);
      const vault = creatorVault(info.creator);
      const vaultBefore = ctx.store.lamports(vault);
      this.ensureCreatorVault(info.creator);
      const rent =
        ctx.store.lamports(info.mint) + ctx.store.lamports(curveAddr) + ctx.store.lamports(curveAta) + (t22 ? 0n : ctx.store.lamports(metadata)) +
        (ctx.store.lamports(vault) - vaultBefore);
      ctx.store.setLamports(user, before - rent);
    });
    return curve;
  }

  /** `migrate`: moves a completed curve's reserves into its canonical PumpSwap pool (pump `migrate` → pump_amm `create_pool`). */
  migrate(d: Draft, c: PumpCurve): Pubkey {
    const { ctx } = this;
    const payer = d.payer;
    const poolAuthority = pumpPoolAuthority(c.mint);
    const poolAddress = canonicalPumpSwapPool(c.mint);
    const base = ctx.tokenAccount(c.ata).amount;
    const quote = c.rqr - PUMP.poolMigrationFee;
    const lpMint = pda(["pool_lp_mint", keyBytes(poolAddress)], PUMP_AMM_PROGRAM);
    const authMintAcct = ata(poolAuthority, c.mint, c.tokenProgram);
    const authWsolAcct = ata(poolAuthority, WSOL_MINT, TOKEN_PROGRAM);
    const userLp = ata(poolAuthority, lpMint, TOKEN_2022_PROGRAM);
    const poolBase = ata(poolAddress, c.mint, c.tokenProgram);
    const poolQuote = ata(poolAddress, WSOL_MINT, TOKEN_PROGRAM);
    const [, bump] = findPda(["pool", new Uint8Array(2), keyBytes(poolAuthority), keyBytes(c.mint), keyBytes(WSOL_MINT)], PUMP_AMM_PROGRAM);
    const draftPool = {
      address: poolAddress, bump, index: 0, creator: poolAuthority, baseMint: c.mint, quoteMint: WSOL_MINT, lpMint, baseVault: poolBase,
      quoteVault: poolQuote, lpSupply: isqrt(base * quote), coinCreator: c.creator, virtualQuoteReserves: 0n,
    };
    const createPool = this.pumpswap.createPoolInstruction(poolAuthority, draftPool, base, quote, authMintAcct, authWsolAcct, userLp);
    const event = borsh()
      .bytes(DISC.migrationEvent)
      .pubkey(payer).pubkey(c.mint).u64(base).u64(quote).u64(PUMP.poolMigrationFee).pubkey(c.address)
      .i64(BigInt(ctx.clock.blockTime)).pubkey(poolAddress).pubkey(WSOL_MINT)
      .done();
    const ix: Ix = {
      program: PUMP_PROGRAM,
      accounts: [
        r(pumpGlobal()), w(PUMP_WITHDRAW_AUTHORITY), r(c.mint), w(c.address), w(c.ata), ws(payer), r(SYSTEM_PROGRAM), r(TOKEN_PROGRAM),
        r(PUMP_AMM_PROGRAM), w(poolAddress), w(poolAuthority), w(authMintAcct), w(authWsolAcct), r(pumpSwapGlobalConfig()), r(WSOL_MINT),
        w(lpMint), w(userLp), w(poolBase), w(poolQuote), r(TOKEN_2022_PROGRAM), r(ATA_PROGRAM), r(pumpSwapEventAuthority()),
        r(pumpEventAuthority()), r(PUMP_PROGRAM), r(RENT_SYSVAR),
      ],
      data: DISC.migrate,
      steps: [
        { log: "Instruction: Migrate" },
        { cpi: tokenTransfer(c.tokenProgram, c.ata, authMintAcct, c.address, base) },
        { cpi: createPool },
        { data: event },
        { cpi: eventCpi(PUMP_PROGRAM, pumpEventAuthority(), event) },
      ],
      cu: 150000,
    };
    d.add(ix, () => {
      const before = new Map<Pubkey, bigint>();
      const created = [poolAddress, lpMint, poolBase, poolQuote, userLp, ata(pda(["creator_vault", keyBytes(c.creator)], PUMP_AMM_PROGRAM), WSOL_MINT, TOKEN_PROGRAM)];
      for (const k of created) before.set(k, ctx.store.lamports(k));
      const curveAcct = ctx.tokenAccount(c.ata);
      curveAcct.amount -= base;
      ctx.book.write(curveAcct);
      const rqr = c.rqr;
      c.rtr = 0n;
      c.rqr = 0n;
      c.migratedPool = poolAddress;
      this.writeCurve(c);
      this.pumpswap.createPool({ index: 0, creator: poolAuthority, baseMint: c.mint, coinCreator: c.creator, base, quote, lpHolder: poolAuthority });
      let rent = 0n;
      for (const k of created) rent += ctx.store.lamports(k) - before.get(k)!;
      // The wrapped SOL in the quote vault came from the curve; everything else created was paid by the payer.
      ctx.store.addLamports(payer, -(rent - quote) + (rqr - quote) - PUMP.poolMigrationFee);
      ctx.store.addLamports(PUMP_WITHDRAW_AUTHORITY, PUMP.poolMigrationFee);
    });
    return poolAddress;
  }
}

/** pump.fun bonding curves: the token in the curve's ATA, SOL as the curve account's own lamports, another quote in its ATA of that mint (VENUES.md §2). */
export const pumpFunCurve = defineVenue<PumpCurve>()({
  kind: "pumpfun",
  tradeKind: "pump-bonding-curve",
  program: PUMP_PROGRAM,
  reserves: (c) =>
    c.quoteMint ? [tokenReserve(c.mint, c.ata), tokenReserve(c.quoteMint, c.quoteAta!)] : [tokenReserve(c.mint, c.ata), { mint: WSOL_MINT, account: c.address, lamports: true }],
  activation: () => null,
});
