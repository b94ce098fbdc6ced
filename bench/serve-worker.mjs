// Serves the bundled worker (dist/index.js from `wrangler deploy --dry-run --outdir dist`) with Miniflare directly:
// one workerd, no wrangler-dev proxy (TOOLCHAIN.md). Applies D1 migrations, stores a bench API key, prints "ready <url>".
// env: PORT, UPSTREAM_RPC_URL, UPSTREAM_WS_URL, PRICE_CACHE_TTL_MS, BENCH_API_KEY (tmd_…), METADATA_DEV_HOSTS
import { readdirSync, readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { createHash } from "node:crypto";

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
const hash = createHash("sha256").update(key).digest("hex");
const kv = await mf.getKVNamespace("API_KEYS");
await kv.put(`apikey:${hash}`, JSON.stringify({ keyId: "key_bench", hash, name: "bench", account: "acct_bench", plan: "scale", createdAt: Date.now(), revoked: false }));
console.log(`ready ${url}`);
const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
