import { address, getAddressDecoder, getU16Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeRaydiumCpmmPool,
  findRaydiumCpmmConfigAddress,
  findRaydiumCpmmPoolAddress,
  listRaydiumCpmmPoolCandidates,
  priceFromRaydiumCpmmPool,
  requiredAccountsForRaydiumCpmmPool,
} from "../../../src/venues/raydium-cpmm";
import { loadAccountFixture, ratioToNumber, relErr, syntheticTokenAccount, withData, withOwner } from "../../helpers/fixtures";

const fixture = loadAccountFixture("raydium-cpmm/pool_state_Q2sPHPdU.json");
const config0 = loadAccountFixture("raydium-cpmm/amm_config_D4FPEruK_solana_cli.json");
const BONK = address("Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk");

describe("Raydium CPMM decoding", () => {
  it("decodes Q2sPHPdU as its source states (token_0 = wSOL by byte order, not base58 order)", () => {
    // amm_config (byte 8) is not decoded for pricing; the layout still has it where the source says
    expect(getAddressDecoder().decode(fixture.data, 8)).toBe("D4FPEruKEHrG5TenZ2mpDGEfu1iUvTiqBxvpU8HLBvC2");
    expect(decodeRaydiumCpmmPool(fixture)).toEqual({
      vault0: "HgNPDD8bpbSrGyHegiCT5xrYxHTfwLfZydwGkjNCJRKA",
      vault1: "9xsCiNwYQXM3ZeHFSVj9JQdP1vREJREpN23f6wvxA1ty",
      mint0: WSOL_MINT,
      mint1: BONK,
      status: 0,
      mint0Decimals: 9,
      mint1Decimals: 6,
      protocolFees0: 484814504n,
      protocolFees1: 286186090n,
      fundFees0: 123593244n,
      fundFees1: 78871511n,
      creatorFees0: 0n,
      creatorFees1: 0n,
      openTime: 1746886997n,
    });
  });

  it("rejects the CLMM owner, a wrong size and another discriminator", () => {
    expect(() => decodeRaydiumCpmmPool(withOwner(fixture, "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK"))).toThrow(/owner/);
    expect(() => decodeRaydiumCpmmPool(withData(fixture, (d) => d.subarray(0, 636)))).toThrow(/size/);
    expect(() => decodeRaydiumCpmmPool(withData(fixture, (d) => d.fill(0, 0, 8)))).toThrow(/discriminator/);
  });
});

describe("Raydium CPMM derivation", () => {
  it("derives the config PDAs 0–6 with big-endian indices", async () => {
    // Given the config addresses listed in VENUES.md §5 / When derived / Then they match
    const expected = [
      "D4FPEruKEHrG5TenZ2mpDGEfu1iUvTiqBxvpU8HLBvC2",
      "G95xxie3XbkCqtE39GgQ9Ggc7xBC8Uceve7HFDEFApkc",
      "2fGXL8uhqxJ4tpgtosHZXT4zcQap6j62z3bMDxdkMvy5",
      "C7Cx2pMLtjybS3mDKSfsBj4zQ3PRZGkKt7RCYTTbCSx2",
      "BhH6HphjBKXu2PkUc2aw3xEMdUvK14NXxE5LbNWZNZAA",
      "BgxH5ifebqHDuiADWKhLjXGP5hWZeZLoCdmeWJLkRqLP",
      "B5u5x9S5pyaJdonf7bXUiEnBfEXsJWhNxXfLGAbRFtg2",
    ];
    expect(await Promise.all(expected.map((_, i) => findRaydiumCpmmConfigAddress(i)))).toEqual(expected);
    // And the on-chain config 0 stores index 0
    expect(config0.address).toBe(expected[0]);
    expect(getU16Decoder().decode(config0.data, 10)).toBe(0);
  });

  it("derives Q2sPHPdU from config 0 and its mints, in either argument order", async () => {
    const config = await findRaydiumCpmmConfigAddress(0);
    expect(await findRaydiumCpmmPoolAddress(config, BONK, WSOL_MINT)).toBe(fixture.address);
    expect(await findRaydiumCpmmPoolAddress(config, WSOL_MINT, BONK)).toBe(fixture.address);
    const candidates = await listRaydiumCpmmPoolCandidates(BONK);
    expect(candidates).toHaveLength(14);
    expect(candidates).toContainEqual({ pool: fixture.address, kind: "raydium-cpmm", quoteMint: WSOL_MINT });
  });

});

