/**
 * The worker served for real on a free port, for clients that need a real HTTP and WebSocket server (inside the
 * workers pool a client `new WebSocket()` to SELF is impossible): the bundle `wrangler deploy --dry-run` builds (what
 * ships), run by Miniflare with the bindings of wrangler.toml (KV, D1, and the Durable Objects: the /rpc PubSub hub, the
 * stream rooms, the chain tail) and the D1 schema applied — one workerd, no wrangler-dev proxy. ~3 s to start.
 * The bundle and wrangler.toml's Miniflare options are made once per run (test/e2e/global-setup.ts: importing wrangler
 * alone takes seconds) and shared read-only by every file's Miniflare.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Miniflare, type MiniflareOptions } from "miniflare";
import { inject } from "vitest";
import { createApiKey, storeApiKey } from "../../../src/accounts/api-keys";
import type { Plan } from "../../../src/accounts/api-key-record";
import { apiKeyRecordSchema } from "../../../src/accounts/api-key-record";
import type { CustomLimits } from "../../../src/accounts/plans";
import { hashApiKey, kvKeyForHash } from "../../../src/accounts/api-keys";
import { startTinyChain, type TinyChain } from "../../localnet/helpers/local-chain";

const projectRoot = path.resolve(import.meta.dirname, "../../..");
const quietWrangler = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true", WRANGLER_SEND_ERROR_REPORTS: "false" };

export interface ServedWorker {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Stores a fresh API key in the worker's KV (DEV plan, account acct_e2e unless told); returns the plaintext. */
  newApiKey(opts?: { revoked?: boolean; plan?: Plan; account?: string; limits?: CustomLimits }): Promise<string>;
  /** Rewrites a key's KV record as a revoke (`revoked: true`) or a plan change (`plan`, `limits`) does. */
  updateApiKey(key: string, patch: { revoked?: boolean; plan?: Plan; limits?: CustomLimits }): Promise<void>;
  close(): Promise<void>;
}

/** The D1 schema (migrations/, in order), as `wrangler d1 migrations apply` would: the pool registry and trade index. */
async function applyMigrations(db: { prepare(sql: string): { run(): Promise<unknown> } }): Promise<void> {
  const dir = path.join(projectRoot, "migrations");
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort()) {
    const sql = (await readFile(path.join(dir, file), "utf8")).replace(/--.*$/gm, "");
    for (const statement of sql.split(";").map((s) => s.trim()).filter(Boolean)) await db.prepare(statement).run();
  }
}

/** wrangler.toml's bindings, Durable Objects and flags as Miniflare worker options (plain JSON). */
export async function wranglerWorkerOptions(): Promise<Record<string, unknown>> {
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  return JSON.parse(JSON.stringify(unstable_getMiniflareWorkerOptions(path.join(projectRoot, "wrangler.toml")).workerOptions)) as Record<string, unknown>;
}

/** Bundles the worker as `wrangler deploy --dry-run` does (what ships) into a fresh temporary directory; returns it. */
export async function buildWorkerBundle(): Promise<string> {
  const outdir = await mkdtemp(path.join(os.tmpdir(), "tmd-worker-"));
  try {
    await promisify(execFile)(path.join(projectRoot, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
      cwd: projectRoot,
      env: { ...process.env, ...quietWrangler },
    });
    return outdir;
  } catch (err) {
    await rm(outdir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Serves the worker with `vars` over wrangler.toml's: the run's bundle and options (the e2e project's globalSetup made
 * them, once for every file), or, outside that project, a bundle of its own built here and removed on close.
 */
export async function serveWorker(vars: Record<string, string>): Promise<ServedWorker> {
  const shared = inject("e2eWorkerBundle");
  const outdir = shared?.dir ?? (await buildWorkerBundle());
  const removeOwn = () => (shared ? Promise.resolve() : rm(outdir, { recursive: true, force: true }));
  try {
    const workerOptions = (shared?.workerOptions ?? (await wranglerWorkerOptions())) as { bindings?: Record<string, unknown> };
    const start = async () => {
      const mf = new Miniflare({
        ...(workerOptions as object),
        modules: true,
        modulesRoot: outdir,
        scriptPath: path.join(outdir, "index.js"),
        host: "127.0.0.1",
        port: 0,
        bindings: { ...workerOptions.bindings, ...vars },
      } as MiniflareOptions);
      try {
        const url = await mf.ready;
        await applyMigrations(await mf.getD1Database("DB"));
        return { mf, url };
      } catch (err) {
        await mf.dispose().catch(() => undefined);
        throw err;
      }
    };
    // The schema goes in through Miniflare's binding proxy, whose synchronous calls can lose a reply on a loaded
    // machine (its fetch-sync assertion `message?.id === id`; once out of step, every later call of that instance
    // fails): a fresh instance, with a fresh empty database, is started instead — at most twice more.
    let started: Awaited<ReturnType<typeof start>> | undefined;
    for (let attempt = 1; started === undefined; attempt++) {
      try {
        started = await start();
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
    const { mf, url } = started;
    const kv = await mf.getKVNamespace("API_KEYS");
    return {
      origin: url.origin,
      async newApiKey(opts = {}) {
        // DEV: the tests open many sockets and subscriptions; plan limits have their own test (streams.plan-limits).
        const { key, record } = await createApiKey({ name: "e2e", account: opts.account ?? "acct_e2e", plan: opts.plan ?? "dev" });
        await storeApiKey(kv as unknown as KVNamespace, { ...record, revoked: opts.revoked ?? false, ...(opts.limits ? { limits: opts.limits } : {}) });
        return key;
      },
      async updateApiKey(key, patch) {
        const kvKey = kvKeyForHash(hashApiKey(key));
        const record = apiKeyRecordSchema.parse(JSON.parse((await kv.get(kvKey)) as string));
        await storeApiKey(kv as unknown as KVNamespace, { ...record, ...patch });
      },
      async close() {
        await mf.dispose();
        await removeOwn();
      },
    };
  } catch (err) {
    await removeOwn();
    throw err;
  }
}

/** A tiny localnet chain (`options` as startTinyChain takes them) and the worker served over its RPC and WebSocket. */
export async function serveWorkerOnTinyChain(options: Parameters<typeof startTinyChain>[0] = {}): Promise<{ chain: TinyChain; worker: ServedWorker }> {
  const chain = await startTinyChain(options);
  try {
    return { chain, worker: await serveWorker({ UPSTREAM_RPC_URL: chain.net.rpcUrl, UPSTREAM_WS_URL: chain.net.wsUrl }) };
  } catch (error) {
    await chain.net.close();
    throw error;
  }
}

/** Closes the worker, then the chain, of serveWorkerOnTinyChain (an afterAll's: either is unset when starting failed). */
export async function closeWorkerAndChain(served: { chain?: TinyChain; worker?: ServedWorker }): Promise<void> {
  await served.worker?.close();
  await served.chain?.net.close();
}
