/**
 * GET /api/v1/security (and the overview's `risk=true`) against localnet's own answer (`GET /__localnet/security`):
 * the world wrote tokens with every harmful Token-2022 extension, burnt and locked a CPMM pool's LP, and launched a
 * pump.fun coin bundled in its creation slot and sniped in the slots after; it knows each fact from its token book and
 * its record of executed swaps. The API must equal it field by field. Sniper and bundle groups are derived here from
 * the world's list of launch trades with the window the API documents (limits.security.sniperWindowSlots).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

import { limits } from "../../src/limits";
import { securityCaches } from "../../src/security/security-service";
import { securityReportSchema, type SecurityReport } from "../../src/security/security-schema";
import type { SecurityTruth } from "../../localnet/src/world/security-tokens";
import { advance } from "../helpers/localnet";
import { newApiKey } from "../helpers/keys";
import { ingestUntil, runCron } from "../helpers/trade-index";
import { callWorker } from "../helpers/worker";
import { formatPercentIndependently, holderRowsOf } from "../helpers/security-truth";

let key: string;
let mints: Record<string, string>;

async function truthOf(mint: string): Promise<SecurityTruth> {
  const res = await fetch(`${env.LOCALNET_URL}/__localnet/security?mint=${mint}`);
  expect(res.status).toBe(200);
  return (await res.json()) as SecurityTruth;
}

async function report(mint: string): Promise<SecurityReport> {
  await securityCaches.forget(mint as never);
  const res = await callWorker({ path: `/api/v1/security?ca=${mint}` }, { key });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return securityReportSchema.parse(body);
}

/** The world's facts about the token of `role` and the API's report on it, read in that order. */
async function truthAndReport(role: string): Promise<{ truth: SecurityTruth; api: SecurityReport }> {
  const truth = await truthOf(mints[role]!);
  return { truth, api: await report(mints[role]!) };
}

/** The LP figures the API must give, from the world's book; `lockers` as the test expects them. */
function expectedLp(lp: NonNullable<SecurityTruth["liquidity"]>, lockers: unknown) {
  return {
    lpMint: lp.lpMint,
    poolLpSupply: lp.lpSupply,
    lpMintSupply: lp.lpMintSupply,
    burned: lp.burned,
    burnedPercent: formatPercentIndependently(BigInt(lp.burned), BigInt(lp.lpSupply)),
    locked: lp.locked,
    lockedPercent: formatPercentIndependently(BigInt(lp.locked), BigInt(lp.lpSupply)),
    lockers,
  };
}

/** The position figures the API must give, from the world's book. */
function expectedPositions(p: NonNullable<SecurityTruth["positions"]>) {
  return {
    measure: p.measure,
    positions: p.count,
    liquidity: p.liquidity,
    burned: p.burned,
    burnedPercent: formatPercentIndependently(BigInt(p.burned), BigInt(p.liquidity)),
    locked: p.locked,
    lockedPercent: formatPercentIndependently(BigInt(p.locked), BigInt(p.liquidity)),
    lockedInPlace: p.lockedInPlace,
    lockers: p.lockers,
  };
}

/** The creator figures the API must give: the world's creator, its holding, and the sums of `trades` (its own). */
function expectedCreator(truth: SecurityTruth, trades: { side: string; amount: string }[]) {
  const creator = truth.creator!;
  const sum = (side: string) => trades.filter((t) => t.side === side).reduce((s, t) => s + BigInt(t.amount), 0n);
  return {
    address: creator.address,
    launchpad: creator.launchpad,
    holding: creator.holding,
    holdingPercent: formatPercentIndependently(BigInt(creator.holding), BigInt(truth.supply)),
    bought: sum("buy").toString(),
    sold: sum("sell").toString(),
    soldPercentOfBought: sum("buy") > 0n ? formatPercentIndependently(sum("sell"), sum("buy")) : null,
  };
}

