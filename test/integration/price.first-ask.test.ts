/**
 * Pools found on first ask (pool-registry/pool-scan.ts): a token whose only pools cannot be derived from its mint
 * (Raydium AMM v4 keyed by its market, Meteora DBC by its config) is priced by the first ask of a worker whose pool
 * registry does not have them yet (this worker's D1 starts empty and its cron has not run), found by getProgramAccounts
 * at localnet; the pools found are registered in D1, and the next cold ask does not scan again.
 *
 * The first tests ask world pools that trade, before the trade index or the chain tail registered them (the same state
 * for the worker); the last one asks the pools that open later (every token of the world on its first ask:
 * price.every-token.test.ts).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/http";
import { ensureFreshOracle, independentPrice, independentSolUsd } from "../helpers/independent-price";
import { advance, chainRpc, keyAndReadableWorld, readableWorld, upstreamCounts } from "../helpers/localnet";
import { until } from "../helpers/wait";
import { relErr } from "../helpers/numbers";
import { limits } from "../../src/limits";
import { scanCallsPerMint } from "../../src/pool-registry/pool-scan";
import type { WorldManifest, WorldToken } from "../../localnet/src/world/manifest";

const WSOL = "So11111111111111111111111111111111111111112";

interface PriceRecord {
  ca: string;
  dex: string;
  pool: string;
  priceInUsd: string;
  slot: number;
}

let key = "";
let manifest: WorldManifest;
beforeAll(async () => ({ key, manifest } = await keyAndReadableWorld()));
const auth = () => ({ headers: { "x-api-key": key } });

/** Tokens all of whose pools are of a non-derivable kind, still trading (not migrated away), quoted in wSOL. */
function nonDerivableOnly(kind: string): WorldToken[] {
  return manifest.tokens.filter((t) => t.pools.length > 0 && t.pools.every((p) => !p.derivable && p.kind === kind && p.quoteMint === WSOL) && !t.tags.includes("complete"));
}

async function registryRows(mint: string): Promise<{ address: string; kind: string; source: string }[]> {
  const { results } = await env.DB.prepare("SELECT address, kind, source FROM pools WHERE base_mint = ?1 OR quote_mint = ?1").bind(mint).all<{ address: string; kind: string; source: string }>();
  return results;
}

/** Relative error of the worker's USD price against the raw accounts, asked until both read the same slot. */
async function priceMatchesTruth(kind: string, pool: string, mint: string): Promise<number> {
  for (let attempt = 0; attempt < 8; attempt++) {
    await ensureFreshOracle();
    const res = await getJson<PriceRecord>(`/api/v1/price?ca=${mint}`, auth());
    expect(res.status).toBe(200);
    const truth = await independentPrice(kind, pool, mint);
    const sol = await independentSolUsd();
    if (truth.slot === res.body.slot && sol.slot === res.body.slot) return relErr(Number(res.body.priceInUsd), truth.price * sol.price);
    await new Promise((r) => setTimeout(r, 1100)); // let the 1 s price cache expire
  }
  throw new Error(`no read of ${mint} at a stable slot`);
}

describe("a pool that cannot be derived is found on the first ask", () => {
  for (const kind of ["raydium-amm-v4", "meteora-dbc"]) {
    it(`${kind}: priced on the first ask from an empty registry, equal to the raw accounts; registered (gpa); not scanned again`, async () => {
      // Given a token whose only pool is a non-derivable one, and a registry that does not have it
      const [token] = nonDerivableOnly(kind);
      expect(token, `world has a token whose only pools are ${kind}`).toBeDefined();
      const pool = token!.pools[0]!;
      expect(await registryRows(token!.mint)).toEqual([]);
      await ensureFreshOracle();

      // When it is asked for the first time
      const first = await getJson<PriceRecord>(`/api/v1/price?ca=${token!.mint}`, auth());

      // Then it is priced from that pool, found by getProgramAccounts in that request
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ ca: token!.mint, dex: kind, pool: pool.address });
      const counts = await upstreamCounts(first.headers.get("x-request-id")!);
      expect(counts.methods.getProgramAccounts ?? 0).toBeGreaterThan(0);

      // And the pool is in the registry, found by a scan
      await expect.poll(() => registryRows(token!.mint), { timeout: 5000 }).toEqual([{ address: pool.address, kind, source: "gpa" }]);

      // And a later cold ask (past the price TTL) prices it again without a scan
      await new Promise((r) => setTimeout(r, 1100));
      const again = await getJson<PriceRecord>(`/api/v1/price?ca=${token!.mint}`, auth());
      expect(again.status).toBe(200);
      expect(again.body.pool).toBe(pool.address);
      expect((await upstreamCounts(again.headers.get("x-request-id")!)).methods.getProgramAccounts ?? 0).toBe(0);

      // And the price equals an independent computation from the raw accounts at the record's slot
      expect(await priceMatchesTruth(kind, pool.address, token!.mint)).toBeLessThanOrEqual(1e-9);
    });
  }
});

