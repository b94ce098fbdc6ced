import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { newApiKey } from "../helpers/keys";
import { getJson } from "../helpers/http";
import { world } from "../helpers/localnet";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { limits } from "../../src/limits";
import { getAddressDecoder } from "@solana/kit";
import { callWorker } from "../helpers/worker";

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});
afterEach(() => vi.restoreAllMocks());
const auth = () => ({ headers: { "x-api-key": key } });

/** Calls the worker with its own upstream URL, so circuit-breaker state from fault tests never leaks between cases. */
async function callWithUpstream(path: string, extraEnv: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await callWorker({ path }, { key, isolatedUpstream: true, env: extraEnv });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
const tradable = () => manifest.tokens.find((t) => t.venues.includes("pumpswap") && !t.tags.includes("complete"))!;

// Faults first: nothing is cached yet, so a failing upstream must show as 503/504 (the stale case primes its own record).
describe("upstream faults become defined errors", () => {
  it("HTTP 500 from the upstream → 503 envelope, never a 500", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("boom", { status: 500 }));
    const res = await callWithUpstream(`/api/v1/price?ca=${tradable().mint}`, { PRICE_CACHE_TTL_MS: "0" });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "error", error: { code: 503, message: "Upstream chain data is temporarily unavailable" } });
  });

  it("HTML or truncated JSON from the upstream → 503", async () => {
    for (const body of ["<html>bad gateway</html>", '{"jsonrpc":"2.0","id":1,"result":{"context"']) {
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } }));
      const res = await callWithUpstream(`/api/v1/price?ca=${tradable().mint}`, { PRICE_CACHE_TTL_MS: "0" });
      expect(res.status).toBe(503);
      vi.restoreAllMocks();
    }
  });

  it("a well-formed answer of the wrong shape → 503", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ jsonrpc: "2.0", id: 1, result: { context: { slot: 1 }, value: [{ nope: true }] } }));
    const res = await callWithUpstream(`/api/v1/price?ca=${tradable().mint}`, { PRICE_CACHE_TTL_MS: "0" });
    expect(res.status).toBe(503);
  });

  it("429 with Retry-After → 503 carrying Retry-After", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("slow down", { status: 429, headers: { "retry-after": "7" } }));
    const res = await callWithUpstream(`/api/v1/price?ca=${tradable().mint}`, { PRICE_CACHE_TTL_MS: "0" });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("7");
  });

  it("an upstream that never answers → 504 within the per-attempt timeouts, not a hang", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_input, init) => new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason))),
    );
    const started = Date.now();
    const res = await callWithUpstream(`/api/v1/price?ca=${tradable().mint}`, { PRICE_CACHE_TTL_MS: "0", UPSTREAM_ATTEMPT_TIMEOUT_MS: "200" });
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("connection refused → 503", async () => {
    const res = await callWorker({ path: `/api/v1/price?ca=${tradable().mint}` }, { key, env: { UPSTREAM_RPC_URL: "http://127.0.0.1:9/", PRICE_CACHE_TTL_MS: "0" } });
    expect(res.status).toBe(503);
  });

  it("when the upstream fails, a cached record up to 60 s old is served marked stale", async () => {
    const mint = tradable().mint;
    const fresh = await callWithUpstream(`/api/v1/price?ca=${mint}`, { PRICE_CACHE_TTL_MS: "50" });
    expect(fresh.status).toBe(200);
    expect(fresh.body.stale).toBeUndefined();
    await new Promise((r) => setTimeout(r, 120));
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 502 }));
    const stale = await callWithUpstream(`/api/v1/price?ca=${mint}`, { PRICE_CACHE_TTL_MS: "50" });
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ ca: mint, priceInUsd: fresh.body.priceInUsd, stale: true });
  });
});

