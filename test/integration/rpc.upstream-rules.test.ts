import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { upstreamRequests, world } from "../helpers/localnet";
import { freshUpstream, postRpcWithEnv, rpcRequest } from "../helpers/rpc";
import { callWorker } from "../helpers/worker";

/**
 * What the proxy does with what the request causes upstream (issue 8): answers caused by the request never open
 * the circuit, bodies over the node's cap are not sent, answers over our byte cap are not read, malformed answers
 * are caught, Retry-After is clamped, and nesting never reaches a recursive walk. Each test has its own upstream
 * URL (localnet with a distinct query string): circuit state is per URL and per isolate.
 */

const key32 = "So11111111111111111111111111111111111111112";
const tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
let key: string;

async function call(upstream: string, body: unknown) {
  const reply = await postRpcWithEnv({ UPSTREAM_RPC_URL: upstream }, key, body);
  // The worker forwards its own request id (the answer's x-request-id): localnet counts requests by it.
  return { ...reply, upstream: () => upstreamRequests(reply.headers.get("x-request-id")!) };
}

/** The real fetch, whatever spies are installed later. */
const realFetch = globalThis.fetch;

/** Fetches to `upstream` answered by `answer` (all earlier intercepts dropped); everything else goes through. Records the bodies sent there. */
function interceptUpstream(upstream: string, answer: (body: string) => Response | Promise<Response>): string[] {
  const sent: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== upstream) return realFetch(input, init);
    const body = String(init?.body);
    sent.push(body);
    return answer(body);
  });
  return sent;
}

const error = (id: unknown, code: number, message: string, data?: unknown) => ({ jsonrpc: "2.0", error: data === undefined ? { code, message } : { code, message, data }, id });
const slotResult = { jsonrpc: "2.0", id: 1, result: expect.any(Number) };

beforeAll(async () => {
  key = await newApiKey();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the circuit breaker counts only the upstream's own faults", () => {
  it("the audit's 26 KB getTokenAccountsByDelegate padded with an unknown key: answered every time, getSlot keeps working", async () => {
    // Given form (a) options padded with a 26 KB unknown key (the delegate rewrite used to copy it into two calls)
    const upstream = freshUpstream();
    const padded = rpcRequest("getTokenAccountsByDelegate", [key32, { encoding: "base64", padding: "p".repeat(26_000) }]);
    // When it is sent three times
    for (let i = 0; i < 3; i++) {
      const answered = await call(upstream, padded);
      // Then each is answered by the node (the padding never went upstream), in one upstream request
      expect(answered.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: { context: { slot: expect.any(Number) }, value: expect.any(Array) } });
      expect(await answered.upstream()).toBe(1);
    }
    // And the upstream still serves everyone
    expect((await call(upstream, rpcRequest("getSlot"))).json).toEqual(slotResult);
  });

  it.each([413, 400, 404])("the upstream answering HTTP %i → -32060 with its status, one attempt, the circuit stays closed", async (status) => {
    const upstream = freshUpstream();
    const sent = interceptUpstream(upstream, () => new Response("refused", { status }));
    for (let i = 0; i < 4; i++) {
      const refused = await call(upstream, rpcRequest("getEpochInfo"));
      expect(refused.status).toBe(200);
      expect(refused.json).toEqual(error(1, -32060, "Upstream node refused the request", { httpStatus: status }));
    }
    expect(sent.length).toBe(4);
    vi.restoreAllMocks();
    expect((await call(upstream, rpcRequest("getSlot"))).json).toEqual(slotResult);
  });

  it(`a batch whose upstream body would pass ${limits.upstreamMaxRequestBytes} bytes: the calls that fit are sent and answered, the rest -32060, nothing over the cap goes out`, async () => {
    // Given 100 form (a) delegate calls: each becomes two upstream calls, ~2.4x its own size
    const upstream = freshUpstream();
    const options = { commitment: "confirmed", encoding: "base64", minContextSlot: 0, dataSlice: { offset: 0, length: 0 } };
    const batch = Array.from({ length: 100 }, (_, i) => rpcRequest("getTokenAccountsByDelegate", [key32, options], i));
    expect(JSON.stringify(batch).length).toBeLessThan(limits.maxRpcBodyBytes);
    const sizes: number[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (String(input) === upstream) sizes.push(new TextEncoder().encode(String(init?.body)).byteLength);
      return realFetch(input, init);
    });
    // When it is sent
    const answered = await call(upstream, batch);
    // Then one upstream request within the cap; answers in order: results first, then refusals
    expect(sizes.length).toBe(1);
    expect(sizes[0]).toBeLessThanOrEqual(limits.upstreamMaxRequestBytes);
    const answers = answered.json as { id: number; result?: unknown; error?: { code: number } }[];
    expect(answers.map((a) => a.id)).toEqual(batch.map((r) => r.id));
    const firstRefused = answers.findIndex((a) => a.error);
    expect(firstRefused).toBeGreaterThan(0);
    expect(answers.slice(0, firstRefused).every((a) => a.result !== undefined)).toBe(true);
    for (const refused of answers.slice(firstRefused)) {
      expect(refused).toEqual(error(refused.id, -32060, "Upstream request too large", { maxBytes: limits.upstreamMaxRequestBytes }));
    }
    // And the upstream is not held responsible
    vi.restoreAllMocks();
    expect((await call(upstream, rpcRequest("getSlot"))).json).toEqual(slotResult);
  });
});

