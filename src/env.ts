/** Bindings and vars of the worker (wrangler.toml). Vars arrive as strings; `config.ts` parses them, once. */
export interface Env {
  API_KEYS: KVNamespace;
  DB: D1Database;
  /** Solana PubSub through /rpc: one hub shares identical upstream subscriptions among clients (src/pubsub/pubsub-hub.ts). */
  PUBSUB_HUB: DurableObjectNamespace<Bound<"PUBSUB_HUB">>;
  /** /ws stream rooms, sharded by connection (src/streams/stream-room.ts). */
  STREAM_ROOM: DurableObjectNamespace<Bound<"STREAM_ROOM">>;
  /** One meter per account: rate windows, credits, usage, /ws connections (src/accounts/meter.ts). */
  ACCOUNT_METER: DurableObjectNamespace<Bound<"ACCOUNT_METER">>;
  /** Sign-up and login password hashing, off the page request's CPU budget (src/accounts/password-hasher.ts). */
  PASSWORD_HASHER: DurableObjectNamespace<Bound<"PASSWORD_HASHER">>;
  /** The chain tail feeding the rooms (src/streams/chain-tail.ts). */
  CHAIN_TAIL: DurableObjectNamespace<Bound<"CHAIN_TAIL">>;
  /** Slot ranges for the trade index's consumers; optional: without it the cron ingests every range itself. */
  INGEST_QUEUE?: Queue<Bound<"INGEST_QUEUE">>;
  UPSTREAM_RPC_URL: string;
  /** Optional per-attempt upstream timeout (ms); default `limits.upstreamAttemptTimeoutMs`. */
  UPSTREAM_ATTEMPT_TIMEOUT_MS?: string;
  /** Upstream PubSub (comma list of ws:// or wss://); optional: without it the /rpc WebSocket answers 503. */
  UPSTREAM_WS_URL?: string;
  PRICE_CACHE_TTL_MS?: string;
  IPFS_GATEWAY?: string;
  ARWEAVE_GATEWAY?: string;
  METADATA_DEV_HOSTS?: string;
  /** "true": exact top holders by scanning every token account of a mint (local chains; far too heavy for mainnet). */
  HOLDERS_FULL_SCAN?: string;
  /** Secret (wrangler secret) signing login device cookies (src/accounts/device-trust.ts); without it none are issued. */
  DEVICE_COOKIE_SECRET?: string;
  /** Set by `npm start` only: a per-run nonce /health echoes, so the script knows the worker on its port is its own. */
  INSTANCE_NONCE?: string;
}

/**
 * What the typed bindings carry: each Durable Object namespace its class, the queue its message. The classes live
 * above everything that reaches them through `Env`, so index.ts, which exports them, fills this in
 * (`declare module "./env"`) and env.ts stays on the ground floor, importing nothing: a stub is still typed by its
 * class (`env.ACCOUNT_METER.get(id).balance(...)` checks against `AccountMeter`).
 */
export interface BoundTypes {}

/** The type bound to `name` in `BoundTypes` (`never` where nothing is bound: a compile error at the first use). */
type Bound<Name extends string> = Name extends keyof BoundTypes ? BoundTypes[Name] : never;