beforeAll(async () => {
  key = await newApiKey();
  // Given the trade index started at the tip, then a launch bundled, sniped and sold into, all ingested
  await advance(2);
  await runCron();
  const launched = await fetch(`${env.LOCALNET_URL}/__localnet/security/launch`, { method: "POST" });
  expect(launched.status).toBe(200);
  const list = async () => ((await (await fetch(`${env.LOCALNET_URL}/__localnet/security`)).json()) as { tokens: { role: string; mint: string }[] }).tokens;
  await advance(12);
  const launch = (await list()).find((t) => t.role === "launch");
  expect(launch, "the world made the launch").toBeDefined();
  for (let i = 0; i < 20 && !(await truthOf(launch!.mint)).launch!.complete; i++) await advance(2);
  // a few more slots so the launch's last slot is confirmed, then the index reads them all
  await advance(4);
  await ingestUntil();
  mints = Object.fromEntries((await list()).map((t) => [t.role, t.mint]));
}, 240_000);

const ROLES = [
  "extensions-a",
  "extensions-b",
  "lp",
  "lp-amm-v4",
  "lp-pumpswap",
  "positions-damm-v2",
  "positions-clmm",
  "positions-whirlpool",
  "positions-dlmm",
  "creator-dbc",
  "creator-launchlab",
  "launch",
];

