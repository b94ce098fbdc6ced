import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { newApiKey } from "../helpers/keys";
import { upstreamRequests } from "../helpers/localnet";
import { armFault, clearFaults, freshUpstream, postRpc, postRpcWithEnv, rpcRequest } from "../helpers/rpc";

/**
 * Upstream faults, injected with localnet's /__localnet/faults (or a fetch spy where localnet has no such mode).
 * Faults target getEpochInfo, which no other suite calls, so parallel test files do not consume them.
 * Each test talks to its own upstream URL (localnet with a distinct query string): circuit breaker state is
 * per URL and per isolate, so one test's open circuit never leaks into another.
 * workerd logs "uncaught exception … Network connection lost" for every refused connection even when the fetch
 * promise is caught (a bare `fetch(closedPort).catch(() => {})` does the same): expected noise in this file.
 */

const method = "getEpochInfo";
let key: string;

async function call(upstreamUrl: string, body: unknown = rpcRequest(method), extraEnv: Record<string, string> = {}) {
  const started = Date.now();
  const reply = await postRpcWithEnv({ UPSTREAM_RPC_URL: upstreamUrl, ...extraEnv }, key, body);
  // The worker's own request id (answered in x-request-id) is what it forwards upstream.
  return { ...reply, ms: Date.now() - started, upstream: () => upstreamRequests(reply.headers.get("x-request-id")!) };
}

const errorBody = (code: number, message: string, data?: unknown, id: unknown = 1) => ({ jsonrpc: "2.0", error: data === undefined ? { code, message } : { code, message, data }, id });

