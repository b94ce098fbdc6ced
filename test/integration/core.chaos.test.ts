/**
 * Chaos: random sequences of upstream faults (localnet's 500, 429, timeout, garbage, wrong id, refused, slow, reset
 * mid-body, html, truncated) interleaved with 2,000 concurrent requests over every route and a mix of mints, some of
 * them abandoned by the client. Every request ends by its deadline with a documented status; once the faults stop,
 * every route answers 200. The seed is printed so a failing run can be replayed (CHAOS_SEED).
 *
 * Requests go to the worker's `fetch` with an execution context of their own (SELF.fetch overflows the test pool's
 * stack after a few thousand calls); real runtime cancellation is covered by core.hangs.test.ts through SELF.
 */

/** One request through the worker, with its own execution context (its waitUntil work is awaited too). */
const call = (request: Request): Promise<Response> => callWorker({ request });
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { limits } from "../../src/limits";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { newApiKey } from "../helpers/keys";
import { world } from "../helpers/localnet";
import { callWorker } from "../helpers/worker";

const REQUESTS = Number(process.env.CHAOS_REQUESTS ?? 2000);
const CONCURRENCY = 100;
const ALL_FAULT_MODES = ["500", "429", "timeout", "garbage", "wrong-id", "refused", "slow", "reset", "html", "truncated"] as const;
const FAULT_MODES = process.env.CHAOS_MODES ? (process.env.CHAOS_MODES.split(",") as unknown as typeof ALL_FAULT_MODES) : ALL_FAULT_MODES;
/** What each route may answer under faults (docs/api.md, docs/rpc.md). */
const REST_STATUSES = new Set([200, 404, 503, 504]);
const RPC_STATUSES = new Set([200, 504]);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Admin calls retry once: a pooled keep-alive connection that localnet has just closed fails without reaching it. */
async function admin(method: string, body?: object): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method, body: body && JSON.stringify(body) });
      await res.arrayBuffer();
      return;
    } catch (err) {
      if (attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
const arm = (plan: object) => admin("POST", plan);
const clearFaults = () => admin("DELETE");

it(`${REQUESTS} concurrent requests under random upstream faults all end by the deadline; all routes recover`, async () => {
  const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
  console.log(`chaos seed ${seed} (replay with CHAOS_SEED=${seed})`);
  const random = rng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const key = await newApiKey();
  const manifest: WorldManifest = await world();
  const mints = manifest.tokens.map((t) => t.mint);
  const wallet = manifest.wallets.whales[0]!;

  // Given a mix of requests over every route
  const makeRequest = (): { kind: "rest" | "rpc"; request: () => Request } => {
    const roll = random();
    if (roll < 0.35) return { kind: "rest", request: () => new Request(`https://api.test/api/v1/price?ca=${pick(mints)}`, { headers: { "x-api-key": key } }) };
    if (roll < 0.5) return { kind: "rest", request: () => new Request(`https://api.test/api/v1/${pick(["venue-a", "venue-b", "venue-c", "venue-d"])}?ca=${pick(mints)}`, { headers: { "x-api-key": key } }) };
    if (roll < 0.65) {
      const list = Array.from({ length: 2 + Math.floor(random() * 20) }, () => pick(mints)).join(",");
      return { kind: "rest", request: () => new Request(`https://api.test/api/v1/price?ca=${list}`, { headers: { "x-api-key": key } }) };
    }
    if (roll < 0.8) return { kind: "rest", request: () => new Request(`https://api.test/api/v1/overview?ca=${pick(mints)}`, { headers: { "x-api-key": key } }) };
    const body = JSON.stringify(pick([{ jsonrpc: "2.0", id: 1, method: "getSlot" }, { jsonrpc: "2.0", id: 2, method: "getBalance", params: [wallet] }]));
    return { kind: "rpc", request: () => new Request(`https://api.test/rpc?x-api-key=${key}`, { method: "POST", headers: { "content-type": "application/json" }, body }) };
  };

  // And a fault schedule: a new random fault plan every few requests while the load runs
  const counts = new Map<string, number>();
  let maxMs = 0;
  let cancelled = 0;
  let sent = 0;
  const abandoned: Promise<unknown>[] = [];
  const deadline = limits.requestDeadlineMs + 5_000;
  const worker = async () => {
    while (sent < REQUESTS) {
      const n = sent++;
      if (n % 40 === 0) {
        const mode = pick(FAULT_MODES);
        // Held connections (timeout) cost an attempt timeout each: few of them; others in small bursts.
        await arm({ mode, count: mode === "timeout" ? 1 : 1 + Math.floor(random() * 6) });
      }
      const { kind, request } = makeRequest();
      // A client that gives up stops listening (abandoned): the request must still end, and harm no one else.
      const cancel = random() < Number(process.env.CHAOS_CANCEL_SHARE ?? 0.05);
      const started = Date.now();
      let label: string;
      try {
        const answer = call(request());
        if (cancel) {
          abandoned.push(answer.catch(() => undefined));
          await new Promise((r) => setTimeout(r, Math.floor(random() * 30)));
          throw new Error("abandoned");
        }
        const res = await Promise.race([
          answer,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer by the deadline")), deadline)),
        ]);
        const text = await res.text();
        label = `${kind} ${res.status}`;
        const allowed = kind === "rest" ? REST_STATUSES : RPC_STATUSES;
        expect(allowed.has(res.status), `${request().url} → ${res.status} ${text.slice(0, 200)}`).toBe(true);
        if (kind === "rest" && res.status !== 200) expect(JSON.parse(text)).toMatchObject({ status: "error", error: { code: res.status } });
        if (kind === "rpc") expect(JSON.parse(text)).toMatchObject({ jsonrpc: "2.0" });
      } catch (err) {
        if (!cancel || (err instanceof Error && err.message === "no answer by the deadline")) throw err;
        cancelled++;
        label = "abandoned by the client";
      }
      maxMs = Math.max(maxMs, Date.now() - started);
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
  };
  // When they run, CONCURRENCY at a time
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  // Abandoned requests still end by their deadline (their work must not outlive this file's context).
  await Promise.all(abandoned);
  console.log(JSON.stringify({ chaos: { requests: REQUESTS, seed, statuses: Object.fromEntries([...counts].sort()), cancelled, maxLatencyMs: maxMs } }));

  // Then every request ended by the deadline (asserted per request above)
  expect(maxMs).toBeLessThan(deadline);

  // And once the faults stop, every route answers 200 (after open circuits and back-offs have expired)
  await clearFaults();
  const token = manifest.tokens.find((t) => t.venues[0] === "pumpswap")!;
  const probes = [
    () => call(new Request(`https://api.test/api/v1/price?ca=${token.mint}`, { headers: { "x-api-key": key } })),
    () => call(new Request(`https://api.test/api/v1/venue-d?ca=${token.mint}`, { headers: { "x-api-key": key } })),
    () => call(new Request(`https://api.test/api/v1/price?ca=${token.mint},${mints[1]}`, { headers: { "x-api-key": key } })),
    () => call(new Request(`https://api.test/api/v1/overview?ca=${token.mint}`, { headers: { "x-api-key": key } })),
    () => call(new Request(`https://api.test/rpc?x-api-key=${key}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}' })),
  ];
  const recoverBy = Date.now() + limits.upstreamBreakerOpenMs + 20_000;
  for (const probe of probes) {
    for (;;) {
      const res = await probe();
      const text = await res.text();
      const healthy = res.status === 200 && !text.includes('"error"');
      if (healthy) break;
      expect(Date.now(), `did not recover: ${res.status} ${text.slice(0, 200)}`).toBeLessThan(recoverBy);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}, 600_000);
