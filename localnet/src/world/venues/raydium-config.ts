/**
 * What Raydium's CPMM and CLMM programs share (VENUES.md §5, §6): AmmConfig accounts at PDA(["amm_config", u16 BE
 * index]), the pool at PDA(["pool", config, mint0, mint1]) over byte-sorted mints, its vaults at PDA(["pool_vault", pool,
 * mint]) and observation at PDA(["observation", pool]); the Anchor discriminators of PoolState, AmmConfig,
 * ObservationState and SwapEvent (the same names in both programs); the trade fee in millionths of the input, split into
 * protocol and fund shares in millionths of that fee. The account layouts themselves differ and stay in each venue.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { compareKeys, findPda, keyBytes, pda, u16be } from "../core/keys.js";
import { ceilDiv } from "../core/math.js";
import type { WorldContext } from "../context.js";

export const RAYDIUM_DISC = {
  pool: hex("f7ede3f5d7c3de46"),
  config: hex("daf42168cbcb2b6f"),
  observation: hex("7aaec5358109a584"),
  swapEvent: hex("40c6cde8260871e2"),
};

const FEE_RATE_DENOMINATOR = 1_000_000n;
/** Protocol and fund shares of the trade fee in every config of our world (12% and 4%, as mainnet's configs). */
const PROTOCOL_FEE_RATE = 120_000n;
const FUND_FEE_RATE = 40_000n;

/** The fields both programs' AmmConfig carry (at different offsets). */
export interface RaydiumConfig {
  index: number;
  address: Pubkey;
  bump: number;
  tradeFeeRate: bigint;
  protocolFeeRate: bigint;
  fundFeeRate: bigint;
}

/** A config tier of our world: its index, trade fee rate and the program's own fields. */
export type RaydiumConfigTier<C extends RaydiumConfig> = Omit<C, "address" | "bump" | "protocolFeeRate" | "fundFeeRate">;

export const raydiumConfigAddress = (program: Pubkey, index: number) => pda(["amm_config", u16be(index)], program);

export const findRaydiumPoolAddress = (program: Pubkey, config: Pubkey, mint0: Pubkey, mint1: Pubkey) =>
  findPda(["pool", keyBytes(config), keyBytes(mint0), keyBytes(mint1)], program);

/** Writes the venue's AmmConfig accounts (genesis), in tier order; returns them by index. */
export function writeRaydiumConfigs<C extends RaydiumConfig>(
  ctx: WorldContext,
  program: Pubkey,
  tiers: RaydiumConfigTier<C>[],
  encode: (config: C) => Uint8Array,
): Map<number, C> {
  const configs = new Map<number, C>();
  for (const tier of tiers) {
    const [address, bump] = findPda(["amm_config", u16be(tier.index)], program);
    const config = { ...tier, address, bump, protocolFeeRate: PROTOCOL_FEE_RATE, fundFeeRate: FUND_FEE_RATE } as C;
    configs.set(tier.index, config);
    ctx.store.putRentExempt(address, program, encode(config));
  }
  return configs;
}

/** The pool of `baseMint`/`quoteMint` at `config`: its address and bump, the byte-sorted mints, vaults and observation. */
export function raydiumPoolKeys(program: Pubkey, config: Pubkey, baseMint: Pubkey, quoteMint: Pubkey) {
  const baseIs0 = compareKeys(baseMint, quoteMint) < 0;
  const [mint0, mint1] = baseIs0 ? [baseMint, quoteMint] : [quoteMint, baseMint];
  const [address, bump] = findRaydiumPoolAddress(program, config, mint0, mint1);
  return {
    address,
    bump,
    baseIs0,
    mint0,
    mint1,
    vault0: pda(["pool_vault", keyBytes(address), keyBytes(mint0)], program),
    vault1: pda(["pool_vault", keyBytes(address), keyBytes(mint1)], program),
    observation: pda(["observation", keyBytes(address)], program),
  };
}

/**
 * A fresh ObservationState: discriminator, `initialized` @8 and `pool_id` at `poolIdOffset` (CPMM @11 after
 * observation_index; CLMM @19 after recent_epoch and observation_index), the observations zero.
 */
export function encodeRaydiumObservation(size: number, poolIdOffset: number, pool: Pubkey): Uint8Array {
  return new FixedWriter(size).raw(0, RAYDIUM_DISC.observation).bool(8, true).pubkey(poolIdOffset, pool).bytes;
}

/** The trade fee on `amountIn` (rounded up, as both programs charge it). */
export function raydiumTradeFee(config: RaydiumConfig, amountIn: bigint): bigint {
  return ceilDiv(amountIn * config.tradeFeeRate, FEE_RATE_DENOMINATOR);
}

/** The protocol and fund shares of a trade fee (rounded down); the rest goes to liquidity providers. */
export function raydiumFeeShares(config: RaydiumConfig, tradeFee: bigint): { protocolFee: bigint; fundFee: bigint } {
  return {
    protocolFee: (tradeFee * config.protocolFeeRate) / FEE_RATE_DENOMINATOR,
    fundFee: (tradeFee * config.fundFeeRate) / FEE_RATE_DENOMINATOR,
  };
}
