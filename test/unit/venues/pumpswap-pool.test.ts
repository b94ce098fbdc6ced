import { address, getAddressDecoder, getU16Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT, findAssociatedTokenAddress } from "../../../src/solana/well-known";
import {
  decodePumpSwapPool,
  findPumpPoolAuthorityAddress,
  findPumpSwapPoolAddress,
  listPumpSwapPoolCandidates,
  priceFromPumpSwapPool,
  pumpSwapPoolQueries,
  requiredAccountsForPumpSwapPool,
} from "../../../src/venues/pumpswap-pool";
import { loadAccountFixture, ratioToNumber, relativeError, sourceField, syntheticTokenAccount, withData, withOwner } from "./load-fixture";

const fixture = loadAccountFixture("pumpswap/pool_GUXAutvX.json");
const BASE = address("3Sf6oKCeEqCuco4aYtKHHDTBYLAWHiL47QjvkW1UYDEG");
const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : 6);

describe("PumpSwap pool", () => {
  it("decodes GUXAutvX as its source states", () => {
    // Given the 300-byte Pool GUXAutvX / When decoded
    const pool = decodePumpSwapPool(fixture);
    // Then the keys match the source's expected JSON
    expect(pool).toEqual({
      baseMint: BASE,
      quoteMint: WSOL_MINT,
      baseVault: "8ou9YbVwLfMRXFq1ejqJcdXX9GM1bSAZUKrYzox3bSvc",
      quoteVault: "CLvCQE8qTSPmHJrxDqyrwP5hCvvuoha8tu7jY7bhxHFZ",
    });
    // And index (9) and creator (11), not needed for pricing, are where the source says
    expect(getU16Decoder().decode(fixture.data, 9)).toBe(Number(sourceField(fixture, "index")));
    expect(getAddressDecoder().decode(fixture.data, 11)).toBe(sourceField(fixture, "creator"));
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
    expect(relativeError(ratioToNumber(price.priceQuotePerBase), 85 / 600_000_000)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ baseMint: BASE, quoteMint: WSOL_MINT, quoteLiquidity: 85_000_000_000n, baseReserve: 600_000_000_000_000n });
  });

  it("refuses a vault that holds another mint", () => {
    const pool = decodePumpSwapPool(fixture);
    const related = {
      baseVault: syntheticTokenAccount(WSOL_MINT, 1n),
      quoteVault: syntheticTokenAccount(WSOL_MINT, 1n),
    };
    expect(() => priceFromPumpSwapPool(pool, related, decimalsOf)).toThrow(/mismatch/);
  });

  it("scans non-canonical pools by discriminator and base_mint", () => {
    const [query] = pumpSwapPoolQueries(BASE);
    expect(query!.filters).toEqual([
      { memcmp: { offset: 0n, bytes: "hQrXeCntzbV", encoding: "base58" } },
      { memcmp: { offset: 43n, bytes: BASE, encoding: "base58" } },
    ]);
  });
});
