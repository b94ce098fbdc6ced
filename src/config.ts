/**
 * The deployment's configuration: every var of `Env` (wrangler.toml `[vars]`, secrets) read through one zod schema,
 * once per env object (workerd passes the same object to every request of an isolate; tests pass their own). A
 * misconfigured deployment fails loudly on its first request instead of proxying nowhere.
 */
import { sha256 } from "@noble/hashes/sha256";
import { bytesToHex } from "@noble/hashes/utils";
import { z } from "zod/mini";
import type { Env } from "./env";
import { limits } from "./limits";
import type { MetadataUriPolicy } from "./metadata/uri-policy";
import type { UpstreamConfig } from "./solana/upstream";

export interface Config {
  upstream: UpstreamConfig;
  /**
   * Upstream PubSub URLs (ws/wss rewritten to http/https for workerd's `fetch` upgrade), in order of preference; empty
   * when the deployment has none (the WebSocket on /rpc then answers 503, REST and JSON-RPC over HTTP still work).
   */
  pubSubUrls: readonly string[];
  /** How long a price record is fresh (ms); 0 turns the cache off (the bench's cold figures). */
  priceCacheTtlMs: number;
  /** Where untrusted metadata URIs may be fetched from. */
  metadataPolicy: MetadataUriPolicy;
  /** Exact top holders by scanning every token account of a mint (local chains only; far too heavy for mainnet). */
  holdersFullScan: boolean;
}

const commaList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const urlList = (protocols: readonly string[], name: string, required: boolean) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((value, ctx) => {
      const urls = commaList(value);
      if (required && urls.length === 0) ctx.issues.push({ code: "custom", message: `${name} is empty`, input: value });
      for (const url of urls) {
        const protocol = URL.canParse(url) ? new URL(url).protocol : "";
        if (!protocols.includes(protocol)) ctx.issues.push({ code: "custom", message: `${name}: not a ${protocols.join("/")} URL: ${url}`, input: url });
      }
      return urls;
    }),
  );

/** A non-negative number of ms given as a string; absent, blank or invalid → `fallback` (a typo must not disable caching). */
const msOr = (fallback: number, positive = false) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((raw) => {
      const value = Number(raw);
      const ok = raw !== undefined && raw.trim() !== "" && Number.isFinite(value) && (positive ? value > 0 : value >= 0);
      return ok ? value : fallback;
    }),
  );

const optionalText = (fallback: string) => z.pipe(z.optional(z.string()), z.transform((raw) => raw?.trim() || fallback));

const envSchema = z.object({
  UPSTREAM_RPC_URL: urlList(["http:", "https:"], "UPSTREAM_RPC_URL", true),
  UPSTREAM_ATTEMPT_TIMEOUT_MS: msOr(limits.upstreamAttemptTimeoutMs, true),
  UPSTREAM_WS_URL: urlList(["ws:", "wss:"], "UPSTREAM_WS_URL", false),
  PRICE_CACHE_TTL_MS: msOr(limits.defaultPriceCacheTtlMs),
  IPFS_GATEWAY: optionalText("https://ipfs.io/ipfs/"),
  ARWEAVE_GATEWAY: optionalText("https://arweave.net/"),
  METADATA_DEV_HOSTS: z.pipe(z.optional(z.string()), z.transform(commaList)),
  HOLDERS_FULL_SCAN: z.pipe(z.optional(z.string()), z.transform((raw) => raw === "true")),
});

/** Vars the schema reads (bindings such as KV, D1 and Durable Objects are not config). */
export type ConfigVars = Pick<Env, "UPSTREAM_RPC_URL"> & Partial<Pick<Env, keyof z.input<typeof envSchema>>>;

const parsed = new WeakMap<object, Config>();

/** The config of `env`, parsed on first use. Throws (with every problem listed) when a var is unusable. */
export function configOf(env: ConfigVars): Config {
  const hit = parsed.get(env);
  if (hit) return hit;
  const result = envSchema.safeParse(env);
  if (!result.success) throw new Error(`Invalid configuration: ${result.error.issues.map((i) => i.message).join("; ")}`);
  const vars = result.data;
  const config: Config = {
    upstream: { urls: vars.UPSTREAM_RPC_URL, attemptTimeoutMs: vars.UPSTREAM_ATTEMPT_TIMEOUT_MS, clusterKey: clusterKeyOf(vars.UPSTREAM_RPC_URL) },
    pubSubUrls: vars.UPSTREAM_WS_URL.map((s) => {
      const url = new URL(s);
      url.protocol = url.protocol === "ws:" ? "http:" : "https:";
      return url.toString();
    }),
    priceCacheTtlMs: vars.PRICE_CACHE_TTL_MS,
    metadataPolicy: { ipfsGateway: vars.IPFS_GATEWAY, arweaveGateway: vars.ARWEAVE_GATEWAY, allowedDevHosts: vars.METADATA_DEV_HOSTS },
    holdersFullScan: vars.HOLDERS_FULL_SCAN,
  };
  parsed.set(env, config);
  return config;
}

/** SHA-256 hex of the URL list, in order (another order is another preference, but the same cluster: cheap to miss). */
export function clusterKeyOf(urls: readonly string[]): string {
  return bytesToHex(sha256(new TextEncoder().encode(urls.join(","))));
}
