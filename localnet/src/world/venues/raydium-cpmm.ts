/**
 * Raydium CPMM — VENUES.md §5. AmmConfig at PDA(["amm_config", u16 BE]), PoolState (637 B) at PDA(["pool", config,
 * token_0, token_1]) with byte-sorted mints, vaults PDA(["pool_vault", pool, mint]) owned by the vault/LP authority, and
 * swap_base_input: trade fee on the input, protocol and fund shares of it accumulated in the pool (excluded from the
 * reserves), SwapEvent via `Program data:`. Token-2022 inputs/outputs pay their transfer fee like the program accounts it.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { findPda, keyBytes, pda } from "../core/keys.js";
import type { Draft, WorldContext } from "../context.js";
import { RAYDIUM_CPMM_AUTHORITY, RAYDIUM_CPMM_PROGRAM, TOKEN_PROGRAM } from "../programs.js";
import { transferFeeFor } from "../spl/token.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { RAYDIUM_DISC, encodeRaydiumObservation, findRaydiumPoolAddress, raydiumConfigAddress, raydiumFeeShares, raydiumPoolKeys, raydiumTradeFee, writeRaydiumConfigs, type RaydiumConfig, type RaydiumConfigTier } from "./raydium-config.js";
import { defineVenue, type PoolRef, type PoolVenue, type Side, type SwapResult } from "./types.js";
import { tokenReserve } from "../swap-marks.js";

export const CPMM_POOL_SIZE = 637;
export const CPMM_CONFIG_SIZE = 236;
export const CPMM_OBSERVATION_SIZE = 4075;
const SWAP_BASE_INPUT = hex("8fbe5adac41e33de");

export interface CpmmConfig extends RaydiumConfig {
  createPoolFee: bigint;
}

/** Our world's configs: index 0 matches mainnet (✔fx D4FPEruK); index 1 uses the third-party-reported 1% tier. */
const CONFIGS: RaydiumConfigTier<CpmmConfig>[] = [
  { index: 0, tradeFeeRate: 2500n, createPoolFee: 150_000_000n },
  { index: 1, tradeFeeRate: 10000n, createPoolFee: 150_000_000n },
  { index: 2, tradeFeeRate: 20000n, createPoolFee: 150_000_000n },
];

export const cpmmConfigAddress = (index: number) => raydiumConfigAddress(RAYDIUM_CPMM_PROGRAM, index);
export const cpmmPoolAddress = (config: Pubkey, mint0: Pubkey, mint1: Pubkey) => findRaydiumPoolAddress(RAYDIUM_CPMM_PROGRAM, config, mint0, mint1)[0];

export interface CpmmPool extends PoolRef {
  config: CpmmConfig;
  creator: Pubkey;
  token0: Pubkey;
  token1: Pubkey;
  vault0: Pubkey;
  vault1: Pubkey;
  lpMint: Pubkey;
  observation: Pubkey;
  authBump: number;
  lpSupply: bigint;
  protocolFees: [bigint, bigint];
  fundFees: [bigint, bigint];
  openTime: bigint;
  /** base = token_0 ? */
  baseIs0: boolean;
}

export function encodeCpmmConfig(c: CpmmConfig, owner: Pubkey, fundOwner: Pubkey = owner): Uint8Array {
  return new FixedWriter(CPMM_CONFIG_SIZE)
    .raw(0, RAYDIUM_DISC.config)
    .u8(8, c.bump)
    .bool(9, false)
    .u16(10, c.index)
    .u64(12, c.tradeFeeRate)
    .u64(20, c.protocolFeeRate)
    .u64(28, c.fundFeeRate)
    .u64(36, c.createPoolFee)
    .pubkey(44, owner)
    .pubkey(76, fundOwner).bytes;
}

export class RaydiumCpmmVenue implements PoolVenue<CpmmPool> {
  readonly pools = new Map<Pubkey, CpmmPool>();
  configs = new Map<number, CpmmConfig>();
  constructor(private readonly ctx: WorldContext, private readonly owner: Pubkey) {}

  genesis(): void {
    this.configs = writeRaydiumConfigs(this.ctx, RAYDIUM_CPMM_PROGRAM, CONFIGS, (c) => encodeCpmmConfig(c, this.owner));
  }

