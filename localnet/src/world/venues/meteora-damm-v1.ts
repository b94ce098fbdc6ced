/**
 * Meteora DAMM v1 (dynamic AMM) + dynamic vaults — VENUES.md §9. Vaults (one per mint, shared by every pool of that mint)
 * at PDA(["vault", mint, base]) hold the tokens in token_vault PDA(["token_vault", vault]) and mint vault LP; a pool holds
 * vault LP in a_vault_lp / b_vault_lp = PDA([vault, pool]) (self-owned, as on mainnet). Constant-product pools at the
 * permissionless PDA([curve_type 0, max, min]); stable pools (curve_type 1: StableSwap with an amp and token multipliers,
 * no depeg) at PDA([1, max, min]). A swap, as MeteoraAg/damm-v1-sdk @02c66a3 dynamic-amm-quote computes it: the trade fee
 * ⌊in·fee⌋ (at least one atom), the protocol's ⌊·share⌋ of it (at least one) to the pool's protocol fee account, the rest
 * deposited into the input vault; the curve's input is what the pool's vault share gained less the LP fee; the output
 * is withdrawn from the other vault as ⌊out·supply/total⌋ LP, worth ⌊LP·total/supply⌋. Swap event via log.
 */
import type { AccountState, Pubkey } from "../../chain/types.js";
import { FixedWriter, hex, readU64 } from "../core/bytes.js";
import { compareKeys, keyBytes, keyFromBytes, pda } from "../core/keys.js";
import { ceilDiv } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { METEORA_DAMM_V1_PROGRAM, METEORA_VAULT_BASE, METEORA_VAULT_PROGRAM, TOKEN_PROGRAM, WSOL_MINT } from "../programs.js";
import { MINT_SIZE } from "../spl/token.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, tokenBurn, tokenMintTo, tokenTransfer } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";

export const DAMM_V1_POOL_SIZE = 1387;
export const VAULT_SIZE = 10240;
const DISC = {
  pool: hex("f19a6d0411b16dbc"),
  vault: hex("d308e82b02987577"),
  swap: hex("f8c69e91e17587c8"),
  deposit: hex("f223c68952e1f2b6"),
  withdraw: hex("b712469c946da122"),
  swapEvent: hex("516ce3becdd00ac4"),
};
const TRADE_FEE = { num: 2500n, den: 1_000_000n };
/** stable pools: 0.01 % */
const STABLE_TRADE_FEE = { num: 100n, den: 1_000_000n };
const PROTOCOL_FEE = { num: 200_000n, den: 1_000_000n };

/** `calculate_fee`: ⌊amount·num/den⌋, but one atom at least when neither is zero. */
const feeOf = (amount: bigint, fee: { num: bigint; den: bigint }) => {
  if (amount === 0n || fee.num === 0n) return 0n;
  const f = (amount * fee.num) / fee.den;
  return f === 0n ? 1n : f;
};

/** StableSwap invariant D of two balances (Newton, to within 1): D ← D·(2·Dp + Ann·S) / ((Ann − 1)·D + 3·Dp). */
function invariantD(amp: bigint, x: bigint, y: bigint): bigint {
  const ann = 2n * amp;
  const sum = x + y;
  let d = sum;
  for (let i = 0; i < 256; i++) {
    let dp = (d * d) / (2n * x);
    dp = (dp * d) / (2n * y);
    const last = d;
    d = (d * (2n * dp + ann * sum)) / ((ann - 1n) * d + 3n * dp);
    if ((d > last ? d - last : last - d) <= 1n) break;
  }
  return d;
}

/** The balance y that keeps D with the other balance at x: y ← (y² + c)/(2y + b − D), c = D³/(4·x·Ann), b = x + D/Ann. */
function balanceY(amp: bigint, x: bigint, d: bigint): bigint {
  const ann = 2n * amp;
  let c = (d * d) / (2n * x);
  c = (c * d) / (2n * ann);
  const b = x + d / ann;
  let y = d;
  for (let i = 0; i < 256; i++) {
    const last = y;
    y = (y * y + c) / (2n * y + b - d);
    if ((y > last ? y - last : last - y) <= 1n) break;
  }
  return y;
}

