/**
 * A 404 is never remembered longer than the registry memo: the price cache stores successes only, and the registry
 * rows of a mint are memoised `limits.registryMemoMs` — so a pool that reaches the registry (the cron; under `npm start`
 * scripts/lib/cron-driver.ts drives it, as wrangler dev fires no cron) prices its token within that time.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { ingestUntil } from "../helpers/trade-index";
import { getJson } from "../helpers/http";
import { advance, world } from "../helpers/localnet";
import type { WorldManifest } from "../../localnet/src/world/manifest";

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});


const price = (mint: string) => getJson<{ pool?: string; error?: { code: number } }>(`/api/v1/price?ca=${mint}`, { headers: { "x-api-key": key } });
const registryOnlyKinds = new Set(["raydium-amm-v4", "meteora-dbc"]);

describe("cron → registry → price, within the registry memo", () => {
  it("a registry-only token answered 404 before the cron answers 200 within registryMemoMs after it", async () => {
    expect(limits.registryMemoMs).toBe(5000);
    // Given tokens whose every pool is of a kind only the registry knows, asked in one list while the registry is empty:
    // at most `poolScan.maxConcurrent` of them are looked up by a pool scan (found on first ask: price.first-ask.test.ts),
    // the others answer 404
    const everyRegistryOnly = manifest.tokens.filter((t) => t.pools.length > 0 && t.pools.every((p) => registryOnlyKinds.has(p.kind)));
    expect(everyRegistryOnly.length).toBeGreaterThan(limits.poolScan.maxConcurrent);
    const first = await getJson<{ ca: string; success: boolean; error?: { code: number } }[]>(`/api/v1/price?ca=${everyRegistryOnly.map((t) => t.mint).join(",")}`, { headers: { "x-api-key": key } });
    expect(first.status).toBe(200);
    const unpriced = new Set(first.body.filter((r) => !r.success).map((r) => r.ca));
    for (const r of first.body.filter((r) => !r.success)) expect(r.error?.code, r.ca).toBe(404);
    const registryOnly = everyRegistryOnly.filter((t) => unpriced.has(t.mint));
    expect(registryOnly.length).toBeGreaterThan(0);

    // When blocks of swaps happen and the scheduled handler runs (the 404s' registry memo is still young)
    await advance(60);
    await ingestUntil();
    const cronDone = Date.now();
    const { results } = await env.DB.prepare("SELECT address FROM pools").all<{ address: string }>();
    const known = new Set(results.map((r) => r.address));
    const learned = registryOnly.filter((t) => t.pools.some((p) => known.has(p.address)));
    expect(learned.length).toBeGreaterThan(0);

    // Then each of them answers 200 from a registered pool no later than registryMemoMs after the cron (plus slack)
    const pending = new Set(learned.map((t) => t.mint));
    const pricedAfter = new Map<string, number>();
    const lastAnswer = new Map<string, string>();
    while (pending.size > 0 && Date.now() - cronDone < limits.registryMemoMs + 1500) {
      for (const mint of [...pending]) {
        const res = await price(mint);
        if (res.status === 200) {
          const token = learned.find((t) => t.mint === mint)!;
          expect(token.pools.map((p) => p.address)).toContain(res.body.pool);
          pricedAfter.set(mint, Date.now() - cronDone);
          pending.delete(mint);
        } else {
          expect(res.status, mint).toBe(404);
          lastAnswer.set(mint, `${Date.now() - cronDone} ms after the cron: ${JSON.stringify(res.body).slice(0, 400)}`);
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const stillMissing = [...pending].map((m) => `${m} ${lastAnswer.get(m)}`);
    // the answers themselves in the message: a CI log's last lines then say what the price path refused
    expect(stillMissing, `still 404 after the registry memo: ${stillMissing.join(" | ")}`).toEqual([]);
    for (const [mint, ms] of pricedAfter) expect(ms, mint).toBeLessThanOrEqual(limits.registryMemoMs + 1000);
  });
});
