import { beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { world } from "../helpers/localnet";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { callWorker } from "../helpers/worker";

/** Every answer says where its time went (`Server-Timing`); a cold price shows each stage of the cold path. */
let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});

const call = (path: string, extraEnv: Record<string, string> = {}, headers: Record<string, string> = { "x-api-key": key }): Promise<Response> =>
  callWorker({ path }, { env: extraEnv, headers });

/** `name;dur=1.2;desc="…"` entries → name → duration. */
function stagesOf(res: Response): Map<string, number> {
  const header = res.headers.get("server-timing");
  expect(header, "server-timing header").toBeTruthy();
  const out = new Map<string, number>();
  for (const entry of header!.split(",")) {
    const [name, ...params] = entry.trim().split(";");
    const dur = params.find((p) => p.startsWith("dur="));
    expect(dur, entry).toBeDefined();
    out.set(name!, Number(dur!.slice(4)));
  }
  return out;
}

describe("Server-Timing", () => {
  it("a cold price lists auth, meter, cache, candidates, registry, upstream, decode and total", async () => {
    const token = manifest.tokens.find((t) => t.venues.includes("raydium-cpmm"))!;
    // TTL 0: nothing is fresh, so this request walks the whole cold path
    const res = await call(`/api/v1/price?ca=${token.mint}`, { PRICE_CACHE_TTL_MS: "0" });
    expect(res.status).toBe(200);
    const stages = stagesOf(res);
    expect([...stages.keys()]).toEqual(["auth", "meter", "cache", "candidates", "registry", "upstream", "decode", "total"]);
    for (const [name, ms] of stages) expect(ms, name).toBeGreaterThanOrEqual(0);
    expect(stages.get("total")!).toBeGreaterThanOrEqual(stages.get("upstream")!);
  });

  it("a warm price lists auth, meter (the plan's limiter) and total only; errors and /health carry the header too", async () => {
    const token = manifest.tokens.find((t) => t.venues.includes("raydium-cpmm"))!;
    await call(`/api/v1/price?ca=${token.mint}`);
    const warm = await call(`/api/v1/price?ca=${token.mint}`);
    expect([...stagesOf(warm).keys()]).toEqual(["auth", "meter", "total"]);
    const unauthorized = await call(`/api/v1/price?ca=${token.mint}`, {}, {});
    expect(unauthorized.status).toBe(401);
    expect([...stagesOf(unauthorized).keys()]).toEqual(["auth", "total"]);
    const missing = await call(`/api/v1/price`);
    expect(missing.status).toBe(400);
    expect(stagesOf(missing).has("total")).toBe(true);
    expect(stagesOf(await call(`/health`, {}, {})).has("total")).toBe(true);
  });
});