export interface DynamicVault {
  address: Pubkey;
  mint: Pubkey;
  tokenVault: Pubkey;
  lpMint: Pubkey;
  feeVault: Pubkey;
  /** Tokens the vault holds (no strategies in this world: all in token_vault, nothing locked). */
  totalAmount: bigint;
  /** A mainnet vault's own bytes (strategies, locked profit) when it was loaded over ours: only total_amount changes. */
  adoptedData?: Uint8Array;
}

export interface DammV1Pool extends PoolRef {
  lpMint: Pubkey;
  tokenA: Pubkey;
  tokenB: Pubkey;
  aVault: DynamicVault;
  bVault: DynamicVault;
  aVaultLp: Pubkey;
  bVaultLp: Pubkey;
  protocolFeeA: Pubkey;
  protocolFeeB: Pubkey;
  baseIsA: boolean;
  /** a stable pool's curve (normalised amount = atoms × multiplier) */
  stable?: { amp: bigint; multiplierA: bigint; multiplierB: bigint };
}

const startsWith = (data: Uint8Array, prefix: Uint8Array) => prefix.every((b, i) => data[i] === b);

export const dammV1PoolAddress = (a: Pubkey, b: Pubkey, curveType = 0) => {
  const [first, second] = compareKeys(a, b) > 0 ? [a, b] : [b, a];
  return pda([Uint8Array.of(curveType), keyBytes(first), keyBytes(second)], METEORA_DAMM_V1_PROGRAM);
};

export class MeteoraDammV1Venue implements PoolVenue<DammV1Pool> {
  readonly pools = new Map<Pubkey, DammV1Pool>();
  readonly vaults = new Map<Pubkey, DynamicVault>();
  constructor(private readonly ctx: WorldContext, private readonly admin: Pubkey) {}

  vaultFor(mint: Pubkey): DynamicVault {
    const existing = this.vaults.get(mint);
    if (existing) return existing;
    const address = pda(["vault", keyBytes(mint), keyBytes(METEORA_VAULT_BASE)], METEORA_VAULT_PROGRAM);
    const v: DynamicVault = {
      address,
      mint,
      tokenVault: pda(["token_vault", keyBytes(address)], METEORA_VAULT_PROGRAM),
      lpMint: pda(["lp_mint", keyBytes(address)], METEORA_VAULT_PROGRAM),
      feeVault: pda(["fee_vault", keyBytes(address)], METEORA_VAULT_PROGRAM),
      totalAmount: 0n,
    };
    const m = this.ctx.book.mint(mint);
    this.ctx.createTokenAccount(address, mint, 0n, v.tokenVault);
    this.ctx.book.writeMint({ address: v.lpMint, program: TOKEN_PROGRAM, decimals: m.decimals, supply: 0n, mintAuthority: address, freezeAuthority: null });
    this.vaults.set(mint, v);
    this.writeVault(v);
    return v;
  }

  writeVault(v: DynamicVault): void {
    if (v.adoptedData) {
      const data = new FixedWriter(v.adoptedData.length).raw(0, v.adoptedData).u64(11, v.totalAmount).bytes;
      this.ctx.store.putRentExempt(v.address, METEORA_VAULT_PROGRAM, data);
      return;
    }
    const data = new FixedWriter(VAULT_SIZE)
      .raw(0, DISC.vault)
      .u8(8, 1)
      .u8(9, 255)
      .u8(10, 255)
      .u64(11, v.totalAmount)
      .pubkey(19, v.tokenVault)
      .pubkey(51, v.feeVault)
      .pubkey(83, v.mint)
      .pubkey(115, v.lpMint)
      .pubkey(1107, METEORA_VAULT_BASE)
      .pubkey(1139, this.admin)
      .pubkey(1171, this.admin)
      .u64(1203, 0n)
      .u64(1211, BigInt(this.ctx.clock.blockTime))
      .u64(1219, 46296296n).bytes;
    this.ctx.store.putRentExempt(v.address, METEORA_VAULT_PROGRAM, data);
  }

