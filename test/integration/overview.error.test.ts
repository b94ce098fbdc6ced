/**
 * GET /api/v1/overview failure modes: bad `ca` (400), addresses that are not mints (404), unpriced tokens (200 with
 * null market fields), and upstream faults (503 / 504). Fault cases call the worker with their own upstream URL so
 * circuit-breaker state never leaks between cases, and forget the overview's caches first.
 */
import { env } from "cloudflare:workers";
import type { Address } from "@solana/kit";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { servicesOf } from "../../src/services";
import { tokenOverviewSchema } from "../../src/overview/overview-schema";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = (await (await fetch(`${env.LOCALNET_URL}/__localnet/world`)).json()) as WorldManifest;
});
afterEach(() => vi.restoreAllMocks());
const auth = () => ({ headers: { "x-api-key": key } });
const overview = (query: string) => getJson<{ status: string; error: { code: number; message: string } }>(`/api/v1/overview${query}`, auth());

describe("bad ca → 400", () => {
  it.each([
    ["missing", ""],
    ["empty", "?ca="],
    ["blank", "?ca=%20%20"],
  ])("%s ca names the parameter", async (_, query) => {
    const res = await overview(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: "error", error: { code: 400, message: "Missing required query parameter: ca" } });
  });

  it.each([
    ["not base58", "?ca=0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"],
    ["too short", "?ca=abc"],
    ["too long", `?ca=${"1".repeat(60)}`],
    ["a list", "?ca=So11111111111111111111111111111111111111112,So11111111111111111111111111111111111111112"],
  ])("%s → 400 envelope", async (_, query) => {
    const res = await overview(query);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe("error");
    expect(res.body.error.message).toMatch(/ca/);
  });
});

describe("an address that is not a mint → 404", () => {
  it("a wallet, a token account, a pool, a program and an address with no account", async () => {
    const token = manifest.tokens.find((t) => t.venues[0] === "pumpswap")!;
    const pool = token.pools.find((p) => p.kind === "pumpswap")!;
    const cases = [
      manifest.wallets.whales[0]!, // system-owned wallet
      pool.related.poolBaseTokenAccount!, // token account
      pool.address, // program-owned pool
      "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", // executable program
      "3pZ1CbNJrjTsYUk9NMmxgsA8q3Wbt5KDcS8ZjLwYxRwt", // nothing there
    ];
    for (const address of cases) {
      const res = await overview(`?ca=${address}`);
      expect(res.status, address).toBe(404);
      expect(res.body.status).toBe("error");
    }
  });
});

describe("an unpriced token still gets its overview", () => {
  it("null dex and price fields when no venue prices it (a completed pump.fun curve that never migrated: no pool trades it)", async () => {
    // (an AMM v4 token is no longer unpriced on an empty registry: its pool is found on first ask, price.first-ask.test.ts)
    const token = manifest.tokens.find((t) => t.tags.includes("complete") && t.pools.every((p) => p.kind === "pumpfun") && !t.tags.some((tag) => tag.startsWith("broken")))!;
    expect(token, "world has a completed curve that never migrated").toBeDefined();
    const price = await getJson(`/api/v1/price?ca=${token.mint}`, auth());
    expect(price.status).toBe(404);
    const res = await getJson<Record<string, unknown>>(`/api/v1/overview?ca=${token.mint}`, auth());
    expect(res.status).toBe(200);
    expect(tokenOverviewSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ ca: token.mint, name: token.name, symbol: token.symbol, dex: null, priceInSol: null, priceInUsd: null, marketCap: null });
  });
});

/** Calls the worker with its own upstream URL, so breaker state from one fault case never reaches another. */
async function overviewWithUpstream(mint: string, extraEnv: Record<string, string> = {}) {
  await servicesOf(env).overviewCaches.forget(mint as Address);
  const res = await callWorker({ path: `/api/v1/overview?ca=${mint}` }, { key, isolatedUpstream: true, env: { PRICE_CACHE_TTL_MS: "0", ...extraEnv } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}
const upstreamOnly = (respond: (init?: RequestInit) => Promise<Response>) => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) =>
    String(input instanceof Request ? input.url : input).includes("?isolated=") ? respond(init) : realFetch(input, init),
  );
};

describe("upstream faults → 503 / 504 envelope", () => {
  const mint = () => manifest.tokens.find((t) => t.venues[0] === "pumpswap")!.mint;

  it("HTTP 500 from the upstream → 503, generic message", async () => {
    upstreamOnly(async () => new Response("boom", { status: 500 }));
    const res = await overviewWithUpstream(mint());
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "error", error: { code: 503, message: "Upstream chain data is temporarily unavailable" } });
  });

  it("an answer that is not JSON-RPC → 503", async () => {
    upstreamOnly(async () => new Response("<html>bad gateway</html>", { status: 200 }));
    const res = await overviewWithUpstream(mint());
    expect(res.status).toBe(503);
  });

  it("429 with Retry-After → 503 carrying Retry-After", async () => {
    upstreamOnly(async () => new Response("slow down", { status: 429, headers: { "retry-after": "9" } }));
    const res = await overviewWithUpstream(mint());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("9");
  });

  it("an upstream that never answers → 504 within the attempt timeouts", async () => {
    upstreamOnly((init) => new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason))));
    const started = Date.now();
    const res = await overviewWithUpstream(mint(), { UPSTREAM_ATTEMPT_TIMEOUT_MS: "200" });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ status: "error", error: { code: 504, message: "Upstream chain data did not answer in time" } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("connection refused → 503", async () => {
    await servicesOf(env).overviewCaches.forget(mint() as Address);
    const res = await callWorker({ path: `/api/v1/overview?ca=${mint()}` }, { key, env: { UPSTREAM_RPC_URL: "http://127.0.0.1:9/", PRICE_CACHE_TTL_MS: "0" } });
    expect(res.status).toBe(503);
  });
});
