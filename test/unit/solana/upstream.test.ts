import { afterEach, describe, expect, it, vi } from "vitest";
import { upstreamFailureError } from "../../../src/errors/rpc-errors";
import { upstreamApiError } from "../../../src/errors/upstream-api-error";
import { limits } from "../../../src/limits";
import { parseRetryAfter } from "../../../src/http/retry-after";
import { answerCapFor, createUpstream, UpstreamError } from "../../../src/solana/upstream";
import { configOf } from "../../../src/config";

/**
 * The upstream client against a scripted fetch: which failures count against a circuit and are retried, byte caps
 * on what goes out and what comes back, Retry-After clamping. Circuits are per URL and per isolate (module state),
 * so every test uses URLs of its own.
 */

type Reply = Response | (() => Response) | Error;

/** A fetch that answers each call with the next reply; records the URLs and body sizes it was called with. */
function scriptedFetch(...replies: Reply[]) {
  const calls: { url: string; bytes: number }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body as Uint8Array | string;
    calls.push({ url: String(input), bytes: typeof body === "string" ? new TextEncoder().encode(body).byteLength : body.byteLength });
    const reply = replies.shift() ?? ok();
    if (reply instanceof Error) throw reply;
    return typeof reply === "function" ? reply() : reply;
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

let caseNo = 0;
function upstreamUrls(count = 1): string[] {
  caseNo++;
  return Array.from({ length: count }, (_, k) => `https://node-${k}.test/case-${caseNo}-${crypto.randomUUID()}`);
}
function client(urls: string[]) {
  return createUpstream(configOf({ UPSTREAM_RPC_URL: urls.join(",") }).upstream);
}

function ok(result = "5", id = 1): Response {
  return new Response(`{"jsonrpc":"2.0","result":${result},"id":${id}}`, { headers: { "content-type": "application/json" } });
}
function status(code: number, headers: Record<string, string> = {}): Response {
  return new Response("no", { status: code, headers });
}
/** An answer of exactly `bytes` bytes: a string result padded to size. */
function answerOfBytes(bytes: number): () => Response {
  const frame = `{"jsonrpc":"2.0","result":"","id":1}`;
  return () => new Response(`{"jsonrpc":"2.0","result":"${"x".repeat(bytes - frame.length)}","id":1}`);
}
async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(UpstreamError);
  return outcome as UpstreamError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("upstream client: what counts against a circuit", () => {
  it("HTTP 413 three times (the audit's case): refused each time, never retried, the circuit stays closed", async () => {
    const urls = upstreamUrls();
    const upstream = client(urls);
    // Given a node that answers 413 three times, then normally
    const calls = scriptedFetch(status(413), status(413), status(413), ok());
    // When three idempotent calls are refused
    for (let i = 0; i < 3; i++) {
      const failure = await failureOf(upstream.call("getTokenAccountsByDelegate", [], { idempotent: true }));
      // Then each is the node's refusal, once (no retry)
      expect(failure.kind).toBe("request-refused");
      expect(upstreamFailureError(failure)).toEqual({ code: -32060, message: "Upstream node refused the request", data: { httpStatus: 413 } });
    }
    expect(calls.length).toBe(3);
    // And the next call still goes to the node: no open circuit (getSlot is not -32051)
    expect((await upstream.call("getSlot", [], { idempotent: true })).result).toBe(5);
    expect(calls.length).toBe(4);
  });

  it.each([400, 404, 405, 413, 414, 422, 431])("HTTP %i: request-refused, one attempt, no circuit effect", async (code) => {
    const urls = upstreamUrls();
    const calls = scriptedFetch(status(code), status(code), status(code), status(code), ok());
    for (let i = 0; i < 4; i++) expect((await failureOf(client(urls).call("getSlot", [], { idempotent: true }))).kind).toBe("request-refused");
    expect(calls.length).toBe(4);
    expect((await client(urls).call("getSlot", [], { idempotent: true })).result).toBe(5);
  });

  it("HTTP 500, 502, 503: retried and counted; three in a row open the circuit (-32051 without calling)", async () => {
    const urls = upstreamUrls();
    const calls = scriptedFetch(status(500), status(502), status(503));
    const failure = await failureOf(client(urls).call("getSlot", [], { idempotent: true }));
    expect(failure.kind).toBe("unavailable");
    expect(calls.length).toBe(3);
    const shortCircuited = await failureOf(client(urls).call("getSlot", [], { idempotent: true }));
    expect(upstreamFailureError(shortCircuited)).toEqual({ code: -32051, message: "Upstream node unavailable" });
    expect(calls.length).toBe(3);
  });

  it("a refused or reset connection and a timeout count and are retried", async () => {
    const urls = upstreamUrls();
    const calls = scriptedFetch(new TypeError("Network connection lost"), Object.assign(new Error("timed out"), { name: "TimeoutError" }), ok());
    expect((await client(urls).call("getSlot", [], { idempotent: true })).result).toBe(5);
    expect(calls.length).toBe(3);
  });

  it("a JSON-RPC error object is the node's answer: passed on, not retried, no circuit effect", async () => {
    const urls = upstreamUrls();
    const calls = scriptedFetch(...Array.from({ length: 4 }, () => new Response(`{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params"},"id":1}`)));
    for (let i = 0; i < 4; i++) expect((await failureOf(client(urls).call("getSlot", [], { idempotent: true }))).kind).toBe("rpc-error");
    expect(calls.length).toBe(4);
  });

  it("a malformed answer counts, and is tried again on another upstream only", async () => {
    // Given two upstreams, the first answering garbage
    const [first, second] = upstreamUrls(2);
    const calls = scriptedFetch(new Response(`{"jsonrpc":"2.0","result":[1,,2],"id":1}`), ok());
    // Then the second answers
    expect((await client([first!, second!]).call("getSlot", [], { idempotent: true })).result).toBe(5);
    expect(calls.map((c) => c.url)).toEqual([first, second]);
    // Given a single upstream answering garbage: one attempt, -32053
    const [only] = upstreamUrls();
    const single = scriptedFetch(new Response("<html>502</html>"), ok());
    expect(upstreamFailureError(await failureOf(client([only!]).call("getSlot", [], { idempotent: true }))).code).toBe(-32053);
    expect(single.length).toBe(1);
  });
});

describe("upstream client: a half-open circuit's probe has a deadline", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`a probe that never reports (cancelled) blocks the circuit for its attempt timeout + ${limits.upstreamProbeGraceMs} ms, not forever`, async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    const urls = upstreamUrls();
    const timeoutMs = 40;
    // Given a circuit opened by three 5xx
    scriptedFetch(status(500), status(500), status(500));
    await failureOf(client(urls).call("getSlot", [], { idempotent: true, timeoutMs }));
    // And, once the open period is over, a probe whose request is cancelled: it never settles, whatever its signal says
    vi.setSystemTime(Date.now() + limits.upstreamBreakerOpenMs);
    const probeStarted = Date.now();
    let probes = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(() => {
        probes++;
        return new Promise<Response>(() => {});
      }),
    );
    void client(urls).call("getSlot", [], { timeoutMs });
    await Promise.resolve();
    expect(probes).toBe(1);
    // Then until the probe's deadline nobody else is let through
    vi.setSystemTime(probeStarted + timeoutMs + limits.upstreamProbeGraceMs - 1);
    expect((await failureOf(client(urls).call("getSlot", [], { timeoutMs }))).kind).toBe("unavailable");
    expect(probes).toBe(1);
    // And at the deadline one new probe goes; its success closes the circuit
    vi.setSystemTime(probeStarted + timeoutMs + limits.upstreamProbeGraceMs);
    scriptedFetch(ok(), ok());
    expect((await client(urls).call("getSlot", [], { timeoutMs })).result).toBe(5);
    expect((await client(urls).call("getSlot", [], { timeoutMs })).result).toBe(5);
  });
});