  /**
   * Account fixtures (`--accounts`, e.g. mainnet DAMM v1 pools) that include one of our vaults — the wSOL vault
   * FERjPV… is the same PDA on mainnet — would leave the fixture pools reading our vault (another LP mint, another
   * supply) or ours reading theirs. Instead the world adopts the fixture vault: its LP mint, supply, total amount and
   * bytes; the world's own deposits join it at its share price (our pools' vault-LP balances are converted, value kept).
   * Needs the fixture's LP mint too; without it the vault stays ours.
   */
  adoptVaults(fixtures: ReadonlyMap<Pubkey, AccountState>): Pubkey[] {
    const adopted: Pubkey[] = [];
    for (const v of this.vaults.values()) {
      const vault = fixtures.get(v.address);
      if (!vault || vault.owner !== METEORA_VAULT_PROGRAM || vault.data.length < 1227 || !startsWith(vault.data, DISC.vault)) continue;
      const lpMint = keyFromBytes(vault.data.subarray(115, 147));
      const lpMintAccount = fixtures.get(lpMint);
      if (!lpMintAccount || lpMintAccount.data.length < MINT_SIZE) continue;
      const theirTotal = readU64(vault.data, 11);
      const theirSupply = readU64(lpMintAccount.data, 36);
      if (theirTotal === 0n || theirSupply === 0n) continue;
      const book = this.ctx.book;
      const ours = book.mint(v.lpMint);
      const ourSupply = ours.supply;
      let converted = 0n;
      for (const holder of book.holdersOf(v.lpMint)) {
        // value = shares × ourTotal / ourSupply; their shares for it = value × theirSupply / theirTotal
        const shares = ourSupply === 0n ? 0n : (holder.amount * v.totalAmount * theirSupply) / (ourSupply * theirTotal);
        book.moveToMint(holder, lpMint, shares);
        converted += shares;
      }
      ours.supply = 0n;
      book.writeMint(ours);
      const view = new DataView(lpMintAccount.data.buffer, lpMintAccount.data.byteOffset, lpMintAccount.data.byteLength);
      const authority = (o: number) => (view.getUint32(o, true) === 1 ? keyFromBytes(lpMintAccount.data.subarray(o + 4, o + 36)) : null);
      book.writeMint({
        address: lpMint,
        program: lpMintAccount.owner,
        decimals: lpMintAccount.data[44]!,
        supply: theirSupply + converted,
        mintAuthority: authority(0),
        freezeAuthority: authority(46),
      });
      // Their token vault (where the vault keeps what is not lent to strategies) holds our deposits too.
      const theirTokenVault = fixtures.get(v.tokenVault);
      if (theirTokenVault && keyFromBytes(vault.data.subarray(19, 51)) === v.tokenVault && theirTokenVault.data.length >= 72) {
        const tv = this.ctx.tokenAccount(v.tokenVault);
        const extra = readU64(theirTokenVault.data, 64);
        tv.amount += extra;
        if (v.mint === WSOL_MINT) tv.lamports += extra;
        book.write(tv);
      }
      v.lpMint = lpMint;
      v.totalAmount += theirTotal;
      v.adoptedData = Uint8Array.from(vault.data);
      this.writeVault(v);
      for (const p of this.pools.values()) {
        if (p.aVault === v) p.related.aVaultLpMint = lpMint;
        if (p.bVault === v) p.related.bVaultLpMint = lpMint;
      }
      adopted.push(v.address);
    }
    return adopted;
  }

  /** LP to mint for a deposit of `amount` (first deposit 1:1). */
  private lpFor(v: DynamicVault, amount: bigint): bigint {
    const supply = this.ctx.book.mint(v.lpMint).supply;
    return supply === 0n || v.totalAmount === 0n ? amount : (amount * supply) / v.totalAmount;
  }

  /** Genesis deposit: tokens into the vault, vault LP to `lpAccount`. */
  private deposit(v: DynamicVault, lpAccount: Pubkey, amount: bigint): void {
    const lp = this.lpFor(v, amount);
    const tv = this.ctx.tokenAccount(v.tokenVault);
    tv.amount += amount;
    if (v.mint === WSOL_MINT) tv.lamports += amount;
    this.ctx.book.write(tv);
    const m = this.ctx.book.mint(v.mint);
    m.supply += 0n;
    v.totalAmount += amount;
    this.ctx.book.mintTo(this.ctx.tokenAccount(lpAccount), lp);
    this.writeVault(v);
  }

