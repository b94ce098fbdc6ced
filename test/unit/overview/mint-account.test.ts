import { describe, expect, it } from "vitest";

import { decodeMintAccount, TOKEN_PROGRAM_ADDRESS } from "../../../src/overview/token-metadata/mint-account";
import { codeOf, loadAccountFixture } from "./fixture-accounts";

describe("decodeMintAccount on real mints", () => {
  it.each([
    // [fixture, expected] — sources per SOURCES.md: Vixen test (3SmPYPvZ), collector decode (Df6yf, FQuMNJ6U, wSOL, token-2022)
    [
      "spl-token/mint_3SmPYPvZ_decimals10_vixen.json",
      { decimals: 10, supply: 0n, mintAuthority: "Eyv3PBdmp5PUVzrT3orDVad8roBMK8au9nKBazZXkKtA", freezeAuthority: null, isToken2022: false },
    ],
    ["spl-token/mint_Df6yfrKC_pump.json", { decimals: 6, supply: 999965054959795n, mintAuthority: null, freezeAuthority: null, isToken2022: false }],
    [
      // SOURCES.md rounds the supply to "1e17"; the bytes hold 100_001_000_000_000_000.
      "spl-token/mint_FQuMNJ6U_solana_cli.json",
      {
        decimals: 9,
        supply: 100_001_000_000_000_000n,
        mintAuthority: "FXBXnxEEfwZJA1xnyJzKEhhJXmussKXKRdq5cAh19dbC",
        freezeAuthority: "FXBXnxEEfwZJA1xnyJzKEhhJXmussKXKRdq5cAh19dbC",
        isToken2022: false,
      },
    ],
    ["spl-token/mint_wSOL_native_solana_cli.json", { decimals: 9, supply: 0n, mintAuthority: null, freezeAuthority: null, isToken2022: false }],
    ["token-2022/mint_B4rGSdcB_with_extensions.json", { decimals: 9, supply: 1_000_000_000_000n, isToken2022: true }],
    ["token-2022/mint_BtSLwAFD_with_extensions_vixen.json", { decimals: 9, supply: 0n, isToken2022: true }],
  ])("%s", (fixture, expected) => {
    const mint = decodeMintAccount(loadAccountFixture(fixture));
    expect(mint).toMatchObject({ ...expected, isInitialized: true });
  });
});

describe("decodeMintAccount on the wrong accounts", () => {
  const pumpMint = loadAccountFixture("spl-token/mint_Df6yfrKC_pump.json");
  const t22Mint = loadAccountFixture("token-2022/mint_B4rGSdcB_with_extensions.json");

  it("refuses owners other than the two token programs", () => {
    expect(codeOf(() => decodeMintAccount({ ...pumpMint, owner: "11111111111111111111111111111111" }))).toBe("WRONG_OWNER");
  });

  it("refuses a 165-byte SPL token account passed as a mint", () => {
    const tokenAccount = loadAccountFixture("spl-token/token_account_DNXgeM9E_wSOL_cpmm_create_pool_fee.json");
    expect(codeOf(() => decodeMintAccount(tokenAccount))).toBe("INVALID_SIZE");
  });

  it("refuses an SPL Token mint with extension-like trailing bytes (only Token-2022 has extensions)", () => {
    expect(codeOf(() => decodeMintAccount({ ...t22Mint, owner: TOKEN_PROGRAM_ADDRESS }))).toBe("INVALID_SIZE");
  });

  it("refuses a Token-2022 account whose AccountType byte (@165) is 2 = token account", () => {
    const data = t22Mint.data.slice();
    data[165] = 2;
    expect(codeOf(() => decodeMintAccount({ ...t22Mint, data }))).toBe("UNEXPECTED_ACCOUNT_KIND");
  });

  it("refuses Token-2022 sizes between the base and the type byte", () => {
    expect(codeOf(() => decodeMintAccount({ ...t22Mint, data: t22Mint.data.slice(0, 165) }))).toBe("INVALID_SIZE");
    expect(codeOf(() => decodeMintAccount({ ...t22Mint, data: t22Mint.data.slice(0, 81) }))).toBe("INVALID_SIZE");
  });

  it.each([
    ["mint_authority COption tag 2 (u32 @0)", 0, 2, "INVALID_TAG"],
    ["is_initialized = 2 (@45)", 45, 2, "INVALID_TAG"],
    ["freeze_authority COption tag 7 (u32 @46)", 46, 7, "INVALID_TAG"],
  ])("throws a typed error for %s", (_, offset, value, code) => {
    const data = pumpMint.data.slice();
    data[offset] = value;
    expect(codeOf(() => decodeMintAccount({ ...pumpMint, data }))).toBe(code);
  });

  it("reports an uninitialized mint instead of refusing it", () => {
    const data = pumpMint.data.slice();
    data[45] = 0;
    expect(decodeMintAccount({ ...pumpMint, data }).isInitialized).toBe(false);
  });
});
