import { sha256 } from "@noble/hashes/sha256";
import { bytesToHex } from "@noble/hashes/utils";
import { limits } from "../limits";
import type { Env } from "../env";

/** What the upstream client needs from the environment, parsed. */
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

const parsed = new Map<string, UpstreamConfig>();

/**
 * `UPSTREAM_RPC_URL` is a comma list; `UPSTREAM_ATTEMPT_TIMEOUT_MS` optionally lowers or raises the per-attempt
 * timeout (tests use it to make timeouts quick). Parsed once per distinct value per isolate.
 * Throws on a list with no usable http(s) URL: a misconfigured deployment must fail loudly, not proxy nowhere.
 */
export function upstreamConfig(env: Pick<Env, "UPSTREAM_RPC_URL" | "UPSTREAM_ATTEMPT_TIMEOUT_MS">): UpstreamConfig {
  const cacheKey = `${env.UPSTREAM_RPC_URL}|${env.UPSTREAM_ATTEMPT_TIMEOUT_MS ?? ""}`;
  const hit = parsed.get(cacheKey);
  if (hit) return hit;
  const urls = (env.UPSTREAM_RPC_URL ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const url of urls) {
    const protocol = URL.canParse(url) ? new URL(url).protocol : "";
    if (protocol !== "http:" && protocol !== "https:") throw new Error(`UPSTREAM_RPC_URL: not an http(s) URL: ${url}`);
  }
  if (urls.length === 0) throw new Error("UPSTREAM_RPC_URL is empty");
  const timeout = Number(env.UPSTREAM_ATTEMPT_TIMEOUT_MS);
  const config: UpstreamConfig = {
    urls,
    attemptTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : limits.upstreamAttemptTimeoutMs,
    clusterKey: clusterKeyOf(urls),
  };
  parsed.set(cacheKey, config);
  return config;
}

/** SHA-256 hex of the URL list, in order (another order is another preference, but the same cluster: cheap to miss). */
export function clusterKeyOf(urls: readonly string[]): string {
  return bytesToHex(sha256(new TextEncoder().encode(urls.join(","))));
}
