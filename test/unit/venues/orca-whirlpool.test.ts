/**
 * Orca Whirlpool on real mainnet data: pools HsQGWEh3 (wSOL/Dz9m…, tick spacing 96), 56Ekyu6u (BONK/…, 16) and
 * CGGNcohZ (splash pool, 32896) with its fixed tick array (Carbon), a dynamic tick array; the swap transaction
 * N5qR3Dcv and Carbon's swap / swap_v2 / two_hop_swap / two_hop_swap_v2 / initialize_pool_v2 instructions. The oracle
 * is whirlpools-core 2.1.1's math written out here: `sqrt_price_to_price` and the amount deltas of its token math.
 */
import { readFileSync } from "node:fs";
import { address, getAddressEncoder, getI32Encoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  ORCA_WHIRLPOOLS_CONFIG_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  decodeOrcaTickArray,
  decodeOrcaWhirlpool,
  decodeOrcaWhirlpoolOracle,
  decodeOrcaWhirlpoolPoolInitialized,
  decodeOrcaWhirlpoolTraded,
  findOrcaOracleAddress,
  findOrcaTickArrayAddress,
  findOrcaWhirlpoolAddress,
  isAdaptiveFeeWhirlpool,
  listOrcaWhirlpoolCandidates,
  orcaTickArrayAddressesAround,
  orcaTickArrayStartIndex,
  orcaWhirlpoolDepth,
  orcaWhirlpoolOpensAt,
  orcaWhirlpoolPoolAdapter,
  orcaWhirlpoolPoolLifecycle,
  orcaWhirlpoolSwapLegs,
  ORCA_WHIRLPOOL_DERIVED_FEE_TIERS,
  orcaWhirlpoolSwapReserves,
  priceFromOrcaWhirlpool,
  sqrtPriceAtTick,
  ticksOfOrcaTickArray,
} from "../../../src/venues/orca-whirlpool";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";
import { fixturePath, loadAccountFixture, ratioToNumber, relErr, sourceField, syntheticTokenAccount, withData, withOwner } from "../../helpers/fixtures";
import { balanceChange, loadTransaction } from "../trades/transaction-fixtures";
import { instructionsOf, programDataLogs } from "./venue-transactions";

const hsq = loadAccountFixture("orca-whirlpool/whirlpool_HsQGWEh3.json");
const bonk = loadAccountFixture("orca-whirlpool/whirlpool_56Ekyu6u_vixen.json");
/**
 * Carbon's Whirlpool fixture: its README links C9U2Ksk6…, but the bytes derive to CGGNcohZ… (config, mints, fee tier
 * 32896) — the pool Carbon's tick array fixture belongs to. The derivation test below pins that.
 */
const splash = loadAccountFixture("orca-whirlpool/whirlpool_CGGNcohZ_carbon.json");
const SPLASH = address("CGGNcohZdLdeDBdhmQRGmUH1Viv1p4d1ds2aPLoiVWaR");
const fixedArray = loadAccountFixture("orca-whirlpool/tick_array_CGGNcohZ_carbon.json");
const dynamicArray = loadAccountFixture("orca-whirlpool/dynamic_tick_array_carbon.json");
const DZ9M = address("Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk");

interface Facts {
  instructions: { name: string; discriminator: number[]; accounts: string[] }[];
  instruction_args: Record<string, Record<string, number>>;
  accounts: { name: string; discriminator: number[] }[];
  events: { name: string; discriminator: number[] }[];
  layouts: Record<string, { fields: Record<string, number> }>;
}
const facts = JSON.parse(readFileSync(fixturePath("program-facts/orca_whirlpool.facts.json"), "utf8")) as Facts;
const factIx = (name: string) => facts.instructions.find((i) => i.name === name)!;

/** A Carbon instruction fixture: `{program_id, accounts:[{pubkey}], data:<hex>}`. */
function carbonInstruction(file: string) {
  const json = JSON.parse(readFileSync(fixturePath(`transactions/orca-whirlpool/${file}`), "utf8")) as { program_id: string; accounts: { pubkey: string }[]; data: string };
  const accounts = json.accounts.map((a) => address(a.pubkey));
  return { program: json.program_id, data: new Uint8Array(Buffer.from(json.data, "hex")), accounts, key: (p: number) => accounts[p] };
}