  create(opts: { baseMint: Pubkey; quoteMint: Pubkey; base: bigint; quote: bigint; creator: Pubkey; stable?: DammV1Pool["stable"] }): DammV1Pool {
    const { ctx } = this;
    const address = dammV1PoolAddress(opts.baseMint, opts.quoteMint, opts.stable ? 1 : 0);
    // Token A/B as the creator passed them; our pools put the token as A and the quote as B (like mainnet TOKEN/SOL pools).
    const tokenA = opts.baseMint;
    const tokenB = opts.quoteMint;
    const aVault = this.vaultFor(tokenA);
    const bVault = this.vaultFor(tokenB);
    const aVaultLp = pda([keyBytes(aVault.address), keyBytes(address)], METEORA_DAMM_V1_PROGRAM);
    const p: DammV1Pool = {
      kind: "meteora-damm-v1",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      lpMint: pda(["lp_mint", keyBytes(address)], METEORA_DAMM_V1_PROGRAM),
      tokenA,
      tokenB,
      aVault,
      bVault,
      aVaultLp,
      bVaultLp: pda([keyBytes(bVault.address), keyBytes(address)], METEORA_DAMM_V1_PROGRAM),
      protocolFeeA: pda(["fee", keyBytes(tokenA), keyBytes(address)], METEORA_DAMM_V1_PROGRAM),
      protocolFeeB: pda(["fee", keyBytes(tokenB), keyBytes(address)], METEORA_DAMM_V1_PROGRAM),
      baseIsA: true,
      ...(opts.stable ? { stable: opts.stable } : {}),
      related: {},
    };
    p.related = {
      aVault: aVault.address,
      bVault: bVault.address,
      aTokenVault: aVault.tokenVault,
      bTokenVault: bVault.tokenVault,
      aVaultLpMint: aVault.lpMint,
      bVaultLpMint: bVault.lpMint,
      aVaultLp: p.aVaultLp,
      bVaultLp: p.bVaultLp,
      lpMint: p.lpMint,
    };
    // Vault LP accounts and protocol fee accounts are owned by a_vault_lp (the pool's token authority on mainnet).
    ctx.createTokenAccount(aVaultLp, aVault.lpMint, 0n, p.aVaultLp);
    ctx.createTokenAccount(aVaultLp, bVault.lpMint, 0n, p.bVaultLp);
    ctx.createTokenAccount(aVaultLp, tokenA, 0n, p.protocolFeeA);
    ctx.createTokenAccount(aVaultLp, tokenB, 0n, p.protocolFeeB);
    this.deposit(aVault, p.aVaultLp, opts.base);
    this.deposit(bVault, p.bVaultLp, opts.quote);
    const lp = BigInt(Math.floor(Math.sqrt(Number(opts.base) * Number(opts.quote))));
    ctx.book.writeMint({ address: p.lpMint, program: TOKEN_PROGRAM, decimals: 9, supply: 0n, mintAuthority: aVaultLp, freezeAuthority: null });
    ctx.book.mintTo(ctx.createTokenAccount(opts.creator, p.lpMint, 0n), lp);
    this.pools.set(address, p);
    this.write(p);
    return p;
  }

  write(p: DammV1Pool): void {
    const trade = p.stable ? STABLE_TRADE_FEE : TRADE_FEE;
    const data = new FixedWriter(DAMM_V1_POOL_SIZE)
      .raw(0, DISC.pool)
      .pubkey(8, p.lpMint)
      .pubkey(40, p.tokenA)
      .pubkey(72, p.tokenB)
      .pubkey(104, p.aVault.address)
      .pubkey(136, p.bVault.address)
      .pubkey(168, p.aVaultLp)
      .pubkey(200, p.bVaultLp)
      .u8(232, 255)
      .bool(233, true)
      .pubkey(234, p.protocolFeeA)
      .pubkey(266, p.protocolFeeB)
      .u64(330, trade.num)
      .u64(338, trade.den)
      .u64(346, PROTOCOL_FEE.num)
      .u64(354, PROTOCOL_FEE.den)
      .u8(362, 1) // Permissionless
      .u8(874, p.stable ? 1 : 0); // CurveType: ConstantProduct, or Stable { amp @875, token_multiplier {a @883, b @891, precision_factor @899}, depeg (none) @900.. }
    if (p.stable) data.u64(875, p.stable.amp).u64(883, p.stable.multiplierA).u64(891, p.stable.multiplierB).u8(899, 6);
    this.ctx.store.putRentExempt(p.address, METEORA_DAMM_V1_PROGRAM, data.bytes);
  }