describe("a flood of never-seen mints does not multiply scans", () => {
  it(`beyond ${limits.poolScan.maxConcurrent} scans in flight, a mint is priced from derivation alone and its 404 says why; the next ask scans it`, async () => {
    // Given never-asked tokens: some with derivable pools first, then one whose only pool is not derivable
    const asked = new Set(["raydium-amm-v4", "meteora-dbc"].map((k) => nonDerivableOnly(k)[0]?.mint));
    const hidden = [...nonDerivableOnly("raydium-amm-v4"), ...nonDerivableOnly("meteora-dbc")].find((t) => !asked.has(t.mint));
    expect(hidden, "world has a second token whose only pools are non-derivable").toBeDefined();
    const derivable = manifest.tokens.filter((t) => t.pools.some((p) => p.derivable) && t.pools.every((p) => p.kind !== "pumpfun")).slice(0, limits.poolScan.maxConcurrent);
    expect(derivable).toHaveLength(limits.poolScan.maxConcurrent);
    await ensureFreshOracle();

    // When they are asked in one list (each scan starts in list order)
    const list = await getJson<(PriceRecord & { success: boolean; error?: { code: number; message: string } })[]>(`/api/v1/price?ca=${[...derivable.map((t) => t.mint), hidden!.mint].join(",")}`, auth());

    // Then the scans in flight are capped, and the mint beyond them answers at once from derivation: a 404 that says why
    expect(list.status).toBe(200);
    const last = list.body.at(-1)!;
    expect(last.success).toBe(false);
    expect(last.error?.message).toMatch(/pool scan budget spent/);
    const counts = await upstreamCounts(list.headers.get("x-request-id")!);
    expect(counts.methods.getProgramAccounts).toBeLessThanOrEqual(limits.poolScan.maxConcurrent * scanCallsPerMint);

    // And the skip was not remembered as "no pool": asked alone, the mint is scanned and priced
    const alone = await getJson<PriceRecord>(`/api/v1/price?ca=${hidden!.mint}`, auth());
    expect(alone.status, JSON.stringify(alone.body)).toBe(200);
    expect(hidden!.pools.map((p) => p.address)).toContain(alone.body.pool);
  });
});

describe("pools that open later", () => {
  it("are refused until their opening time, which the 404 says, and priced from the raw accounts once open", async () => {
    // Given the world's later-opening pools (a CPMM open_time, an AMM v4 pool_open_time, a DAMM v2 activation point, an
    // adaptive-fee Whirlpool's trade-enable time) set to open 20 s after the next block, that block confirmed (the
    // worker reads at `confirmed`, one slot behind the tip: before it, the pools are still open there)
    const reopen = await fetch(`${env.LOCALNET_URL}/__localnet/reopen?seconds=20`, { method: "POST" });
    expect(reopen.status).toBe(200);
    const reopenedAt = await advance(1);
    await advance(1);
    expect(await chainRpc<number>("getSlot", [{ commitment: "confirmed" }])).toBeGreaterThanOrEqual(reopenedAt);
    const manifest = await readableWorld();
    const later = manifest.tokens.filter((t) => t.tags.includes("opens-later")).map((t) => ({ token: t, pool: t.pools[0]! }));
    expect(new Set(later.map((l) => l.pool.kind))).toEqual(new Set(["raydium-cpmm", "raydium-amm-v4", "meteora-damm-v2", "orca-whirlpool"]));
    const opensAt = (l: (typeof later)[number]) => (l.pool.activation as { time: number }).time;
    await ensureFreshOracle();

    // When each is asked before then: a 404 naming the pool and when it opens
    const answers = [];
    for (const l of later) {
      const res = await getJson<{ error?: { message: string } }>(`/api/v1/price?ca=${l.token.mint}`, auth());
      answers.push({ kind: l.pool.kind, status: res.status, message: res.body.error?.message ?? JSON.stringify(res.body) });
    }
    const clock = await chainRpc<number>("getBlockTime", [await chainRpc<number>("getSlot", [{ commitment: "confirmed" }])]);
    expect(answers, `chain time ${clock}`).toEqual(
      later.map((l) => ({
        kind: l.pool.kind,
        status: 404,
        message: expect.stringContaining(`pool ${l.pool.address} (${l.pool.kind}) is not open yet: swaps open at ${new Date(opensAt(l) * 1000).toISOString()}`),
      })),
    );

    // And once the chain's clock has passed the last opening, each is priced from that pool, equal to its raw accounts
    const last = Math.max(...later.map(opensAt));
    await until(
      "the chain's clock past the openings",
      async () => {
        await advance(3);
        const confirmed = await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
        return (await chainRpc<number>("getBlockTime", [confirmed])) >= last || undefined;
      },
      90_000,
      500,
    );
    await readableWorld();
    await new Promise((r) => setTimeout(r, 1100)); // past the price TTL of the refusals
    for (const l of later) {
      expect(await priceMatchesTruth(l.pool.kind, l.pool.address, l.token.mint), l.pool.kind).toBeLessThanOrEqual(1e-9);
    }
  }, 150_000);
});