/** whirlpools-core `sqrt_price_to_price`: (sqrt / 2^64)^2 × 10^(dec_a − dec_b), in floating point. */
const sdkPrice = (sqrtPrice: bigint, decimalsA: number, decimalsB: number) => (Number(sqrtPrice) / 2 ** 64) ** 2 * 10 ** (decimalsA - decimalsB);
/** whirlpools-core token math (rounded down): Δb = L·(√u − √l) / 2^64, Δa = L·2^64·(√u − √l) / (√u·√l). */
const deltaB = (l: bigint, low: bigint, high: bigint) => (l * (high - low)) >> 64n;
const deltaA = (l: bigint, low: bigint, high: bigint) => ((l << 64n) * (high - low)) / (high * low);

describe("Whirlpool decoding", () => {
  it("decodes HsQGWEh3 as its source's decoded JSON states", () => {
    const pool = decodeOrcaWhirlpool(hsq);
    const field = (name: string) => sourceField(hsq, name);
    expect(pool).toMatchObject({
      whirlpoolsConfig: field("whirlpoolsConfig"),
      tickSpacing: Number(field("tickSpacing")),
      feeTierIndex: 96,
      feeRate: Number(field("feeRate")),
      protocolFeeRate: Number(field("protocolFeeRate")),
      liquidity: BigInt(field("liquidity") as string),
      sqrtPrice: BigInt(field("sqrtPrice") as string),
      tickCurrentIndex: Number(field("tickCurrentIndex")),
      protocolFeeOwedA: BigInt(field("protocolFeeOwedA") as string),
      protocolFeeOwedB: BigInt(field("protocolFeeOwedB") as string),
      mintA: field("tokenMintA"),
      vaultA: field("tokenVaultA"),
      mintB: field("tokenMintB"),
      vaultB: field("tokenVaultB"),
      rewardLastUpdatedTimestamp: BigInt(field("rewardLastUpdatedTimestamp") as string),
    });
    expect(pool.rewardMints[0]).toBe((field("rewardInfos") as { mint: string }[])[0]!.mint);
    expect(isAdaptiveFeeWhirlpool(pool)).toBe(false);
  });

  it("decodes the splash pool CGGNcohZ as Carbon's test asserts", () => {
    expect(decodeOrcaWhirlpool(splash)).toMatchObject({
      whirlpoolsConfig: ORCA_WHIRLPOOLS_CONFIG_ADDRESS,
      tickSpacing: 32896,
      feeRate: 10000,
      protocolFeeRate: 1300,
      liquidity: 141421356n,
      sqrtPrice: 1304381782533278221200000n,
      tickCurrentIndex: 223338,
      mintA: WSOL_MINT,
      vaultA: "6cS7s6TZuQofs1TPYSpZ51qGPQKnrxk6xWhW131MysXh",
      mintB: "DzkKGBw4njGApBJ4Bd2csCpm4rsdgEmkgivR7XZvENPv",
      vaultB: "25tSGzR5NcRpuoWKzWFTWfMaB1ijiaHP6HkqjxZNH72m",
      rewardLastUpdatedTimestamp: 1745354322n,
    });
  });

  it("reads every field at the offset of the program facts, and refuses foreign accounts", () => {
    const at = facts.layouts.Whirlpool!.fields;
    const bytes = Buffer.from(bonk.data);
    const pool = decodeOrcaWhirlpool(bonk);
    expect(pool.tickSpacing).toBe(bytes.readUInt16LE(at.tick_spacing!));
    expect(pool.tickCurrentIndex).toBe(bytes.readInt32LE(at.tick_current_index!));
    expect(pool.protocolFeeOwedA).toBe(bytes.readBigUInt64LE(at.protocol_fee_owed_a!));
    expect(Buffer.from(facts.accounts.find((a) => a.name === "Whirlpool")!.discriminator).equals(bytes.subarray(0, 8))).toBe(true);
    expect(() => decodeOrcaWhirlpool(withOwner(hsq, "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK"))).toThrow(/owner/);
    expect(() => decodeOrcaWhirlpool(withData(hsq, (d) => d.subarray(0, 652)))).toThrow(/size/);
    expect(() => decodeOrcaWhirlpool(withData(hsq, (d) => ((d[3] = d[3]! ^ 1), d)))).toThrow(/discriminator/);
  });
});

