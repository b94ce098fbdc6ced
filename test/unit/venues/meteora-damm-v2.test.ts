import { getAddressDecoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeMeteoraDammV2Pool,
  findMeteoraDammV2ConfigAddress,
  findMeteoraDammV2PoolAddress,
  listMeteoraDammV2PoolCandidates,
  meteoraDammV2Reserves,
  priceFromMeteoraDammV2Pool,
} from "../../../src/venues/meteora-damm-v2";
import { flipByte, loadAccountFixture, ratioToNumber, relativeError, sourceField, withData, withOwner } from "./load-fixture";

const p6cxx = loadAccountFixture("meteora-damm-v2/pool_6CXXieC3.json");
const p77q = loadAccountFixture("meteora-damm-v2/pool_77Qwh7cW.json");
const mack = loadAccountFixture("meteora-damm-v2/pool_3u2BK3yk_MACK_USDC.json");
const solUsdc = loadAccountFixture("meteora-damm-v2/pool_CGPxT5d1_SOL_USDC_concentrated.json");
const e8z = loadAccountFixture("meteora-damm-v2/pool_E8zRkDw3.json");
const config38 = loadAccountFixture("meteora-damm-v2/config_TBuzuEMM.json");

describe("Meteora DAMM v2 decoding", () => {
  it("decodes 6CXXieC3 and 77Qwh7cW as their source's expected JSON states", () => {
    for (const fixture of [p6cxx, p77q]) {
      // Given the pool bytes and the decoded JSON published with them
      const field = (name: string) => sourceField(fixture, name);
      // When decoded
      const pool = decodeMeteoraDammV2Pool(fixture);
      // Then every field pricing reads agrees with the source
      expect(pool).toEqual({
        tokenAMint: field("token_a_mint"),
        tokenBMint: field("token_b_mint"),
        liquidity: BigInt(field("liquidity") as string),
        sqrtMinPrice: BigInt(field("sqrt_min_price") as string),
        sqrtMaxPrice: BigInt(field("sqrt_max_price") as string),
        sqrtPrice: BigInt(field("sqrt_price") as string),
        poolStatus: field("pool_status"),
        collectFeeMode: field("collect_fee_mode"),
        tokenAAmount: 0n,
        tokenBAmount: 0n,
      });
      // And the vaults (not read for pricing) sit at 232 / 264
      expect(getAddressDecoder().decode(fixture.data, 232)).toBe(field("token_a_vault"));
      expect(getAddressDecoder().decode(fixture.data, 264)).toBe(field("token_b_vault"));
    }
  });

  it("decodes the Meteora SDK fixtures (MACK/USDC, SOL/USDC concentrated, E8zRkDw3)", () => {
    expect(decodeMeteoraDammV2Pool(mack)).toMatchObject({ tokenBMint: USDC_MINT, poolStatus: 0 });
    expect(decodeMeteoraDammV2Pool(solUsdc)).toMatchObject({ tokenAMint: WSOL_MINT, tokenBMint: USDC_MINT });
    expect(decodeMeteoraDammV2Pool(e8z)).toMatchObject({ tokenBMint: WSOL_MINT });
  });

  it("rejects the PumpSwap owner (same 'Pool' discriminator), a wrong size and another discriminator", () => {
    expect(() => decodeMeteoraDammV2Pool(withOwner(p6cxx, "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA"))).toThrow(/owner/);
    expect(() => decodeMeteoraDammV2Pool(withData(p6cxx, (d) => d.subarray(0, 1111)))).toThrow(/size/);
    expect(() => decodeMeteoraDammV2Pool(flipByte(p6cxx, 3))).toThrow(/discriminator/);
  });
});

