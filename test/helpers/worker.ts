import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { base } from "./http";

/**
 * One request through the worker's own `fetch` with its own execution context (its waitUntil work awaited too).
 * Not SELF: SELF wraps the entrypoint in one more Proxy per call (@cloudflare/vitest-pool-workers 0.15.1), which
 * overflows the stack after a few thousand requests; and env overrides need the worker called directly.
 */
export interface CallOptions {
  /** Vars over the test env (e.g. PRICE_CACHE_TTL_MS: "0"). */
  env?: Record<string, string>;
  /**
   * An upstream URL of this call's own (localnet, distinguished by a query), so circuit-breaker and cache state of
   * other tests never leak in: `true` for a fresh one, or a label to share one between calls.
   */
  isolatedUpstream?: boolean | string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** false: answer as soon as the response is there, leaving its waitUntil work running (timing tests). */
  awaitBackground?: boolean;
  /** Sent as `x-api-key` (REST, unless `headers` carries its own credential) or in the /rpc query. */
  key?: string;
}

/** The worker's JSON-RPC URL for `key` (the spec's `{rpc_url}`: key in the query). */
export function rpcUrl(key: string): string {
  return `${base}/rpc?x-api-key=${key}`;
}

export type WorkerTarget = { path: string } | { rpcBody: unknown } | { request: Request };

export async function callWorker(target: WorkerTarget, options: CallOptions = {}): Promise<Response> {
  const overrides: Record<string, string> = { ...options.env };
  if (options.isolatedUpstream) {
    const label = options.isolatedUpstream === true ? crypto.randomUUID() : options.isolatedUpstream;
    overrides.UPSTREAM_RPC_URL ??= `${env.LOCALNET_URL}/?isolated=${encodeURIComponent(label)}`;
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch(requestOf(target, options), { ...env, ...overrides }, ctx);
  if (options.awaitBackground !== false) await waitOnExecutionContext(ctx);
  return res;
}

function requestOf(target: WorkerTarget, options: CallOptions): Request {
  if ("request" in target) return target.request;
  const headers: Record<string, string> = { ...options.headers };
  if ("rpcBody" in target) {
    // the spec's {rpc_url}: the key rides in the query
    headers["content-type"] ??= "application/json";
    const body = typeof target.rpcBody === "string" ? target.rpcBody : JSON.stringify(target.rpcBody);
    return new Request(rpcUrl(options.key ?? ""), { method: options.method ?? "POST", headers, body });
  }
  if (options.key !== undefined && headers["x-api-key"] === undefined && headers.authorization === undefined) headers["x-api-key"] = options.key;
  return new Request(`https://api.test${target.path}`, { method: options.method ?? "GET", headers, body: options.body });
}
