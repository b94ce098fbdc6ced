import { address, getAddressDecoder, getU16Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { toDecimalString } from "../../../src/math/fixed-point";
import { USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeRaydiumClmmPool,
  findRaydiumClmmConfigAddress,
  findRaydiumClmmPoolAddress,
  listRaydiumClmmPoolCandidates,
  priceFromRaydiumClmmPool,
  requiredAccountsForRaydiumClmmPool,
} from "../../../src/venues/raydium-clmm";
import { loadAccountFixture, ratioToNumber, relErr, syntheticTokenAccount, withData, withOwner } from "../../helpers/fixtures";

const acps = loadAccountFixture("raydium-clmm/pool_state_AcPS8Srz.json");
const solUsdc = loadAccountFixture("raydium-clmm/pool_state_3ucNos4N_SOL_USDC.json");
const config4 = loadAccountFixture("raydium-clmm/amm_config_9iFER3bp.json");
const config3 = loadAccountFixture("raydium-clmm/amm_config_A1BBtTYJ_vixen.json");
const ACPS = address("AcPS8SrzXDwPxk6LLz2tykwFEsSeD5LtctMLVeh2shq8");
const TOKEN_1 = address("4kzLMxfMZVf6UztzjMcAmyLfBYgFcr9FfpwusrqgEjiH");

describe("Raydium CLMM decoding", () => {
  it("decodes AcPS8Srz as Carbon asserts", () => {
    // amm_config (byte 9) is not decoded for pricing; the layout still has it where Carbon says
    expect(getAddressDecoder().decode(acps.data, 9)).toBe("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x");
    expect(decodeRaydiumClmmPool(acps)).toEqual({
      mint0: WSOL_MINT,
      mint1: TOKEN_1,
      vault0: "6G5MVC3hqo6oYyucP3F7HK5smyWye84AF8fLExDDMUNL",
      vault1: "E1NAfa5JAcNdKEzFiU4SkzX5uVi34pNhLdCJCmjA7nN",
      mint0Decimals: 9,
      mint1Decimals: 6,
      liquidity: 3464101788356n,
      sqrtPriceX64: 647525941329892376628n,
      tickCurrent: 71168,
      protocolFees0: 7425061n,
      protocolFees1: 7407817781n,
      status: 0,
      fundFees0: 2474997n,
      fundFees1: 2469272531n,
      // Carbon's fixture states no open_time; the word at 1080 is zero (swaps open from the start)
      openTime: 0n,
    });
  });

  it("decodes SOL/USDC 3ucNos4N as its source states", () => {
    expect(getAddressDecoder().decode(solUsdc.data, 9)).toBe("3h2e43PunVA5K34vwKCLHWhZF4aZpyaC9RmxvshGAQpL");
    expect(decodeRaydiumClmmPool(solUsdc)).toEqual({
      mint0: WSOL_MINT,
      mint1: USDC_MINT,
      vault0: "4ct7br2vTPzfdmY3S5HLtTxcGSBfn6pnw98hsS6v359A",
      vault1: "5it83u57VRrVgc51oNV19TTmAJuffPx5GtGwQr7gQNUo",
      mint0Decimals: 9,
      mint1Decimals: 6,
      liquidity: 295329867866867n,
      sqrtPriceX64: 9082733951060270080n,
      tickCurrent: -14171,
      protocolFees0: 12806897n,
      protocolFees1: 5455291n,
      status: 0,
      fundFees0: 16530299n,
      fundFees1: 4757642n,
      openTime: 1723037622n,
    });
  });

  it("rejects the CPMM owner, a wrong size and the AmmConfig discriminator", () => {
    expect(() => decodeRaydiumClmmPool(withOwner(acps, "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C"))).toThrow(/owner/);
    expect(() => decodeRaydiumClmmPool(withData(acps, (d) => d.subarray(0, 1543)))).toThrow(/size/);
    expect(() => decodeRaydiumClmmPool(withData(acps, (d) => (d.set(config4.data.subarray(0, 8)), d)))).toThrow(/discriminator/);
  });
});

describe("Raydium CLMM derivation", () => {
  it("derives the config PDAs (big-endian index) that the fixtures hold", async () => {
    expect(await findRaydiumClmmConfigAddress(0)).toBe("4BLNHtVe942GSs4teSZqGX24xwKNkqU7bGgNn3iUiUpw");
    expect(await findRaydiumClmmConfigAddress(1)).toBe("E64NGkDLLCdQ2yFNPcavaKptrEgmiQaNykUuLC1Qgwyp");
    expect(await findRaydiumClmmConfigAddress(2)).toBe("HfERMT5DRA6C1TAqecrJQFpmkf3wsWTMncqnj3RDg5aw");
    expect(await findRaydiumClmmConfigAddress(3)).toBe(config3.address);
    expect(await findRaydiumClmmConfigAddress(4)).toBe("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x");
    expect(await findRaydiumClmmConfigAddress(8)).toBe("3h2e43PunVA5K34vwKCLHWhZF4aZpyaC9RmxvshGAQpL");
    // And each AmmConfig account stores its own index at byte 9
    expect(getU16Decoder().decode(config3.data, 9)).toBe(3);
    expect(getU16Decoder().decode(config4.data, 9)).toBe(4);
  });

  it("derives AcPS8Srz (config 4) and 3ucNos4N (config 8) from their mints", async () => {
    expect(await findRaydiumClmmPoolAddress(await findRaydiumClmmConfigAddress(4), TOKEN_1, WSOL_MINT)).toBe(ACPS);
    expect(await findRaydiumClmmPoolAddress(await findRaydiumClmmConfigAddress(8), USDC_MINT, WSOL_MINT)).toBe(solUsdc.address);
    expect(await listRaydiumClmmPoolCandidates(TOKEN_1)).toContainEqual({ pool: ACPS, kind: "raydium-clmm", quoteMint: WSOL_MINT });
  });
});

describe("Raydium CLMM pricing", () => {
  it("squares the Q64.64 sqrt price exactly (AcPS8Srz, SOL in token1)", () => {
    // Given AcPS8Srz and vaults 1,000 units above the fee buckets
    const pool = decodeRaydiumClmmPool(acps);
    const related = {
      vault0: syntheticTokenAccount(WSOL_MINT, 1_000n + 7425061n + 2474997n),
      vault1: syntheticTokenAccount(TOKEN_1, 2_000n + 7407817781n + 2469272531n),
    };
    expect(requiredAccountsForRaydiumClmmPool(pool)).toEqual({ vault0: pool.vault0, vault1: pool.vault1 });
    // When priced
    const price = priceFromRaydiumClmmPool(pool, related);
    // Then price = (sqrt / 2^64)^2 × 10^(9 − 6), against a float computation
    const expected = (647525941329892376628 / 2 ** 64) ** 2 * 1e3;
    expect(relErr(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ baseReserve: 1_000n, quoteLiquidity: 2_000n, tradable: true });
  });

  it("prices SOL in USDC on 3ucNos4N and agrees with tick -14171", () => {
    const price = priceFromRaydiumClmmPool(decodeRaydiumClmmPool(solUsdc), {
      vault0: syntheticTokenAccount(WSOL_MINT, 10n ** 15n),
      vault1: syntheticTokenAccount(USDC_MINT, 10n ** 15n),
    });
    const fromSqrt = (9082733951060270080 / 2 ** 64) ** 2 * 1e3;
    const fromTick = 1.0001 ** -14171 * 1e3;
    expect(relErr(ratioToNumber(price.priceQuotePerBase), fromSqrt)).toBeLessThanOrEqual(1e-9);
    expect(relErr(fromSqrt, fromTick)).toBeLessThan(1e-4);
    expect(toDecimalString(price.priceQuotePerBase, 6)).toBe("242.434");
  });
});

/**
 * raydium-clmm @03b44b7 (2026-07-16; c678919 "dynamic fee config, customizable pools, and limit orders",
 * 5ec3081 "remove redundant fee tracking fields"), mirrored by raydium-sdk-V2 0.2.58-alpha's PoolInfoLayout:
 * PoolState keeps 1,544 B; status @389 gained bit5 (limit orders disabled), fee_on took @390 from padding,
 * dynamic_fee_info (80 B) sits @1096, and the old swap/total-fee counters @325–389 / @1032–1064 are padding.
 * fund_fees_token_0/1 stay @1064/@1072; only status bit4 disables swaps.
 */
describe("Raydium CLMM PoolState since limit orders and dynamic fees", () => {
  const withBytes = (writes: Record<number, number>) =>
    withData(acps, (d) => {
      for (const [offset, value] of Object.entries(writes)) d[Number(offset)] = value;
      return d;
    });
  const related = {
    vault0: syntheticTokenAccount(WSOL_MINT, 1_000n + 7425061n + 2474997n),
    vault1: syntheticTokenAccount(TOKEN_1, 2_000n + 7407817781n + 2469272531n),
  };

  it("fee_on, a dynamic fee and zeroed legacy counters leave price and depth unchanged", () => {
    // Given AcPS8Srz with fee_on 2 (token1 only), bytes of dynamic_fee_info set, and the removed counters cleared
    const writes: Record<number, number> = { 390: 2 };
    for (let i = 1096; i < 1176; i += 7) writes[i] = 0x5a;
    for (let i = 325; i < 389; i++) writes[i] = 0;
    for (let i = 1032; i < 1064; i++) writes[i] = 0;
    const newer = decodeRaydiumClmmPool(withBytes(writes));
    // When decoded and priced / Then it is the original pool, with the same price and net depth
    expect(newer).toEqual(decodeRaydiumClmmPool(acps));
    expect(priceFromRaydiumClmmPool(newer, related)).toEqual(priceFromRaydiumClmmPool(decodeRaydiumClmmPool(acps), related));
  });

  it("status bit5 (limit orders disabled) keeps swaps open; bit4 closes them", () => {
    const limitOrdersOff = decodeRaydiumClmmPool(withBytes({ 389: 1 << 5 }));
    const swapsOff = decodeRaydiumClmmPool(withBytes({ 389: (1 << 4) | (1 << 5) }));
    expect(priceFromRaydiumClmmPool(limitOrdersOff, related).tradable).toBe(true);
    expect(priceFromRaydiumClmmPool(swapsOff, related).tradable).toBe(false);
  });
});
