import { address, getAddressDecoder, getU16Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT, findAssociatedTokenAddress } from "../../../src/solana/well-known";
import {
  decodePumpSwapPool,
  findPumpPoolAuthorityAddress,
  findPumpSwapPoolAddress,
  listPumpSwapPoolCandidates,
  priceFromPumpSwapPool,
  requiredAccountsForPumpSwapPool,
} from "../../../src/venues/pumpswap-pool";
import { loadAccountFixture, ratioToNumber, relErr, sourceField, syntheticTokenAccount, withData, withOwner } from "../../helpers/fixtures";

const fixture = loadAccountFixture("pumpswap/pool_GUXAutvX.json");
const BASE = address("3Sf6oKCeEqCuco4aYtKHHDTBYLAWHiL47QjvkW1UYDEG");
const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : 6);
const NO_APPENDED_FIELDS = { isMayhemMode: false, isCashbackCoin: false, virtualQuoteReserves: 0n, creatorFeeBps: 0n, canEditCreatorFee: false };

/**
 * GUXAutvX's real bytes up to coin_creator (ends @243), then the fields the current pump_amm Pool appends,
 * written one by one, zero-padded to the program's 300 B allocation.
 */
function boostPool(virtualQuoteReserves: bigint): Uint8Array {
  const data = new Uint8Array(300);
  data.set(fixture.data.subarray(0, 243), 0);
  const view = new DataView(data.buffer);
  data[243] = 1; //                                          is_mayhem_mode: bool @243 = true
  data[244] = 0; //                                          is_cashback_coin: bool @244 = false
  view.setBigUint64(245, BigInt.asUintN(64, virtualQuoteReserves), true); // virtual_quote_reserves: i128 LE @245, low half
  view.setBigUint64(253, BigInt.asUintN(64, virtualQuoteReserves >> 64n), true); //                          high half
  view.setBigUint64(261, 30n, true); //                      creator_fee_bps: u64 @261 = 30
  data[269] = 1; //                                          can_edit_creator_fee: bool @269 = true
  return data; //                                            270..300: unused
}

