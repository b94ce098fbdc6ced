/**
 * No request waits forever on work another request started. An overview that fails while its price computation is
 * still running must not strand that computation for the requests that join it later (it did: every later price,
 * overview or list containing the mint hung for good in that isolate).
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { limits } from "../../src/limits";
import { get } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { world } from "../helpers/localnet";
import { callWorker } from "../helpers/worker";

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});
afterEach(async () => {
  await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "DELETE" });
});

const auth = () => ({ headers: { "x-api-key": key } });
const arm = (plan: object) => fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "POST", body: JSON.stringify(plan) });

/** The answer's status, or "hung" when none came within `ms`. */
async function statusWithin(path: string, ms: number): Promise<number | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), ms)));
  const answered = get(path, auth()).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });
  try {
    return await Promise.race([answered, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks until a 200 (a fault may have opened the upstream's circuit for a while, or asked us to back off): every answer
 * must come within 20 s, and a 200 within `ms`.
 */
async function healthyWithin(path: string, ms: number): Promise<number | string> {
  const until = Date.now() + ms;
  for (;;) {
    const status = await statusWithin(path, 20_000);
    if (status === 200 || status === "hung" || Date.now() > until) return status;
    expect([503, 504], path).toContain(status);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SOL-quoted live pools are priced without the cron-filled registry (this file never runs the cron). */
const derivable = new Set(["pumpfun", "pumpswap", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v2"]);
const modes = ["html", "500", "garbage", "truncated", "wrong-id", "refused", "reset", "429"] as const;

describe("a failed overview never strands the requests that come after it", () => {
  it.each(modes.map((mode, i) => [mode, i] as const))("fault %s on the overview's first read, then price / overview / list answer", async (mode, i) => {
    // Given a mint no request of this file has touched, and the upstream failing the next request
    // (SOL-quoted, open, derivable pools: not the extras' pools quoted in other tokens, quiet or opening later)
    const notThese = new Set(["usdc-quoted", "complete", "lst-quoted", "usd1-quoted", "meme-quoted", "quiet", "opens-later"]);
    const tokens = manifest.tokens.filter((t) => derivable.has(t.venues[0]!) && !t.tags.some((tag) => tag.startsWith("broken") || notThese.has(tag)));
    const token = tokens[(i * 3) % tokens.length]!;
    await arm({ mode, count: 1 });

    // When its overview fails
    const failed = await statusWithin(`/api/v1/overview?ca=${token.mint}`, 20_000);
    expect(failed).not.toBe("hung");

    // Then the price, the overview and a list with the mint all answer once the upstream is healthy again
    await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "DELETE" });
    const other = tokens[(i * 3 + 1) % tokens.length]!.mint;
    const paths = [`/api/v1/price?ca=${token.mint}`, `/api/v1/overview?ca=${token.mint}`, `/api/v1/price?ca=${token.mint},${other}`];
    const statuses = await Promise.all(paths.map((path) => healthyWithin(path, 15_000)));
    expect(statuses).toEqual([200, 200, 200]);
  }, 90_000);
});

describe("every request has an overall deadline", () => {
  it("an upstream that holds every request: REST answers 504 envelope and /rpc a 504 JSON-RPC error at the 15 s deadline", async () => {
    // Given an upstream that holds requests for 30 s, and attempts allowed to wait 60 s (only the deadline can end them)
    await arm({ mode: "timeout", count: 50 });
    const slowEnv = { UPSTREAM_RPC_URL: `${env.LOCALNET_URL}/?deadline=${crypto.randomUUID()}`, UPSTREAM_ATTEMPT_TIMEOUT_MS: "60000", PRICE_CACHE_TTL_MS: "0" };
    const token = manifest.tokens.find((t) => t.venues[0] === "pumpswap")!;
    const call = async (request: Request) => {
      const started = Date.now();
      const res = await callWorker({ request }, { env: slowEnv, awaitBackground: false });
      return { status: res.status, body: await res.json(), ms: Date.now() - started };
    };
    // When a price and a JSON-RPC call are made
    const [price, rpc] = await Promise.all([
      call(new Request(`https://api.test/api/v1/price?ca=${token.mint}`, auth())),
      call(new Request(`https://api.test/rpc?x-api-key=${key}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":7,"method":"getSlot"}' })),
    ]);
    // Then both end at the deadline with their route's timeout answer
    expect(price).toMatchObject({ status: 504, body: { status: "error", error: { code: 504 } } });
    expect(rpc).toMatchObject({ status: 504, body: { jsonrpc: "2.0", id: null, error: { code: -32050 } } });
    for (const { ms } of [price, rpc]) {
      expect(ms).toBeGreaterThanOrEqual(limits.requestDeadlineMs - 50);
      expect(ms).toBeLessThan(limits.requestDeadlineMs + 3000);
    }
  }, 60_000);
});
