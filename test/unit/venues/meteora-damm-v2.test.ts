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
import { flipByte, loadAccountFixture, ratioToNumber, relErr, sourceField, withData, withOwner } from "../../helpers/fixtures";

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
        activationPoint: BigInt(field("activation_point") as string),
        activationType: field("activation_type"),
        liquidity: BigInt(field("liquidity") as string),
        sqrtMinPrice: BigInt(field("sqrt_min_price") as string),
        sqrtMaxPrice: BigInt(field("sqrt_max_price") as string),
        sqrtPrice: BigInt(field("sqrt_price") as string),
        poolStatus: field("pool_status"),
        collectFeeMode: field("collect_fee_mode"),
        tokenAAmount: 0n,
        tokenBAmount: 0n,
        layoutVersion: 0,
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
    expect(relErr(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-9);
    expect(price.quoteLiquidity).toBe(188944925160n);
    expect(price).toMatchObject({ baseMint: pool.tokenAMint, quoteMint: WSOL_MINT, tradable: true });
  });

  it("prices SOL in USDC on the concentrated CGPxT5d1 and its reserves follow L and the range", () => {
    const pool = decodeMeteoraDammV2Pool(solUsdc);
    const price = priceFromMeteoraDammV2Pool(pool, (m) => (m === WSOL_MINT ? 9 : 6));
    const sqrt = 7719906012023913040 / 2 ** 64;
    expect(relErr(ratioToNumber(price.priceQuotePerBase), sqrt ** 2 * 1e3)).toBeLessThanOrEqual(1e-9);
    // Float cross-check of the reserve formulas with real-valued L and prices
    const L = Number(pool.liquidity) / 2 ** 64;
    const [lo, hi] = [Number(pool.sqrtMinPrice) / 2 ** 64, Number(pool.sqrtMaxPrice) / 2 ** 64];
    const reserves = meteoraDammV2Reserves(pool);
    expect(relErr(Number(reserves.a), (L * (hi - sqrt)) / (sqrt * hi))).toBeLessThan(1e-9);
    expect(relErr(Number(reserves.b), L * (sqrt - lo))).toBeLessThan(1e-9);
  });

  it("uses the tracked token amounts for compounding pools", () => {
    const pool = { ...decodeMeteoraDammV2Pool(p6cxx), collectFeeMode: 2, tokenAAmount: 5n, tokenBAmount: 7n };
    expect(meteoraDammV2Reserves(pool)).toEqual({ a: 5n, b: 7n });
  });
});

/**
 * cp_amm 0.2.0/0.2.1 fields the fixtures (all layout_version 0: pools from before 0.2.0) lack, written into a
 * fixture's bytes at the offsets of the Pool in damm-v2-sdk 1.4.3's cp_amm.json: pool_status @481,
 * collect_fee_mode @484, token_a_amount @680, token_b_amount @688, layout_version @696.
 */
function dammV2Pool(fields: { status?: number; collectFeeMode?: number; a?: bigint; b?: bigint; layoutVersion?: number }) {
  return withData(p6cxx, (d) => {
    const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
    if (fields.status !== undefined) d[481] = fields.status;
    if (fields.collectFeeMode !== undefined) d[484] = fields.collectFeeMode;
    if (fields.a !== undefined) view.setBigUint64(680, fields.a, true);
    if (fields.b !== undefined) view.setBigUint64(688, fields.b, true);
    if (fields.layoutVersion !== undefined) d[696] = fields.layoutVersion;
    return d;
  });
}

describe("Meteora DAMM v2 layout versions (cp_amm 0.2.x)", () => {
  const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : 6);

  it("a layout-1 concentrated pool keeps pricing from sqrt_price and the range, not from the tracked amounts", () => {
    // Given 6CXXieC3 re-written as a layout-1 pool (collect_fee_mode 1) tracking amounts that differ from the range formula
    const pool = decodeMeteoraDammV2Pool(dammV2Pool({ layoutVersion: 1, a: 123n, b: 456n }));
    // When priced
    const price = priceFromMeteoraDammV2Pool(pool, decimalsOf);
    const original = priceFromMeteoraDammV2Pool(decodeMeteoraDammV2Pool(p6cxx), decimalsOf);
    // Then the program's concentrated handler applies: same price and reserves as the layout-0 original
    expect(pool).toMatchObject({ layoutVersion: 1, collectFeeMode: 1, tokenAAmount: 123n, tokenBAmount: 456n });
    expect(price.priceQuotePerBase).toEqual(original.priceQuotePerBase);
    expect(price.quoteLiquidity).toBe(188944925160n);
  });

  it("a compounding pool (collect_fee_mode 2) is priced at token_b_amount / token_a_amount exactly, its reserves", () => {
    // Given a compounding layout-1 pool holding 1,000,000 A (6 dp) and 2,500,000,000 B (wSOL) after a deposit
    // (the stale sqrt_price of the fixture stays in the account: deposits do not refresh it)
    const pool = decodeMeteoraDammV2Pool(dammV2Pool({ collectFeeMode: 2, layoutVersion: 1, a: 1_000_000n, b: 2_500_000_000n }));
    // When priced
    const price = priceFromMeteoraDammV2Pool(pool, decimalsOf);
    // Then price = (2.5 SOL) / (1 A) = 2.5, exactly, and the reserves are the tracked amounts
    expect(price.priceQuotePerBase.num * 2n).toBe(price.priceQuotePerBase.den * 5n);
    expect(price).toMatchObject({ quoteLiquidity: 2_500_000_000n, baseReserve: 1_000_000n, tradable: true });
  });

  it("a compounding pool with an empty side cannot be priced", () => {
    const pool = decodeMeteoraDammV2Pool(dammV2Pool({ collectFeeMode: 2, layoutVersion: 1, a: 0n, b: 5n }));
    expect(() => priceFromMeteoraDammV2Pool(pool, decimalsOf)).toThrow(/empty reserve/);
  });

  it("refuses a compounding pool at layout_version 0 (its amounts were never tracked)", () => {
    expect(() => decodeMeteoraDammV2Pool(dammV2Pool({ collectFeeMode: 2, layoutVersion: 0, a: 1n, b: 1n }))).toThrow(
      /compounding pool without tracked reserves/,
    );
  });

  it("pool_status 1 (disabled by the operator) makes the pool untradable but still priced", () => {
    const price = priceFromMeteoraDammV2Pool(decodeMeteoraDammV2Pool(dammV2Pool({ status: 1 })), decimalsOf);
    expect(price.tradable).toBe(false);
    expect(price.quoteLiquidity).toBe(188944925160n);
  });
});
