/**
 * Raydium LaunchLab on real mainnet data: pool 7L2sWFH3 (SNAP-quoted, read 2026-09-11) and transaction 5LzhiGZB (a
 * wSOL pool's creation and first buy, slot 372149510), with raydium-sdk-V2 0.2.58-alpha's curve math written out here
 * as the independent oracle (`getPoolPrice` per curve, `buyExactIn`, `splitFee`). Positions come from the program facts
 * (test/fixtures/program-facts/raydium_launchlab.facts.json).
 */
import { readFileSync } from "node:fs";
import { address, getAddressEncoder, getBase58Decoder, getU64Encoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  RAYDIUM_LAUNCHLAB_AUTHORITY_ADDRESS,
  RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS,
  decodeRaydiumLaunchLabGlobalConfig,
  decodeRaydiumLaunchLabPlatformConfig,
  decodeRaydiumLaunchLabPool,
  decodeRaydiumLaunchLabTradeEvent,
  findRaydiumLaunchLabEventAuthorityAddress,
  findRaydiumLaunchLabGlobalConfigAddress,
  findRaydiumLaunchLabPoolAddress,
  findRaydiumLaunchLabVaultAddress,
  launchLabFeeRates,
  listRaydiumLaunchLabPoolCandidates,
  priceFromRaydiumLaunchLabPool,
  raydiumLaunchLabPoolAdapter,
  raydiumLaunchLabPoolGraduation,
  raydiumLaunchLabPoolGraduationFromEvent,
  raydiumLaunchLabPoolLifecycle,
  raydiumLaunchLabSwap,
  raydiumLaunchLabSwappedPool,
  raydiumLaunchLabSwapReserves,
} from "../../../src/venues/raydium-launchlab";
import { findPda } from "../../../src/venues/pda";
import { fixturePath, loadAccountFixture, ratioToNumber, relErr, withData, withOwner } from "../../helpers/fixtures";
import { loadTransaction } from "../trades/transaction-fixtures";
import { instructionsOf, programDataLogs } from "./venue-transactions";

const snapPool = loadAccountFixture("raydium-launchlab/pool_state_7L2sWFH3_SNAP.json");
const SNAP = address("SNAPcESrvnH8yUdgeMF6xm1hym9b6hW6s8YeqeHdZFz");
const SNAP_BASE = address("ALvT2usBGUC8C21dDiXpwAGVwA3x1GBKtut3VFWQcX8x");
const creation = loadTransaction("raydium-launchlab/vixen_5LzhiGZB_rpcjson.json");

interface Facts {
  instructions: { name: string; discriminator: number[]; accounts: string[] }[];
  events: { name: string; discriminator: number[] }[];
  accounts: { name: string; discriminator: number[] }[];
  layouts: Record<string, { fields: Record<string, number> }>;
}
const facts = JSON.parse(readFileSync(fixturePath("program-facts/raydium_launchlab.facts.json"), "utf8")) as Facts;
const hex = (bytes: number[]) => Buffer.from(bytes).toString("hex");
const factIx = (name: string) => facts.instructions.find((i) => i.name === name)!;

/**
 * A GlobalConfig (371 B) as the program writes one: only the fields pricing reads are set. No real GlobalConfig dump is
 * public; the pool's own config address proves which curve it is (see "derivation" below).
 */
function globalConfig(quoteMint: Address, curveType: number, tradeFeeRate = 2_500n): AccountBytes {
  const data = new Uint8Array(371);
  data.set(Buffer.from(hex(facts.accounts.find((a) => a.name === "GlobalConfig")!.discriminator), "hex"), 0);
  const at = facts.layouts.GlobalConfig!.fields;
  data[at.curve_type!] = curveType;
  data.set(getU64Encoder().encode(tradeFeeRate), at.trade_fee_rate!);
  data.set(getAddressEncoder().encode(quoteMint), at.quote_mint!);
  return { owner: RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, data };
}

