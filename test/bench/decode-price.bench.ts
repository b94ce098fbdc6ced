/**
 * Decode + price per pool kind on real fixture bytes (vitest bench). Vault balances come from the
 * fixtures where they exist, otherwise from synthetic token accounts (their cost is the same decode).
 * Run: npx vitest bench --run --project node test/bench/decode-price.bench.ts
 */
import { address } from "@solana/kit";
import { bench, describe } from "vitest";
import { decodeSolUsdPriceUpdate } from "../../src/pricing/sol-usd";
import { toDecimalString } from "../../src/math/fixed-point";
import { USDC_MINT, WSOL_MINT } from "../../src/solana/well-known";
import { decodeMeteoraDammV1Pool, priceFromMeteoraDammV1Pool } from "../../src/venues/meteora-damm-v1";
import { clockAccount } from "../unit/venues/clock-account";
import { decodeMeteoraDammV2Pool, listMeteoraDammV2PoolCandidates, priceFromMeteoraDammV2Pool } from "../../src/venues/meteora-damm-v2";
import { decodeMeteoraDbcPool, priceFromMeteoraDbcPool } from "../../src/venues/meteora-dbc";
import { decodeMeteoraDlmmPair, listMeteoraDlmmPairCandidates, priceFromMeteoraDlmmPair } from "../../src/venues/meteora-dlmm";
import { decodePumpBondingCurve, listPumpBondingCurveCandidates, priceFromPumpBondingCurve } from "../../src/venues/pump-bonding-curve";
import { decodePumpSwapPool, listPumpSwapPoolCandidates, priceFromPumpSwapPool } from "../../src/venues/pumpswap-pool";
import { decodeRaydiumAmmV4Pool, priceFromRaydiumAmmV4Pool } from "../../src/venues/raydium-amm-v4";
import { decodeRaydiumClmmPool, listRaydiumClmmPoolCandidates, priceFromRaydiumClmmPool } from "../../src/venues/raydium-clmm";
import { decodeRaydiumCpmmPool, listRaydiumCpmmPoolCandidates, priceFromRaydiumCpmmPool } from "../../src/venues/raydium-cpmm";
import { loadAccountFixture, syntheticTokenAccount } from "../helpers/fixtures";

const decimalsOf = (mint: string) => (mint === WSOL_MINT ? 9 : 6);
const load = loadAccountFixture;

const pumpCurve = load("pumpfun/bonding_curve_HWxwYxr4.json");
const pumpGlobal = load("pumpfun/global_4wTV1Ymi.json");
const pumpMint = address("7uUTzNs4UFgarqY6TyRnW3ZnMFpcsw1iookL8R5KCGwA");
const pumpSwap = load("pumpswap/pool_GUXAutvX.json");
const pumpSwapVaults = {
  baseVault: syntheticTokenAccount("3Sf6oKCeEqCuco4aYtKHHDTBYLAWHiL47QjvkW1UYDEG", 600_000_000_000_000n),
  quoteVault: syntheticTokenAccount(WSOL_MINT, 85_000_000_000n),
};
const ammV4 = load("raydium-amm-v4/amm_info_58oQChx4_SOL_USDC_unattributed.json");
const ammV4Vaults = { coinVault: syntheticTokenAccount(WSOL_MINT, 10n ** 14n), pcVault: syntheticTokenAccount(USDC_MINT, 10n ** 13n) };
const cpmm = load("raydium-cpmm/pool_state_Q2sPHPdU.json");
const cpmmVaults = {
  vault0: syntheticTokenAccount(WSOL_MINT, 10n ** 12n),
  vault1: syntheticTokenAccount("Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk", 10n ** 16n),
};
const clmm = load("raydium-clmm/pool_state_3ucNos4N_SOL_USDC.json");
const clmmVaults = { vault0: syntheticTokenAccount(WSOL_MINT, 10n ** 14n), vault1: syntheticTokenAccount(USDC_MINT, 10n ** 13n) };
const dlmm = load("meteora-dlmm/EtAdVRLF_pump_SOL/lb_pair.json");
const dlmmReserves = {
  reserveX: load("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json"),
  reserveY: load("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_y_token_account.json"),
};
const dlmmFarBin = load("meteora-dlmm/lb_pair_ESuD7dd6.json");
const dlmmFarReserves = {
  reserveX: syntheticTokenAccount("FzytSxQv6nBgH3dByVJtgMVg6rANTZaZPzU6dcRbpump", 10n ** 15n),
  reserveY: syntheticTokenAccount(WSOL_MINT, 10n ** 12n),
};
const set = (name: string) => load(`meteora-damm-v1/HcjZvfeS_pool_set/${name}.json`);
const dammV1 = set("HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur");
const dammV1Related = {
  aVault: set("FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT"),
  bVault: set("8p1VKP45hhqq5iZG5fNGoi7ucme8nFLeChoDWNy7rWFm"),
  aVaultLp: set("HWnWnLvBzvSmXH5hnHJCFmuQbDTsX3Ba2w9CPE5zf4YD"),
  bVaultLp: set("GGG4DxkYa86g2v4KwtvR8Xu2tXEp1xd4BRC3yNnpve3g"),
  aVaultLpMint: set("FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j"),
  bVaultLpMint: set("21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb"),
  // chain time past the pool's depeg cache: the bench prices through the Marinade recomputation too
  clock: clockAccount(1_719_300_000n),
  depegStake: set("8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC"),
};
const dammV2 = load("meteora-damm-v2/pool_6CXXieC3.json");
const dbc = load("meteora-dbc/virtual_pool_fee_in_both.json");
const dbcConfig = load("meteora-dbc/pool_config_fee_in_both.json");
const pyth = load("pyth/price_update_v2_SOL_USD_7UVimffx_push_feed_swig.json");

