/**
 * The creator each launchpad account names, read from real mainnet accounts (test/fixtures/SOURCES.md): a pump.fun
 * curve whose creator bytes its source asserts, a Meteora DBC VirtualPool and a Raydium LaunchLab PoolState. An
 * account of another shape, of another program or of another mint names no creator.
 */
import { address, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { dbcPoolCreator, launchLabPoolCreator, launchpadCreatorOf, pumpCurveCreator } from "../../../src/security/launchpad-creator";
import { decodeMeteoraDbcPool } from "../../../src/venues/meteora-dbc";
import { loadAccountFixture, withOwner } from "../../helpers/fixtures";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const other = address("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");

describe("launchpad creators", () => {
  it("pump.fun: the curve's creator (its source asserts the bytes); a legacy 49-byte curve names none", () => {
    const curve = loadAccountFixture("pumpfun/bonding_curve_HWxwYxr4.json");
    const creator = pumpCurveCreator({ ...curve, lamports: 0n } as never)!;
    expect(hex(new Uint8Array(getAddressEncoder().encode(creator)))).toMatch(/^ae9e3d67/);
    expect(pumpCurveCreator(loadAccountFixture("pumpfun/bonding_curve_legacy49b.json") as never)).toBeNull();
    expect(pumpCurveCreator(withOwner(curve, other) as never)).toBeNull();
  });

  it("Meteora DBC: the VirtualPool's creator @104, distinct from its config and base mint; another mint's pool names none", () => {
    const pool = loadAccountFixture("meteora-dbc/virtual_pool_fee_in_quote.json");
    const { baseMint, config } = decodeMeteoraDbcPool(pool);
    const creator = dbcPoolCreator(pool as never, baseMint)!;
    expect(new Uint8Array(getAddressEncoder().encode(creator))).toEqual(pool.data.subarray(104, 136));
    expect([baseMint, config, other]).not.toContain(creator);
    expect(dbcPoolCreator(pool as never, other)).toBeNull();
    expect(dbcPoolCreator(withOwner(pool, other) as never, baseMint)).toBeNull();
  });

  it("Raydium LaunchLab: the PoolState's creator @333; a DBC pool's bytes are not a LaunchLab pool", () => {
    const pool = loadAccountFixture("raydium-launchlab/pool_state_7L2sWFH3_SNAP.json");
    const mint = address("ALvT2usBGUC8C21dDiXpwAGVwA3x1GBKtut3VFWQcX8x");
    const creator = launchLabPoolCreator(pool as never, mint)!;
    expect(new Uint8Array(getAddressEncoder().encode(creator))).toEqual(pool.data.subarray(333, 365));
    expect([mint, address("SNAPcESrvnH8yUdgeMF6xm1hym9b6hW6s8YeqeHdZFz")]).not.toContain(creator);
    expect(launchLabPoolCreator(pool as never, other)).toBeNull();
    expect(launchLabPoolCreator(loadAccountFixture("meteora-dbc/virtual_pool_fee_in_quote.json") as never, mint)).toBeNull();
  });

  it("the curve comes first, then LaunchLab, then DBC; each answer names its launchpad and account", () => {
    const curve = loadAccountFixture("pumpfun/bonding_curve_HWxwYxr4.json");
    const lab = loadAccountFixture("raydium-launchlab/pool_state_7L2sWFH3_SNAP.json");
    const labMint = address("ALvT2usBGUC8C21dDiXpwAGVwA3x1GBKtut3VFWQcX8x");
    const dbc = loadAccountFixture("meteora-dbc/virtual_pool_fee_in_quote.json");
    const a = address("11111111111111111111111111111112");
    const b = address("11111111111111111111111111111113");
    const c = address("11111111111111111111111111111114");
    expect(launchpadCreatorOf(labMint, { address: a, account: curve as never }, [{ address: b, account: lab as never }], null)).toMatchObject({ launchpad: "pumpfun", account: a });
    expect(launchpadCreatorOf(labMint, { address: a, account: null }, [{ address: b, account: lab as never }], null)).toMatchObject({ launchpad: "raydium-launchlab", account: b });
    const dbcMint = decodeMeteoraDbcPool(dbc).baseMint;
    expect(launchpadCreatorOf(dbcMint, { address: a, account: undefined }, [{ address: b, account: null }], { address: c, account: dbc as never })).toMatchObject({ launchpad: "meteora-dbc", account: c });
    expect(launchpadCreatorOf(other, { address: a, account: null }, [], null)).toBeNull();
  });
});
