import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { formatPercent, formatTokenAmount } from "../../../src/overview/amount-format";
import { aggregateByOwner, readHoldingSlice, readTokenHolding, summarizeHolders, type TokenHolding } from "../../../src/overview/holders";
import { BURN_OWNERS, classifyOwnerByAddress, classifyOwnerByProgram, VENUE_AUTHORITIES } from "../../../src/overview/liquidity-owners";
import { tokenOverviewSchema } from "../../../src/overview/overview-schema";
import { loadAccountFixture } from "../../helpers/fixtures";

const asAddress = (value: string) => value as Address;
const PUMP_MINT = asAddress("Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump");
const T22_MINT = asAddress("B4rGSdcBrmLEPUQXpZa91PMsRE3GqNcjLd6EMvM3yaj2");

function account(fixture: string) {
  const { address, owner, data } = loadAccountFixture(fixture);
  return { address: asAddress(address!), raw: { owner: asAddress(owner), data } };
}

describe("readTokenHolding on real token accounts", () => {
  it("reads mint, owner and amount of an SPL token account (DLMM reserve of EtAdVRLF)", () => {
    // Given the 165-byte reserve_x vault of the EtAdVRLF pump/SOL pair (owner = the pair, amount per the fixture)
    const { address, raw } = account("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json");
    // When it is read as a holding of its mint
    const holding = readTokenHolding(address, raw, PUMP_MINT);
    // Then the three fields come from offsets 0 / 32 / 64
    expect(holding).toEqual({ account: address, owner: "EtAdVRLFH22rjWh3mcUasKFF27WtHhsaCvK27tPFFWig", amount: 4_362_066_806n });
  });

  it("reads a Token-2022 token account with extensions (178 bytes)", () => {
    const { address, raw } = account("meteora-dlmm/B5Eia4cE_token2022_SOL/reserve_x_token2022_account.json");
    expect(readTokenHolding(address, raw, T22_MINT)).toEqual({
      account: address,
      owner: "B5Eia4cE71tKuEDaqPHucJLG2fxySKyKzLMewd2nUvoc",
      amount: 999_994_987n,
    });
  });

  it("refuses an account of another mint, a foreign owner program, a missing account and an uninitialized one", () => {
    const { address, raw } = account("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json");
    expect(readTokenHolding(address, raw, T22_MINT)).toBeNull();
    expect(readTokenHolding(address, { ...raw, owner: asAddress("11111111111111111111111111111111") }, PUMP_MINT)).toBeNull();
    expect(readTokenHolding(address, null, PUMP_MINT)).toBeNull();
    const uninitialized = raw.data.slice();
    uninitialized[108] = 0;
    expect(readTokenHolding(address, { ...raw, data: uninitialized }, PUMP_MINT)).toBeNull();
    expect(readTokenHolding(address, { ...raw, data: raw.data.slice(0, 100) }, PUMP_MINT)).toBeNull();
  });
});

describe("readHoldingSlice (getProgramAccounts with dataSlice owner + amount)", () => {
  it("reads the same owner and amount as the whole account", () => {
    const { address, raw } = account("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json");
    expect(readHoldingSlice(address, raw.data.slice(32, 72))).toEqual(readTokenHolding(address, raw, PUMP_MINT));
    expect(readHoldingSlice(address, raw.data.slice(32, 71))).toBeNull();
  });
});

describe("owner classification", () => {
  it("labels a DLMM pair (an account owned by the DLMM program) as liquidity, from the pair's real owner", () => {
    const pair = loadAccountFixture("meteora-dlmm/EtAdVRLF_pump_SOL/lb_pair.json");
    expect(classifyOwnerByProgram(asAddress(pair.address!), asAddress(pair.owner))).toEqual({ label: "liquidity", venue: "meteora-dlmm" });
  });

  it("labels every venue authority by address alone, before any account is read", () => {
    for (const [authority, venue] of VENUE_AUTHORITIES) {
      expect(classifyOwnerByAddress(authority)).toEqual({ label: "liquidity", venue });
    }
  });

  it("labels burn owners by address, and a wallet (system-owned or no account) as a holder", () => {
    for (const burn of BURN_OWNERS) expect(classifyOwnerByAddress(burn)).toEqual({ label: "burn", venue: null });
    const wallet = asAddress("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");
    expect(classifyOwnerByAddress(wallet)).toBeUndefined();
    expect(classifyOwnerByProgram(wallet, asAddress("11111111111111111111111111111111"))).toEqual({ label: "holder", venue: null });
    expect(classifyOwnerByProgram(wallet, null)).toEqual({ label: "holder", venue: null });
  });
});

describe("amount formatting", () => {
  it.each([
    [0n, 6, "0"],
    [1n, 6, "0.000001"],
    [1_500_000n, 6, "1.5"],
    [1_000_000_000_000_000n, 6, "1000000000"],
    [18_446_744_073_709_551_615n, 9, "18446744073.709551615"],
    [42n, 0, "42"],
  ])("formatTokenAmount(%s, %s) = %s", (raw, decimals, expected) => {
    expect(formatTokenAmount(raw, decimals)).toBe(expected);
  });

  it.each([
    [1n, 3n, "33.3333"],
    [2n, 3n, "66.6667"],
    [1n, 1n, "100.0000"],
    [0n, 5n, "0.0000"],
    [5n, 0n, "0.0000"],
    [1n, 2_000_000n, "0.0001"], // 0.00005 rounds half up
    [1n, 2_000_001n, "0.0000"],
  ])("formatPercent(%s, %s) = %s", (part, whole, expected) => {
    expect(formatPercent(part, whole)).toBe(expected);
  });
});