describe("LaunchLab PoolState decoding (7L2sWFH3, SNAP-quoted)", () => {
  it("decodes the values its source asserts, and the reserves beside them", () => {
    const pool = decodeRaydiumLaunchLabPool(snapPool);
    expect(pool).toMatchObject({
      baseMint: SNAP_BASE,
      quoteMint: SNAP,
      baseDecimals: 6,
      quoteDecimals: 6,
      status: 0,
      supply: 1_000_000_000n * 10n ** 6n,
      totalBaseSell: 793_100_000n * 10n ** 6n,
      migrateType: 1,
      virtualBase: 1073025605605344n,
      virtualQuote: 543560805n,
      realBase: 2715477040975n,
      realQuote: 1379073n,
      totalQuoteFundRaising: 1540045163n,
      quoteProtocolFee: 1119161n,
      globalConfig: "6GB4wD9359bGzbj44nGVsGDLou3Gg1fhQGoEMyMfKNaQ",
      platformConfig: "4E876qZTE9FJMrBzgVtBrSrzz2TLivB5Y5QXPjB4gZL7",
      baseVault: "2ZwH1hZr6jMY1n4ytrVRD6ySEcvSMHFD7sGQYoZQtdzY",
      quoteVault: "7HcFHeCsR1ntYQ88zeXSQUzSeT6Tkq2zWL7YfwsF99JY",
    });
    const source = snapPool.json.expected_decoded_from_source as Record<string, unknown>;
    expect(pool.baseMint).toBe(source.base_mint);
    expect(pool.supply).toBe(BigInt(source.supply_tokens as number) * 10n ** 6n);
  });

  it("reads every field at the offset of the program facts", () => {
    const at = facts.layouts.PoolState!.fields;
    const decoded = decodeRaydiumLaunchLabPool(snapPool);
    const u64At = (o: number) => Buffer.from(snapPool.data).readBigUInt64LE(o);
    expect(decoded.virtualBase).toBe(u64At(at.virtual_base!));
    expect(decoded.realQuote).toBe(u64At(at.real_quote!));
    expect(decoded.totalQuoteFundRaising).toBe(u64At(at.total_quote_fund_raising!));
    expect(snapPool.data[at.status!]).toBe(decoded.status);
    expect(facts.layouts.PoolState).toMatchObject({ size: snapPool.data.length });
  });

  it("refuses a CPMM owner, another size and another discriminator", () => {
    expect(() => decodeRaydiumLaunchLabPool(withOwner(snapPool, "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C"))).toThrow(/owner/);
    expect(() => decodeRaydiumLaunchLabPool(withData(snapPool, (d) => d.subarray(0, 428)))).toThrow(/size/);
    expect(() => decodeRaydiumLaunchLabPool(withData(snapPool, (d) => ((d[0] = 0), d)))).toThrow(/discriminator/);
    expect(() => decodeRaydiumLaunchLabGlobalConfig(withOwner(globalConfig(SNAP, 0), "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA"))).toThrow(/owner/);
  });
});