describe("Whirlpool derivation", () => {
  it("derives the three pools from config, mints (any order) and fee-tier index = tick spacing", async () => {
    for (const fixture of [hsq, bonk, splash]) {
      const pool = decodeOrcaWhirlpool(fixture);
      const derived = await findOrcaWhirlpoolAddress(pool.whirlpoolsConfig, pool.mintB, pool.mintA, pool.feeTierIndex);
      expect(derived).toBe(fixture.address ?? SPLASH);
    }
  });

  it("the tick array fixture is the splash pool's own; the arrays around a price are the seeds' start indices", async () => {
    const array = decodeOrcaTickArray(fixedArray);
    expect(array.whirlpool).toBe(SPLASH);
    expect(orcaTickArrayStartIndex(-427648, 32896)).toBe(array.startTickIndex);
    expect(orcaTickArrayStartIndex(-3071, 96)).toBe(-8448);
    expect(orcaTickArrayStartIndex(223338, 32896)).toBe(0);
    const around = await orcaTickArrayAddressesAround(SPLASH, decodeOrcaWhirlpool(splash), 2);
    // a splash pool's 88 × 32896 span leaves only the arrays at −2,894,848 and 0 inside the tick bounds
    expect(around.map((a) => a.start)).toEqual([-2894848, 0]);
    expect(around[0]!.address).toBe(await findOrcaTickArrayAddress(SPLASH, -2894848));
  });

  it("derives the tick arrays a real swap names: [\"tick_array\", pool, start index as decimal text] (N5qR3Dcv)", async () => {
    const tx = loadTransaction("orca-whirlpool/vixen_N5qR3Dcv_rpcjson.json");
    const swap = instructionsOf(tx).find((ix) => ix.program === ORCA_WHIRLPOOL_PROGRAM_ADDRESS)!;
    const traded = programDataLogs(tx).map(decodeOrcaWhirlpoolTraded).find((e) => e !== undefined)!;
    const pool = swap.accounts[2]!;
    // the pre-swap tick, from the Traded event's pre_sqrt_price; the pool's tick spacing is one of the fee tiers
    const tick = Math.floor(Math.log((Number(traded.preSqrtPrice) / 2 ** 64) ** 2) / Math.log(1.0001));
    const matches = [];
    for (const spacing of [1, 2, 4, 8, 16, 64, 96, 128, 256]) {
      if ((await findOrcaTickArrayAddress(pool, orcaTickArrayStartIndex(tick, spacing))) === swap.accounts[7]) matches.push(spacing);
    }
    // spacings whose arrays share a start all match; the pool's own is among them
    expect(matches.length).toBeGreaterThan(0);
    expect(new Set(matches.map((spacing) => orcaTickArrayStartIndex(tick, spacing))).size).toBe(1);
    expect(await findOrcaTickArrayAddress(pool, orcaTickArrayStartIndex(tick, matches[0]!) + 1)).not.toBe(swap.accounts[7]);
  });

  it("lists candidates over the classic fee tiers of the main config; the adapter derives only the tiers that matter", async () => {
    const candidates = await listOrcaWhirlpoolCandidates(DZ9M, [WSOL_MINT]);
    expect(candidates).toHaveLength(10);
    expect(candidates).toContainEqual({ pool: hsq.address, kind: "orca-whirlpool", quoteMint: WSOL_MINT });
    // the adapter: wSOL × tiers 1, 4, 64, 128 and 32896 — HsQGWEh3 (tick spacing 96) is left to the first-ask scan
    const derived = await orcaWhirlpoolPoolAdapter.candidates(DZ9M);
    expect(ORCA_WHIRLPOOL_DERIVED_FEE_TIERS).toEqual([1, 4, 64, 128, 32896]);
    expect(derived).toEqual(await listOrcaWhirlpoolCandidates(DZ9M, [WSOL_MINT], ORCA_WHIRLPOOL_DERIVED_FEE_TIERS));
    expect(derived.map((c) => c.pool)).not.toContain(hsq.address);
    expect(new Set(derived.map((c) => c.pool)).size).toBe(5);
  });
});