// After the fault tests: these prime the price cache, which would (rightly) turn faults into stale answers.
describe("bad input", () => {
  it(`accepts ${limits.maxMintsPerPriceRequest} mints and rejects ${limits.maxMintsPerPriceRequest + 1} with 400`, async () => {
    const mints = manifest.tokens.map((t) => t.mint);
    const list = (n: number) => Array.from({ length: n }, (_, i) => mints[i % mints.length]).join(",");
    const at = await getJson<unknown[]>(`/api/v1/price?ca=${list(limits.maxMintsPerPriceRequest)}`, auth());
    expect(at.status).toBe(200);
    expect(at.body).toHaveLength(limits.maxMintsPerPriceRequest);
    const over = await getJson<{ error: { message: string } }>(`/api/v1/price?ca=${list(limits.maxMintsPerPriceRequest + 1)}`, auth());
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain("Too many mints");
  });

  it("100 distinct cold addresses (none a known mint) → 200 with a 404 per item, never a 500", async () => {
    const distinct = Array.from({ length: limits.maxMintsPerPriceRequest }, (_, i) => {
      const bytes = new Uint8Array(32);
      bytes[0] = i + 1;
      bytes[31] = 7;
      return getAddressDecoder().decode(bytes);
    });
    const res = await getJson<{ ca: string; success: boolean; error?: { code: number } }[]>(`/api/v1/price?ca=${distinct.join(",")}`, auth());
    expect(res.status).toBe(200);
    expect(res.body.map((r) => r.ca)).toEqual(distinct);
    expect(res.body.every((r) => r.success === false && r.error?.code === 404)).toBe(true);
  });

  it("a malformed address inside a list fails alone: a 400 item in place, the others answered (cold and warm)", async () => {
    // Given a list of a priced mint, a malformed item and an unknown address
    const mint = tradable().mint;
    const unknown = "11111111111111111111111111111112";
    const path = `/api/v1/price?ca=${mint},not-base58!,${unknown}`;
    type Item = { ca: string; success: boolean; priceInUsd?: string; error?: { code: number; message: string } };
    // When it is asked twice (the second answer comes from the warm path: every well-formed mint priced is cached)
    for (const round of ["cold", "warm"]) {
      const res = await getJson<Item[]>(path, auth());
      // Then the list is answered with 200, each item in request order, the malformed one a 400 item naming it
      expect(res.status, round).toBe(200);
      expect(res.body.map((i) => i.ca), round).toEqual([mint, "not-base58!", unknown]);
      expect(res.body[0]).toMatchObject({ ca: mint, success: true });
      expect(res.body[1], round).toEqual({ ca: "not-base58!", success: false, error: { code: 400, message: 'Invalid base58 address in ca: "not-base58!"' } });
      expect(res.body[2]).toMatchObject({ ca: unknown, success: false, error: { code: 404 } });
    }
    // And a list whose only well-formed item is priced is still a list of 200 items around the failed one
    const warm = await getJson<Item[]>(`/api/v1/price?ca=${mint},%20zz%20`, auth());
    expect(warm.status).toBe(200);
    expect(warm.body.map((i) => [i.ca, i.success, i.error?.code])).toEqual([[mint, true, undefined], ["zz", false, 400]]);
  });

  it("a list with no well-formed item → one 400 naming ca and the first bad item", async () => {
    const res = await getJson<{ status: string; error: { code: number; message: string } }>(`/api/v1/price?ca=not-base58!,%20zzz,0`, auth());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: "error", error: { code: 400, message: 'Invalid base58 address in ca: "not-base58!"' } });
  });

  it(`malformed items still count toward the ${limits.maxMintsPerPriceRequest}-item cap (a request-level 400)`, async () => {
    const list = [tradable().mint, ...Array.from({ length: limits.maxMintsPerPriceRequest }, () => "bad")].join(",");
    const res = await getJson<{ error: { message: string } }>(`/api/v1/price?ca=${list}`, auth());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("Too many mints");
  });

  it("a malformed poolId → 400 naming poolId", async () => {
    const res = await getJson<{ error: { message: string } }>(`/api/v1/venue-d?ca=${tradable().mint}&poolId=zzz`, auth());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("poolId");
  });

  it("an address with no account → 404; an account that is not a mint → 404", async () => {
    const none = await getJson<{ error: { message: string } }>(`/api/v1/price?ca=11111111111111111111111111111112`, auth());
    expect(none.status).toBe(404);
    const pool = tradable().pools[0]!.address;
    const notMint = await getJson<{ error: { message: string } }>(`/api/v1/price?ca=${pool}`, auth());
    expect(notMint.status).toBe(404);
    expect(notMint.body.error.message).toContain("not a token mint");
  });

  it("a mint priced on no pool of the asked venue → 404 naming the venues tried", async () => {
    const pumpOnly = manifest.tokens.find((t) => t.venues.length === 1 && t.venues[0] === "pumpswap")!;
    const res = await getJson<{ error: { message: string } }>(`/api/v1/venue-b?ca=${pumpOnly.mint}`, auth());
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/raydium-amm-v4, raydium-cpmm, raydium-clmm/);
  });

  it("a poolId that does not trade the mint → 404", async () => {
    const [a, b] = manifest.tokens.filter((t) => t.venues.includes("pumpswap"));
    const res = await getJson(`/api/v1/venue-d?ca=${a!.mint}&poolId=${b!.pools.find((p) => p.kind === "pumpswap")!.address}`, auth());
    expect(res.status).toBe(404);
  });
});
