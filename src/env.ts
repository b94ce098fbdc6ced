/** Bindings and vars of the worker (wrangler.toml). Vars arrive as strings; `config.ts` parses them, once. */
export interface Env {
  API_KEYS: KVNamespace;
  DB: D1Database;
  /** Solana PubSub through /rpc: one hub shares identical upstream subscriptions among clients (src/rpc/pubsub-hub.ts). */
  PUBSUB_HUB: DurableObjectNamespace<import("./rpc/pubsub-hub").PubSubHub>;
  /** /ws stream rooms, sharded by connection (src/streams/stream-room.ts). */
  STREAM_ROOM: DurableObjectNamespace<import("./streams/stream-room").StreamRoom>;
  /** One meter per account: rate windows, credits, usage, /ws connections (src/accounts/meter.ts). */
  ACCOUNT_METER: DurableObjectNamespace<import("./accounts/meter").AccountMeter>;
  /** Sign-up and login password hashing, off the page request's CPU budget (src/accounts/password-hasher.ts). */
  PASSWORD_HASHER: DurableObjectNamespace<import("./accounts/password-hasher").PasswordHasher>;
  /** The chain tail feeding the rooms (src/streams/chain-tail.ts). */
  CHAIN_TAIL: DurableObjectNamespace<import("./streams/chain-tail").ChainTail>;
  /** Slot ranges for the trade index's consumers; optional: without it the cron ingests every range itself. */
  INGEST_QUEUE?: Queue<import("./trades/ingest-queue").IngestRangeMessage>;
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
  /** Set by `npm start` only: a per-run nonce /health echoes, so the script knows the worker on its port is its own. */
  INSTANCE_NONCE?: string;
}
