/**
 * Circulating supply leaves out what the incinerator holds — but only token accounts of the mint that the incinerator
 * owns count; anything else found at the derived addresses counts 0.
 */
import { getAddressDecoder, getAddressEncoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { burnAccountsOf, burnedBalance, circulatingSupply } from "../../../src/pricing/circulating-supply";
import { findAssociatedTokenAddress, INCINERATOR_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WSOL_MINT } from "../../../src/solana/well-known";

const MINT = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263" as Address; // BONK
const OTHER = getAddressDecoder().decode(new Uint8Array(32).fill(7));

/** A 165-byte token account, annotated: mint @0, owner @32, amount u64 @64, state @108 (1 = initialized). */
function tokenAccount(mint: Address, owner: Address, amount: bigint, program: Address = TOKEN_PROGRAM_ADDRESS) {
  const data = new Uint8Array(165);
  data.set(getAddressEncoder().encode(mint), 0);
  data.set(getAddressEncoder().encode(owner), 32);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  data[108] = 1;
  return { owner: program, data };
}

describe("circulating supply", () => {
  it("the burn accounts are the incinerator's ATAs under both token programs", async () => {
    expect(await burnAccountsOf(MINT)).toEqual([
      await findAssociatedTokenAddress(INCINERATOR_ADDRESS, MINT, TOKEN_PROGRAM_ADDRESS),
      await findAssociatedTokenAddress(INCINERATOR_ADDRESS, MINT, TOKEN_2022_PROGRAM_ADDRESS),
    ]);
  });

  it("sums the incinerator's holdings of the mint; missing, foreign or malformed accounts count 0", async () => {
    // Given the two burn accounts, and lookups that put various things there
    const [classic, t22] = (await burnAccountsOf(MINT)) as [Address, Address];
    const sum = (found: Record<string, { owner: Address; data: Uint8Array } | null>) => burnedBalance(MINT, [classic, t22], (a) => found[a]);
    // Then only token accounts of this mint owned by the incinerator count
    expect(sum({ [classic]: tokenAccount(MINT, INCINERATOR_ADDRESS, 500n), [t22]: null })).toBe(500n);
    expect(sum({ [classic]: null, [t22]: tokenAccount(MINT, INCINERATOR_ADDRESS, 7n, TOKEN_2022_PROGRAM_ADDRESS) })).toBe(7n);
    expect(sum({ [classic]: tokenAccount(WSOL_MINT, INCINERATOR_ADDRESS, 500n) })).toBe(0n); // another mint
    expect(sum({ [classic]: tokenAccount(MINT, OTHER, 500n) })).toBe(0n); // another owner
    expect(sum({ [classic]: { owner: OTHER, data: tokenAccount(MINT, INCINERATOR_ADDRESS, 500n).data } })).toBe(0n); // not a token program's
    expect(sum({ [classic]: { owner: TOKEN_PROGRAM_ADDRESS, data: new Uint8Array(12) } })).toBe(0n); // truncated
  });

  it("supply less the burnt balance, never below zero", () => {
    expect(circulatingSupply(1_000n, 250n)).toBe(750n);
    expect(circulatingSupply(1_000n, 0n)).toBe(1_000n);
    expect(circulatingSupply(100n, 250n)).toBe(0n);
  });
});