describe("Meteora DAMM v2 derivation", () => {
  it("derives 6CXXieC3 and 77Qwh7cW (2 % DBC migration config) and 3u2BK3yk (1 %) from their mints", async () => {
    for (const [fixture, config] of [
      [p6cxx, "2c4cYd4reUYVRAB9kUUkrq55VPyy2FNQ3FDL4o12JXmq"],
      [p77q, "2c4cYd4reUYVRAB9kUUkrq55VPyy2FNQ3FDL4o12JXmq"],
      [mack, "Hv8Lmzmnju6m7kcokVKvwqz7QPmdX9XfKjJsXz8RXcjp"],
    ] as const) {
      const pool = decodeMeteoraDammV2Pool(fixture);
      expect(await findMeteoraDammV2PoolAddress(config as never, pool.tokenAMint, pool.tokenBMint)).toBe(fixture.address);
      expect(await listMeteoraDammV2PoolCandidates(pool.tokenAMint)).toContainEqual({
        pool: fixture.address,
        kind: "meteora-damm-v2",
        quoteMint: pool.tokenBMint,
      });
    }
  });

  it("derives config index 38 (TBuzuEMM, index stored at byte 208) and pool E8zRkDw3 from config 52", async () => {
    expect(new DataView(config38.data.buffer).getBigUint64(208, true)).toBe(38n);
    expect(await findMeteoraDammV2ConfigAddress(38)).toBe(config38.address);
    const pool = decodeMeteoraDammV2Pool(e8z);
    expect(await findMeteoraDammV2PoolAddress(await findMeteoraDammV2ConfigAddress(52), pool.tokenBMint, pool.tokenAMint)).toBe(e8z.address);
  });
});

describe("Meteora DAMM v2 pricing", () => {
  it("prices A in B from the sqrt price and holds ≈188.9 SOL of B reserve in 6CXXieC3", () => {
    // Given 6CXXieC3 (token A assumed 6 decimals, B = wSOL)
    const pool = decodeMeteoraDammV2Pool(p6cxx);
    // When priced
    const price = priceFromMeteoraDammV2Pool(pool, (m) => (m === WSOL_MINT ? 9 : 6));
    // Then price = (sqrt / 2^64)^2 × 10^(6 − 9) against floats, and the B reserve is the concentrated amount
    const expected = (26122654118776782 / 2 ** 64) ** 2 * 1e-3;
    expect(relativeError(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-9);
    expect(price.quoteLiquidity).toBe(188944925160n);
    expect(price).toMatchObject({ baseMint: pool.tokenAMint, quoteMint: WSOL_MINT, tradable: true });
  });

  it("prices SOL in USDC on the concentrated CGPxT5d1 and its reserves follow L and the range", () => {
    const pool = decodeMeteoraDammV2Pool(solUsdc);
    const price = priceFromMeteoraDammV2Pool(pool, (m) => (m === WSOL_MINT ? 9 : 6));
    const sqrt = 7719906012023913040 / 2 ** 64;
    expect(relativeError(ratioToNumber(price.priceQuotePerBase), sqrt ** 2 * 1e3)).toBeLessThanOrEqual(1e-9);
    // Float cross-check of the reserve formulas with real-valued L and prices
    const L = Number(pool.liquidity) / 2 ** 64;
    const [lo, hi] = [Number(pool.sqrtMinPrice) / 2 ** 64, Number(pool.sqrtMaxPrice) / 2 ** 64];
    const reserves = meteoraDammV2Reserves(pool);
    expect(relativeError(Number(reserves.a), (L * (hi - sqrt)) / (sqrt * hi))).toBeLessThan(1e-9);
    expect(relativeError(Number(reserves.b), L * (sqrt - lo))).toBeLessThan(1e-9);
  });

  it("uses the tracked token amounts for compounding pools", () => {
    const pool = { ...decodeMeteoraDammV2Pool(p6cxx), collectFeeMode: 2, tokenAAmount: 5n, tokenBAmount: 7n };
    expect(meteoraDammV2Reserves(pool)).toEqual({ a: 5n, b: 7n });
  });
});