describe("Whirlpool price (whirlpools-core sqrt_price_to_price)", () => {
  const decimals = (mint: Address) => (mint === WSOL_MINT ? 9 : mint === "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263" ? 5 : 6);

  for (const [name, fixture] of [["HsQGWEh3", hsq], ["56Ekyu6u", bonk], ["CGGNcohZ", splash]] as const) {
    it(`${name}: B per A = (sqrt / 2^64)^2 × 10^(dec_a − dec_b), to 1e-12`, () => {
      const pool = decodeOrcaWhirlpool(fixture);
      const related = {
        vaultA: syntheticTokenAccount(pool.mintA, pool.protocolFeeOwedA + 1_000n),
        vaultB: syntheticTokenAccount(pool.mintB, pool.protocolFeeOwedB + 2_000n),
      };
      const price = priceFromOrcaWhirlpool(pool, related, decimals);
      const expected = sdkPrice(pool.sqrtPrice, decimals(pool.mintA), decimals(pool.mintB));
      expect(relErr(ratioToNumber(price.priceQuotePerBase), expected)).toBeLessThanOrEqual(1e-12);
      // and the tick agrees with the sqrt price (1.0001^tick ≤ price < 1.0001^(tick+1), raw)
      const raw = (Number(pool.sqrtPrice) / 2 ** 64) ** 2;
      expect(raw / 1.0001 ** pool.tickCurrentIndex).toBeGreaterThanOrEqual(1 - 1e-9);
      expect(raw / 1.0001 ** (pool.tickCurrentIndex + 1)).toBeLessThan(1);
      expect(price).toMatchObject({ kind: "orca-whirlpool", baseMint: pool.mintA, quoteMint: pool.mintB, baseReserve: 1_000n, quoteLiquidity: 2_000n, tradable: true });
    });
  }

  it("the adapter reads both vaults, then prices as the pricer does; a vault of another mint is refused", () => {
    const pool = decodeOrcaWhirlpool(hsq);
    const vaults: Record<string, AccountBytes> = {
      [pool.vaultA]: syntheticTokenAccount(pool.mintA, 5_000_000n),
      [pool.vaultB]: syntheticTokenAccount(pool.mintB, 7_000_000n),
    };
    expect(orcaWhirlpoolPoolAdapter.evaluate(hsq, DZ9M, () => undefined, decimals)).toEqual({ kind: "needs", addresses: [pool.vaultA, pool.vaultB], related: { vaultA: pool.vaultA, vaultB: pool.vaultB } });
    const priced = orcaWhirlpoolPoolAdapter.evaluate(hsq, DZ9M, (a) => vaults[a], decimals);
    expect(priced).toEqual({ kind: "priced", price: priceFromOrcaWhirlpool(pool, { vaultA: vaults[pool.vaultA]!, vaultB: vaults[pool.vaultB]! }, decimals), related: { vaultA: pool.vaultA, vaultB: pool.vaultB } });
    expect(orcaWhirlpoolPoolAdapter).toMatchObject({ kind: "orca-whirlpool", dex: "orca-whirlpool" });
    expect(() => priceFromOrcaWhirlpool(pool, { vaultA: vaults[pool.vaultB]!, vaultB: vaults[pool.vaultB]! }, decimals)).toThrow();
  });
});