/** n distinct fake owners/accounts: base58-looking strings are enough for the pure summary. */
const owner = (i: number) => asAddress(`Owner${String(i).padStart(4, "0")}`);
const holding = (o: Address, amount: bigint, i = 0): TokenHolding => ({ account: asAddress(`${o}-acct${i}`), owner: o, amount });

describe("summarizeHolders", () => {
  const curve = asAddress("CurveOwner");
  const incinerator = [...BURN_OWNERS][0]!;
  const classify = (o: Address) =>
    o === curve ? classifyOwnerByProgram(o, asAddress("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P")) : classifyOwnerByProgram(o, null);

  it("sums accounts per owner, sets liquidity and burn aside, and ranks the rest", () => {
    // Given a curve holding 500, a burn address 100, and 25 wallets (wallet 0 split over two accounts)
    const holdings: TokenHolding[] = [holding(curve, 500n), holding(incinerator, 100n), holding(owner(0), 30n, 0), holding(owner(0), 45n, 1)];
    for (let i = 1; i < 25; i++) holdings.push(holding(owner(i), BigInt(60 - i)));
    // When summarised against a supply of 2000 (decimals 1)
    const summary = summarizeHolders({ holdings, scope: "all", classify, supply: 2000n, decimals: 1 });
    // Then wallet 0 ranks first with 75, and the top 10/20 exclude curve and burn
    const wallets = [75n, ...Array.from({ length: 24 }, (_, i) => BigInt(59 - i))];
    const top10 = wallets.slice(0, 10).reduce((a, b) => a + b, 0n);
    const top20 = wallets.slice(0, 20).reduce((a, b) => a + b, 0n);
    expect(summary.top10HoldersBalance).toBe(formatTokenAmount(top10, 1));
    expect(summary.top10HoldersPercent).toBe(formatPercent(top10, 2000n));
    expect(summary.top20HoldersBalance).toBe(formatTokenAmount(top20, 1));
    expect(summary.top20HoldersPercent).toBe(formatPercent(top20, 2000n));
    // And the list shows the two set-aside owners plus exactly 20 holders, largest first
    expect(summary.holders).toHaveLength(22);
    expect(summary.holders[0]).toEqual({ owner: curve, balance: "50", percent: "25.0000", label: "liquidity", venue: "pumpfun" });
    expect(summary.holders.find((h) => h.owner === incinerator)).toMatchObject({ label: "burn", balance: "10", percent: "5.0000" });
    expect(summary.holders.filter((h) => h.label === "holder").map((h) => h.owner)).toEqual(
      [owner(0), ...Array.from({ length: 19 }, (_, i) => owner(i + 1))],
    );
    expect(summary.supply).toBe("2000");
    expect(summary.exact).toBe(true);
  });

  it("is exact from the largest accounts only when they hold 20 holders", () => {
    // Given the 20 largest accounts of a mint with more accounts: a curve and 19 wallets
    const largest = [holding(curve, 500n), ...Array.from({ length: 19 }, (_, i) => holding(owner(i), BigInt(100 - i)))];
    const summary = summarizeHolders({ holdings: largest, scope: "largest", classify, supply: 10_000n, decimals: 0 });
    // Then holder 20 may be any unseen account: not provably exact
    expect(summary.exact).toBe(false);
    // But with 20 wallets among them, no unseen account can outrank the 20th
    const twenty = [...largest.slice(1), holding(owner(99), 50n)];
    expect(summarizeHolders({ holdings: twenty, scope: "largest", classify, supply: 10_000n, decimals: 0 }).exact).toBe(true);
  });

  it("is not exact when an owner ranked before the 20th holder could not be classified", () => {
    const holdings = Array.from({ length: 25 }, (_, i) => holding(owner(i), BigInt(100 - i)));
    const unread = (o: Address) => (o === owner(3) ? undefined : classify(o));
    const summary = summarizeHolders({ holdings, scope: "all", classify: unread, supply: 10_000n, decimals: 0 });
    expect(summary.exact).toBe(false);
    // It still counts as a holder: most owners are wallets
    expect(summary.holders.find((h) => h.owner === owner(3))?.label).toBe("holder");
    const lateUnread = (o: Address) => (o === owner(24) ? undefined : classify(o));
    expect(summarizeHolders({ holdings, scope: "all", classify: lateUnread, supply: 10_000n, decimals: 0 }).exact).toBe(true);
  });

  it("leaves empty owners out, and gives zeros when there are no holders", () => {
    const summary = summarizeHolders({ holdings: [holding(owner(1), 0n), holding(curve, 7n)], scope: "all", classify, supply: 7n, decimals: 0 });
    expect(summary.holders).toEqual([{ owner: curve, balance: "7", percent: "100.0000", label: "liquidity", venue: "pumpfun" }]);
    expect(summary).toMatchObject({ top10HoldersBalance: "0", top10HoldersPercent: "0.0000", top20HoldersBalance: "0" });
  });

  it("orders equal balances by owner so the answer is stable", () => {
    expect(aggregateByOwner([holding(owner(2), 5n), holding(owner(1), 5n), holding(owner(3), 6n)]).map((o) => o.owner)).toEqual([
      owner(3),
      owner(1),
      owner(2),
    ]);
  });

  it("produces values the response schema accepts", () => {
    const summary = summarizeHolders({ holdings: [holding(owner(1), 123_456n)], scope: "all", classify, supply: 1_000_000n, decimals: 6 });
    const holderShape = tokenOverviewSchema.shape.holders;
    expect(holderShape.safeParse(summary.holders).success).toBe(true);
    expect(summary.holders[0]).toMatchObject({ balance: "0.123456", percent: "12.3456" });
  });
});
