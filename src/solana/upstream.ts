import { limits } from "../limits";
import type { Env } from "../env";
import type { RpcErrorObject } from "../errors/rpc-errors";
import { readAnswer, type ExpectedAnswer, type JsonRpcId, type ResponseView } from "./upstream-answer";
import { CircuitBreaker } from "./upstream-breaker";
import { upstreamConfig, type UpstreamConfig } from "./upstream-config";
import { sliceSpan } from "./upstream-json-spans";

export type { ExpectedAnswer, JsonRpcId, ResponseView } from "./upstream-answer";

/**
 * The one upstream JSON-RPC client of the worker (the /rpc proxy, pricing and overview all go through it).
 *
 * Per call: try the preferred upstream whose circuit admits requests; on timeout, connection failure, 5xx or
 * other unexpected status, 429, or a node-behind answer (-32005), move to the next upstream (or the same one
 * again when it is the only one) — for idempotent calls only, at most `upstreamMaxAttempts` attempts in all.
 * Non-idempotent calls (sendTransaction, simulateTransaction) get exactly one attempt: a retried send could land twice.
 * Malformed answers (not JSON, truncated, HTML, not JSON-RPC, wrong id) are never retried: they are reported as
 * `bad-response` and count against the upstream's circuit. Nothing is coalesced here (callers that want it, do it).
 * Answers are checked by scanning (`upstream-answer.ts`), not parsed: results are built only when asked for.
 */

/** What went wrong, in the terms callers map to their own errors. */
export type UpstreamErrorKind = "timeout" | "unavailable" | "rate-limited" | "bad-response" | "rpc-error";

/** A failed upstream call. `rpcError` is the node's own error object (kind `rpc-error`, from `call` only). */
export class UpstreamError extends Error {
  readonly kind: UpstreamErrorKind;
  readonly rpcError?: RpcErrorObject;
  /** For `rate-limited`: when the upstream said to come back (s), if it said. */
  readonly retryAfterSeconds?: number;

  constructor(kind: UpstreamErrorKind, message: string, extra: { rpcError?: RpcErrorObject; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "UpstreamError";
    this.kind = kind;
    if (extra.rpcError) this.rpcError = extra.rpcError;
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = extra.retryAfterSeconds;
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
}

/** One validated upstream answer: its exact text, the parsed value (built on first access), and who answered. */
export interface RawAnswer {
  text: string;
  readonly json: JsonRpcResponse | JsonRpcResponse[];
  url: string;
  /** Where each response sits in `text`, in order of appearance; always set by `createUpstream`'s client. */
  responses?: ResponseView[];
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
export function createUpstream(env: Pick<Env, "UPSTREAM_RPC_URL" | "UPSTREAM_ATTEMPT_TIMEOUT_MS">): Upstream {
  const config = upstreamConfig(env);
  return {
    clusterKey: config.clusterKey,
    async call<T>(method: string, params?: readonly unknown[], options: UpstreamCallOptions = {}) {
      const body = JSON.stringify(params === undefined ? { jsonrpc: "2.0", id: 1, method } : { jsonrpc: "2.0", id: 1, method, params });
      const { text, responses } = await send(config, body, { id: 1 }, options);
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
  const maxAttempts = options.idempotent ? limits.upstreamMaxAttempts : 1;
  const tried = new Set<string>();
  let lastError: UpstreamError | undefined;
  let behindAnswer: ScannedAnswer | undefined;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const url = pickUpstream(config.urls, tried, Date.now());
    if (url === undefined) break;
    tried.add(url);
    try {
      const answer = await attemptOnce(url, body, expected, options.timeoutMs ?? config.attemptTimeoutMs, options.requestId);
      if (options.idempotent && answer.responses.some((r) => r.error?.value.code === NODE_BEHIND)) {
        breaker.recordFailure(url, Date.now());
        behindAnswer = answer;
        continue;
      }
      breaker.recordSuccess(url);
      return answer;
    } catch (err) {
      const failure = err instanceof UpstreamError ? err : new UpstreamError("unavailable", String(err));
      if (failure.kind === "rate-limited" && failure.retryAfterSeconds !== undefined) {
        breaker.coolDown(url, Math.min(failure.retryAfterSeconds * 1000, limits.upstreamMaxCooldownMs), Date.now());
      } else {
        breaker.recordFailure(url, Date.now());
      }
      lastError = failure;
      if (failure.kind === "bad-response") throw failure;
    }
  }
  // The node's own "behind" answer says more than our timeout or refusal would.
  if (behindAnswer) return behindAnswer;
  throw lastError ?? allCircuitsOpen(config.urls, Date.now());
}

/** Untried upstreams first, in configured order; then tried ones again (a single upstream gets its retries). */
function pickUpstream(urls: readonly string[], tried: ReadonlySet<string>, now: number): string | undefined {
  for (const url of urls) if (!tried.has(url) && breaker.tryAcquire(url, now)) return url;
  for (const url of urls) if (tried.has(url) && breaker.tryAcquire(url, now)) return url;
  return undefined;
}

function allCircuitsOpen(urls: readonly string[], now: number): UpstreamError {
  const states = urls.map((url) => breaker.openState(url, now));
  if (states.every((s) => s?.reason === "rate-limited")) {
    const soonest = Math.min(...states.map((s) => s!.remainingMs));
    return new UpstreamError("rate-limited", "Every upstream asked us to back off", { retryAfterSeconds: Math.max(1, Math.ceil(soonest / 1000)) });
  }
  return new UpstreamError("unavailable", "Every upstream circuit is open");
}

async function attemptOnce(url: string, body: string, expected: ExpectedAnswer, timeoutMs: number, requestId: string | undefined): Promise<ScannedAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (requestId) headers["x-request-id"] = requestId;
  let text: string;
  try {
    const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
    if (res.status === 429) {
      await res.body?.cancel();
      const retryAfterSeconds = parseRetryAfter(res.headers.get("retry-after"), Date.now());
      throw new UpstreamError("rate-limited", `Upstream answered HTTP 429`, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel();
      throw new UpstreamError("unavailable", `Upstream answered HTTP ${res.status}`);
    }
    text = await res.text();
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
      throw new UpstreamError("timeout", `Upstream did not answer within ${timeoutMs} ms`);
    }
    throw new UpstreamError("unavailable", `Upstream unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  const responses = readAnswer(text, expected);
  if (!responses) throw new UpstreamError("bad-response", "Upstream answer is not a JSON-RPC response to this request");
  return { text, responses, url };
}

/** `JSON.parse`, with a failure reported as what it is: a malformed upstream answer. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError("bad-response", "Upstream answer is not valid JSON");
  }
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

/** Retry-After as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