describe("LaunchLab derivation", () => {
  it("derives 7L2sWFH3 from its mints and its GlobalConfig as SNAP, constant-product curve, index 0", async () => {
    expect(await findRaydiumLaunchLabPoolAddress(SNAP_BASE, SNAP)).toBe(snapPool.address);
    // the config PDA seeds the curve type: only curve 0 / index 0 gives the pool's config
    expect(await findRaydiumLaunchLabGlobalConfigAddress(SNAP, 0, 0)).toBe("6GB4wD9359bGzbj44nGVsGDLou3Gg1fhQGoEMyMfKNaQ");
    expect(await findRaydiumLaunchLabGlobalConfigAddress(SNAP, 1, 0)).not.toBe("6GB4wD9359bGzbj44nGVsGDLou3Gg1fhQGoEMyMfKNaQ");
    expect(await findRaydiumLaunchLabGlobalConfigAddress(SNAP, 2, 0)).not.toBe("6GB4wD9359bGzbj44nGVsGDLou3Gg1fhQGoEMyMfKNaQ");
    expect(await listRaydiumLaunchLabPoolCandidates(SNAP_BASE, [WSOL_MINT, SNAP, SNAP_BASE])).toEqual([
      { pool: await findRaydiumLaunchLabPoolAddress(SNAP_BASE, WSOL_MINT), kind: "raydium-launchlab", quoteMint: WSOL_MINT },
      { pool: snapPool.address, kind: "raydium-launchlab", quoteMint: SNAP },
    ]);
  });

  it("derives the creation's pool, vaults, wSOL config, authority and event authority (5LzhiGZB)", async () => {
    const init = instructionsOf(creation).find((ix) => ix.program === RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS && !ix.inner)!;
    const names = factIx("initialize_v2").accounts;
    const named = (name: string) => init.accounts[names.indexOf(name)]!;
    const pool = named("pool_state");
    expect(await findRaydiumLaunchLabPoolAddress(named("base_mint"), named("quote_mint"))).toBe(pool);
    expect(await findRaydiumLaunchLabVaultAddress(pool, named("base_mint"))).toBe(named("base_vault"));
    expect(await findRaydiumLaunchLabVaultAddress(pool, named("quote_mint"))).toBe(named("quote_vault"));
    expect(await findRaydiumLaunchLabGlobalConfigAddress(WSOL_MINT, 0, 0)).toBe(named("global_config"));
    expect(await findPda(RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, ["vault_auth_seed"])).toBe(named("authority"));
    expect(named("authority")).toBe(RAYDIUM_LAUNCHLAB_AUTHORITY_ADDRESS);
    expect(await findRaydiumLaunchLabEventAuthorityAddress()).toBe(named("event_authority"));
  });
});

/** raydium-sdk-V2 `getPoolPrice` of each curve, in floating point (the SDK uses Decimal). */
const sdkPrice = {
  0: (p: { virtualBase: bigint; virtualQuote: bigint; realBase: bigint; realQuote: bigint }) =>
    Number(p.virtualQuote + p.realQuote) / Number(p.virtualBase - p.realBase),
  1: (p: { virtualBase: bigint; virtualQuote: bigint }) => Number(p.virtualQuote) / Number(p.virtualBase),
  2: (p: { virtualBase: bigint; realBase: bigint }) => (Number(p.virtualBase) * Number(p.realBase)) / 2 ** 64,
} as const;