describe("upstream client: byte caps", () => {
  it(`a body of ${limits.upstreamMaxRequestBytes} bytes is sent; one byte more is refused unsent, with no circuit effect`, async () => {
    const urls = upstreamUrls();
    const frame = `{"jsonrpc":"2.0","id":1,"method":"getSlot","params":[""]}`;
    const body = (bytes: number) => `{"jsonrpc":"2.0","id":1,"method":"getSlot","params":["${"p".repeat(bytes - frame.length)}"]}`;
    const calls = scriptedFetch(ok());
    await client(urls).callRaw(body(limits.upstreamMaxRequestBytes), { id: 1 }, { idempotent: true });
    expect(calls).toEqual([{ url: urls[0], bytes: limits.upstreamMaxRequestBytes }]);
    const failure = await failureOf(client(urls).callRaw(body(limits.upstreamMaxRequestBytes + 1), { id: 1 }, { idempotent: true }));
    expect(failure.kind).toBe("request-refused");
    expect(upstreamFailureError(failure)).toEqual({ code: -32060, message: "Upstream request too large", data: { maxBytes: limits.upstreamMaxRequestBytes } });
    expect(calls.length).toBe(1);
  });

  it("counts the request cap in UTF-8 bytes, not characters", async () => {
    const urls = upstreamUrls();
    const frame = `{"jsonrpc":"2.0","id":1,"method":"getSlot","params":[""]}`;
    // Each "é" is two bytes: half the cap in characters is over it in bytes.
    const body = `{"jsonrpc":"2.0","id":1,"method":"getSlot","params":["${"é".repeat(Math.ceil((limits.upstreamMaxRequestBytes - frame.length + 2) / 2))}"]}`;
    const calls = scriptedFetch(ok());
    expect((await failureOf(client(urls).callRaw(body, { id: 1 }))).kind).toBe("request-refused");
    expect(calls.length).toBe(0);
  });

  it(`an answer of the default cap (${limits.upstreamAnswerCapBytes.default} bytes) is read; one byte more is refused (-32059), not retried, no circuit effect`, async () => {
    const cap = limits.upstreamAnswerCapBytes.default;
    const urls = upstreamUrls();
    const calls = scriptedFetch(answerOfBytes(cap), answerOfBytes(cap + 1), answerOfBytes(cap + 1), answerOfBytes(cap + 1), ok());
    const answer = await client(urls).callRaw(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, { id: 1 }, { idempotent: true });
    expect(answer.text.length).toBe(cap);
    for (let i = 0; i < 3; i++) {
      const failure = await failureOf(client(urls).callRaw(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, { id: 1 }, { idempotent: true }));
      expect(failure.kind).toBe("answer-too-large");
      expect(upstreamFailureError(failure)).toEqual({ code: -32059, message: "Upstream answer too large; narrow the request", data: { maxBytes: cap } });
    }
    expect(calls.length).toBe(4);
    expect((await client(urls).call("getSlot", [], { idempotent: true })).result).toBe(5);
  });

  it.each(["getBlock", "getProgramAccounts"])("`call` reads %s with its own cap, N and N+1", async (method) => {
    const urls = upstreamUrls();
    const big = limits.upstreamAnswerCapBytes[method]!;
    expect(big).toBeGreaterThan(limits.upstreamAnswerCapBytes.default);
    scriptedFetch(answerOfBytes(big), answerOfBytes(big + 1));
    expect((await client(urls).call<string>(method, [1])).result.length).toBe(big - `{"jsonrpc":"2.0","result":"","id":1}`.length);
    expect((await failureOf(client(urls).call(method, [1]))).kind).toBe("answer-too-large");
  });

  it("a batch's answer gets the largest cap among its methods", () => {
    expect(answerCapFor(["getSlot"])).toBe(limits.upstreamAnswerCapBytes.default);
    expect(answerCapFor(["getSlot", "getBlock", "getBalance"])).toBe(limits.upstreamAnswerCapBytes.getBlock);
    expect(answerCapFor(["getProgramAccounts"])).toBe(limits.upstreamAnswerCapBytes.getProgramAccounts);
    expect(answerCapFor([])).toBe(limits.upstreamAnswerCapBytes.default);
  });

  it("a 64 MiB answer is abandoned at the cap, not read in full", async () => {
    const urls = upstreamUrls();
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x78);
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += chunk.byteLength;
            if (pulled > 64 * 1024 * 1024) controller.close();
            else controller.enqueue(chunk);
          },
        }),
      );
    scriptedFetch(endless);
    expect((await failureOf(client(urls).callRaw(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, { id: 1 }))).kind).toBe("answer-too-large");
    expect(pulled).toBeLessThanOrEqual(limits.upstreamAnswerCapBytes.default + 2 * chunk.byteLength);
  });

  it("a declared Content-Length over the cap is refused before the body is read", async () => {
    const urls = upstreamUrls();
    let pulled = false;
    scriptedFetch(
      () =>
        new Response(
          new ReadableStream(
            {
              pull(controller) {
                pulled = true;
                controller.close();
              },
            },
            { highWaterMark: 0 },
          ),
          { headers: { "content-length": String(limits.upstreamAnswerCapBytes.default + 1) } },
        ),
    );
    expect((await failureOf(client(urls).callRaw(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, { id: 1 }))).kind).toBe("answer-too-large");
    expect(pulled).toBe(false);
  });
});