describe("Whirlpool tick arrays and depth", () => {
  it("decodes Carbon's fixed tick array as its decoded JSON: one initialized tick, the full-range lower bound", () => {
    const array = decodeOrcaTickArray(fixedArray);
    const decoded = fixedArray.json.data_decoded as { startTickIndex: { data: string }; ticks: { data: { initialized: boolean; liquidityNet: string; liquidityGross: string }[] }; whirlpool: { data: string } };
    expect(array.startTickIndex).toBe(Number(decoded.startTickIndex.data));
    expect(array.whirlpool).toBe(decoded.whirlpool.data);
    expect(array.layout).toBe("fixed");
    const initialized = decoded.ticks.data.flatMap((t, offset) => (t.initialized ? [{ offset, liquidityNet: BigInt(t.liquidityNet), liquidityGross: BigInt(t.liquidityGross) }] : []));
    expect(array.ticks).toEqual(initialized);
    expect(ticksOfOrcaTickArray(array, 32896)).toEqual([{ index: -427648, liquidityNet: 141421356n, liquidityGross: 141421356n }]);
  });

  it("decodes the dynamic tick array: the bitmap names the one initialized tick, 113 bytes long", () => {
    const array = decodeOrcaTickArray(dynamicArray);
    const bytes = Buffer.from(dynamicArray.data);
    expect(array).toMatchObject({ layout: "dynamic", startTickIndex: bytes.readInt32LE(8), whirlpool: "XbZJ25spXckFsU7xYD2Sr3FkXsiw991yHPshExYSpD9" });
    expect(bytes.length).toBe(148 + 112);
    expect(array.ticks).toHaveLength(1);
    const offset = array.ticks[0]!.offset;
    // the tick's data follows its tag byte, after `offset` one-byte tags of uninitialized ticks
    const at = 60 + offset + 1;
    expect(array.ticks[0]).toEqual({ offset, liquidityNet: bytes.readBigInt64LE(at) + (bytes.readBigInt64LE(at + 8) << 64n), liquidityGross: bytes.readBigUInt64LE(at + 16) + (bytes.readBigUInt64LE(at + 24) << 64n) });
    expect(() => decodeOrcaTickArray(withData(dynamicArray, (d) => ((d[60 + offset] = 0), d)))).toThrow(/tag/);
    expect(() => decodeOrcaTickArray(withData(dynamicArray, (d) => d.subarray(0, 200)))).toThrow(/truncated|size/);
  });

  it("tick sqrt prices: 1.0001^(tick/2) × 2^64; the tick bounds give the program's MIN/MAX_SQRT_PRICE_X64", () => {
    expect(sqrtPriceAtTick(0)).toBe(1n << 64n);
    // the program's bounds (math/tick_math.rs): within one unit of the last Q64.64 place
    expect(sqrtPriceAtTick(-443636) - 4295048016n).toBeLessThanOrEqual(1n);
    expect(sqrtPriceAtTick(-443636) - 4295048016n).toBeGreaterThanOrEqual(-1n);
    expect(relErr(Number(sqrtPriceAtTick(443636)), Number(79226673515401279992447579055n))).toBeLessThan(1e-15);
    // elsewhere against exp(tick·ln(1.0001)/2) in floating point (its own error grows with |tick| to ~1e-12)
    for (const tick of [-94063, -3071, 1, 1000, 223338]) {
      expect(relErr(Number(sqrtPriceAtTick(tick)) / 2 ** 64, Math.exp((tick * Math.log(1.0001)) / 2))).toBeLessThan(5e-12);
    }
    const pool = decodeOrcaWhirlpool(hsq);
    expect(sqrtPriceAtTick(pool.tickCurrentIndex) <= pool.sqrtPrice && pool.sqrtPrice < sqrtPriceAtTick(pool.tickCurrentIndex + 1)).toBe(true);
  });

  it("the splash pool's full-range liquidity: depth within ±5% is the single-range token math", () => {
    const pool = decodeOrcaWhirlpool(splash);
    // its tick array holds only the full-range lower tick (−427,648), far below the band: one range, constant L
    const array = decodeOrcaTickArray(fixedArray);
    expect(() => orcaWhirlpoolDepth(hsq.address!, decodeOrcaWhirlpool(hsq), [array], 500)).toThrow(/another pool/);
    const depth = orcaWhirlpoolDepth(SPLASH, pool, [array], 500);
    expect(orcaWhirlpoolDepth(SPLASH, pool, [], 500)).toEqual(depth);
    const up = BigInt(Math.floor(Math.sqrt(Number(pool.sqrtPrice) ** 2 * 1.05)));
    const down = BigInt(Math.floor(Math.sqrt(Number(pool.sqrtPrice) ** 2 * 0.95)));
    expect(relErr(Number(depth.quoteToRaise), Number(deltaB(pool.liquidity, pool.sqrtPrice, up)))).toBeLessThan(1e-9);
    expect(relErr(Number(depth.baseToLower), Number(deltaA(pool.liquidity, down, pool.sqrtPrice)))).toBeLessThan(1e-9);
    expect(depth.covered).toBe(false);
  });

  it("crossing an initialized tick changes the liquidity on the far side (HsQGWEh3, a tick placed inside the band)", () => {
    const pool = decodeOrcaWhirlpool(hsq);
    // the real fixed array re-pointed at HsQGWEh3's current array, its one initialized tick (liquidity_net +141,421,356)
    // moved to the first tick boundary above the price (≤ 96 ticks, < 1%): the liquidity grows by that much past it
    const start = orcaTickArrayStartIndex(pool.tickCurrentIndex, 96);
    const tickOffset = Math.floor((pool.tickCurrentIndex - start) / 96) + 1;
    const moved = withData(fixedArray, (d) => {
      const original = d.slice(12 + 75 * 113, 12 + 76 * 113);
      d.fill(0, 12, 12 + 88 * 113);
      d.set(original, 12 + tickOffset * 113);
      d.set(getI32Encoder().encode(start), 8);
      d.set(getAddressEncoder().encode(hsq.address!), 9956);
      return d;
    });
    const array = decodeOrcaTickArray(moved);
    const [tick] = ticksOfOrcaTickArray(array, 96);
    expect(tick!.index).toBeGreaterThan(pool.tickCurrentIndex);
    const depth = orcaWhirlpoolDepth(hsq.address!, pool, [array], 200);
    const at = sqrtPriceAtTick(tick!.index);
    const up = BigInt(Math.floor(Math.sqrt(Number(pool.sqrtPrice) ** 2 * 1.02)));
    const expected = deltaB(pool.liquidity, pool.sqrtPrice, at) + deltaB(pool.liquidity + tick!.liquidityNet, at, up);
    expect(relErr(Number(depth.quoteToRaise), Number(expected))).toBeLessThan(1e-9);
    expect(depth.covered).toBe(true);
    expect(relErr(Number(depth.baseToLower), Number(deltaA(pool.liquidity, BigInt(Math.floor(Math.sqrt(Number(pool.sqrtPrice) ** 2 * 0.98))), pool.sqrtPrice)))).toBeLessThan(1e-9);
  });
});

