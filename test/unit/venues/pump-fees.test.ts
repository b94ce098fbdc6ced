import { readFileSync } from "node:fs";
import { address, getAddressEncoder, getProgramDerivedAddress } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { AccountDecodeError } from "../../../src/solana/accounts/decode-error";
import { PUMP_AMM_PROGRAM_ADDRESS, PUMP_PROGRAM_ADDRESS, USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import {
  PUMP_FEE_CONFIG_ADDRESS,
  PUMP_FEE_PROGRAM_ADDRESS,
  PUMPSWAP_FEE_CONFIG_ADDRESS,
  curveMarketCap,
  decodePumpFeeConfig,
  feeTierIndex,
  isCanonicalPumpPool,
  poolMarketCap,
  pumpFeeSchedule,
  type PumpFeeConfig,
} from "../../../src/venues/pump-fees";
import { findPumpPoolAuthorityAddress } from "../../../src/venues/pumpswap-pool";
import { fixturePath, loadAccountFixture, sourceField, withData, withOwner } from "../../helpers/fixtures";

/** PumpSwap's mainnet FeeConfig (slot 445186127; test/fixtures/SOURCES.md) and the rows its source's test pins. */
const fixture = loadAccountFixture("pumpswap/fee_config_5PHirr8.json");
type Row = [string, string, string, string];
const rows = (tiers: PumpFeeConfig["feeTiers"]): Row[] =>
  tiers.map((t) => [t.marketCapThreshold, t.fees.lpBps, t.fees.protocolBps, t.fees.creatorBps].map(String) as Row);
const rates = (f: PumpFeeConfig["flatFees"]) => [f.lpBps, f.protocolBps, f.creatorBps].map(String);
const SOL = 1_000_000_000n;

describe("pump-fees FeeConfig addresses", () => {
  it("are the fee program's PDAs of ['fee_config', program] for pump and pump_amm", async () => {
    const encoder = getAddressEncoder();
    const derive = async (program: string) =>
      (await getProgramDerivedAddress({ programAddress: PUMP_FEE_PROGRAM_ADDRESS, seeds: ["fee_config", encoder.encode(address(program))] }))[0];
    expect(await derive(PUMP_PROGRAM_ADDRESS)).toBe(PUMP_FEE_CONFIG_ADDRESS);
    expect(await derive(PUMP_AMM_PROGRAM_ADDRESS)).toBe(PUMPSWAP_FEE_CONFIG_ADDRESS);
    expect(fixture.address).toBe(PUMPSWAP_FEE_CONFIG_ADDRESS);
  });
});

describe("pump-fees FeeConfig decoder", () => {
  it("decodes PumpSwap's mainnet FeeConfig as its source states: 25 SOL tiers, 25 USDC tiers, exotic fees unset", () => {
    // Given the 4073-byte capture (the post-stable version) / When decoded
    const config = decodePumpFeeConfig(fixture);
    // Then every schedule equals the rows the source's own test pins
    expect(fixture.data.length).toBe(4073);
    expect(rates(config.flatFees)).toEqual(sourceField(fixture, "flatFees"));
    expect(rows(config.feeTiers)).toEqual(sourceField(fixture, "feeTiers"));
    expect(rows(config.stableFeeTiers)).toEqual(sourceField(fixture, "stableFeeTiers"));
    expect(rates(config.exoticFlatFees)).toEqual(sourceField(fixture, "exoticFlatFees"));
    expect(config.feeTiers).toHaveLength(25);
  });

  it("reads the version the length selects: no stable tiers below 4073 bytes, exotic fees only from 4097", () => {
    // Given the same bytes cut to the initialize size, and extended to the current size with exotic fees written
    const initial = decodePumpFeeConfig(withData(fixture, (d) => d.subarray(0, 2512)));
    const current = withData(fixture, (d) => {
      const out = new Uint8Array(4097);
      out.set(d);
      const view = new DataView(out.buffer);
      // exotic_flat_fees right after the stable tiers: 65 + (4 + 25·40) · 2 = 2073
      [30n, 40n, 50n].forEach((bps, i) => view.setBigUint64(2073 + 8 * i, bps, true));
      return out;
    });
    // Then the short one has the SOL tiers only, the long one its exotic fees
    expect(initial.stableFeeTiers).toEqual([]);
    expect(initial.feeTiers).toHaveLength(25);
    expect(rates(decodePumpFeeConfig(current).exoticFlatFees)).toEqual(["30", "40", "50"]);
    // and bytes past the selected version are never read: the 4073-byte capture keeps exotic fees unset
    expect(rates(decodePumpFeeConfig(withData(current, (d) => d.subarray(0, 4096))).exoticFlatFees)).toEqual(["0", "0", "0"]);
  });

  it("refuses what the program could not have written: another owner, discriminator, short account, too many tiers, none", () => {
    const refuse = (account: Parameters<typeof decodePumpFeeConfig>[0], reason: string) => {
      let error: unknown;
      try {
        decodePumpFeeConfig(account);
      } catch (e) {
        error = e;
      }
      expect(error, reason).toBeInstanceOf(AccountDecodeError);
      expect((error as AccountDecodeError).reason).toBe(reason);
    };
    refuse(withOwner(fixture, PUMP_AMM_PROGRAM_ADDRESS), "owner");
    refuse(withData(fixture, (d) => ((d[0] = d[0]! ^ 1), d)), "discriminator");
    refuse(withData(fixture, (d) => d.subarray(0, 2511)), "size");
    refuse(withData(fixture, (d) => (new DataView(d.buffer).setUint32(65, 51, true), d)), "too-many-items");
    refuse(withData(fixture, (d) => (new DataView(d.buffer).setUint32(65, 0, true), d)), "value");
    // the stable vector (its count right after the 25 SOL tiers, @1069) claiming 51 tiers
    refuse(withData(fixture, (d) => (new DataView(d.buffer).setUint32(1069, 51, true), d)), "too-many-items");
  });
});

describe("fee schedule selection (calculate_fee_tier, fees_for_quote_mint)", () => {
  const config = decodePumpFeeConfig(fixture);
  const tierAt = (marketCap: bigint) => feeTierIndex(config.feeTiers, marketCap);

  it("a market cap below a threshold stays in the tier under it; reaching it moves up; past the last stays in the last", () => {
    expect(tierAt(0n)).toBe(0);
    expect(tierAt(420n * SOL - 1n)).toBe(0);
    expect(tierAt(420n * SOL)).toBe(1);
    expect(tierAt(1470n * SOL - 1n)).toBe(1);
    expect(tierAt(1470n * SOL)).toBe(2);
    expect(tierAt(98_240n * SOL)).toBe(24);
    expect(tierAt(10n ** 30n)).toBe(24);
    // an unordered schedule is read as the program reads it: the last tier (in stored order) whose threshold is reached
    const unordered = [
      { marketCapThreshold: 100n, fees: config.feeTiers[0]!.fees },
      { marketCapThreshold: 10n, fees: config.feeTiers[1]!.fees },
    ];
    expect(feeTierIndex(unordered, 5n)).toBe(0);
    expect(feeTierIndex(unordered, 50n)).toBe(0); // under the first tier's threshold: the first tier, whatever follows
    expect(feeTierIndex(unordered, 500n)).toBe(1); // the last tier reached, though the first has the higher threshold
  });

  it("picks the schedule by pool and quote: SOL tiers, USDC tiers, flat fees for other quotes and non-canonical pools", () => {
    const pick = (isPumpPool: boolean, quoteMint: string, marketCap: bigint) => rates(pumpFeeSchedule(config, { isPumpPool, quoteMint: address(quoteMint), marketCap }).fees);
    // 100 000 000 000 atoms: tier 0 in lamports (100 SOL < 420 SOL), tier 1 in USDC atoms ($100k ≥ $59k)
    expect(pick(true, WSOL_MINT, 100n * SOL)).toEqual(["2", "93", "30"]);
    expect(pick(true, "11111111111111111111111111111111", 100n * SOL)).toEqual(["2", "93", "30"]);
    expect(pick(true, USDC_MINT, 100n * SOL)).toEqual(["20", "5", "95"]);
    // another quote: exotic fees are unset in this account, so the flat fees
    expect(pick(true, PUMP_PROGRAM_ADDRESS, 100n * SOL)).toEqual(["25", "5", "0"]);
    expect(pick(false, WSOL_MINT, 5_000n * SOL)).toEqual(["25", "5", "0"]);
    expect(pumpFeeSchedule(config, { isPumpPool: true, quoteMint: WSOL_MINT, marketCap: 5_000n * SOL }).schedule).toContain("tier 5 of 25");
  });

  it("on the state of mainnet buy 4pCgZ28W, picks the tier the fee program returned in that transaction (20 / 5 / 95)", () => {
    // Given the BuyEvent's pre-trade pool reserves (log "Program data:") and the fee program's return data of the same tx
    const tx = JSON.parse(readFileSync(fixturePath("transactions/pumpswap/vixen_4pCgZ28W_rpcjson.json"), "utf8")) as unknown;
    const logs = findLogs(tx);
    const event = logs.map((l) => (l.startsWith("Program data: ") ? Buffer.from(l.slice(14), "base64") : undefined)).find((b) => b?.subarray(0, 8).toString("hex") === "67f4521f2cf57777")!;
    const [poolBase, poolQuote] = [event.readBigUInt64LE(48), event.readBigUInt64LE(56)];
    const returned = Buffer.from(logs.find((l) => l.startsWith("Program return: pfeeUxB6"))!.split(" ")[3]!, "base64");
    // When the market cap is taken with a pump coin's 10^15 supply (the mint is not in the fixture; pump coins are
    // minted with exactly that, and a burn would only lower the cap: 572 SOL sits well inside 420–1470)
    const marketCap = poolMarketCap(poolQuote, poolBase, false, 1_000_000_000_000_000n);
    const chosen = pumpFeeSchedule(config, { isPumpPool: true, quoteMint: WSOL_MINT, marketCap }).fees;
    // Then our tier is the program's answer, and the event's own bps say the same
    expect(marketCap / SOL).toBe(572n);
    expect([chosen.lpBps, chosen.protocolBps, chosen.creatorBps]).toEqual([returned.readBigUInt64LE(0), returned.readBigUInt64LE(8), returned.readBigUInt64LE(16)]);
    expect([event.readBigUInt64LE(72), event.readBigUInt64LE(88), event.readBigUInt64LE(344)]).toEqual([20n, 5n, 95n]);
  });

  it("market caps: curves on a 10^15 supply (mayhem coins: the mint's), pools on the mint's (mayhem pools: 10^15)", () => {
    // a fresh curve: 30 SOL virtual against 1.073e15 virtual tokens ≈ 27.96 SOL
    expect(curveMarketCap(30n * SOL, 1_073_000_000_000_000n, false, 2n * 10n ** 15n)).toBe(27_958_993_476n);
    expect(curveMarketCap(30n * SOL, 1_073_000_000_000_000n, true, 2n * 10n ** 15n)).toBe(55_917_986_952n);
    expect(poolMarketCap(100n * SOL, 10n ** 14n, false, 5n * 10n ** 14n)).toBe(500n * SOL);
    expect(poolMarketCap(100n * SOL, 10n ** 14n, true, 5n * 10n ** 14n)).toBe(1_000n * SOL);
    expect(() => curveMarketCap(1n, 0n, false, 1n)).toThrow(AccountDecodeError);
    expect(() => poolMarketCap(1n, 0n, false, 1n)).toThrow(AccountDecodeError);
  });

  it("a canonical pool is one created by pump's pool authority of its base mint", async () => {
    const mint = address("3Sf6oKCeEqCuco4aYtKHHDTBYLAWHiL47QjvkW1UYDEG");
    expect(isCanonicalPumpPool(mint, await findPumpPoolAuthorityAddress(mint))).toBe(true);
    expect(isCanonicalPumpPool(mint, await findPumpPoolAuthorityAddress(WSOL_MINT))).toBe(false);
  });
});

function findLogs(value: unknown): string[] {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findLogs(item);
      if (found.length > 0) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "logMessages" && Array.isArray(item)) return item as string[];
      const found = findLogs(item);
      if (found.length > 0) return found;
    }
  }
  return [];
}