describe("Retry-After is clamped to 1-60 s wherever it is produced", () => {
  it.each([
    ["1e+23 seconds as digits", "100000000000000000000000", 60],
    ["61", "61", 60],
    ["60", "60", 60],
    ["1", "1", 1],
    ["0", "0", 1],
    ["a date in the year 3000", "Wed, 01 Jan 3000 00:00:00 GMT", 60],
    ["a date in the past", "Wed, 01 Jan 2020 00:00:00 GMT", 1],
  ])("%s → %s", (_name, header, seconds) => {
    expect(parseRetryAfter(header, Date.parse("2026-11-24T00:00:00Z"))).toBe(seconds);
  });

  it("garbage is no Retry-After at all", () => {
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });

  it("the upstream's 1e+23 reaches neither REST Retry-After nor JSON-RPC retryAfterSeconds", async () => {
    const urls = upstreamUrls();
    scriptedFetch(status(429, { "retry-after": "100000000000000000000000" }));
    const failure = await failureOf(client(urls).call("getSlot", []));
    expect(failure.retryAfterSeconds).toBe(60);
    expect(upstreamApiError(failure).headers).toEqual({ "retry-after": "60" });
    expect(upstreamFailureError(failure)).toEqual({ code: -32052, message: "Upstream node is rate limiting requests", data: { retryAfterSeconds: 60 } });
    // Even an error built elsewhere with a wild value is clamped on the way out
    const wild = new UpstreamError("rate-limited", "x", { retryAfterSeconds: 1e23 });
    expect(upstreamApiError(wild).headers["retry-after"]).toBe("60");
    expect(upstreamFailureError({ kind: "rate-limited", retryAfterSeconds: 1e23 })).toMatchObject({ data: { retryAfterSeconds: 60 } });
    expect(upstreamFailureError({ kind: "rate-limited", retryAfterSeconds: 0 })).toMatchObject({ data: { retryAfterSeconds: 1 } });
  });

  it("REST maps the new kinds to 503", () => {
    expect(upstreamApiError(new UpstreamError("answer-too-large", "x", { maxBytes: 1 })).status).toBe(503);
    expect(upstreamApiError(new UpstreamError("request-refused", "x", { httpStatus: 413 })).status).toBe(503);
  });
});