describe("Whirlpool adaptive fee: the Oracle's trade-enable time", () => {
  it("an adaptive pool (fee-tier index ≠ tick spacing) opens at its Oracle's trade_enable_timestamp", async () => {
    const pool = { ...decodeOrcaWhirlpool(hsq), feeTierIndex: 1024 };
    expect(isAdaptiveFeeWhirlpool(pool)).toBe(true);
    const oracleAddress = await findOrcaOracleAddress(hsq.address!);
    const oracle = new Uint8Array(254);
    oracle.set(facts.accounts.find((a) => a.name === "Oracle")!.discriminator, 0);
    oracle.set(getAddressEncoder().encode(hsq.address!), facts.layouts.Oracle!.fields.whirlpool!);
    new DataView(oracle.buffer).setBigUint64(facts.layouts.Oracle!.fields.trade_enable_timestamp!, 1_900_000_000n, true);
    const account = { owner: ORCA_WHIRLPOOL_PROGRAM_ADDRESS, data: oracle };
    expect(decodeOrcaWhirlpoolOracle(account)).toMatchObject({ whirlpool: hsq.address, tradeEnableTimestamp: 1_900_000_000n });
    expect(orcaWhirlpoolOpensAt(pool, hsq.address!, account)).toBe(1_900_000_000n);
    expect(() => orcaWhirlpoolOpensAt(pool, SPLASH, account)).toThrow(/another pool/);
    // a classic pool has no oracle gate, nor a 0 timestamp
    expect(orcaWhirlpoolOpensAt(decodeOrcaWhirlpool(hsq), hsq.address!, account)).toBeUndefined();
    new DataView(oracle.buffer).setBigUint64(40, 0n, true);
    expect(orcaWhirlpoolOpensAt(pool, hsq.address!, account)).toBeUndefined();
    expect(oracleAddress).not.toBe(hsq.address);
  });
});

