import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { newApiKey } from "../helpers/keys";
import { getJson } from "../helpers/http";
import { advance, world } from "../helpers/localnet";
import { independentPrice, independentSolUsd } from "../helpers/independent-price";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { relErr } from "../helpers/numbers";

const WSOL = "So11111111111111111111111111111111111111112";
let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});
afterEach(() => vi.useRealTimers());

interface Record {
  priceInSol: string;
  priceInUsd: string;
  pool: string;
  slot: number;
}
const price = async (mint: string) => getJson<Record>(`/api/v1/price?ca=${mint}`, { headers: { "x-api-key": key } });

/** Other test files move the same chain: repeat until the record and the independent reads share one slot. */
async function atOneSlot<T>(attempt: () => Promise<{ slots: number[]; value: T } | undefined>): Promise<T> {
  for (let i = 0; i < 20; i++) {
    const got = await attempt();
    if (got && new Set(got.slots).size === 1) return got.value;
    await new Promise((r) => setTimeout(r, 1100)); // past the price TTL
  }
  throw new Error("no stable slot");
}

describe("SOL/USD", () => {
  it("wSOL: priceInSol is exactly 1, priceInUsd is its deepest USD pool", async () => {
    const { record, truth } = await atOneSlot(async () => {
      const res = await price(WSOL);
      expect(res.status).toBe(200);
      const truth = await independentPrice("raydium-clmm", res.body.pool, WSOL);
      return { slots: [res.body.slot, truth.slot], value: { record: res.body, truth } };
    });
    expect(record.priceInSol).toBe("1");
    expect(record.pool).toBe(manifest.wellKnown.solUsdcPool);
    expect(relErr(Number(record.priceInUsd), truth.price)).toBeLessThanOrEqual(1e-9);
  });

  it("uses the Pyth account while it is fresh, and the SOL/USDC pool once it is older than 60 s", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("graduated"))!;
    // The world's arbitrage bot pulls the SOL/USDC pool to the oracle every slot and swaps after it move it off again:
    // the stale case is only measured at a slot where the two sources differ, or it could not tell which was used.
    // The worker's clock is set relative to the oracle's publish time, and only ever forward (like a real clock).
    let clock = Date.now();
    const setClock = (ms: number) => vi.setSystemTime((clock = Math.max(ms, clock + 1)));
    await advance(1); // a publish time of about now, so "5 s after it" is not behind the clock
    vi.useFakeTimers({ toFake: ["Date"] });
    // Given the oracle's publish time is fresh relative to the worker's clock
    const fresh = await atOneSlot(async () => {
      const oracle = await independentSolUsd();
      setClock(Math.max((oracle.publishTime + 5) * 1000, clock + 1100)); // fresh, and past the price TTL of a retry
      const res = await price(token.mint);
      return { slots: [oracle.slot, res.body.slot], value: { oracle, res: res.body } };
    });
    expect(relErr(Number(fresh.res.priceInUsd) / Number(fresh.res.priceInSol), fresh.oracle.price)).toBeLessThanOrEqual(1e-9);
    // When the clock is 61 s past the publish time (and so past the price TTL too)
    const stale = await atOneSlot(async () => {
      const oracle = await independentSolUsd();
      setClock(Math.max((oracle.publishTime + 61) * 1000, clock + 1100)); // stale, and past the price TTL
      const res = await price(token.mint);
      const pool = await independentPrice("raydium-clmm", manifest.wellKnown.solUsdcPool!, WSOL);
      if (relErr(pool.price, oracle.price) <= 1e-6) {
        await advance(1); // the sources coincide at this slot: move on to one that tells them apart
        return undefined;
      }
      return { slots: [oracle.slot, res.body.slot, pool.slot], value: { oracle, pool, res: res.body } };
    });
    // Then SOL/USD comes from the SOL/USDC pool, which differs from the oracle, so the test tells them apart
    expect(relErr(Number(stale.res.priceInUsd) / Number(stale.res.priceInSol), stale.pool.price)).toBeLessThanOrEqual(1e-9);
    expect(relErr(stale.pool.price, stale.oracle.price)).toBeGreaterThan(1e-7);
    // And a receipt asked then names that source: the SOL/USDC pool, its formula and accounts, and its price
    const withReceipt = await getJson<Record & { receipt: { solUsd: { source: string; pool: string; priceInUsd: string; formula: { poolType: string }; accounts: { role: string; address: string; owner: string }[] } } }>(
      `/api/v1/price?ca=${token.mint}&receipt=true`,
      { headers: { "x-api-key": key } },
    );
    expect(withReceipt.status).toBe(200);
    const solUsd = withReceipt.body.receipt.solUsd;
    expect(solUsd).toMatchObject({ source: "pool", pool: manifest.wellKnown.solUsdcPool, formula: { poolType: "raydium-clmm" } });
    expect(solUsd.accounts.find((a) => a.role === "pool")?.address).toBe(manifest.wellKnown.solUsdcPool);
    expect(relErr(Number(solUsd.priceInUsd), Number(withReceipt.body.priceInUsd) / Number(withReceipt.body.priceInSol))).toBeLessThanOrEqual(1e-9);
  });
});