describe("LaunchLab price on the curve (SDK getPoolPrice)", () => {
  const pool = decodeRaydiumLaunchLabPool(snapPool);

  it("constant product: (virtual_quote + real_quote) / (virtual_base − real_base), SNAP per token", () => {
    const price = priceFromRaydiumLaunchLabPool(pool, { globalConfig: globalConfig(SNAP, 0) });
    expect(relErr(ratioToNumber(price.priceQuotePerBase), sdkPrice[0](pool) * 10 ** (6 - 6))).toBeLessThanOrEqual(1e-12);
    expect(price).toMatchObject({
      kind: "raydium-launchlab",
      baseMint: SNAP_BASE,
      quoteMint: SNAP,
      quoteLiquidity: 1379073n,
      baseReserve: 793_100_000_000_000n - 2715477040975n,
      tradable: true,
      extra: { complete: false, curveProgress: { num: 1379073n, den: 1540045163n } },
    });
  });

  it("fixed price: virtual_quote / virtual_base; linear: virtual_base × real_base / 2^64", () => {
    const fixed = priceFromRaydiumLaunchLabPool(pool, { globalConfig: globalConfig(SNAP, 1) });
    expect(relErr(ratioToNumber(fixed.priceQuotePerBase), sdkPrice[1](pool))).toBeLessThanOrEqual(1e-12);
    // a linear pool's virtual_base is its slope a (Q64): a real slope of that curve family, 2 × fund / sold² × 2^64
    const slope = (2n * 85_000_000_000n * (1n << 64n)) / (793_100_000_000_000n * 793_100_000_000_000n);
    const linear = { ...pool, virtualBase: slope, virtualQuote: 0n };
    const price = priceFromRaydiumLaunchLabPool(linear, { globalConfig: globalConfig(SNAP, 2) });
    expect(relErr(ratioToNumber(price.priceQuotePerBase), sdkPrice[2](linear))).toBeLessThanOrEqual(1e-12);
    // nothing sold yet: a linear curve's price is 0, which prices nothing
    expect(() => priceFromRaydiumLaunchLabPool({ ...linear, realBase: 0n }, { globalConfig: globalConfig(SNAP, 2) })).toThrow(/zero price/);
    expect(() => priceFromRaydiumLaunchLabPool(pool, { globalConfig: globalConfig(SNAP, 3) })).toThrow(/curve_type 3/);
  });

  it("applies the decimals: a 6-decimal token against 9-decimal wSOL is × 10^-3", () => {
    const wsolPool = { ...pool, quoteMint: WSOL_MINT, quoteDecimals: 9 };
    const price = priceFromRaydiumLaunchLabPool(wsolPool, { globalConfig: globalConfig(WSOL_MINT, 0) });
    expect(relErr(ratioToNumber(price.priceQuotePerBase), sdkPrice[0](pool) * 1e-3)).toBeLessThanOrEqual(1e-12);
  });

  it("status 1 (awaiting migration) and 2 (migrated) are not tradable and complete; other statuses are refused", () => {
    const at = (status: number) => decodeRaydiumLaunchLabPool(withData(snapPool, (d) => ((d[17] = status), d)));
    const config = { globalConfig: globalConfig(SNAP, 0) };
    expect(priceFromRaydiumLaunchLabPool(at(1), config)).toMatchObject({ tradable: false, extra: { complete: true, curveProgress: { num: 1n, den: 1n } } });
    expect(priceFromRaydiumLaunchLabPool(at(2), config)).toMatchObject({ tradable: false, extra: { complete: true } });
    expect(() => priceFromRaydiumLaunchLabPool(at(3), config)).toThrow(/status 3/);
  });

  it("refuses a GlobalConfig of another quote mint", () => {
    expect(() => priceFromRaydiumLaunchLabPool(pool, { globalConfig: globalConfig(WSOL_MINT, 0) })).toThrow(/another quote/);
  });

  it("the adapter asks for the GlobalConfig, then prices the pool as the pricer does", async () => {
    const config = globalConfig(SNAP, 0);
    const first = raydiumLaunchLabPoolAdapter.evaluate(snapPool, SNAP_BASE, () => undefined, () => 6);
    expect(first).toEqual({ kind: "needs", addresses: [pool.globalConfig], related: { globalConfig: pool.globalConfig } });
    const second = raydiumLaunchLabPoolAdapter.evaluate(snapPool, SNAP_BASE, (a) => (a === pool.globalConfig ? config : undefined), () => 6);
    expect(second).toEqual({ kind: "priced", price: priceFromRaydiumLaunchLabPool(pool, { globalConfig: config }), related: { globalConfig: pool.globalConfig } });
    expect(raydiumLaunchLabPoolAdapter).toMatchObject({ kind: "raydium-launchlab", dex: "raydium-launchlab" });
    expect(await raydiumLaunchLabPoolAdapter.candidates(SNAP_BASE)).toEqual([
      { pool: await findRaydiumLaunchLabPoolAddress(SNAP_BASE, WSOL_MINT), kind: "raydium-launchlab", quoteMint: WSOL_MINT },
    ]);
  });

  it("fee rates: protocol from the GlobalConfig, platform and creator from the PlatformConfig", () => {
    const platform = new Uint8Array(944 + 4);
    platform.set(Buffer.from(hex(facts.accounts.find((a) => a.name === "PlatformConfig")!.discriminator), "hex"), 0);
    platform.set(getU64Encoder().encode(10_000n), facts.layouts.PlatformConfig!.fields.fee_rate!);
    platform.set(getU64Encoder().encode(500n), facts.layouts.PlatformConfig!.fields.creator_fee_rate!);
    const decoded = decodeRaydiumLaunchLabPlatformConfig({ owner: RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, data: platform });
    expect(launchLabFeeRates(decodeRaydiumLaunchLabGlobalConfig(globalConfig(SNAP, 0, 2_500n)), decoded)).toEqual({ protocol: 2_500n, platform: 10_000n, creator: 500n });
  });
});

