import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeMeteoraDbcConfig,
  decodeMeteoraDbcPool,
  findMeteoraDbcPoolAddress,
  priceFromMeteoraDbcPool,
  requiredAccountsForMeteoraDbcPool,
} from "../../../src/venues/meteora-dbc";
import { loadAccountFixture, ratioToNumber, relErr, withData, withOwner } from "../../helpers/fixtures";

const poolBoth = loadAccountFixture("meteora-dbc/virtual_pool_fee_in_both.json");
const poolQuote = loadAccountFixture("meteora-dbc/virtual_pool_fee_in_quote.json");
const configBoth = loadAccountFixture("meteora-dbc/pool_config_fee_in_both.json");
const configQuote = loadAccountFixture("meteora-dbc/pool_config_fee_in_quote.json");

describe("Meteora DBC decoding", () => {
  it("decodes the SDK's VirtualPool fixtures (collector decode: reserves, sqrt price, not migrated)", () => {
    expect(decodeMeteoraDbcPool(poolBoth)).toEqual({
      config: "CbfpuGYivK1o8rCpKf536ebipFipRTyk71sGCCXaBeEc",
      baseMint: "QS4QLW6vZWMmQE3j3LAnGfCZbXWbVfDuVDeVfgT2dzM",
      baseReserve: 722427194010288n,
      quoteReserve: 11725382491n,
      sqrtPrice: 139394230708914577n,
      isMigrated: false,
      migrationProgress: 0,
    });
    expect(decodeMeteoraDbcPool(poolQuote)).toMatchObject({
      config: "7UMR4yEaVYsQGbQGvxNUypFmPn15GkzVmwUEpUFJUPPX",
      baseReserve: 781359557863101n,
      quoteReserve: 7018473489n,
      sqrtPrice: 117336341276038830n,
    });
  });

  it("decodes both PoolConfig fixtures (SOL quote, 6-decimal base, DAMM v2 migration)", () => {
    // The source asserts collect_fee_mode (byte 232) 1 and 0; the decoder reads its neighbours
    expect(configBoth.data[232]).toBe(1);
    expect(configQuote.data[232]).toBe(0);
    expect(decodeMeteoraDbcConfig(configBoth)).toEqual({
      quoteMint: WSOL_MINT,
      migrationOption: 1,
      tokenDecimal: 6,
      migrationQuoteThreshold: 100000000000n,
    });
    expect(decodeMeteoraDbcConfig(configQuote)).toMatchObject({ quoteMint: WSOL_MINT, migrationQuoteThreshold: 87945796097n });
  });

  it("rejects a wrong owner, a wrong size and a config passed as a pool", () => {
    expect(() => decodeMeteoraDbcPool(withOwner(poolBoth, "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG"))).toThrow(/owner/);
    expect(() => decodeMeteoraDbcPool(withData(poolBoth, (d) => d.subarray(0, 423)))).toThrow(/size/);
    expect(() => decodeMeteoraDbcPool(withData(configBoth, (d) => d.subarray(0, 424)))).toThrow(/discriminator/);
    expect(() => decodeMeteoraDbcConfig(poolBoth)).toThrow(/size/);
  });
});

describe("Meteora DBC derivation", () => {
  it("derives pool CQLuGpgx from config GydFpD4E and its base mint (swap tx 23BXcBmn)", async () => {
    const pool = await findMeteoraDbcPoolAddress(
      address("GydFpD4ERr8kR3UA8VKH8getkcgmzLpfF1EFwgXENnN4"),
      address("EeXMYKCMjVLU1PrjAi4o2fMpC37h9RpuU3y7k4WHBQN9"),
      WSOL_MINT,
    );
    expect(pool).toBe("CQLuGpgxg5qmuw5BnHCG8zHquKn3jxXuVrgSLYGBk48t");
  });

});

