import { address, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { toDecimalString } from "../../../src/math/fixed-point";
import { USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import {
  PUMP_GLOBAL_ADDRESS,
  decodePumpBondingCurve,
  decodePumpGlobal,
  findPumpBondingCurveAddress,
  findPumpBondingCurveTokenVault,
  listPumpBondingCurveCandidates,
  priceFromPumpBondingCurve,
  requiredAccountsForPumpBondingCurve,
} from "../../../src/venues/pump-bonding-curve";
import { AccountDecodeError } from "../../../src/solana/accounts/decode-error";
import { loadAccountFixture, ratioToNumber, relErr, withData, withOwner } from "../../helpers/fixtures";

const curve150 = loadAccountFixture("pumpfun/bonding_curve_HWxwYxr4.json");
const curve49 = loadAccountFixture("pumpfun/bonding_curve_legacy49b.json");
const global = loadAccountFixture("pumpfun/global_4wTV1Ymi.json");
const globalOlder = loadAccountFixture("pumpfun/global_4wTV1Ymi_older_fee100.json");
const mint = address("7uUTzNs4UFgarqY6TyRnW3ZnMFpcsw1iookL8R5KCGwA");
const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : 6);

describe("pump bonding curve decoding", () => {
  it("decodes the 150-byte curve HWxwYxr4 as Carbon asserts", () => {
    // Given the mainnet BondingCurve HWxwYxr4 (150 B)
    // When it is decoded
    const curve = decodePumpBondingCurve(curve150);
    // Then every reserve matches the Carbon test, and the default quote_mint means SOL
    expect(curve).toEqual({
      virtualTokenReserves: 1072911112000000n,
      virtualQuoteReserves: 30002485430n,
      realTokenReserves: 793011112000000n,
      realQuoteReserves: 2485430n,
      tokenTotalSupply: 1000000000000000n,
      complete: false,
      quoteMint: WSOL_MINT,
    });
  });

  it("decodes the legacy 49-byte layout (no creator, no quote_mint) as SOL-paired", () => {
    // Given a legacy 49-byte curve
    expect(curve49.data.length).toBe(49);
    // When it is decoded
    const curve = decodePumpBondingCurve(curve49);
    // Then the Carbon-asserted values come out and the quote is SOL
    expect(curve).toEqual({
      virtualTokenReserves: 1072906494066221n,
      virtualQuoteReserves: 30002615555n,
      realTokenReserves: 793006494066221n,
      realQuoteReserves: 2615555n,
      tokenTotalSupply: 1000000000000000n,
      complete: false,
      quoteMint: WSOL_MINT,
    });
  });

  it("decodes Global's initial_real_token_reserves in both snapshots", () => {
    // Given the current and an older Global account / When decoded / Then both carry 793.1M tokens (6 dp)
    expect(decodePumpGlobal(global).initialRealTokenReserves).toBe(793100000000000n);
    expect(decodePumpGlobal(globalOlder).initialRealTokenReserves).toBe(793100000000000n);
  });

  it("rejects a wrong owner, a short account and a foreign discriminator", () => {
    // Given valid bytes under the PumpSwap program, truncated to 48 bytes, or with the Global discriminator
    const wrongOwner = withOwner(curve150, "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA");
    const short = withData(curve49, (d) => d.subarray(0, 48));
    const wrongDisc = withData(curve150, (d) => (d.set(global.data.subarray(0, 8)), d));
    // When decoded / Then each fails with its reason
    expect(() => decodePumpBondingCurve(wrongOwner)).toThrow(expect.objectContaining({ reason: "owner" }));
    expect(() => decodePumpBondingCurve(short)).toThrow(expect.objectContaining({ reason: "size" }));
    expect(() => decodePumpBondingCurve(wrongDisc)).toThrow(AccountDecodeError);
    expect(() => decodePumpBondingCurve(wrongDisc)).toThrow(/discriminator/);
    expect(() => decodePumpGlobal(curve150)).toThrow(/discriminator/);
  });
});

describe("pump bonding curve pricing", () => {
  it("prices the token in SOL from virtual reserves, exactly", () => {
    // Given HWxwYxr4 and Global
    const curve = decodePumpBondingCurve(curve150);
    // When priced
    const price = priceFromPumpBondingCurve(curve, mint, { global }, decimalsOf);
    // Then price = (vqr / 1e9) / (vtr / 1e6), matching an independent float computation
    const expected = 30002485430 / 1e9 / (1072911112000000 / 1e6);
    expect(relErr(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-9);
    expect(toDecimalString(price.priceQuotePerBase, 12)).toBe("0.0000000279636263381");
    expect(price).toMatchObject({
      kind: "pump-bonding-curve",
      baseMint: mint,
      quoteMint: WSOL_MINT,
      quoteLiquidity: 2485430n,
      baseReserve: 793011112000000n,
      tradable: true,
      extra: { complete: false },
    });
    // And progress = 1 − 793011112 / 793100000 (tokens sold so far)
    expect(ratioToNumber(price.extra.curveProgress!)).toBeCloseTo(1 - 793011112 / 793100000, 12);
  });

  it("needs only Global besides the curve", () => {
    expect(requiredAccountsForPumpBondingCurve()).toEqual({ global: PUMP_GLOBAL_ADDRESS });
  });
});

describe("pump bonding curve derivation", () => {
  it("derives the curve PDA and its token vault of the buy in Carbon's fixture", async () => {
    // Given the buy instruction's mint 7uUTzNs4 (accounts: mint 2, bonding_curve 3, associated_bonding_curve 4)
    // When the PDA and the ATA are derived
    const curve = await findPumpBondingCurveAddress(mint);
    const vault = await findPumpBondingCurveTokenVault(mint);
    // Then they are the accounts the instruction used
    expect(curve).toBe("CxHfPAgH6PNLnfq5n5mq4tZK1aQCsMdeygwqaUSjsceN");
    expect(vault).toBe("3AnftTe9GeUkp3HQJTm7tWLeVkojdFCyd33u4XEAMTpe");
    expect(await listPumpBondingCurveCandidates(mint)).toEqual([
      { pool: curve, kind: "pump-bonding-curve", quoteMint: null },
    ]);
  });
});

/**
 * BondingCurve fields of the newest pump IDL (pump-fun/pump-public-docs @1b82215, 2026-05-19: "Add creator fee docs"):
 * creator @49, is_mayhem_mode @81, is_cashback_coin @82, quote_mint @83 (115 B of data; accounts are 150 B). The
 * sell/buy docs top shorter curves up to 115 B. None of the flags enters the curve math: price = virtual quote /
 * virtual token reserves for every coin; mayhem and cashback only change who receives fees.
 */
describe("pump bonding curve flags and quote mints (newest IDL)", () => {
  const withFields = (fields: { mayhem?: boolean; cashback?: boolean; quoteMint?: Uint8Array; length?: number }) =>
    withData(curve150, (d) => {
      if (fields.mayhem !== undefined) d[81] = fields.mayhem ? 1 : 0;
      if (fields.cashback !== undefined) d[82] = fields.cashback ? 1 : 0;
      if (fields.quoteMint) d.set(fields.quoteMint, 83);
      return fields.length === undefined ? d : d.subarray(0, fields.length);
    });

  it("a mayhem-mode cashback coin prices exactly like the same curve without the flags", () => {
    // Given HWxwYxr4 with is_mayhem_mode and is_cashback_coin set
    const flagged = decodePumpBondingCurve(withFields({ mayhem: true, cashback: true }));
    // When decoded and priced / Then reserves, price, liquidity and tradability are those of the unflagged curve
    expect(flagged).toEqual(decodePumpBondingCurve(curve150));
    const price = priceFromPumpBondingCurve(flagged, mint, { global }, decimalsOf);
    expect(price).toEqual(priceFromPumpBondingCurve(decodePumpBondingCurve(curve150), mint, { global }, decimalsOf));
  });

  it("a USDC-paired curve (quote_mint @83) is quoted in USDC with USDC's 6 decimals", () => {
    // Given the curve with quote_mint = USDC (the 91db680 "USDC paired coins" layout)
    const usdcCurve = decodePumpBondingCurve(withFields({ quoteMint: getAddressEncoder().encode(USDC_MINT) as Uint8Array }));
    expect(usdcCurve.quoteMint).toBe(USDC_MINT);
    // When priced / Then price = (vqr / 1e6) / (vtr / 1e6): the same atoms read in USDC units
    const price = priceFromPumpBondingCurve(usdcCurve, mint, { global }, () => 6);
    expect(price.quoteMint).toBe(USDC_MINT);
    expect(relErr(ratioToNumber(price.priceQuotePerBase), 30002485430 / 1072911112000000)).toBeLessThanOrEqual(1e-12);
  });

  it("a 115-byte curve (the size buy/sell top legacy curves up to) decodes with its quote mint", () => {
    const topped = withFields({ length: 115 });
    expect(topped.data.length).toBe(115);
    expect(decodePumpBondingCurve(topped)).toEqual(decodePumpBondingCurve(curve150));
  });
});

describe("pump bonding curve: every account size on mainnet, and quotes in other tokens (quote_mint)", () => {
  /** Real mainnet curves of 125 and 151 bytes (test/fixtures/SOURCES.md): both SOL-paired (default quote_mint). */
  const curve125 = loadAccountFixture("pumpfun/bonding_curve_4f7K69yW_125b.json");
  const curve151 = loadAccountFixture("pumpfun/bonding_curve_95haiQj2_151b.json");
  const u64At = (d: Uint8Array, o: number) => new DataView(d.buffer, d.byteOffset).getBigUint64(o, true);
  const MEMECOIN = address("Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump");

  it("decodes the real 125- and 151-byte curves as SOL-paired, reserves at the layout's offsets", async () => {
    // The 151-byte curve is the PDA of its mint, as its source says
    expect(await findPumpBondingCurveAddress(address("AAS4ggQ6KjqjNf8LkB27S2DZDQrGo126KfT4cesQpump"))).toBe(curve151.address);
    for (const account of [curve125, curve151]) {
      const curve = decodePumpBondingCurve(account);
      expect(curve.quoteMint).toBe(WSOL_MINT);
      expect(curve.virtualTokenReserves).toBe(u64At(account.data, 8));
      expect(curve.virtualQuoteReserves).toBe(u64At(account.data, 16));
      expect(curve.tokenTotalSupply).toBe(1_000_000_000_000_000n);
      expect(curve.complete).toBe(false);
    }
  });

  it("reads quote_mint @83 on curves of 125, 151 and 256 bytes: a coin quoted in another pump coin uses that coin's decimals", () => {
    for (const size of [125, 151, 256]) {
      // Given the real 151-byte curve resized to `size` with quote_mint = a memecoin (bytes past 115 are not read)
      const memeQuoted = withData(curve151, (d) => {
        const out = new Uint8Array(size).fill(0xab);
        out.set(d.subarray(0, Math.min(size, d.length)));
        out.set(getAddressEncoder().encode(MEMECOIN) as Uint8Array, 83);
        return out;
      });
      // When decoded and priced
      const curve = decodePumpBondingCurve(memeQuoted);
      expect(curve.quoteMint).toBe(MEMECOIN);
      const price = priceFromPumpBondingCurve(curve, mint, { global }, () => 6);
      // Then the price is virtual quote / virtual token reserves in the memecoin's units, liquidity its real reserve
      expect(price.quoteMint).toBe(MEMECOIN);
      expect(relErr(ratioToNumber(price.priceQuotePerBase), Number(u64At(curve151.data, 16)) / Number(u64At(curve151.data, 8)))).toBeLessThanOrEqual(1e-12);
      expect(price.quoteLiquidity).toBe(u64At(curve151.data, 32));
    }
  });
});