describe("Whirlpool swap instructions and events on real transactions", () => {
  it("N5qR3Dcv: swap names the pool, its vaults, the signer and its token accounts; Traded matches the vault balances", () => {
    const tx = loadTransaction("orca-whirlpool/vixen_N5qR3Dcv_rpcjson.json");
    const swap = instructionsOf(tx).find((ix) => ix.program === ORCA_WHIRLPOOL_PROGRAM_ADDRESS)!;
    const [leg] = orcaWhirlpoolSwapLegs(swap.data, swap.key, swap.accounts.length);
    const names = factIx("swap").accounts;
    const named = (name: string) => swap.accounts[names.indexOf(name)];
    expect(leg).toEqual({
      kind: "orca-whirlpool",
      pool: named("whirlpool"),
      reserves: [{ account: named("token_vault_a"), mint: undefined }, { account: named("token_vault_b"), mint: undefined }],
      order: "given",
      wallet: named("token_authority"),
      user: named("token_authority"),
      userTokenAccounts: [named("token_owner_account_a"), named("token_owner_account_b")],
      aToB: swap.data[facts.instruction_args.swap!.a_to_b!] === 1,
    });
    expect(leg!.wallet).toBe(tx.transaction.message.accountKeys[0]);
    expect(orcaWhirlpoolSwapReserves(swap.data, swap.key, swap.accounts.length)).toEqual({ kind: leg!.kind, pool: leg!.pool, reserves: leg!.reserves, order: "given", user: leg!.user });
    const traded = programDataLogs(tx).map(decodeOrcaWhirlpoolTraded).find((e) => e !== undefined)!;
    expect(traded.whirlpool).toBe(leg!.pool);
    expect(traded.aToB).toBe(leg!.aToB);
    const [inVault, outVault] = traded.aToB ? [leg!.reserves[0].account, leg!.reserves[1].account] : [leg!.reserves[1].account, leg!.reserves[0].account];
    expect(balanceChange(tx, inVault)).toBe(traded.inputAmount - traded.inputTransferFee);
    expect(balanceChange(tx, outVault)).toBe(-(traded.outputAmount + traded.outputTransferFee));
    // the price moved the way the swap pushes it
    expect(traded.aToB ? traded.postSqrtPrice < traded.preSqrtPrice : traded.postSqrtPrice > traded.preSqrtPrice).toBe(true);
  });

  it("Carbon's swap and swap_v2: one leg each, swap_v2 naming the mints", () => {
    const v1 = carbonInstruction("carbon_swap_ix.json");
    expect(orcaWhirlpoolSwapLegs(v1.data, v1.key, v1.accounts.length)).toEqual([
      {
        kind: "orca-whirlpool",
        pool: v1.accounts[2],
        reserves: [{ account: v1.accounts[4], mint: undefined }, { account: v1.accounts[6], mint: undefined }],
        order: "given",
        wallet: v1.accounts[1],
        user: v1.accounts[1],
        userTokenAccounts: [v1.accounts[3], v1.accounts[5]],
        aToB: false,
      },
    ]);
    const v2 = carbonInstruction("carbon_swap_v2_ix.json");
    const [leg] = orcaWhirlpoolSwapLegs(v2.data, v2.key, v2.accounts.length);
    expect(leg).toMatchObject({ pool: v2.accounts[4], wallet: v2.accounts[3], aToB: true, reserves: [{ account: v2.accounts[8], mint: v2.accounts[5] }, { account: v2.accounts[10], mint: v2.accounts[6] }] });
    expect(v2.accounts[5]).toBe(WSOL_MINT);
  });

  it("Carbon's two_hop_swap: two legs, each pool with its A/B vaults and the user's accounts", () => {
    const ix = carbonInstruction("carbon_two_hop_swap_ix.json");
    const legs = orcaWhirlpoolSwapLegs(ix.data, ix.key, ix.accounts.length);
    expect(legs.map((l) => [l.pool, l.reserves.map((r) => r.account), l.userTokenAccounts, l.aToB])).toEqual([
      [ix.accounts[2], [ix.accounts[5], ix.accounts[7]], [ix.accounts[4], ix.accounts[6]], true],
      [ix.accounts[3], [ix.accounts[9], ix.accounts[11]], [ix.accounts[8], ix.accounts[10]], false],
    ]);
    // a → b on pool one, b → a on pool two: the user's intermediate token account is both pools' B side
    expect(ix.accounts[6]).toBe(ix.accounts[10]);
    expect(orcaWhirlpoolSwapReserves(ix.data, ix.key, ix.accounts.length)).toBeUndefined();
  });

  it("Carbon's two_hop_swap_v2: vaults named by direction are put back in each pool's A/B order", () => {
    const ix = carbonInstruction("carbon_two_hop_swap_v2_ix.json");
    const names = factIx("two_hop_swap_v2").accounts;
    const named = (name: string) => ix.accounts[names.indexOf(name)];
    const args = facts.instruction_args.two_hop_swap_v2!;
    expect([ix.data[args.a_to_b_one!], ix.data[args.a_to_b_two!]]).toEqual([0, 1]);
    expect(orcaWhirlpoolSwapLegs(ix.data, ix.key, ix.accounts.length)).toEqual([
      {
        kind: "orca-whirlpool",
        pool: named("whirlpool_one"),
        // b → a on pool one: the input is its B side
        reserves: [{ account: named("token_vault_one_intermediate"), mint: named("token_mint_intermediate") }, { account: named("token_vault_one_input"), mint: named("token_mint_input") }],
        order: "given",
        wallet: named("token_authority"),
        user: named("token_authority"),
        userTokenAccounts: [undefined, named("token_owner_account_input")],
        aToB: false,
      },
      {
        kind: "orca-whirlpool",
        pool: named("whirlpool_two"),
        reserves: [{ account: named("token_vault_two_intermediate"), mint: named("token_mint_intermediate") }, { account: named("token_vault_two_output"), mint: named("token_mint_output") }],
        order: "given",
        wallet: named("token_authority"),
        user: named("token_authority"),
        userTokenAccounts: [undefined, named("token_owner_account_output")],
        aToB: true,
      },
    ]);
  });

  it("Carbon's initialize_pool_v2: the created pool is the PDA of its config, mints and fee tier", async () => {
    const ix = carbonInstruction("carbon_initialize_pool_v2_ix.json");
    const [created] = orcaWhirlpoolPoolLifecycle(ix.data, ix.key, ix.accounts.length);
    const names = factIx("initialize_pool_v2").accounts;
    const named = (name: string) => ix.accounts[names.indexOf(name)]!;
    expect(created).toEqual({ type: "create", kind: "orca-whirlpool", pool: named("whirlpool"), mints: [named("token_mint_a"), named("token_mint_b")], related: { vaultA: named("token_vault_a"), vaultB: named("token_vault_b") } });
    const tickSpacing = Buffer.from(ix.data).readUInt16LE(8);
    expect(await findOrcaWhirlpoolAddress(named("whirlpools_config"), named("token_mint_a"), named("token_mint_b"), tickSpacing)).toBe(created!.pool);
  });
});

