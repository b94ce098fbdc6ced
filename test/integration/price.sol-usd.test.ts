import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { newApiKey } from "../helpers/keys";
import { getJson } from "../helpers/http";
import { world } from "../helpers/localnet";
import { independentPrice, independentSolUsd } from "../helpers/independent-price";
import type { WorldManifest } from "../../localnet/src/chain/types";

const WSOL = "So11111111111111111111111111111111111111112";
let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});
afterEach(() => vi.useRealTimers());
const relErr = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe("SOL/USD", () => {
  it("wSOL: priceInSol is exactly 1, priceInUsd is its deepest USD pool", async () => {
    const res = await getJson<{ priceInSol: string; priceInUsd: string; pool: string; dex: string }>(`/api/v1/price?ca=${WSOL}`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(res.body.priceInSol).toBe("1");
    expect(res.body.pool).toBe(manifest.wellKnown.solUsdcPool);
    const truth = await independentPrice("raydium-clmm", res.body.pool, WSOL);
    expect(relErr(Number(res.body.priceInUsd), truth.price)).toBeLessThanOrEqual(1e-9);
  });

  it("uses the Pyth account while it is fresh, and the SOL/USDC pool once it is older than 60 s", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("graduated"))!;
    const oracle = await independentSolUsd();
    // Given the oracle's publish time is fresh relative to the worker's clock
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime((oracle.publishTime + 5) * 1000);
    const fresh = await getJson<{ priceInUsd: string; priceInSol: string }>(`/api/v1/price?ca=${token.mint}`, { headers: { "x-api-key": key } });
    expect(relErr(Number(fresh.body.priceInUsd) / Number(fresh.body.priceInSol), oracle.price)).toBeLessThanOrEqual(1e-9);
    // When the clock is 61 s past the publish time (and past the price TTL)
    vi.setSystemTime((oracle.publishTime + 61) * 1000);
    const stale = await getJson<{ priceInUsd: string; priceInSol: string }>(`/api/v1/price?ca=${token.mint}`, { headers: { "x-api-key": key } });
    // Then SOL/USD comes from the SOL/USDC pool
    const pool = await independentPrice("raydium-clmm", manifest.wellKnown.solUsdcPool!, WSOL);
    expect(relErr(Number(stale.body.priceInUsd) / Number(stale.body.priceInSol), pool.price)).toBeLessThanOrEqual(1e-9);
    expect(relErr(pool.price, oracle.price)).toBeGreaterThan(0); // the two sources differ, so the test tells them apart
  });
});
