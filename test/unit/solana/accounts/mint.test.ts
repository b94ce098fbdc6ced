import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { decodeMint } from "../../../../src/solana/accounts/spl-token";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../../../src/solana/well-known";
import { loadAccountFixture } from "../../../helpers/fixtures";
import { codeOf } from "./codec-test-kit";

describe("decodeMint on real mints", () => {
  it.each([
    // [fixture, expected] — sources per SOURCES.md: Vixen test (3SmPYPvZ), collector decode (Df6yf, FQuMNJ6U, wSOL, token-2022)
    [
      "spl-token/mint_3SmPYPvZ_decimals10_vixen.json",
      { decimals: 10, supply: 0n, mintAuthority: "Eyv3PBdmp5PUVzrT3orDVad8roBMK8au9nKBazZXkKtA", freezeAuthority: null, tokenProgram: TOKEN_PROGRAM_ADDRESS },
    ],
    ["spl-token/mint_Df6yfrKC_pump.json", { decimals: 6, supply: 999965054959795n, mintAuthority: null, freezeAuthority: null, tokenProgram: TOKEN_PROGRAM_ADDRESS }],
    [
      // SOURCES.md rounds the supply to "1e17"; the bytes hold 100_001_000_000_000_000.
      "spl-token/mint_FQuMNJ6U_solana_cli.json",
      {
        decimals: 9,
        supply: 100_001_000_000_000_000n,
        mintAuthority: "FXBXnxEEfwZJA1xnyJzKEhhJXmussKXKRdq5cAh19dbC",
        freezeAuthority: "FXBXnxEEfwZJA1xnyJzKEhhJXmussKXKRdq5cAh19dbC",
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      },
    ],
    ["spl-token/mint_wSOL_native_solana_cli.json", { decimals: 9, supply: 0n, mintAuthority: null, freezeAuthority: null, tokenProgram: TOKEN_PROGRAM_ADDRESS }],
    ["token-2022/mint_B4rGSdcB_with_extensions.json", { decimals: 9, supply: 1_000_000_000_000n, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS }],
    ["token-2022/mint_BtSLwAFD_with_extensions_vixen.json", { decimals: 9, supply: 0n, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS }],
  ])("%s", (fixture, expected) => {
    const mint = decodeMint(loadAccountFixture(fixture));
    expect(mint).toMatchObject({ ...expected, isInitialized: true });
  });
});

describe("decodeMint on the wrong accounts", () => {
  const pumpMint = loadAccountFixture("spl-token/mint_Df6yfrKC_pump.json");
  const t22Mint = loadAccountFixture("token-2022/mint_B4rGSdcB_with_extensions.json");

  it("refuses owners other than the two token programs", () => {
    expect(codeOf(() => decodeMint({ ...pumpMint, owner: address("11111111111111111111111111111111") }))).toBe("owner");
  });

  it("refuses a 165-byte SPL token account passed as a mint", () => {
    const tokenAccount = loadAccountFixture("spl-token/token_account_DNXgeM9E_wSOL_cpmm_create_pool_fee.json");
    expect(codeOf(() => decodeMint(tokenAccount))).toBe("size");
  });

  it("refuses an SPL Token mint with extension-like trailing bytes (only Token-2022 has extensions)", () => {
    expect(codeOf(() => decodeMint({ ...t22Mint, owner: TOKEN_PROGRAM_ADDRESS }))).toBe("size");
  });

  it("refuses a Token-2022 account whose AccountType byte (@165) is 2 = token account", () => {
    const data = t22Mint.data.slice();
    data[165] = 2;
    expect(codeOf(() => decodeMint({ ...t22Mint, data }))).toBe("discriminator");
  });

  it("refuses Token-2022 sizes between the base and the type byte", () => {
    expect(codeOf(() => decodeMint({ ...t22Mint, data: t22Mint.data.slice(0, 165) }))).toBe("size");
    expect(codeOf(() => decodeMint({ ...t22Mint, data: t22Mint.data.slice(0, 81) }))).toBe("size");
  });

  it.each([
    ["mint_authority COption tag 2 (u32 @0)", 0, 2, "invalid-tag"],
    ["is_initialized = 2 (@45)", 45, 2, "invalid-tag"],
    ["freeze_authority COption tag 7 (u32 @46)", 46, 7, "invalid-tag"],
  ])("throws a typed error for %s", (_, offset, value, code) => {
    const data = pumpMint.data.slice();
    data[offset] = value;
    expect(codeOf(() => decodeMint({ ...pumpMint, data }))).toBe(code);
  });

  it("reports an uninitialized mint instead of refusing it", () => {
    const data = pumpMint.data.slice();
    data[45] = 0;
    expect(decodeMint({ ...pumpMint, data }).isInitialized).toBe(false);
  });
});