describe("Whirlpool readers against the program facts (accounts by their IDL names)", () => {
  const named = (name: string, flags: Record<number, number> = {}) => {
    const ix = factIx(name);
    const data = new Uint8Array(64);
    data.set(ix.discriminator);
    for (const [offset, value] of Object.entries(flags)) data[Number(offset)] = value;
    return { data, key: (p: number) => ix.accounts[p] as Address | undefined, count: ix.accounts.length };
  };
  it("swap / swap_v2: whirlpool, vaults A/B, owner accounts, authority", () => {
    for (const name of ["swap", "swap_v2"]) {
      const { data, key, count } = named(name, { 41: 1 });
      const [leg] = orcaWhirlpoolSwapLegs(data, key, count);
      expect(leg).toMatchObject({ pool: "whirlpool", wallet: "token_authority", userTokenAccounts: ["token_owner_account_a", "token_owner_account_b"], aToB: true });
      expect(leg!.reserves.map((r) => r.account)).toEqual(["token_vault_a", "token_vault_b"]);
      expect(leg!.reserves.map((r) => r.mint)).toEqual(name === "swap_v2" ? ["token_mint_a", "token_mint_b"] : [undefined, undefined]);
      expect(orcaWhirlpoolSwapLegs(data, key, count - 1)).toEqual([]);
    }
  });
  it("two_hop_swap: both pools by name", () => {
    const { data, key, count } = named("two_hop_swap", { 25: 1, 26: 1 });
    expect(orcaWhirlpoolSwapLegs(data, key, count).map((l) => [l.pool, ...l.reserves.map((r) => r.account), ...l.userTokenAccounts])).toEqual([
      ["whirlpool_one", "token_vault_one_a", "token_vault_one_b", "token_owner_account_one_a", "token_owner_account_one_b"],
      ["whirlpool_two", "token_vault_two_a", "token_vault_two_b", "token_owner_account_two_a", "token_owner_account_two_b"],
    ]);
  });
  it("pool creations by name, an adaptive-fee pool with its Oracle", () => {
    for (const name of ["initialize_pool", "initialize_pool_v2", "initialize_pool_with_adaptive_fee"]) {
      const { data, key, count } = named(name);
      const related = name.endsWith("adaptive_fee") ? { vaultA: "token_vault_a", vaultB: "token_vault_b", oracle: "oracle" } : { vaultA: "token_vault_a", vaultB: "token_vault_b" };
      expect(orcaWhirlpoolPoolLifecycle(data, key, count)).toEqual([{ type: "create", kind: "orca-whirlpool", pool: "whirlpool", mints: ["token_mint_a", "token_mint_b"], related }]);
    }
  });
  it("PoolInitialized decodes at the facts' offsets", () => {
    const at = facts.layouts.PoolInitialized!.fields;
    const data = new Uint8Array(220);
    data.set(facts.events.find((e) => e.name === "PoolInitialized")!.discriminator);
    data.set(getAddressEncoder().encode(SPLASH), at.whirlpool!);
    data.set(getAddressEncoder().encode(WSOL_MINT), at.token_mint_a!);
    data.set([0x80, 0x80], at.tick_spacing!);
    data[at.decimals_a!] = 9;
    data[at.decimals_b!] = 6;
    expect(decodeOrcaWhirlpoolPoolInitialized(data)).toMatchObject({ whirlpool: SPLASH, mintA: WSOL_MINT, tickSpacing: 32896, decimalsA: 9, decimalsB: 6 });
    expect(decodeOrcaWhirlpoolTraded(data)).toBeUndefined();
  });
});
