import { describe, expect, it } from "vitest";
import { transferFees } from "../../../src/trades/swap-extraction";

describe("Token-2022 transfer fees split back over a shared reserve's incoming transfers", () => {
  it("finds the fee rate that reproduces the withheld total and charges each transfer as the program does", () => {
    // Given two incoming transfers of a 2% (200 bps) fee mint, as localnet's transfer-fee token moves them
    const amounts = [2_307_842_863_606_960n, 1_000_003n];
    const fees = amounts.map((a) => (a * 200n + 9_999n) / 10_000n);
    // When only their sum is known (visible transfers − the vault's balance change)
    // Then each transfer's own fee comes back
    expect(transferFees(amounts, fees[0]! + fees[1]!)).toEqual(fees);
  });

  it("falls back to shares in proportion to the amounts when no rate fits (a maximum-fee cap), summing exactly", () => {
    const amounts = [1_000_000n, 3_000_000n];
    const fees = transferFees(amounts, 5_001n); // 5,001 is no 2-transfer total at any whole bps here
    expect(fees.reduce((a, b) => a + b, 0n)).toBe(5_001n);
    expect(fees[1]! > fees[0]!).toBe(true);
  });
});