  /** Underlying token amount the pool owns in a vault: total × pool_lp / lp_supply (no locked profit here). */
  private poolAmount(v: DynamicVault, lpAccount: Pubkey): bigint {
    const supply = this.ctx.book.mint(v.lpMint).supply;
    return supply === 0n ? 0n : (v.totalAmount * this.ctx.tokenAccount(lpAccount).amount) / supply;
  }

  reserves(p: DammV1Pool): { a: bigint; b: bigint } {
    return { a: this.poolAmount(p.aVault, p.aVaultLp), b: this.poolAmount(p.bVault, p.bVaultLp) };
  }

  price(p: DammV1Pool): number {
    const { a, b } = this.reserves(p);
    return Number(b) / Number(a);
  }

  swap(d: Draft, p: DammV1Pool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    const { ctx } = this;
    const aToB = side === "sell";
    const { a, b } = this.reserves(p);
    const [rIn, rOut] = aToB ? [a, b] : [b, a];
    const vIn = aToB ? p.aVault : p.bVault;
    const vOut = aToB ? p.bVault : p.aVault;
    const lpIn = aToB ? p.aVaultLp : p.bVaultLp;
    const lpOut = aToB ? p.bVaultLp : p.aVaultLp;
    const protocolAcct = aToB ? p.protocolFeeA : p.protocolFeeB;
    const tradeFee = feeOf(amountIn, p.stable ? STABLE_TRADE_FEE : TRADE_FEE);
    const protocolFee = feeOf(tradeFee, PROTOCOL_FEE);
    const lpFee = tradeFee - protocolFee;
    const deposited = amountIn - protocolFee;
    const inSupply = ctx.book.mint(vIn.lpMint).supply;
    const outSupply = ctx.book.mint(vOut.lpMint).supply;
    if (inSupply === 0n || vIn.totalAmount === 0n || outSupply === 0n || vOut.totalAmount === 0n) return null;
    const lpMinted = this.lpFor(vIn, deposited);
    // what the pool's share of the input vault gained from the deposit is the curve's input, less the LP fee
    const shareAfter = ((vIn.totalAmount + deposited) * (ctx.tokenAccount(lpIn).amount + lpMinted)) / (inSupply + lpMinted);
    if (shareAfter - rIn < lpFee) return null;
    const curveIn = shareAfter - rIn - lpFee;
    let dest: bigint;
    if (p.stable) {
      const [mIn, mOut] = aToB ? [p.stable.multiplierA, p.stable.multiplierB] : [p.stable.multiplierB, p.stable.multiplierA];
      const x = (rIn + curveIn) * mIn;
      const y = balanceY(p.stable.amp, x, invariantD(p.stable.amp, rIn * mIn, rOut * mOut));
      const swapped = rOut * mOut - y - 1n;
      if (swapped < 0n) return null;
      dest = swapped / mOut;
    } else dest = (rOut * curveIn) / (rIn + curveIn);
    if (dest >= rOut) return null;
    const lpBurned = (dest * outSupply) / vOut.totalAmount;
    const out = (lpBurned * vOut.totalAmount) / outSupply;
    if (out <= 0n) return null;
    const userIn = side === "sell" ? userBase : userQuote;
    const userOut = side === "sell" ? userQuote : userBase;
    const minOut = fail ? out + out / 40n + 1n : (out * 97n) / 100n;
    const event = borsh().bytes(DISC.swapEvent).u64(amountIn).u64(out).u64(lpFee).u64(protocolFee).u64(0n).done();
    const depositEvent = borsh().bytes(hex("1f5e7d5ae3343dba")).u64(lpMinted).u64(deposited).done();
    const withdrawEvent = borsh().bytes(hex("74f461e8671f983a")).u64(lpBurned).u64(out).done();
    const ix: Ix = {
      program: METEORA_DAMM_V1_PROGRAM,
      accounts: [
        w(p.address), w(userIn), w(userOut), w(p.aVault.address), w(p.bVault.address), w(p.aVault.tokenVault), w(p.bVault.tokenVault),
        w(p.aVault.lpMint), w(p.bVault.lpMint), w(p.aVaultLp), w(p.bVaultLp), w(protocolAcct), ws(user), r(METEORA_VAULT_PROGRAM), r(TOKEN_PROGRAM),
      ],
      data: borsh().bytes(DISC.swap).u64(amountIn).u64(minOut).done(),
      steps: [
        { log: "Instruction: Swap" },
        { cpi: tokenTransfer(TOKEN_PROGRAM, userIn, protocolAcct, user, protocolFee) },
        {
          cpi: {
            program: METEORA_VAULT_PROGRAM,
            accounts: [w(vIn.address), w(vIn.tokenVault), w(vIn.lpMint), w(userIn), w(lpIn), r(user), r(TOKEN_PROGRAM)],
            data: borsh().bytes(DISC.deposit).u64(deposited).u64(0n).done(),
            steps: [
              { log: "Instruction: Deposit" },
              { data: depositEvent },
              { cpi: tokenTransfer(TOKEN_PROGRAM, userIn, vIn.tokenVault, user, deposited) },
              { cpi: tokenMintTo(TOKEN_PROGRAM, vIn.lpMint, lpIn, vIn.address, lpMinted) },
            ],
            cu: 22000,
          },
        },
        {
          cpi: {
            program: METEORA_VAULT_PROGRAM,
            accounts: [w(vOut.address), w(vOut.tokenVault), w(vOut.lpMint), w(userOut), w(lpOut), r(p.aVaultLp), r(TOKEN_PROGRAM)],
            data: borsh().bytes(DISC.withdraw).u64(lpBurned).u64(0n).done(),
            steps: [
              { log: "Instruction: Withdraw" },
              { data: withdrawEvent },
              { cpi: tokenTransfer(TOKEN_PROGRAM, vOut.tokenVault, userOut, vOut.address, out) },
              { cpi: tokenBurn(TOKEN_PROGRAM, lpOut, vOut.lpMint, p.aVaultLp, lpBurned) },
            ],
            cu: 21000,
          },
        },
        { data: event },
      ],
      cu: 60000,
    };
    const index = d.add(ix, () => {
      const b = ctx.book;
      b.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(protocolAcct), protocolFee);
      b.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(vIn.tokenVault), deposited);
      b.mintTo(ctx.tokenAccount(lpIn), lpMinted);
      vIn.totalAmount += deposited;
      b.transfer(ctx.tokenAccount(vOut.tokenVault), ctx.tokenAccount(userOut), out);
      b.burn(ctx.tokenAccount(lpOut), lpBurned);
      vOut.totalAmount -= out;
      this.writeVault(vIn);
      this.writeVault(vOut);
    });
    if (fail) d.fail = anchorFailure(index, "programs/dynamic-amm/src/lib.rs", 602, 6004, "ExceededSlippage", "Exceeded slippage tolerance");
    return side === "buy" ? { base: out, quote: amountIn } : { base: amountIn, quote: out };
  }
}

/** Meteora DAMM v1: the dynamic vaults' token accounts hold the liquidity, shared by every pool of the mint (VENUES.md §9). */
export const meteoraDammV1 = defineVenue<DammV1Pool>()({
  kind: "meteora-damm-v1",
  tradeKind: "meteora-damm-v1",
  program: METEORA_DAMM_V1_PROGRAM,
  reserves: (p) => [tokenReserve(p.tokenA, p.aVault.tokenVault), tokenReserve(p.tokenB, p.bVault.tokenVault)],
  activation: () => null,
});