describe("upstream answers are read with a byte cap and checked in full", () => {
  it("a 64 MiB answer → -32059, abandoned at the cap; the circuit stays closed", async () => {
    const upstream = freshUpstream();
    let streamed = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    interceptUpstream(
      upstream,
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              streamed += chunk.byteLength;
              if (streamed > 64 * 1024 * 1024) controller.close();
              else controller.enqueue(chunk);
            },
          }),
        ),
    );
    for (let i = 0; i < 3; i++) {
      const answered = await call(upstream, rpcRequest("getEpochInfo"));
      expect(answered.json).toEqual(error(1, -32059, "Upstream answer too large; narrow the request", { maxBytes: limits.upstreamAnswerCapBytes.default }));
    }
    expect(streamed).toBeLessThan(3 * (limits.upstreamAnswerCapBytes.default + 4 * chunk.byteLength));
    vi.restoreAllMocks();
    expect((await call(upstream, rpcRequest("getSlot"))).json).toEqual(slotResult);
  });

  it("JSON whose brackets balance but which is not JSON → -32053, never relayed with 200 as a result", async () => {
    for (const result of ["[1,,2,{oops}]", "[01]", '"\\x"', "tru", "[1,]", '{"a" 1}', "NaN"]) {
      // (a URL each: malformed answers count against the circuit, which opens after three)
      const upstream = freshUpstream();
      interceptUpstream(upstream, () => new Response(`{"jsonrpc":"2.0","result":${result},"id":9}`));
      const answered = await call(upstream, rpcRequest("getEpochInfo", [], 9));
      expect({ result, answer: answered.json }).toEqual({ result, answer: error(9, -32053, "Upstream node returned a malformed response") });
      vi.restoreAllMocks();
    }
  });

  it("Retry-After of 1e+23 seconds → retryAfterSeconds 60 on /rpc and Retry-After: 60 on REST", async () => {
    const upstream = freshUpstream();
    interceptUpstream(upstream, () => new Response("slow down", { status: 429, headers: { "retry-after": "100000000000000000000000" } }));
    const limited = await call(upstream, rpcRequest("getEpochInfo"));
    expect(limited.json).toEqual(error(1, -32052, "Upstream node is rate limiting requests", { retryAfterSeconds: 60 }));
    // The REST face of the same upstream answer (another URL: the first one is resting now)
    const restUpstream = freshUpstream();
    interceptUpstream(restUpstream, () => new Response("slow down", { status: 429, headers: { "retry-after": "100000000000000000000000" } }));
    const mint = (await world()).tokens[0]!.mint;
    const res = await callWorker({ path: `/api/v1/price?ca=${mint}` }, { key, env: { UPSTREAM_RPC_URL: restUpstream, PRICE_CACHE_TTL_MS: "0" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
  });
});

describe("nesting is bounded where bodies are parsed", () => {
  /** A config nesting so that the whole request object reaches `depth` levels. */
  const nested = (depth: number) => JSON.parse(`{"x":${"[".repeat(depth - 3)}${"]".repeat(depth - 3)}}`) as object;

  it.each([
    ["getBlock", (config: object) => [1, config]],
    ["getBlocksWithLimit", (config: object) => [0, 1, config]],
  ] as const)("%s with a config nested 3,000 deep → -32600 with HTTP 200, not a 500", async (method, params) => {
    const answered = await call(freshUpstream(), rpcRequest(method, params(nested(3000))));
    expect(answered.status).toBe(200);
    expect(answered.json).toEqual(error(1, -32600, "Invalid request"));
    expect(await answered.upstream()).toBe(0);
  });

  it("a batch with one such item: every other item is still answered", async () => {
    const answered = await call(freshUpstream(), [rpcRequest("getSlot", [], "a"), rpcRequest("getBlock", [1, nested(3000)], "b"), rpcRequest("getHealth", [], "c")]);
    expect(answered.status).toBe(200);
    expect(answered.json).toEqual([{ jsonrpc: "2.0", id: "a", result: expect.any(Number) }, error("b", -32600, "Invalid request"), { jsonrpc: "2.0", id: "c", result: "ok" }]);
  });

  it(`an element nesting ${limits.maxRpcJsonDepth} deep (N) is served; ${limits.maxRpcJsonDepth + 1} (N+1) is an invalid request`, async () => {
    const upstream = freshUpstream();
    const atLimit = await call(upstream, rpcRequest("getSlot", [{ commitment: "confirmed", ...nested(limits.maxRpcJsonDepth) }]));
    expect(atLimit.json).toEqual(slotResult);
    const over = await call(upstream, rpcRequest("getSlot", [{ commitment: "confirmed", ...nested(limits.maxRpcJsonDepth + 1) }]));
    expect(over.json).toEqual(error(1, -32600, "Invalid request"));
  });
});

describe("getProgramAccounts filters must select few accounts", () => {
  it("the Token program with dataSize only, or an empty memcmp → -32602, never forwarded", async () => {
    const upstream = freshUpstream();
    const dataSizeOnly = await call(upstream, rpcRequest("getProgramAccounts", [tokenProgram, { encoding: "base64", filters: [{ dataSize: 165 }] }]));
    expect(dataSizeOnly.json).toEqual(
      error(1, -32602, `getProgramAccounts on ${tokenProgram} requires a memcmp filter on the mint (offset 0, 32 bytes) or the owner (offset 32, 32 bytes)`),
    );
    const emptyBytes = await call(upstream, rpcRequest("getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 0, bytes: "" } }] }]));
    expect(emptyBytes.json).toEqual(error(1, -32602, "getProgramAccounts memcmp filter with empty bytes matches every account; not allowed on this endpoint"));
    expect((await dataSizeOnly.upstream()) + (await emptyBytes.upstream())).toBe(0);
  });

  it("the Token program with a memcmp on the mint → forwarded and answered", async () => {
    const mint = (await world()).tokens.find((t) => t.tokenProgram === tokenProgram)!.mint;
    const answered = await call(freshUpstream(), rpcRequest("getProgramAccounts", [tokenProgram, { encoding: "base64", filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint } }] }]));
    expect(answered.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: expect.any(Array) });
    expect((answered.json as { result: unknown[] }).result.length).toBeGreaterThan(0);
  });
});