describe("Raydium CPMM pricing", () => {
  it("prices token1 per token0 from vaults net of protocol and fund fees", () => {
    // Given vaults holding 1,000 SOL and 5e9 BONK above the fee buckets
    const pool = decodeRaydiumCpmmPool(fixture);
    const related = {
      vault0: syntheticTokenAccount(WSOL_MINT, 1_000_000_000_000n + 484814504n + 123593244n),
      vault1: syntheticTokenAccount(BONK, 5_000_000_000_000_000n + 286186090n + 78871511n),
    };
    expect(requiredAccountsForRaydiumCpmmPool(pool)).toEqual({ vault0: pool.vault0, vault1: pool.vault1 });
    // When priced
    const price = priceFromRaydiumCpmmPool(pool, related);
    // Then 1 SOL = 5,000,000 BONK and the fee buckets are not liquidity
    expect(relErr(ratioToNumber(price.priceQuotePerBase), 5e9 / 1000)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ baseMint: WSOL_MINT, quoteMint: BONK, baseReserve: 1_000_000_000_000n, quoteLiquidity: 5_000_000_000_000_000n, tradable: true });
  });

  it("reports a swap-disabled status bit", () => {
    const pool = { ...decodeRaydiumCpmmPool(fixture), status: 4 };
    const related = { vault0: syntheticTokenAccount(WSOL_MINT, 10n ** 12n), vault1: syntheticTokenAccount(BONK, 10n ** 12n) };
    expect(priceFromRaydiumCpmmPool(pool, related).tradable).toBe(false);
  });
});

/**
 * raydium-cp-swap 0.2.0 @609780f (creator fees since b0b2a08 "support creator fee", 2025-08-18; raydium-sdk-V2's
 * CpmmPoolInfoLayout): creator_fee_on @389, enable_creator_fee @390 and creator_fees_token_0/1 @397/@405 took former
 * padding, so pools keep 637 B. `vault_amount_without_fee` subtracts protocol + fund + creator fees; status bit2 alone
 * disables swaps.
 */
describe("Raydium CPMM creator fees and status bits", () => {
  const withCreatorFees = (fee0: bigint, fee1: bigint, status?: number) =>
    withData(fixture, (d) => {
      const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
      d[389] = 0; // creator_fee_on: both tokens
      d[390] = 1; // enable_creator_fee
      view.setBigUint64(397, fee0, true);
      view.setBigUint64(405, fee1, true);
      if (status !== undefined) d[329] = status;
      return d;
    });
  const related = {
    vault0: syntheticTokenAccount(WSOL_MINT, 1_000_000_000_000n + 484814504n + 123593244n + 11n),
    vault1: syntheticTokenAccount(BONK, 5_000_000_000_000_000n + 286186090n + 78871511n + 22n),
  };

  it("creator fees held in the vaults are not liquidity", () => {
    // Given Q2sPHPdU with creator fees 11 / 22 accrued, and vaults holding them on top of the other buckets
    const pool = decodeRaydiumCpmmPool(withCreatorFees(11n, 22n));
    expect(pool).toMatchObject({ creatorFees0: 11n, creatorFees1: 22n });
    // When priced / Then reserves exclude protocol, fund and creator fees
    const price = priceFromRaydiumCpmmPool(pool, related);
    expect(price).toMatchObject({ baseReserve: 1_000_000_000_000n, quoteLiquidity: 5_000_000_000_000_000n, tradable: true });
  });

  it("deposit- or withdraw-disabled bits (1, 2) keep swaps open; bit2 (4) closes them", () => {
    expect(priceFromRaydiumCpmmPool(decodeRaydiumCpmmPool(withCreatorFees(11n, 22n, 3)), related).tradable).toBe(true);
    expect(priceFromRaydiumCpmmPool(decodeRaydiumCpmmPool(withCreatorFees(11n, 22n, 4)), related).tradable).toBe(false);
  });
});
