import { describe, expect, it } from "vitest";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WSOL_MINT } from "../../../../src/solana/well-known";
import { decodeMint, decodeTokenAccount, readVaultAmount } from "../../../../src/solana/accounts/spl-token";
import { loadAccountFixture, withData, withOwner } from "../../../helpers/fixtures";

const fixture = (path: string) => loadAccountFixture(path);

describe("SPL / Token-2022 mints", () => {
  it("decodes a 10-decimal SPL mint as Vixen asserts (supply 0, mint authority Eyv3PBdm…)", () => {
    expect(decodeMint(fixture("spl-token/mint_3SmPYPvZ_decimals10_vixen.json"))).toEqual({
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
      mintAuthority: "Eyv3PBdmp5PUVzrT3orDVad8roBMK8au9nKBazZXkKtA",
      supply: 0n,
      decimals: 10,
      isInitialized: true,
      freezeAuthority: null,
    });
  });

  it("decodes the pump mint Df6yfrKC (6 dp, authorities revoked), wSOL and a test mint with both authorities", () => {
    expect(decodeMint(fixture("spl-token/mint_Df6yfrKC_pump.json"))).toMatchObject({
      decimals: 6,
      supply: 999965054959795n,
      mintAuthority: null,
      freezeAuthority: null,
    });
    expect(decodeMint(fixture("spl-token/mint_wSOL_native_solana_cli.json"))).toMatchObject({ decimals: 9, supply: 0n, mintAuthority: null });
    const test = decodeMint(fixture("spl-token/mint_FQuMNJ6U_solana_cli.json"));
    // the collector rounds this supply to "1e17"; the bytes hold 1.00001e17
    expect(test).toMatchObject({ decimals: 9, supply: 100001000000000000n });
    expect(test.mintAuthority?.startsWith("FXBXnx")).toBe(true);
    expect(test.freezeAuthority).toBe(test.mintAuthority);
  });

  it("decodes Token-2022 mints with extensions from their 82-byte base", () => {
    expect(decodeMint(fixture("token-2022/mint_B4rGSdcB_with_extensions.json"))).toMatchObject({
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      decimals: 9,
      supply: 1000000000000n,
    });
    expect(decodeMint(fixture("token-2022/mint_BtSLwAFD_with_extensions_vixen.json"))).toMatchObject({ decimals: 9, supply: 0n });
  });

  it("rejects a foreign owner, an SPL mint that is not 82 bytes, and a Token-2022 token account", () => {
    const mint = fixture("spl-token/mint_Df6yfrKC_pump.json");
    expect(() => decodeMint(withOwner(mint, "11111111111111111111111111111111"))).toThrow(/owner/);
    expect(() => decodeMint(withData(mint, (d) => Uint8Array.from([...d, 0])))).toThrow(/size/);
    expect(() => decodeMint(fixture("meteora-dlmm/B5Eia4cE_token2022_SOL/reserve_x_token2022_account.json"))).toThrow(/discriminator/);
  });
});

describe("SPL / Token-2022 token accounts", () => {
  it("decodes the wSOL token account DNXgeM9E and the EtAdVRLF reserves", () => {
    expect(decodeTokenAccount(fixture("spl-token/token_account_DNXgeM9E_wSOL_cpmm_create_pool_fee.json"))).toMatchObject({
      mint: WSOL_MINT,
      state: 1,
    });
    const reserveX = decodeTokenAccount(fixture("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json"));
    expect(reserveX).toMatchObject({ mint: "Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump", owner: "EtAdVRLFH22rjWh3mcUasKFF27WtHhsaCvK27tPFFWig" });
  });

  it("decodes a 178-byte Token-2022 account (AccountType 2 at byte 165) at the classic offsets", () => {
    const reserve = decodeTokenAccount(fixture("meteora-dlmm/B5Eia4cE_token2022_SOL/reserve_x_token2022_account.json"));
    expect(reserve).toMatchObject({ mint: "B4rGSdcBrmLEPUQXpZa91PMsRE3GqNcjLd6EMvM3yaj2", owner: "B5Eia4cE71tKuEDaqPHucJLG2fxySKyKzLMewd2nUvoc" });
  });

  it("rejects a mint passed as a token account and checks the vault's mint", () => {
    expect(() => decodeTokenAccount(fixture("spl-token/mint_Df6yfrKC_pump.json"))).toThrow(/size/);
    expect(() => decodeTokenAccount(fixture("token-2022/mint_B4rGSdcB_with_extensions.json"))).toThrow(/discriminator/);
    const reserveY = fixture("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_y_token_account.json");
    expect(readVaultAmount("Test", reserveY, WSOL_MINT)).toBeGreaterThan(0n);
    expect(() => readVaultAmount("Test", reserveY, TOKEN_PROGRAM_ADDRESS)).toThrow(/mismatch/);
  });
});

describe("the DAMM v1 HcjZvfeS account set's mints and token accounts", () => {
  const set = (name: string) => fixture(`meteora-damm-v1/HcjZvfeS_pool_set/${name}.json`);

  it("decodes its four SPL mints (9 decimals each)", () => {
    for (const [name, supply] of [
      ["mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So", 4639579357466679n],
      ["B2uEs9zjnz222hfUaUuRgesryUEYwy3JGuWe31sE9gsG", 125221911091504n],
      ["FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j", 145998019653473n],
      ["21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb", 81482558527139n],
    ] as const) {
      expect(decodeMint(set(name))).toMatchObject({ tokenProgram: TOKEN_PROGRAM_ADDRESS, decimals: 9, supply });
    }
  });

  it("decodes its six token accounts: vault token vaults, the pool's vault-LP holdings and fee accounts", () => {
    expect(decodeTokenAccount(set("HZeLxbZ9uHtSpwZC3LBr4Nubd14iHwz7bRSghRZf5VCG"))).toMatchObject({
      mint: WSOL_MINT,
      owner: "FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT",
      amount: 63190649839728n,
    });
    expect(decodeTokenAccount(set("3ifhD4Ywaa8aBZAaQSqYgN4Q1kaFArioLU8uumJMaqkE"))).toMatchObject({
      mint: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So",
      owner: "8p1VKP45hhqq5iZG5fNGoi7ucme8nFLeChoDWNy7rWFm",
      amount: 81596954022978n,
    });
    expect(decodeTokenAccount(set("HWnWnLvBzvSmXH5hnHJCFmuQbDTsX3Ba2w9CPE5zf4YD"))).toMatchObject({
      mint: "FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j",
      amount: 41924615981385n,
    });
    expect(decodeTokenAccount(set("GGG4DxkYa86g2v4KwtvR8Xu2tXEp1xd4BRC3yNnpve3g"))).toMatchObject({
      mint: "21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb",
      amount: 78979143181675n,
    });
    expect(decodeTokenAccount(set("AYX6kFvQRacdbC1eBaK5kgEPGjzjYYd1fyduHg55Z1ai"))).toMatchObject({ mint: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So", amount: 0n });
    expect(decodeTokenAccount(set("GYuyKhedWVsndqG5tyXwRiRSTxFKrLJysgedccqU7aH8"))).toMatchObject({ mint: WSOL_MINT, amount: 0n });
  });
});