describe("decode + price, per pool kind", () => {
  bench("pump bonding curve", () => {
    priceFromPumpBondingCurve(decodePumpBondingCurve(pumpCurve), pumpMint, { global: pumpGlobal }, decimalsOf);
  });
  bench("pumpswap", () => {
    priceFromPumpSwapPool(decodePumpSwapPool(pumpSwap), pumpSwapVaults, decimalsOf);
  });
  bench("raydium amm v4", () => {
    priceFromRaydiumAmmV4Pool(decodeRaydiumAmmV4Pool(ammV4), ammV4Vaults);
  });
  bench("raydium cpmm", () => {
    priceFromRaydiumCpmmPool(decodeRaydiumCpmmPool(cpmm), cpmmVaults);
  });
  bench("raydium clmm", () => {
    priceFromRaydiumClmmPool(decodeRaydiumClmmPool(clmm), clmmVaults);
  });
  bench("meteora dlmm (active id 15)", () => {
    priceFromMeteoraDlmmPair(decodeMeteoraDlmmPair(dlmm), dlmmReserves, decimalsOf);
  });
  bench("meteora dlmm (active id -1054)", () => {
    priceFromMeteoraDlmmPair(decodeMeteoraDlmmPair(dlmmFarBin), dlmmFarReserves, decimalsOf);
  });
  bench("meteora damm v1 (stable depeg, 8 related accounts)", () => {
    priceFromMeteoraDammV1Pool(decodeMeteoraDammV1Pool(dammV1), dammV1Related, () => 9);
  });
  bench("meteora damm v2", () => {
    priceFromMeteoraDammV2Pool(decodeMeteoraDammV2Pool(dammV2), decimalsOf);
  });
  bench("meteora dbc", () => {
    priceFromMeteoraDbcPool(decodeMeteoraDbcPool(dbc), { config: dbcConfig }, decimalsOf);
  });
  bench("pyth SOL/USD", () => {
    decodeSolUsdPriceUpdate(pyth);
  });
});

describe("serialisation", () => {
  const price = priceFromRaydiumClmmPool(decodeRaydiumClmmPool(clmm), clmmVaults).priceQuotePerBase;
  bench("toDecimalString, 12 significant digits", () => {
    toDecimalString(price, 12);
  });
});

describe("candidate derivation for one mint (wSOL + USDC quotes, configs memoised)", () => {
  const mint = address("Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump");
  bench("pump curve (1 PDA)", async () => {
    await listPumpBondingCurveCandidates(mint);
  });
  bench("pumpswap canonical (3 PDAs)", async () => {
    await listPumpSwapPoolCandidates(mint);
  });
  bench("raydium cpmm (14 pools)", async () => {
    await listRaydiumCpmmPoolCandidates(mint);
  });
  bench("raydium clmm (18 pools)", async () => {
    await listRaydiumClmmPoolCandidates(mint);
  });
  bench("meteora dlmm (10 pairs)", async () => {
    await listMeteoraDlmmPairCandidates(mint);
  });
  bench("meteora damm v2 (20 pools)", async () => {
    await listMeteoraDammV2PoolCandidates(mint);
  });
});
