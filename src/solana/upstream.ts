import { limits } from "../limits";
import type { RpcErrorObject } from "../json/json-rpc";
import { clampRetryAfterSeconds, parseRetryAfter } from "../http/retry-after";
import { readAnswer, type ExpectedAnswer, type JsonRpcId, type ResponseView } from "./upstream-answer";
import { readCappedBody, type CappedBody } from "./upstream-body";
import { CircuitBreaker } from "./upstream-breaker";
import { sliceSpan } from "../json/json-spans";
import { utf8ByteLength } from "../json/utf8-length";

export type { ExpectedAnswer, JsonRpcId, ResponseView } from "./upstream-answer";

/**
 * The one upstream JSON-RPC client of the worker (the /rpc proxy, pricing and overview all go through it).
 *
 * Two kinds of failure, kept apart because only one says anything about the node:
 * - the node's own faults — timeout, refused or reset connection, 5xx or other unexpected status, 429, a
 *   node-behind answer (-32005), a malformed answer — count against its circuit and, for idempotent calls, move
 *   on to the next upstream (or the same one again when it is the only one), at most `upstreamMaxAttempts` in
 *   all. A malformed answer is tried again only on another upstream: the same node would likely say the same.
 * - answers caused by the request — a 4xx other than 429 (the node refused this request), an answer over the byte
 *   cap (`upstreamAnswerCapBytes`) — never count against the circuit and are never retried: any node would say the
 *   same, and a few oversized requests must not shut the upstream for everyone. A body over the node's own cap
 *   (`upstreamMaxRequestBytes`) is refused here, unsent. JSON-RPC error objects are the node's answer: passed on.
 * Non-idempotent calls (sendTransaction, simulateTransaction) get exactly one attempt: a retried send could land twice.
 * Nothing is coalesced here (callers that want it, do it). Answers are read with a byte cap and checked by
 * scanning (`upstream-answer.ts`), not parsed: results are built only when asked for.
 */

/**
 * What went wrong, in the terms callers map to their own errors. `request-refused`: the node refused this request
 * (HTTP 4xx other than 429), or would have (body over its cap: not sent). `answer-too-large`: over our byte cap.
 */
export type UpstreamErrorKind = "timeout" | "unavailable" | "rate-limited" | "bad-response" | "rpc-error" | "request-refused" | "answer-too-large";

/** The kinds caused by the request rather than the node: never retried, never counted against a circuit. */
const causedByRequest: ReadonlySet<UpstreamErrorKind> = new Set(["request-refused", "answer-too-large"]);

/** What an UpstreamError may carry besides its kind. */
export interface UpstreamErrorDetails {
  /** For `rpc-error`: the node's own error object (from `call` only). */
  rpcError?: RpcErrorObject;
  /** For `rate-limited`: when the upstream said to come back (s), if it said; clamped to our range. */
  retryAfterSeconds?: number;
  /** For `request-refused`: the node's HTTP status, when it answered (absent: refused here, unsent). */
  httpStatus?: number;
  /** For `request-refused` unsent and `answer-too-large`: the cap that was passed (bytes). */
  maxBytes?: number;
}

/** A failed upstream call. */
export class UpstreamError extends Error {
  readonly kind: UpstreamErrorKind;
  readonly rpcError?: RpcErrorObject;
  readonly retryAfterSeconds?: number;
  readonly httpStatus?: number;
  readonly maxBytes?: number;

  constructor(kind: UpstreamErrorKind, message: string, extra: UpstreamErrorDetails = {}) {
    super(message);
    this.name = "UpstreamError";
    this.kind = kind;
    if (extra.rpcError) this.rpcError = extra.rpcError;
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = clampRetryAfterSeconds(extra.retryAfterSeconds);
    if (extra.httpStatus !== undefined) this.httpStatus = extra.httpStatus;
    if (extra.maxBytes !== undefined) this.maxBytes = extra.maxBytes;
  }
}

/** How one call may be sent. */
export interface UpstreamCallOptions {
  /** Safe to send twice (reads). Only idempotent calls are retried. Default false. */
  idempotent?: boolean;
  /** Forwarded as `x-request-id` so one request can be traced (and counted) across services. */
  requestId?: string;
  /** Per-attempt timeout (ms); defaults to the configured one. */
  timeoutMs?: number;
  /** Largest answer read (bytes); `call` defaults to its method's cap, `callRaw` to the default cap (see `answerCapFor`). */
  maxAnswerBytes?: number;
}

/** The byte cap of an answer to calls of `methods` (a batch gets the largest of its methods' caps). */
export function answerCapFor(methods: Iterable<string>): number {
  const caps = limits.upstreamAnswerCapBytes;
  let cap = 0;
  for (const method of methods) cap = Math.max(cap, Object.hasOwn(caps, method) ? caps[method]! : caps.default);
  return cap || caps.default;
}

