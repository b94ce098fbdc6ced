/**
 * Upstream cost of an overview, counted by localnet per request id (the worker forwards `x-request-id` upstream):
 * cold (nothing cached) at most 3 JSON-RPC HTTP requests, warm (right after, within the price TTL) none at all.
 * A token whose pools are all quoted in another token (not SOL, USDC or USDT) may take one more: its quote's own price,
 * read once and then kept by the isolate (docs/api.md, Any quote asset). The off-chain metadata fetch is not a JSON-RPC
 * request and is not counted.
 */
import { env } from "cloudflare:workers";
import type { Address } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";

import { priceCacheKey } from "../../src/pricing/price-cache";
import { servicesOf } from "../../src/services";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../../src/solana/well-known";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { get } from "../helpers/http";
import { newApiKey } from "../helpers/keys";

/** Quotes a price reads no further than (wSOL through SOL/USD, read in the same batch; USDC and USDT are $1). */
const DIRECT_QUOTES = new Set<string>([WSOL_MINT, USDC_MINT, USDT_MINT]);

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = (await (await fetch(`${env.LOCALNET_URL}/__localnet/world`)).json()) as WorldManifest;
  // The manifest is the newest (processed) state; two more slots confirm every token it lists (overviews read confirmed).
  await fetch(`${env.LOCALNET_URL}/__localnet/advance?slots=2`, { method: "POST" });
});

async function countedOverview(mint: string): Promise<{ status: number; requests: number; methods: Record<string, number> }> {
  const res = await get(`/api/v1/overview?ca=${mint}`, { headers: { "x-api-key": key } });
  await res.arrayBuffer();
  const requestId = res.headers.get("x-request-id")!;
  const stats = (await (await fetch(`${env.LOCALNET_URL}/__localnet/stats?requestId=${requestId}`)).json()) as { requests: number; methods: Record<string, number> };
  return { status: res.status, ...stats };
}

/** Makes the next overview of `mint` cold: its own parts and its price record, in the isolate and the Cache API. */
async function forgetEverything(mint: string): Promise<void> {
  await servicesOf(env).overviewCaches.forget(mint as Address);
  servicesOf(env).prices.cache.clearLocal();
  await caches.default.delete(priceCacheKey("auto", mint, undefined));
}

describe("upstream requests per overview", () => {
  it("every localnet token: cold ≤ 3, warm = 0", async () => {
    const counts: string[] = [];
    // The slow-metadata token costs 3 s of fetch deadline and no extra upstream request; it is covered elsewhere.
    for (const token of manifest.tokens.filter((t) => !t.tags.includes("broken-metadata:slow"))) {
      await forgetEverything(token.mint);
      const cold = await countedOverview(token.mint);
      const warm = await countedOverview(token.mint);
      counts.push(`${token.symbol}:${cold.requests}/${warm.requests}`);
      expect(cold.status, token.symbol).toBe(200);
      expect(warm.status, token.symbol).toBe(200);
      expect(cold.requests, `${token.symbol} cold ${JSON.stringify(cold.methods)}`).toBeGreaterThan(0);
      const quotedInAToken = token.pools.every((p) => !DIRECT_QUOTES.has(p.quoteMint));
      expect(cold.requests, `${token.symbol} cold ${JSON.stringify(cold.methods)}`).toBeLessThanOrEqual(quotedInAToken ? 4 : 3);
      expect(warm.requests, `${token.symbol} warm ${JSON.stringify(warm.methods)}`).toBe(0);
    }
    console.log(`overview upstream requests cold/warm: ${counts.join(" ")}`);
  });
});