describe("PumpSwap pool", () => {
  it("decodes GUXAutvX as its source states", () => {
    // Given the 300-byte Pool GUXAutvX / When decoded
    const pool = decodePumpSwapPool(fixture);
    // Then the keys match the source's expected JSON, and its appended fields (zero bytes in this capture) are unset
    expect(pool).toEqual({
      baseMint: BASE,
      quoteMint: WSOL_MINT,
      baseVault: "8ou9YbVwLfMRXFq1ejqJcdXX9GM1bSAZUKrYzox3bSvc",
      quoteVault: "CLvCQE8qTSPmHJrxDqyrwP5hCvvuoha8tu7jY7bhxHFZ",
      ...NO_APPENDED_FIELDS,
    });
    // And index (9) and creator (11), not needed for pricing, are where the source says
    expect(getU16Decoder().decode(fixture.data, 9)).toBe(Number(sourceField(fixture, "index")));
    expect(getAddressDecoder().decode(fixture.data, 11)).toBe(sourceField(fixture, "creator"));
  });

  it("decodes an older, shorter pool (no appended fields) with virtual reserves 0", () => {
    // Given GUXAutvX cut before is_mayhem_mode (243 B: coin_creator era) and before coin_creator (211 B)
    for (const length of [243, 211, 203]) {
      // When decoded / Then the keys are there and every appended field has its absent value
      const pool = decodePumpSwapPool(withData(fixture, (d) => d.subarray(0, length)));
      expect(pool, `${length} B`).toMatchObject({ baseMint: BASE, quoteMint: WSOL_MINT, ...NO_APPENDED_FIELDS });
    }
    // And a pool that ends inside virtual_quote_reserves still reads the two flags before it
    const partial = decodePumpSwapPool({ owner: fixture.owner, data: boostPool(5n).subarray(0, 250) });
    expect(partial).toMatchObject({ isMayhemMode: true, virtualQuoteReserves: 0n, creatorFeeBps: 0n });
  });

  it("decodes a boost pool's appended fields at @243..@269, i128 little-endian over both halves", () => {
    // Given the boost layout with virtual reserves that need the high 64 bits (2^64 + 5)
    const pool = decodePumpSwapPool({ owner: fixture.owner, data: boostPool((1n << 64n) + 5n) });
    // Then each field is read where the layout puts it
    expect(pool).toMatchObject({ isMayhemMode: true, isCashbackCoin: false, virtualQuoteReserves: (1n << 64n) + 5n, creatorFeeBps: 30n, canEditCreatorFee: true });
  });

  it("refuses negative virtual quote reserves (i128) as a decode error", () => {
    // Given virtual_quote_reserves = −1 and −(85 SOL) (two's complement over 16 bytes)
    for (const negative of [-1n, -85_000_000_000n]) {
      // When decoded / Then the pool is refused, never priced at zero or below
      expect(() => decodePumpSwapPool({ owner: fixture.owner, data: boostPool(negative) })).toThrow(/PumpSwapPool: value: negative virtual/);
    }
  });

  it("rejects the same bytes under DAMM v2 (shared 'Pool' discriminator), short data and another discriminator", () => {
    expect(() => decodePumpSwapPool(withOwner(fixture, "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG"))).toThrow(/owner/);
    expect(() => decodePumpSwapPool(withData(fixture, (d) => d.subarray(0, 202)))).toThrow(/size/);
    expect(() => decodePumpSwapPool(withData(fixture, (d) => ((d[0] = 0), d)))).toThrow(/discriminator/);
  });

  it("derives GUXAutvX as the canonical pool of its base mint", async () => {
    // Given the base mint / When the pump pool authority and the index-0 wSOL pool are derived
    const creator = await findPumpPoolAuthorityAddress(BASE);
    const candidates = await listPumpSwapPoolCandidates(BASE);
    // Then the creator is the pool's creator and the first candidate is the pool itself
    expect(creator).toBe("42Y4PfN8eHhZJbp5vfqc59sMhw85g1QSdQ4WNYQgkgcM");
    expect(await findPumpSwapPoolAddress(0, creator, BASE, WSOL_MINT)).toBe(fixture.address);
    expect(candidates[0]).toEqual({ pool: fixture.address, kind: "pumpswap", quoteMint: WSOL_MINT });
    expect(candidates).toHaveLength(2);
    // And its vaults are the pool's ATAs
    const pool = decodePumpSwapPool(fixture);
    expect(await findAssociatedTokenAddress(fixture.address!, BASE)).toBe(pool.baseVault);
    expect(await findAssociatedTokenAddress(fixture.address!, WSOL_MINT)).toBe(pool.quoteVault);
  });

  it("prices base in quote from the vault balances", () => {
    // Given the pool and vault balances of 600M tokens and 85 SOL
    const pool = decodePumpSwapPool(fixture);
    const related = {
      baseVault: syntheticTokenAccount(BASE, 600_000_000_000_000n),
      quoteVault: syntheticTokenAccount(WSOL_MINT, 85_000_000_000n),
    };
    expect(requiredAccountsForPumpSwapPool(pool)).toEqual({ baseVault: pool.baseVault, quoteVault: pool.quoteVault });
    // When priced
    const price = priceFromPumpSwapPool(pool, related, decimalsOf);
    // Then price = (85e9/1e9) / (6e14/1e6) SOL per token
    expect(relErr(ratioToNumber(price.priceQuotePerBase), 85 / 600_000_000)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ baseMint: BASE, quoteMint: WSOL_MINT, quoteLiquidity: 85_000_000_000n, baseReserve: 600_000_000_000_000n });
  });

  it("prices a boost pool as (quote vault + virtual_quote_reserves) / base vault, liquidity from the vaults alone", () => {
    // Given a boost pool with 4.8612 SOL virtual quote reserves over vaults of 600M tokens and 85 SOL
    const virtual = 4_861_200_000n;
    const pool = decodePumpSwapPool({ owner: fixture.owner, data: boostPool(virtual) });
    const related = {
      baseVault: syntheticTokenAccount(BASE, 600_000_000_000_000n),
      quoteVault: syntheticTokenAccount(WSOL_MINT, 85_000_000_000n),
    };
    // When priced
    const price = priceFromPumpSwapPool(pool, related, decimalsOf);
    // Then price = effectiveQuoteReserve / base = ((85e9 + 4.8612e9)/1e9) / (6e14/1e6), as pump-swap-sdk 1.20 computes it
    const expected = ((85_000_000_000 + 4_861_200_000) / 1e9) / (600_000_000_000_000 / 1e6);
    expect(relErr(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-9);
    // And the vault-only price would be 5.4% low
    expect(1 - 85 / 600_000_000 / expected).toBeCloseTo(0.054, 3);
    // And the liquidity counts the real vault balances only
    expect(price).toMatchObject({ quoteLiquidity: 85_000_000_000n, baseReserve: 600_000_000_000_000n });
  });

  it("refuses a vault that holds another mint", () => {
    const pool = decodePumpSwapPool(fixture);
    const related = {
      baseVault: syntheticTokenAccount(WSOL_MINT, 1n),
      quoteVault: syntheticTokenAccount(WSOL_MINT, 1n),
    };
    expect(() => priceFromPumpSwapPool(pool, related, decimalsOf)).toThrow(/mismatch/);
  });

});