/** What the upstream client needs (config.ts builds it from the env). */
export interface UpstreamConfig {
  /** Upstream JSON-RPC URLs in order of preference (failover goes down the list). */
  urls: readonly string[];
  /** Per-attempt timeout (ms). */
  attemptTimeoutMs: number;
  /**
   * Stable name of this set of upstreams, for keys of per-cluster state (cache entries, finalized slot): the
   * SHA-256 hex of the URL list. URLs often carry a provider's credentials (in the path or query) and Cache API
   * keys are URLs of their own, so no URL may appear in one — a one-way digest names the set without revealing it.
   */
  clusterKey: string;
}

/** One validated upstream answer: its exact text, the parsed value (built on first access), and who answered. */
export interface RawAnswer {
  text: string;
  readonly json: JsonRpcResponse | JsonRpcResponse[];
  url: string;
  /** Where each response sits in `text`, in order of appearance. */
  responses: ResponseView[];
}

/** A JSON-RPC response object as validated here: `result` xor `error`. */
export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result?: unknown;
  error?: RpcErrorObject;
}

/** The upstream JSON-RPC client (see `createUpstream`). */
export interface Upstream {
  /** Stable name of this set of upstreams (same list → same key). */
  readonly clusterKey: string;
  /** Calls `method` and returns its result; a JSON-RPC error answer throws `UpstreamError` kind `rpc-error`. */
  call<T>(method: string, params?: readonly unknown[], options?: UpstreamCallOptions): Promise<{ result: T }>;
  /**
   * Sends a request body as is and returns the validated answer. JSON-RPC errors in the answer are returned,
   * not thrown: the proxy passes them through unchanged. After the last attempt a node-behind answer is returned too.
   */
  callRaw(body: string, expected: ExpectedAnswer, options?: UpstreamCallOptions): Promise<RawAnswer>;
}

/** Agave's NodeUnhealthy ("Node is behind by N slots"): another node may well be current. */
const NODE_BEHIND = -32005;

/** Per isolate: every Upstream built here shares what it learns about each URL. */
const breaker = new CircuitBreaker({ failureThreshold: limits.upstreamBreakerFailureThreshold, openMs: limits.upstreamBreakerOpenMs });

/** Builds the upstream client for this environment (cheap: config is parsed once per isolate). */
export function createUpstream(config: UpstreamConfig): Upstream {
  return {
    clusterKey: config.clusterKey,
    async call<T>(method: string, params?: readonly unknown[], options: UpstreamCallOptions = {}) {
      const body = JSON.stringify(params === undefined ? { jsonrpc: "2.0", id: 1, method } : { jsonrpc: "2.0", id: 1, method, params });
      const { text, responses } = await send(config, body, { id: 1 }, { maxAnswerBytes: answerCapFor([method]), ...options });
      const { result, error } = responses[0]!;
      if (error) throw new UpstreamError("rpc-error", error.value.message, { rpcError: error.value });
      return { result: parseJson(sliceSpan(text, result!)) as T };
    },
    async callRaw(body, expected, options = {}) {
      return rawAnswer(await send(config, body, expected, options));
    },
  };
}

/** An answer as `send` checked it: text, where its responses are, who answered. */
interface ScannedAnswer {
  text: string;
  responses: ResponseView[];
  url: string;
}

async function send(config: UpstreamConfig, body: string, expected: ExpectedAnswer, options: UpstreamCallOptions): Promise<ScannedAnswer> {
  const bytes = utf8ByteLength(body);
  if (bytes > limits.upstreamMaxRequestBytes) {
    // The node would answer 413: say so without asking it, and without touching any circuit.
    throw new UpstreamError("request-refused", `Upstream request of ${bytes} bytes is over the node's cap`, { maxBytes: limits.upstreamMaxRequestBytes });
  }
  const attempt: Attempt = {
    body,
    expected,
    timeoutMs: options.timeoutMs ?? config.attemptTimeoutMs,
    maxAnswerBytes: options.maxAnswerBytes ?? limits.upstreamAnswerCapBytes.default,
    requestId: options.requestId,
  };
  const maxAttempts = options.idempotent ? limits.upstreamMaxAttempts : 1;
  const tried = new Set<string>();
  let lastError: UpstreamError | undefined;
  let behindAnswer: ScannedAnswer | undefined;
  for (let n = 0; n < maxAttempts; n++) {
    // After a malformed answer, only a node not asked yet is worth asking.
    const url = pickUpstream(config.urls, tried, lastError?.kind !== "bad-response", Date.now(), attempt.timeoutMs + limits.upstreamProbeGraceMs);
    if (url === undefined) break;
    tried.add(url);
    try {
      const answer = await attemptOnce(url, attempt);
      if (options.idempotent && answer.responses.some((r) => r.error?.value.code === NODE_BEHIND)) {
        breaker.recordFailure(url, Date.now());
        behindAnswer = answer;
        continue;
      }
      breaker.recordSuccess(url);
      return answer;
    } catch (err) {
      const failure = err instanceof UpstreamError ? err : new UpstreamError("unavailable", String(err));
      if (causedByRequest.has(failure.kind)) {
        breaker.release(url);
        throw failure;
      }
      if (failure.kind === "rate-limited" && failure.retryAfterSeconds !== undefined) {
        breaker.coolDown(url, Math.min(failure.retryAfterSeconds * 1000, limits.upstreamMaxCooldownMs), Date.now());
      } else {
        breaker.recordFailure(url, Date.now());
      }
      lastError = failure;
    }
  }
  // The node's own "behind" answer says more than our timeout or refusal would.
  if (behindAnswer) return behindAnswer;
  throw lastError ?? allCircuitsOpen(config.urls, Date.now());
}