describe("authorities and Token-2022 extensions", () => {
  for (const role of ROLES) {
    it(`${role}: authorities and extensions equal the world's`, async () => {
      const { truth, api } = await truthAndReport(role);
      expect(api.supply).toBe(truth.supply);
      expect(api.decimals).toBe(truth.decimals);
      expect(api.isToken2022).toBe(truth.tokenProgram === "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
      const { mintAuthority, freezeAuthority, updateAuthority, isMutable } = api.authorities;
      expect({ mintAuthority, freezeAuthority, updateAuthority, isMutable }).toEqual(truth.authorities);
      // every flag names its account and slot
      expect(api.authorities.source.accounts[0]).toBe(truth.mint);
      expect(api.authorities.source.slot).toBe(api.slot);
      expect(api.authorities.flags.map((f) => f.id).sort()).toEqual(
        [truth.authorities.mintAuthority && "mintable", truth.authorities.freezeAuthority && "freezable", truth.authorities.isMutable && truth.authorities.updateAuthority && "mutable-metadata"]
          .filter(Boolean)
          .sort(),
      );
      expect(Object.fromEntries(api.extensions.map((e) => [e.id, e.params]))).toEqual(truth.extensions);
      for (const e of api.extensions) {
        expect(e.message.length, e.id).toBeGreaterThan(20);
        expect(e.source.accounts).toContain(truth.mint);
        expect(e.source.slot).toBe(api.slot);
      }
    });
  }
});

describe("holders", () => {
  for (const role of ROLES) {
    it(`${role}: count, top 10 / top 20 and the excluded owners equal the world's`, async () => {
      const { truth, api } = await truthAndReport(role);
      const rows = holderRowsOf(truth);
      const holders = rows.filter((r) => r.label === "holder" || r.label === "creator");
      const top = (n: number) => holders.slice(0, n).reduce((s, r) => s + BigInt(r.amount), 0n);
      expect(api.holders.partial).toBe(false);
      expect(api.holders.count).toBe(holders.length);
      expect(api.holders.top10).toBe(top(10).toString());
      expect(api.holders.top20).toBe(top(20).toString());
      expect(api.holders.top10Percent).toBe(formatPercentIndependently(top(10), BigInt(truth.supply)));
      expect(api.holders.top20Percent).toBe(formatPercentIndependently(top(20), BigInt(truth.supply)));
      const twentieth = rows.indexOf(holders[Math.min(19, holders.length - 1)]!);
      const excluded = rows.slice(0, holders.length >= 20 ? twentieth : rows.length).filter((r) => r.label !== "holder" && r.label !== "creator");
      expect(api.holders.excluded.map((r) => ({ owner: r.owner, amount: r.amount, label: r.label }))).toEqual(excluded);
      expect(api.holders.source.slot).toBe(api.slot);
    });
  }
});

describe("liquidity", () => {
  it("lp: the CPMM pool that prices the token, its LP burnt (Burn + incinerator) and locked (Jupiter Lock), its USD liquidity", async () => {
    const { truth, api } = await truthAndReport("lp");
    const lp = truth.liquidity!;
    expect(api.liquidity.pool).toBe(lp.pool);
    expect(api.liquidity.dex).toBe("raydium-cpmm");
    expect(api.liquidity.lp).toEqual(expectedLp(lp, [{ owner: expect.any(String), locker: "jupiter-lock", amount: lp.locked }]));
    // the world wrote 40% burnt with Burn and 25% sent to the incinerator, 20% locked
    expect(api.liquidity.lp!.burnedPercent).toBe("65.0000");
    expect(api.liquidity.lp!.lockedPercent).toBe("20.0000");
    expect(api.liquidity.source.accounts).toEqual(expect.arrayContaining([lp.pool, lp.lpMint]));
    // the USD liquidity is the price record's (the same pool, read by the price service)
    const price = (await (await callWorker({ path: `/api/v1/price?ca=${mints.lp}` }, { key })).json()) as { pool: string; liquidityUsd: string };
    expect(price.pool).toBe(lp.pool);
    expect(Number(api.liquidity.liquidityUsd)).toBeGreaterThan(0);
    expect(Math.abs(Number(api.liquidity.liquidityUsd) / Number(price.liquidityUsd) - 1)).toBeLessThan(0.02);
  });

  for (const [role, dex, locker] of [
    ["lp-amm-v4", "raydium-amm-v4", "uncx"],
    ["lp-pumpswap", "pumpswap", "streamflow"],
  ] as const) {
    it(`${role}: the ${dex} pool that prices the token, its LP burnt (Burn + burn addresses) and locked (${locker})`, async () => {
      const { truth, api } = await truthAndReport(role);
      const lp = truth.liquidity!;
      expect(lp.dex).toBe(dex);
      expect(api.liquidity.pool).toBe(lp.pool);
      expect(api.liquidity.dex).toBe(dex);
      expect(api.liquidity.lp).toEqual(expectedLp(lp, lp.lockers));
      expect(lp.lockers.map((l) => l.locker)).toEqual([locker]);
      // something of each kind was written: a Burn, a burn address, a locker
      expect(BigInt(lp.lpMintSupply)).toBeLessThan(BigInt(lp.lpSupply));
      expect(BigInt(lp.burned)).toBeGreaterThan(BigInt(lp.lpSupply) - BigInt(lp.lpMintSupply));
      expect(BigInt(lp.locked)).toBeGreaterThan(0n);
      expect(api.liquidity.source.accounts).toEqual(expect.arrayContaining([lp.pool, lp.lpMint]));
      expect(Number(api.liquidity.liquidityUsd)).toBeGreaterThan(0);
    });
  }

  it("positions-damm-v2: the DAMM v2 pool's positions, burnt (NFT at the incinerator) and locked (in place, or NFT with a locker)", async () => {
    const { truth, api } = await truthAndReport("positions-damm-v2");
    const p = truth.positions!;
    expect(api.liquidity.pool).toBe(p.pool);
    expect(api.liquidity.dex).toBe("meteora-damm-v2");
    expect(api.liquidity.lp).toBeNull();
    const { lockedInPlace, ...figures } = api.liquidity.positions!;
    expect(p.measure).toBe("position-liquidity");
    const { lockedInPlace: _worldsInPlace, ...expected } = expectedPositions(p);
    expect(figures).toEqual(expected);
    expect(BigInt(lockedInPlace)).toBeLessThan(BigInt(p.locked));
    // the world wrote 30% permanently locked + 10% vested + 20% with Jupiter Lock, 15% at the incinerator
    expect(api.liquidity.positions!.lockedPercent).toBe("60.0000");
    expect(api.liquidity.positions!.burnedPercent).toBe("15.0000");
    expect(api.liquidity.source.accounts[0]).toBe(p.pool);
    expect(api.liquidity.message).toMatch(/burnt/);
  });

  for (const [role, dex, measure, written] of [
    ["positions-clmm", "raydium-clmm", "in-range-liquidity", { burnedPercent: "30.0000", lockedPercent: "35.0000", lockedInPlace: false }],
    ["positions-whirlpool", "orca-whirlpool", "in-range-liquidity", { burnedPercent: "15.0000", lockedPercent: "50.0000", lockedInPlace: true }],
    ["positions-dlmm", "meteora-dlmm", "bin-shares", { burnedPercent: "40.0000", lockedPercent: "40.0000", lockedInPlace: true }],
  ] as const) {
    it(`${role}: the ${dex} pool's positions, burnt and locked, equal the world's`, async () => {
      const { truth, api } = await truthAndReport(role);
      const p = truth.positions!;
      expect(api.liquidity.pool).toBe(p.pool);
      expect(api.liquidity.dex).toBe(dex);
      expect(api.liquidity.lp).toBeNull();
      expect(p.measure).toBe(measure);
      expect(api.liquidity.positions).toEqual(expectedPositions(p));
      // the world's split (security-positions.ts): something of each kind, and positions out of range left out
      expect({ burnedPercent: api.liquidity.positions!.burnedPercent, lockedPercent: api.liquidity.positions!.lockedPercent, lockedInPlace: p.lockedInPlace !== "0" }).toEqual(written);
      expect(api.liquidity.source.accounts[0]).toBe(p.pool);
      expect(api.liquidity.source.slot).not.toBeNull();
      expect(api.liquidity.source.unseen).toMatch(/locker table/);
      expect(api.liquidity.message).toMatch(/burnt/);
      expect(Number(api.liquidity.liquidityUsd)).toBeGreaterThan(0);
    });
  }

  it("launch: a bonding curve has no LP, and says so", async () => {
    const api = await report(mints.launch!);
    expect(api.liquidity.dex).toBe("pumpfun");
    expect(api.liquidity.lp).toBeNull();
    expect(api.liquidity.message).toMatch(/bonding curve/);
  });

  it("extensions-b: no venue prices it: no pool", async () => {
    const api = await report(mints["extensions-b"]!);
    expect(api.liquidity).toMatchObject({ pool: null, dex: null, liquidityUsd: null, lp: null });
  });
});

describe("creator and launch", () => {
  it("launch: the curve's creator, its holding, and what it bought and sold (trade index)", async () => {
    const { truth, api } = await truthAndReport("launch");
    const creator = truth.creator!;
    const mine = truth.launch!.trades.filter((t) => t.wallet === creator.address);
    expect(creator.launchpad).toBe("pumpfun");
    // the world's creator bought on its curve: the share it sold is a percentage, not null
    expect(mine.some((t) => t.side === "buy" && BigInt(t.amount) > 0n)).toBe(true);
    expect(api.creator).toMatchObject(expectedCreator(truth, mine));
    expect(api.creator.source.trades).toBe(mine.length);
    expect(api.creator.source.unseen).toMatch(/retention/);
  });

  it("launch: snipers and the bundle, their share bought and still held", async () => {
    const { truth, api } = await truthAndReport("launch");
    const launch = truth.launch!;
    const creator = truth.creator!.address;
    const held = new Map(truth.holders.map((h) => [h.owner, BigInt(h.amount)]));
    const group = (inWindow: (slot: number) => boolean) => {
      const buyers = new Map<string, bigint>();
      for (const t of launch.trades) if (t.side === "buy" && t.wallet !== creator && inWindow(t.slot)) buyers.set(t.wallet, (buyers.get(t.wallet) ?? 0n) + BigInt(t.amount));
      const bought = [...buyers.values()].reduce((a, b) => a + b, 0n);
      const still = [...buyers.keys()].reduce((a, w) => a + (held.get(w) ?? 0n), 0n);
      const supply = BigInt(truth.supply);
      return {
        count: buyers.size,
        wallets: [...buyers.keys()],
        bought: bought.toString(),
        boughtPercent: formatPercentIndependently(bought, supply),
        held: still.toString(),
        heldPercent: formatPercentIndependently(still, supply),
      };
    };
    const window = limits.security.sniperWindowSlots;
    expect(api.launch.creationSlot).toBe(launch.creationSlot);
    expect(api.launch.windowSlots).toBe(window);
    expect(api.launch.snipers).toEqual(group((slot) => slot <= launch.creationSlot + window));
    expect(api.launch.bundle).toEqual({ ...group((slot) => slot === launch.creationSlot), detected: true });
    // the world's launch: three other signers in the creation slot, snipers in the two produced slots after (the chain
    // skips a slot now and then, so a sniper can land past the window), a late buyer eight produced slots later
    expect(api.launch.bundle.count).toBe(3);
    expect(api.launch.snipers.count).toBeGreaterThanOrEqual(4);
    expect(api.launch.snipers.wallets).toEqual(expect.arrayContaining(api.launch.bundle.wallets));
    expect(api.launch.source.trades).toBe(launch.trades.filter((t) => t.slot <= launch.creationSlot + window).length);
  });

  for (const [role, launchpad] of [
    ["creator-dbc", "meteora-dbc"],
    ["creator-launchlab", "raydium-launchlab"],
  ] as const) {
    it(`${role}: the ${launchpad} pool's creator, its holding, and what it bought and sold (trade index)`, async () => {
      const { truth, api } = await truthAndReport(role);
      const creator = truth.creator!;
      expect(creator.launchpad).toBe(launchpad);
      expect(api.creator).toMatchObject(expectedCreator(truth, creator.trades));
      expect(api.creator.source.trades).toBe(creator.trades.length);
      expect(api.creator.source.accounts).toHaveLength(1);
      expect(api.creator.message).toContain(creator.address);
      // the creator is labelled as such among the holders when it holds any
      if (BigInt(creator.holding) > 0n) expect(truth.holders.find((h) => h.owner === creator.address)?.label).toBe("creator");
    });
  }

  it("creator-dbc: the world's DBC creator bought and sold 30% during the launch", async () => {
    const truth = await truthOf(mints["creator-dbc"]!);
    expect(truth.creator!.trades.map((t) => t.side)).toEqual(["buy", "sell"]);
    const api = await report(mints["creator-dbc"]!);
    expect(api.creator.soldPercentOfBought).toBe("30.0000");
  });

  it("tokens with no launchpad account: no creator and no launch, each saying why", async () => {
    const api = await report(mints.lp!);
    expect(api.creator).toMatchObject({ address: null, holding: null, bought: null });
    expect(api.creator.message).toMatch(/no launchpad account/);
    expect(api.launch).toMatchObject({ creationSlot: null, snipers: { count: 0 }, bundle: { count: 0, detected: false } });
    expect(api.launch.source.unseen).toMatch(/did not see/);
  });
});

describe("the overview's risk=true", () => {
  it("carries the same report as `risk`; without it there is none", async () => {
    const mint = mints["extensions-a"]!;
    const direct = await report(mint);
    const res = await callWorker({ path: `/api/v1/overview?ca=${mint}&risk=true` }, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ca: string; risk?: SecurityReport };
    expect(body.ca).toBe(mint);
    expect(body.risk).toEqual(direct);
    const plain = (await (await callWorker({ path: `/api/v1/overview?ca=${mint}` }, { key })).json()) as { risk?: unknown };
    expect(plain.risk).toBeUndefined();
    const bad = await callWorker({ path: `/api/v1/overview?ca=${mint}&risk=yes` }, { key });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/risk/);
  });
});