describe("LaunchLab instructions and events on a real creation + first buy (5LzhiGZB)", () => {
  const ixs = instructionsOf(creation).filter((ix) => ix.program === RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS);
  const init = ixs.find((ix) => !ix.inner && hex([...ix.data.subarray(0, 8)]) === hex(factIx("initialize_v2").discriminator))!;
  const buy = ixs.find((ix) => !ix.inner && hex([...ix.data.subarray(0, 8)]) === hex(factIx("buy_exact_in").discriminator))!;
  const pool = address("C9HhQft4MTfnboDfpqS5Vy1zdkxPzL9qscWarUMtA999");
  const baseMint = address("54y4DV6shhwvojpRCCqwvgRTPd45UGrCEghpsa9pBj7F");

  it("initialize_v2 creates the pool with its GlobalConfig", () => {
    expect(raydiumLaunchLabPoolLifecycle(init.data, init.key, init.accounts.length)).toEqual([
      { type: "create", kind: "raydium-launchlab", pool, mints: [baseMint, WSOL_MINT], related: { globalConfig: "6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX" } },
    ]);
    expect(raydiumLaunchLabSwap(init.data, init.key, init.accounts.length)).toBeUndefined();
  });

  it("buy_exact_in names the pool, its vaults and mints, the buyer and the buyer's token accounts", () => {
    const swap = raydiumLaunchLabSwap(buy.data, buy.key, buy.accounts.length);
    expect(swap).toEqual({
      kind: "raydium-launchlab",
      pool,
      reserves: [
        { account: "6564d6r8i4TjCZFTBnUr54QXUHD9xeAcWadHfAs5tc1Q", mint: baseMint },
        { account: "J6aSDGwgVpknJGQ7sNi7s6ibBydhCKVvqbvWZ1PRhULr", mint: WSOL_MINT },
      ],
      order: "given",
      side: "buy",
      exactIn: true,
      wallet: "7hnTzCVKCa3ToiKC8wgFHzc2s5jRBVDwwg5DpffUKjUu",
      user: "7hnTzCVKCa3ToiKC8wgFHzc2s5jRBVDwwg5DpffUKjUu",
      userTokenAccounts: ["8pcej29DJRwJ3FAa4M7q6Nn51SLTiigbwqRJLwiitSny", "4ZtV2JAMsSs72EMp8sTmqpiRpiofwHikVTEhf6sU6TNd"],
      globalConfig: "6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX",
      platformConfig: "FfYek5vEz23cMkWsdJwG2oa6EphsvXSHrGpdALN4g6W1",
    });
    // the buyer signed (the fee payer) and the user token accounts are theirs: its base account gained what the event says
    expect(creation.transaction.message.accountKeys[0]).toBe(swap!.wallet);
    expect(raydiumLaunchLabSwapReserves(buy.data, buy.key, buy.accounts.length)).toEqual({ kind: swap!.kind, pool, reserves: swap!.reserves, order: "given", user: swap!.user });
    expect(raydiumLaunchLabSwappedPool.related(buy.key)).toEqual({ globalConfig: "6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX" });
    expect(raydiumLaunchLabSwap(buy.data, buy.key, 12)).toBeUndefined();
  });

  it("its TradeEvent (log and self-CPI alike) follows the SDK's buyExactIn and fee split exactly", () => {
    const cpi = ixs.find((ix) => ix.inner && ix.topLevel === buy.topLevel && ix.data.length > 150)!;
    const fromCpi = decodeRaydiumLaunchLabTradeEvent(cpi.data)!;
    const fromLog = programDataLogs(creation).map(decodeRaydiumLaunchLabTradeEvent).find((e) => e !== undefined)!;
    expect(fromLog).toEqual(fromCpi);
    expect(fromCpi).toMatchObject({ pool, side: "buy", exactIn: true, poolStatus: "trading", amountIn: 9_999_999n, amountOut: 352_899_251_106n, realBaseBefore: 0n, realQuoteBefore: 0n });
    // SDK Curve.buyExactIn with the rates the fees reveal (protocol 2,500, platform 10,000, creator 500 per million)
    const rates = { protocol: 2_500n, platform: 10_000n, creator: 500n };
    const totalRate = rates.protocol + rates.platform + rates.creator;
    const totalFee = (fromCpi.amountIn * totalRate + 999_999n) / 1_000_000n;
    const lessFee = fromCpi.amountIn - totalFee;
    const out = (lessFee * (fromCpi.virtualBase - fromCpi.realBaseBefore)) / (fromCpi.virtualQuote + fromCpi.realQuoteBefore + lessFee);
    expect(out).toBe(fromCpi.amountOut);
    expect({ platform: (totalFee * rates.platform) / totalRate, creator: (totalFee * rates.creator) / totalRate }).toEqual({ platform: fromCpi.platformFee, creator: fromCpi.creatorFee });
    expect(totalFee - fromCpi.platformFee - fromCpi.creatorFee).toBe(fromCpi.protocolFee);
    expect(fromCpi.realQuoteAfter).toBe(lessFee);
    expect(fromCpi.realBaseAfter).toBe(out);
    // not a graduation: the pool is still trading after it
    const swap = raydiumLaunchLabSwap(buy.data, buy.key, buy.accounts.length)!;
    expect(raydiumLaunchLabPoolGraduation(fromCpi, swap, swap.globalConfig)).toBeUndefined();
    expect(raydiumLaunchLabPoolGraduation({ ...fromCpi, poolStatus: "awaiting-migration" }, swap, swap.globalConfig)).toEqual({
      type: "graduate",
      kind: "raydium-launchlab",
      pool,
      mints: [baseMint, WSOL_MINT],
      related: { globalConfig: swap.globalConfig },
    });
  });

  it("as a graduation reader on the self-CPI's base58 text: none for this buy, one when the trade ends the fund raising", () => {
    const cpi = ixs.find((ix) => ix.inner && ix.topLevel === buy.topLevel && ix.data.length > 150)!;
    const swap = raydiumLaunchLabSwap(buy.data, buy.key, buy.accounts.length)!;
    const text = getBase58Decoder().decode(cpi.data);
    expect(raydiumLaunchLabPoolGraduationFromEvent(text, swap)).toBeUndefined();
    // the same event with pool_status 1 (Migrate): the layout's status byte, after the 8-byte event tag
    const ended = cpi.data.slice();
    ended[8 + facts.layouts.TradeEvent!.fields.pool_status!] = 1;
    expect(raydiumLaunchLabPoolGraduationFromEvent(getBase58Decoder().decode(ended), swap)).toEqual({
      type: "graduate",
      kind: "raydium-launchlab",
      pool,
      mints: [baseMint, WSOL_MINT],
      related: { globalConfig: swap.globalConfig },
    });
    // another pool's event, or text too short for a TradeEvent, is not this swap's graduation
    expect(raydiumLaunchLabPoolGraduationFromEvent(getBase58Decoder().decode(ended), { ...swap, pool: snapPool.address! })).toBeUndefined();
    expect(raydiumLaunchLabPoolGraduationFromEvent(text.slice(0, 100), swap)).toBeUndefined();
  });

  it("the pool's price after the buy, from the state its event reports, is the SDK's constant-product price", () => {
    const event = decodeRaydiumLaunchLabTradeEvent(ixs.find((ix) => ix.inner && ix.topLevel === buy.topLevel && ix.data.length > 150)!.data)!;
    const after = {
      ...decodeRaydiumLaunchLabPool(snapPool),
      baseMint,
      quoteMint: WSOL_MINT,
      quoteDecimals: 9,
      virtualBase: event.virtualBase,
      virtualQuote: event.virtualQuote,
      realBase: event.realBaseAfter,
      realQuote: event.realQuoteAfter,
    };
    const price = priceFromRaydiumLaunchLabPool(after, { globalConfig: globalConfig(WSOL_MINT, 0) });
    expect(relErr(ratioToNumber(price.priceQuotePerBase), sdkPrice[0](after) * 1e-3)).toBeLessThanOrEqual(1e-12);
    // the buyer's token account gained exactly the event's amount_out (a real balance, independent of the event)
    const post = creation.meta!.postTokenBalances!.find((b) => b.mint === baseMint && b.owner === "7hnTzCVKCa3ToiKC8wgFHzc2s5jRBVDwwg5DpffUKjUu");
    expect(BigInt(post!.uiTokenAmount.amount)).toBe(event.amountOut);
  });
});