/** What every attempt of one call sends and expects. */
interface Attempt {
  body: string;
  expected: ExpectedAnswer;
  timeoutMs: number;
  maxAnswerBytes: number;
  requestId: string | undefined;
}

/**
 * Untried upstreams first, in configured order; then (when `again`) tried ones again — a single upstream gets its
 * retries. `probeMs`: how long a probe of a half-open circuit may take before another may go.
 */
function pickUpstream(urls: readonly string[], tried: ReadonlySet<string>, again: boolean, now: number, probeMs: number): string | undefined {
  for (const url of urls) if (!tried.has(url) && breaker.tryAcquire(url, now, probeMs)) return url;
  if (again) for (const url of urls) if (tried.has(url) && breaker.tryAcquire(url, now, probeMs)) return url;
  return undefined;
}

function allCircuitsOpen(urls: readonly string[], now: number): UpstreamError {
  const states = urls.map((url) => breaker.openState(url, now));
  if (states.every((s) => s?.reason === "rate-limited")) {
    const soonest = Math.min(...states.map((s) => s!.remainingMs));
    return new UpstreamError("rate-limited", "Every upstream asked us to back off", { retryAfterSeconds: soonest / 1000 });
  }
  return new UpstreamError("unavailable", "Every upstream circuit is open");
}

async function attemptOnce(url: string, attempt: Attempt): Promise<ScannedAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (attempt.requestId) headers["x-request-id"] = attempt.requestId;
  let body: CappedBody;
  try {
    const res = await fetch(url, { method: "POST", headers, body: attempt.body, signal: AbortSignal.timeout(attempt.timeoutMs) });
    if (res.status === 429) {
      await res.body?.cancel();
      const retryAfterSeconds = parseRetryAfter(res.headers.get("retry-after"), Date.now());
      throw new UpstreamError("rate-limited", `Upstream answered HTTP 429`, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    }
    if (res.status >= 400 && res.status <= 499) {
      await res.body?.cancel();
      throw new UpstreamError("request-refused", `Upstream answered HTTP ${res.status}`, { httpStatus: res.status });
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel();
      throw new UpstreamError("unavailable", `Upstream answered HTTP ${res.status}`);
    }
    body = await readCappedBody(res, attempt.maxAnswerBytes);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
      throw new UpstreamError("timeout", `Upstream did not answer within ${attempt.timeoutMs} ms`);
    }
    throw new UpstreamError("unavailable", `Upstream unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!body.ok) {
    if (body.reason === "too-large") throw new UpstreamError("answer-too-large", `Upstream answer over ${attempt.maxAnswerBytes} bytes`, { maxBytes: attempt.maxAnswerBytes });
    throw new UpstreamError("bad-response", "Upstream answer is not UTF-8");
  }
  const responses = readAnswer(body.text, attempt.expected, { controlFree: body.controlFree });
  if (!responses) throw new UpstreamError("bad-response", "Upstream answer is not a JSON-RPC response to this request");
  return { text: body.text, responses, url };
}

/** `JSON.parse`, with a failure reported as what it is: a malformed upstream answer. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError("bad-response", "Upstream answer is not valid JSON");
  }
}

/**
 * A RawAnswer made from a text that did not come through the client (an answer assembled from shared calls, a test's
 * upstream), checked against `expected` the same way.
 */
export function rawAnswerFromText(text: string, expected: ExpectedAnswer, url: string): RawAnswer {
  const responses = readAnswer(text, expected);
  if (!responses) throw new UpstreamError("bad-response", "Upstream answer is not a JSON-RPC response to this request");
  return rawAnswer({ text, url, responses });
}

/** A RawAnswer whose `json` is built only if someone reads it (the proxy never does: it slices `text`). */
function rawAnswer({ text, url, responses }: ScannedAnswer): RawAnswer {
  let json: JsonRpcResponse | JsonRpcResponse[] | undefined;
  return {
    text,
    url,
    responses,
    get json() {
      return (json ??= parseJson(text) as JsonRpcResponse | JsonRpcResponse[]);
    },
  };
}
