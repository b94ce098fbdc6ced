import type { StreamRoom } from "./streams/stream-room";

/** Bindings and vars of the worker (wrangler.toml). Vars arrive as strings; `config.ts` parses them, once. */
export interface Env {
  API_KEYS: KVNamespace;
  DB: D1Database;
  STREAMS: DurableObjectNamespace<StreamRoom>;
  UPSTREAM_RPC_URL: string;
  /** Optional per-attempt upstream timeout (ms); default `limits.upstreamAttemptTimeoutMs`. */
  UPSTREAM_ATTEMPT_TIMEOUT_MS?: string;
  UPSTREAM_WS_URL: string;
  PRICE_CACHE_TTL_MS?: string;
  IPFS_GATEWAY?: string;
  ARWEAVE_GATEWAY?: string;
  METADATA_DEV_HOSTS?: string;
  /** "true": exact top holders by scanning every token account of a mint (local chains; far too heavy for mainnet). */
  HOLDERS_FULL_SCAN?: string;
}

export type AppContext = {
  Bindings: Env;
  Variables: {
    requestId: string;
    apiKey: import("./accounts/api-key-record").ApiKeyRecord;
    /** When this request must have answered (middleware/request-deadline.ts). */
    deadline: import("./isolate/deadline").Deadline;
    /** Stage durations for `Server-Timing` (middleware/server-timing.ts). */
    timings: import("./http/server-timing").StageTimings;
    /** Config and services of this deployment (middleware/init-services.ts). */
    services: import("./services").Services;
  };
};