describe("upstream faults", () => {
  beforeAll(async () => {
    key = await newApiKey();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await clearFaults();
  });

  it("timeout: the slow attempt is abandoned and retried; when every attempt is slow → -32050", async () => {
    const fast = { UPSTREAM_ATTEMPT_TIMEOUT_MS: "300" };
    // Given one attempt that never answers
    await armFault("timeout", 1, [method]);
    const retried = await call(freshUpstream(), undefined, fast);
    // Then the retry answers
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: { epoch: expect.any(Number) } });
    expect(await retried.upstream()).toBe(2);
    // Given three attempts that never answer
    await armFault("timeout", 3, [method]);
    const failed = await call(freshUpstream(), undefined, fast);
    expect(failed.json).toEqual(errorBody(-32050, "Upstream node did not answer in time"));
    expect(await failed.upstream()).toBe(3);
    expect(failed.ms).toBeGreaterThanOrEqual(900);
  });

  it("429 with Retry-After: the upstream rests that long; alone → -32052 with retryAfterSeconds, then it serves again", async () => {
    const upstream = freshUpstream();
    await armFault("429", 1, [method]);
    const limited = await call(upstream);
    expect(limited.status).toBe(200);
    expect(limited.json).toEqual(errorBody(-32052, "Upstream node is rate limiting requests", { retryAfterSeconds: 1 }));
    expect(await limited.upstream()).toBe(1);
    // While it rests, nothing is sent to it
    const resting = await call(upstream);
    expect(resting.json).toEqual(errorBody(-32052, "Upstream node is rate limiting requests", { retryAfterSeconds: 1 }));
    expect(await resting.upstream()).toBe(0);
    // After Retry-After, it is asked again
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const back = await call(upstream);
    expect(back.json).toMatchObject({ result: { epoch: expect.any(Number) } });
  });

  it("429 on the first of two upstreams: the second answers", async () => {
    await armFault("429", 1, [method]);
    const answered = await call(`${freshUpstream()},${freshUpstream()}`);
    expect(answered.json).toMatchObject({ id: 1, result: { epoch: expect.any(Number) } });
    expect(await answered.upstream()).toBe(2);
  });

  it("500: retried; three in a row → -32051, and the open circuit then answers without calling", async () => {
    await armFault("500", 1, [method]);
    const retried = await call(freshUpstream());
    expect(retried.json).toMatchObject({ result: { epoch: expect.any(Number) } });
    expect(await retried.upstream()).toBe(2);

    const upstream = freshUpstream();
    await armFault("500", 3, [method]);
    const failed = await call(upstream);
    expect(failed.json).toEqual(errorBody(-32051, "Upstream node unavailable"));
    expect(await failed.upstream()).toBe(3);
    const shortCircuited = await call(upstream);
    expect(shortCircuited.json).toEqual(errorBody(-32051, "Upstream node unavailable"));
    expect(await shortCircuited.upstream()).toBe(0);
  });

  it.each(["html", "truncated", "wrong-id", "garbage"] as const)("%s answer → -32053, not retried", async (mode) => {
    await armFault(mode, 1, [method]);
    const answered = await call(freshUpstream());
    expect(answered.status).toBe(200);
    expect(answered.json).toEqual(errorBody(-32053, "Upstream node returned a malformed response"));
    expect(await answered.upstream()).toBe(1);
  });

  it("a malformed answer to a batch gives every forwarded item the error, with its own id", async () => {
    await armFault("truncated", 1, [method]);
    const answered = await call(freshUpstream(), [rpcRequest(method, [], "a"), rpcRequest("getFoo", [], "b"), rpcRequest(method, [{ commitment: "confirmed" }], "c")]);
    expect(answered.json).toEqual([
      errorBody(-32053, "Upstream node returned a malformed response", undefined, "a"),
      errorBody(-32601, "Method not found", undefined, "b"),
      errorBody(-32053, "Upstream node returned a malformed response", undefined, "c"),
    ]);
  });

  it("connection refused → -32051", async () => {
    const refused = await call("http://127.0.0.1:9");
    expect(refused.json).toEqual(errorBody(-32051, "Upstream node unavailable"));
  });

  it("first of two upstreams down: the second answers; after 3 failures the dead one is no longer tried", async () => {
    // Given a closed port first and localnet second
    const dead = `http://127.0.0.1:9/?case=${crypto.randomUUID()}`;
    const upstreams = `${dead},${freshUpstream()}`;
    const original = globalThis.fetch;
    const deadCalls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === dead) deadCalls.push(url);
      return original(input, init);
    });
    // When four requests go out
    for (let i = 1; i <= 4; i++) {
      const answered = await call(upstreams);
      // Then each is answered by the healthy upstream
      expect(answered.json).toMatchObject({ result: { epoch: expect.any(Number) } });
      expect(deadCalls.length).toBe(Math.min(i, 3));
    }
  });

  it("sendTransaction is never retried: a 500 → -32051 after exactly one upstream call", async () => {
    await armFault("500", 1, ["sendTransaction"]);
    const sent = await call(freshUpstream(), rpcRequest("sendTransaction", ["AQ==", { encoding: "base64" }]));
    expect(sent.json).toEqual(errorBody(-32051, "Upstream node unavailable"));
    expect(await sent.upstream()).toBe(1);
  });

  it("node behind (-32005): retried; when every attempt is behind, the node's error is passed through unchanged", async () => {
    const behind = { code: -32005, message: "Node is behind by 42 slots", data: { numSlotsBehind: 42 } };
    const original = globalThis.fetch;
    let behindAnswers = 1;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes("?case=") || behindAnswers-- <= 0) return original(input, init);
      const id = (JSON.parse(String(init?.body)) as { id: unknown }).id;
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: behind, id }), { headers: { "content-type": "application/json" } });
    });
    const retried = await call(freshUpstream());
    expect(retried.json).toMatchObject({ result: { epoch: expect.any(Number) } });

    behindAnswers = 3;
    const passed = await call(freshUpstream());
    expect(passed.json).toEqual({ jsonrpc: "2.0", error: behind, id: 1 });
  });

  it("after all of the above, the configured upstream keeps serving", async () => {
    const healthy = await postRpc(key, rpcRequest(method));
    expect(healthy.json).toMatchObject({ result: { epoch: expect.any(Number) } });
  });
});