describe("LaunchLab readers against the program facts (accounts by their IDL names)", () => {
  const named = (name: string) => {
    const ix = factIx(name);
    const data = new Uint8Array(32);
    data.set(ix.discriminator);
    return { data, key: (p: number) => ix.accounts[p] as Address | undefined, count: ix.accounts.length };
  };
  for (const name of ["buy_exact_in", "buy_exact_out", "sell_exact_in", "sell_exact_out"]) {
    it(`${name}: pool, vaults, mints, payer and user token accounts by name`, () => {
      const { data, key, count } = named(name);
      expect(raydiumLaunchLabSwap(data, key, count)).toMatchObject({
        pool: "pool_state",
        reserves: [{ account: "base_vault", mint: "base_token_mint" }, { account: "quote_vault", mint: "quote_token_mint" }],
        wallet: "payer",
        user: "payer",
        userTokenAccounts: ["user_base_token", "user_quote_token"],
        globalConfig: "global_config",
        platformConfig: "platform_config",
        side: name.startsWith("buy") ? "buy" : "sell",
        exactIn: name.endsWith("exact_in"),
      });
    });
  }
  for (const name of ["initialize", "initialize_v2", "initialize_with_token_2022"]) {
    it(`${name}: a created pool by name`, () => {
      const { data, key, count } = named(name);
      expect(raydiumLaunchLabPoolLifecycle(data, key, count)).toEqual([
        { type: "create", kind: "raydium-launchlab", pool: "pool_state", mints: ["base_mint", "quote_mint"], related: { globalConfig: "global_config" } },
      ]);
    });
  }
  it("migrate_to_amm: the pool migrated and the AMM v4 pool it made", () => {
    const { data, key, count } = named("migrate_to_amm");
    expect(raydiumLaunchLabPoolLifecycle(data, key, count)).toEqual([
      { type: "migrate", kind: "raydium-launchlab", pool: "pool_state", mints: ["base_mint", "quote_mint"], related: { globalConfig: "global_config" } },
      { type: "create", kind: "raydium-amm-v4", pool: "amm_pool", mints: ["base_mint", "quote_mint"], related: { coinVault: "amm_base_vault", pcVault: "amm_quote_vault" } },
    ]);
  });
  it("migrate_to_cpswap: the pool migrated and the CPMM pool it made, its pair in byte order", () => {
    const ix = factIx("migrate_to_cpswap");
    const data = new Uint8Array(16);
    data.set(ix.discriminator);
    // the creation's real mints, base listed first: the CPMM pool orders them by bytes whichever comes first
    const keys = ix.accounts.map((n) => n) as string[];
    const [low, high] = ["So11111111111111111111111111111111111111112", "54y4DV6shhwvojpRCCqwvgRTPd45UGrCEghpsa9pBj7F"] as const;
    keys[ix.accounts.indexOf("base_mint")] = high;
    keys[ix.accounts.indexOf("quote_mint")] = low;
    const events = raydiumLaunchLabPoolLifecycle(data, (p) => keys[p] as Address | undefined, keys.length);
    const ordered = Buffer.compare(getAddressEncoder().encode(address(high)) as Uint8Array, getAddressEncoder().encode(address(low)) as Uint8Array) < 0;
    expect(events[1]).toEqual({
      type: "create",
      kind: "raydium-cpmm",
      pool: "cpswap_pool",
      mints: ordered ? [high, low] : [low, high],
      related: ordered ? { vault0: "cpswap_base_vault", vault1: "cpswap_quote_vault" } : { vault0: "cpswap_quote_vault", vault1: "cpswap_base_vault" },
    });
    expect(events[0]).toMatchObject({ type: "migrate", pool: "pool_state" });
  });
  it("the event discriminators are the ones the decoder reads", () => {
    expect(hex(facts.events.find((e) => e.name === "TradeEvent")!.discriminator)).toBe("bddb7fd34ee661ee");
    const data = new Uint8Array(147);
    data.set(facts.events.find((e) => e.name === "PoolCreateEvent")!.discriminator);
    expect(decodeRaydiumLaunchLabTradeEvent(data)).toBeUndefined();
  });
});