  create(opts: { configIndex: number; baseMint: Pubkey; quoteMint: Pubkey; base: bigint; quote: bigint; creator: Pubkey }): CpmmPool {
    const { ctx } = this;
    const config = this.configs.get(opts.configIndex)!;
    const { address, baseIs0, mint0: token0, mint1: token1, vault0, vault1, observation } = raydiumPoolKeys(RAYDIUM_CPMM_PROGRAM, config.address, opts.baseMint, opts.quoteMint);
    const [, authBump] = findPda(["vault_and_lp_mint_auth_seed"], RAYDIUM_CPMM_PROGRAM);
    const p: CpmmPool = {
      kind: "raydium-cpmm",
      address,
      baseMint: opts.baseMint,
      quoteMint: opts.quoteMint,
      derivable: true,
      config,
      creator: opts.creator,
      token0,
      token1,
      vault0,
      vault1,
      lpMint: pda(["pool_lp_mint", keyBytes(address)], RAYDIUM_CPMM_PROGRAM),
      observation,
      authBump,
      lpSupply: 0n,
      protocolFees: [0n, 0n],
      fundFees: [0n, 0n],
      openTime: BigInt(ctx.clock.blockTime - 86400 * 3),
      baseIs0,
      related: {},
    };
    p.related = { ammConfig: config.address, token0Vault: p.vault0, token1Vault: p.vault1, lpMint: p.lpMint, observation: p.observation, authority: RAYDIUM_CPMM_AUTHORITY };
    const [a0, a1] = baseIs0 ? [opts.base, opts.quote] : [opts.quote, opts.base];
    ctx.createTokenAccount(RAYDIUM_CPMM_AUTHORITY, token0, a0, p.vault0);
    ctx.createTokenAccount(RAYDIUM_CPMM_AUTHORITY, token1, a1, p.vault1);
    p.lpSupply = BigInt(Math.floor(Math.sqrt(Number(a0) * Number(a1))));
    ctx.book.writeMint({ address: p.lpMint, program: TOKEN_PROGRAM, decimals: 9, supply: 0n, mintAuthority: RAYDIUM_CPMM_AUTHORITY, freezeAuthority: null });
    ctx.book.mintTo(ctx.createTokenAccount(opts.creator, p.lpMint, 0n), p.lpSupply);
    ctx.store.putRentExempt(p.observation, RAYDIUM_CPMM_PROGRAM, encodeRaydiumObservation(CPMM_OBSERVATION_SIZE, 11, address));
    this.pools.set(address, p);
    this.write(p);
    return p;
  }

  write(p: CpmmPool): void {
    const { book } = this.ctx;
    const m0 = book.mint(p.token0);
    const m1 = book.mint(p.token1);
    const data = new FixedWriter(CPMM_POOL_SIZE)
      .raw(0, RAYDIUM_DISC.pool)
      .pubkey(8, p.config.address)
      .pubkey(40, p.creator)
      .pubkey(72, p.vault0)
      .pubkey(104, p.vault1)
      .pubkey(136, p.lpMint)
      .pubkey(168, p.token0)
      .pubkey(200, p.token1)
      .pubkey(232, m0.program)
      .pubkey(264, m1.program)
      .pubkey(296, p.observation)
      .u8(328, p.authBump)
      .u8(329, 0)
      .u8(330, 9)
      .u8(331, m0.decimals)
      .u8(332, m1.decimals)
      .u64(333, p.lpSupply)
      .u64(341, p.protocolFees[0])
      .u64(349, p.protocolFees[1])
      .u64(357, p.fundFees[0])
      .u64(365, p.fundFees[1])
      .u64(373, p.openTime)
      .u64(381, BigInt(Math.floor(this.ctx.clock.slot / 432000))).bytes;
    this.ctx.store.putRentExempt(p.address, RAYDIUM_CPMM_PROGRAM, data);
  }

  /** Reserves net of the fee buckets (`vault_amount_without_fee`). */
  reserves(p: CpmmPool): [bigint, bigint] {
    const v0 = this.ctx.tokenAccount(p.vault0).amount;
    const v1 = this.ctx.tokenAccount(p.vault1).amount;
    return [v0 - p.protocolFees[0] - p.fundFees[0], v1 - p.protocolFees[1] - p.fundFees[1]];
  }

