// Serves the bundled worker (dist/index.js from `wrangler deploy --dry-run --outdir dist`) with Miniflare directly:
// one workerd, no wrangler-dev proxy (TOOLCHAIN.md). Applies D1 migrations, stores a bench API key, prints "ready <url>".
// env: PORT, UPSTREAM_RPC_URL, UPSTREAM_WS_URL, PRICE_CACHE_TTL_MS, BENCH_API_KEY (tmd_…, DEV plan), METADATA_DEV_HOSTS,
// BENCH_FREE_API_KEY (optional, tmd_…: a FREE-plan key whose rate limits and credits are raised far above any bench load,
// so the limiter runs — leases, meter calls — without refusing: docs/accounts.md#lease-design),
// CONTROL_PORT (optional: the bench's own control server, see the end of this file)
// The trade-ingest queue is bound as in wrangler.toml (producer INGEST_QUEUE, this worker its consumer), so a cron run
// that hands ranges to the queue is consumed here as in production (Miniflare delivers the batches).
// The Durable Objects of wrangler.toml are bound as there (all SQLite-backed, per its [[migrations]]): PUBSUB_HUB
// (WebSocket PubSub on /rpc), STREAM_ROOM (the /ws rooms), CHAIN_TAIL (follows the chain, feeds the rooms) and
// ACCOUNT_METER (rate limits, credits and usage per account).
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Miniflare } from "miniflare";
import { createHash, randomBytes } from "node:crypto";

const port = Number(process.env.PORT ?? 18787);
const key = process.env.BENCH_API_KEY;
if (!key) throw new Error("BENCH_API_KEY is required");
const mf = new Miniflare({
  host: "127.0.0.1",
  port,
  modules: true,
  scriptPath: "dist/index.js",
  compatibilityDate: "2026-04-20",
  compatibilityFlags: ["nodejs_compat"],
  kvNamespaces: ["API_KEYS"],
  d1Databases: ["DB"],
  durableObjects: {
    PUBSUB_HUB: { className: "PubSubHub", useSQLite: true },
    STREAM_ROOM: { className: "StreamRoom", useSQLite: true },
    CHAIN_TAIL: { className: "ChainTail", useSQLite: true },
    ACCOUNT_METER: { className: "AccountMeter", useSQLite: true },
    PASSWORD_HASHER: { className: "PasswordHasher", useSQLite: true },
  },
  queueProducers: { INGEST_QUEUE: { queueName: "trade-ingest" } },
  queueConsumers: { "trade-ingest": { maxBatchSize: 4, maxBatchTimeout: 1, maxRetries: 5, deadLetterQueue: "trade-ingest-dlq" } },
  bindings: {
    UPSTREAM_RPC_URL: process.env.UPSTREAM_RPC_URL ?? "http://127.0.0.1:18899",
    UPSTREAM_WS_URL: process.env.UPSTREAM_WS_URL ?? "ws://127.0.0.1:18900",
    PRICE_CACHE_TTL_MS: process.env.PRICE_CACHE_TTL_MS ?? "1000",
    METADATA_DEV_HOSTS: process.env.METADATA_DEV_HOSTS ?? "127.0.0.1:18899",
    HOLDERS_FULL_SCAN: "true",
    IPFS_GATEWAY: "https://ipfs.io/ipfs/",
    ARWEAVE_GATEWAY: "https://arweave.net/",
  },
  cf: false,
});
const url = await mf.ready;
const db = await mf.getD1Database("DB");
for (const file of readdirSync("migrations").filter((f) => f.endsWith(".sql")).sort()) {
  const sql = readFileSync(`migrations/${file}`, "utf8").replace(/--.*$/gm, "");
  for (const statement of sql.split(";").map((s) => s.trim()).filter(Boolean)) await db.prepare(statement).run();
}
const kv = await mf.getKVNamespace("API_KEYS");
const storeKey = async (plaintext, keyId, account, plan = "dev", limits = undefined) => {
  const hash = createHash("sha256").update(plaintext).digest("hex");
  await kv.put(`apikey:${hash}`, JSON.stringify({ keyId, hash, name: "bench", account, plan, ...(limits ? { limits } : {}), createdAt: Date.now(), revoked: false }));
};
await storeKey(key, "key_bench", "acct_bench");
if (process.env.BENCH_FREE_API_KEY) {
  await storeKey(process.env.BENCH_FREE_API_KEY, "key_bench_free", "acct_bench_free", "free", { requestsPerSecond: 1_000_000, requestsPerMinute: 60_000_000, monthlyCredits: 1_000_000_000 });
}

// The bench's control server (CONTROL_PORT, 127.0.0.1 only), answered here, never by the worker's code:
//   POST /__bench/scheduled           one cron run (the worker's scheduled handler, as the * * * * * trigger would)
//   POST /__bench/cache-delete?url=U  drops U from the default Cache API cache (cold-cache measurements)
//   POST /__bench/sql  {sql, params}  runs one statement on the worker's D1 and answers its rows and meta
//   POST /__bench/api-keys?n=N        stores N more API keys (each its own account) and answers {keys: [plaintext, …]}
//                                     (/ws caps sockets per key per room shard: many idle sockets need many keys)
const controlPort = Number(process.env.CONTROL_PORT ?? 0);
if (controlPort) {
  const reply = (res, status, body) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    let body = "";
    for await (const chunk of req) body += chunk;
    try {
      if (req.method === "POST" && u.pathname === "/__bench/scheduled") {
        const t = performance.now();
        const result = await (await mf.getWorker()).scheduled({ cron: "* * * * *", scheduledTime: new Date() });
        return reply(res, 200, { ...result, ms: performance.now() - t });
      }
      if (req.method === "POST" && u.pathname === "/__bench/cache-delete") {
        return reply(res, 200, { deleted: await (await mf.getCaches()).default.delete(u.searchParams.get("url") ?? "") });
      }
      if (req.method === "POST" && u.pathname === "/__bench/sql") {
        const { sql, params = [] } = JSON.parse(body);
        const { results, meta } = await db.prepare(sql).bind(...params).all();
        return reply(res, 200, { results, meta });
      }
      if (req.method === "POST" && u.pathname === "/__bench/api-keys") {
        const n = Math.min(1000, Math.max(1, Number(u.searchParams.get("n") ?? 1) || 1));
        const keys = [];
        for (let i = 0; i < n; i++) {
          const plaintext = `tmd_${randomBytes(24).toString("base64url")}`;
          const id = randomBytes(6).toString("hex");
          await storeKey(plaintext, `key_bench_${id}`, `acct_bench_${id}`);
          keys.push(plaintext);
        }
        return reply(res, 200, { keys });
      }
      reply(res, 404, { error: `no bench route ${req.method} ${u.pathname}` });
    } catch (err) {
      reply(res, 500, { error: err instanceof Error ? err.message : String(err) });
    }
  }).listen(controlPort, "127.0.0.1");
}
console.log(`ready ${url}`);
const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