describe("Meteora DBC pricing", () => {
  it("prices base in SOL from the sqrt price and reports progress toward the threshold", () => {
    // Given the pool and its config
    const pool = decodeMeteoraDbcPool(poolBoth);
    expect(requiredAccountsForMeteoraDbcPool(pool)).toEqual({ config: pool.config });
    // When priced
    const price = priceFromMeteoraDbcPool(pool, { config: configBoth }, () => 9);
    // Then price = (sqrt / 2^64)^2 × 10^(6 − 9), liquidity = quote_reserve, progress = 11.7 / 100 SOL
    const expected = (139394230708914577 / 2 ** 64) ** 2 * 1e-3;
    expect(relErr(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ baseMint: pool.baseMint, quoteMint: WSOL_MINT, quoteLiquidity: 11725382491n, tradable: true });
    expect(price.extra.complete).toBe(false);
    expect(ratioToNumber(price.extra.curveProgress!)).toBeCloseTo(11725382491 / 100000000000, 12);
  });

  it("reports a curve whose quote reserve reached the threshold as complete", () => {
    const pool = { ...decodeMeteoraDbcPool(poolQuote), quoteReserve: 87945796097n };
    const price = priceFromMeteoraDbcPool(pool, { config: configQuote }, () => 9);
    expect(price).toMatchObject({ tradable: false, extra: { complete: true, curveProgress: { num: 1n, den: 1n } } });
  });
});

/**
 * Fields dynamic_bonding_curve 0.1.8–0.1.10 (MeteoraAg/dynamic-bonding-curve @b4f9547, DBC SDK 1.5.7's IDL) wrote into
 * bytes that were padding in the 0.1.6 IDL the fixtures come with; offsets from that IDL. Sizes stay 424 / 1048.
 */
function withBytes(account: typeof poolBoth, writes: Record<number, number | bigint>) {
  return withData(account, (d) => {
    const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
    for (const [offset, value] of Object.entries(writes)) {
      if (typeof value === "bigint") view.setBigUint64(Number(offset), value, true);
      else d[Number(offset)] = value;
    }
    return d;
  });
}

describe("Meteora DBC layouts since the 0.1.6 IDL", () => {
  it("a VirtualPool with 0.1.10's fields set (has_swap, creation fee bits, migration fee bps and amounts) decodes as before", () => {
    // Given poolBoth with creation_fee_bits @369, has_swap @370, protocol_liquidity_migration_fee_bps @376 (u16 LE 500),
    // protocol_migration_base/quote_fee_amount @384/@392 written
    const newer = withBytes(poolBoth, { 369: 1, 370: 1, 376: 0xf4, 377: 0x01, 384: 12345n, 392: 67890n });
    // When decoded and priced / Then nothing pricing reads moved
    expect(decodeMeteoraDbcPool(newer)).toEqual(decodeMeteoraDbcPool(poolBoth));
    expect(priceFromMeteoraDbcPool(decodeMeteoraDbcPool(newer), { config: configBoth }, () => 9)).toEqual(
      priceFromMeteoraDbcPool(decodeMeteoraDbcPool(poolBoth), { config: configBoth }, () => 9),
    );
  });

  it("a PoolConfig with 0.1.8–0.1.10's fields (LP vesting infos, migrated fee mode, pool creation fee) decodes as before", () => {
    // Given configBoth with partner/creator_liquidity_vesting_info @184/@200, migrated_pool_base_fee_mode @364,
    // enable_first_swap_with_min_fee @365, pool_creation_fee @368 and the old protocol/referral percent bytes @230/231 cleared
    const newer = withBytes(configBoth, { 184: 7n, 200: 9n, 364: 1, 365: 1, 368: 10_000_000n, 230: 0, 231: 0 });
    // When decoded / Then quote mint, migration option, decimals and threshold are unchanged
    expect(decodeMeteoraDbcConfig(newer)).toEqual(decodeMeteoraDbcConfig(configBoth));
  });

  it("a migrated pool (is_migrated @305, migration_progress 3 @308, quote reserve at the threshold) is not tradable", () => {
    // Given poolQuote as migration leaves it: flags set, quote_reserve (@240) = the config's threshold
    const migrated = decodeMeteoraDbcPool(withBytes(poolQuote, { 305: 1, 308: 3, 240: 87945796097n }));
    expect(migrated).toMatchObject({ isMigrated: true, migrationProgress: 3, quoteReserve: 87945796097n });
    // When priced / Then the curve is complete: no swap is accepted (program: quote_reserve >= migration_quote_threshold)
    expect(priceFromMeteoraDbcPool(migrated, { config: configQuote }, () => 9)).toMatchObject({
      tradable: false,
      extra: { complete: true },
    });
  });
});
