import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { ingestUntil } from "../helpers/trade-index";
import { getJson } from "../helpers/http";
import { advance, chainRpc, poolsOfKind, upstreamRequests, world } from "../helpers/localnet";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { ensureFreshOracle } from "../helpers/independent-price";

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});


describe("cron: pool registry from swaps seen on chain", () => {
  it("learns the non-derivable pools (Raydium AMM v4, Meteora DBC) that trade, then prices them in one upstream request", async () => {
    // Given some blocks of swaps on every venue
    await advance(30);
    // When the cron runs (twice: the second run continues from the cursor)
    await ingestUntil();
    await advance(30);
    await ingestUntil();
    // Then the registry holds pools the world trades, including registry-only kinds
    const { results } = await env.DB.prepare("SELECT address, kind, base_mint, quote_mint, related, source FROM pools").all<{ address: string; kind: string; related: string; source: string }>();
    const known = new Set(results.map((r) => r.address));
    const cursor = await env.DB.prepare("SELECT slot FROM ingest_cursor WHERE name = 'trades-dispatched'").first<{ slot: number }>();
    expect(cursor!.slot).toBeGreaterThan(0);
    for (const kind of ["raydium-amm-v4", "meteora-dbc"]) {
      const worldPools = poolsOfKind(manifest, kind).map((p) => p.pool.address);
      expect(worldPools.some((a) => known.has(a)), `${kind} pool learned`).toBe(true);
    }
    // (every pool learned from the chain carries the accounts its pricer reads; a pool a first-ask scan found — the
    // index prices quote tokens as it values trades, which may scan — is registered without them by design)
    const learned = results.filter((r) => r.source !== "gpa");
    expect(learned.length).toBeGreaterThan(0);
    expect(learned.filter((r) => Object.keys(JSON.parse(r.related)).length === 0).map((r) => `${r.kind} ${r.address} (${r.source})`)).toEqual([]);

    // And a token whose only pool is registered is priced from it with exactly one upstream request
    const amm = poolsOfKind(manifest, "raydium-amm-v4").find(({ pool }) => known.has(pool.address))!;
    await ensureFreshOracle(); // a stale oracle would add the SOL/USDC fallback read
    await new Promise((r) => setTimeout(r, 1100));
    const res = await getJson<{ dex: string; pool: string }>(`/api/v1/venue-b?ca=${amm.token.mint}`, { headers: { "x-api-key": key } });
    const id = res.headers.get("x-request-id")!;
    expect(res.status).toBe(200);
    expect(res.body.dex).toBe("raydium-amm-v4");
    expect(res.body.pool).toBe(amm.pool.address);
    expect(await upstreamRequests(id)).toBe(1);

    // And tokens quoted in USDC (not derived: config kinds are derived against wSOL) are priced from registered pools
    const usdcQuoted = manifest.tokens.filter((t) => t.tags.includes("usdc-quoted") && t.pools.some((p) => known.has(p.address)));
    expect(usdcQuoted.length).toBeGreaterThan(0);
    // (CLMM pools are derived against wSOL only: a USDC-quoted one is priced only once the registry learns it)
    expect(usdcQuoted.some((t) => t.pools.some((p) => p.kind === "raydium-clmm" && known.has(p.address))), "USDC-quoted CLMM pool learned").toBe(true);
    for (const token of usdcQuoted) {
      const priced = await getJson<{ pool: string; priceInUsd: string }>(`/api/v1/price?ca=${token.mint}`, { headers: { "x-api-key": key } });
      expect(priced.status, token.mint).toBe(200);
      expect(token.pools.map((p) => p.address)).toContain(priced.body.pool);
      expect(Number(priced.body.priceInUsd)).toBeGreaterThan(0);
    }
  });

  it("a cursor ahead of the chain's tip (a restarted local chain, D1 kept) jumps back to the recent tip instead of waiting", async () => {
    // Given a cursor far beyond the tip, as a previous, longer-lived chain left it
    await advance(5);
    const tip = await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
    await env.DB.prepare("INSERT INTO ingest_cursor (name, slot) VALUES ('trades-dispatched', ?) ON CONFLICT(name) DO UPDATE SET slot = excluded.slot").bind(tip + 10_000).run();
    // When the cron runs
    await ingestUntil();
    // Then it read recent blocks and the cursor is back within the chain
    const cursor = await env.DB.prepare("SELECT slot FROM ingest_cursor WHERE name = 'trades-dispatched'").first<{ slot: number }>();
    expect(cursor!.slot).toBeGreaterThanOrEqual(tip - 1);
    expect(cursor!.slot).toBeLessThan(tip + 100);
  });
});