  price(p: CpmmPool): number {
    const [r0, r1] = this.reserves(p);
    return p.baseIs0 ? Number(r1) / Number(r0) : Number(r0) / Number(r1);
  }

  swap(d: Draft, p: CpmmPool, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    const { ctx } = this;
    const in0 = side === "sell" ? p.baseIs0 : !p.baseIs0;
    const [r0, r1] = this.reserves(p);
    const [rIn, rOut] = in0 ? [r0, r1] : [r1, r0];
    const inMint = ctx.book.mint(in0 ? p.token0 : p.token1);
    const outMint = ctx.book.mint(in0 ? p.token1 : p.token0);
    const inTransferFee = transferFeeFor(inMint, amountIn);
    const actualIn = amountIn - inTransferFee;
    const tradeFee = raydiumTradeFee(p.config, actualIn);
    const inAfter = actualIn - tradeFee;
    const out = (rOut * inAfter) / (rIn + inAfter);
    if (out <= 0n || out >= rOut) return null;
    const outTransferFee = transferFeeFor(outMint, out);
    const { protocolFee, fundFee } = raydiumFeeShares(p.config, tradeFee);
    const received = out - outTransferFee;
    const minOut = fail ? received + received / 40n + 1n : (received * 97n) / 100n;
    const userIn = side === "sell" ? userBase : userQuote;
    const userOut = side === "sell" ? userQuote : userBase;
    const vaultIn = in0 ? p.vault0 : p.vault1;
    const vaultOut = in0 ? p.vault1 : p.vault0;
    const event = borsh()
      .bytes(RAYDIUM_DISC.swapEvent)
      .pubkey(p.address).u64(rIn).u64(rOut).u64(actualIn).u64(out).u64(inTransferFee).u64(outTransferFee).bool(true)
      .pubkey(inMint.address).pubkey(outMint.address).u64(tradeFee).u64(0n).bool(true)
      .done();
    const ix: Ix = {
      program: RAYDIUM_CPMM_PROGRAM,
      accounts: [
        ws(user), r(RAYDIUM_CPMM_AUTHORITY), r(p.config.address), w(p.address), w(userIn), w(userOut), w(vaultIn), w(vaultOut),
        r(inMint.program), r(outMint.program), r(inMint.address), r(outMint.address), w(p.observation),
      ],
      data: borsh().bytes(SWAP_BASE_INPUT).u64(amountIn).u64(minOut).done(),
      steps: [
        { log: "Instruction: SwapBaseInput" },
        { data: event },
        { cpi: tokenTransferChecked(inMint.program, userIn, inMint.address, vaultIn, user, amountIn, inMint.decimals) },
        { cpi: tokenTransferChecked(outMint.program, vaultOut, outMint.address, userOut, RAYDIUM_CPMM_AUTHORITY, out, outMint.decimals) },
      ],
      cu: 28000,
    };
    const index = d.add(ix, () => {
      ctx.book.transfer(ctx.tokenAccount(userIn), ctx.tokenAccount(vaultIn), amountIn);
      ctx.book.transfer(ctx.tokenAccount(vaultOut), ctx.tokenAccount(userOut), out);
      const i = in0 ? 0 : 1;
      p.protocolFees[i] += protocolFee;
      p.fundFees[i] += fundFee;
      this.write(p);
    });
    if (fail) d.fail = anchorFailure(index, "programs/cp-swap/src/instructions/swap_base_input.rs", 169, 6005, "ExceededSlippage", "Exceeds desired slippage limit");
    return side === "buy" ? { base: received, quote: amountIn } : { base: amountIn, quote: received };
  }
}

/** Raydium CPMM: token_0/token_1 vaults; swaps wait for `open_time` (VENUES.md §5). */
export const raydiumCpmm = defineVenue<CpmmPool>()({
  kind: "raydium-cpmm",
  tradeKind: "raydium-cpmm",
  program: RAYDIUM_CPMM_PROGRAM,
  reserves: (p) => [tokenReserve(p.token0, p.vault0), tokenReserve(p.token1, p.vault1)],
  activation: (p) => ({ time: Number(p.openTime) }),
});
