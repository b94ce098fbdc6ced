// npm start: the local chain (localnet) + the worker (wrangler dev) together, a demo API key, and a curl to paste.
// With UPSTREAM_RPC_URL set in the environment no localnet is started and the worker serves that upstream (e.g. mainnet).
// Ctrl-C stops everything this script started. Vars reach wrangler through a 0600 file (scripts/lib/dev-vars.ts), never
// through `--var` arguments that `ps` would show: UPSTREAM_RPC_URL may carry a provider's API key.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createApiKey, hashApiKey, isWellFormedApiKey, kvKeyForHash } from "../src/accounts/api-keys";
import type { ApiKeyRecord } from "../src/accounts/api-key-record";
import { parseCronInterval, SCHEDULED_FLAG, startCronDriver, type CronDriver } from "./lib/cron-driver";
import { writeDevVars, type DevVarsFile } from "./lib/dev-vars";
import { startBanner } from "./lib/start-banner";
import { persistArgs, projectRoot, putLocalApiKey, quietWranglerEnv, runWrangler, spawnWrangler } from "./lib/wrangler";

const started = Date.now();
const port = Number(process.env.PORT ?? 8787);
const externalUpstream = process.env.UPSTREAM_RPC_URL;
const log = (msg: string) => console.log(`[start +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);

let localnet: { close(): Promise<void>; rpcUrl: string; wsUrl: string } | undefined;
let worker: ChildProcess | undefined;
let devVars: DevVarsFile | undefined;
let cron: CronDriver | undefined;
let stopping = false;
process.on("exit", () => devVars?.cleanup());

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    cron?.stop();
    if (worker?.pid) {
      try {
        process.kill(-worker.pid, "SIGTERM"); // the whole group: wrangler and its workerd
      } catch {
        // already gone
      }
    }
    await localnet?.close().catch(() => undefined);
  }
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

async function demoKey(): Promise<{ key: string; record: ApiKeyRecord }> {
  const given = process.env.DEMO_API_KEY;
  if (!given) return createApiKey({ name: "demo", account: "acct_demo", plan: "dev" });
  if (!isWellFormedApiKey(given)) {
    console.error("DEMO_API_KEY must look like tmd_ followed by 32 base64url characters (npm run key:create makes one)");
    return stop(2);
  }
  const record: ApiKeyRecord = { keyId: "key_demo", hash: hashApiKey(given), name: "demo", account: "acct_demo", plan: "dev", createdAt: Date.now(), revoked: false };
  return { key: given, record };
}

/** A graduated pump.fun token of the local world: the most interesting first curl. */
async function sampleToken(rpcUrl: string): Promise<string> {
  const world = (await (await fetch(`${rpcUrl}/__localnet/world`)).json()) as { tokens: { mint: string; tags: string[] }[] };
  return (world.tokens.find((t) => t.tags.includes("graduated")) ?? world.tokens[0]!).mint;
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (worker?.exitCode !== null && worker?.exitCode !== undefined) throw new Error(`wrangler dev exited with ${worker.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`worker did not answer ${url} within ${timeoutMs / 1000}s`);
}

try {
  const cronIntervalMs = parseCronInterval(process.env.CRON_INTERVAL_MS);
  let upstream = externalUpstream;
  let upstreamWs = process.env.UPSTREAM_WS_URL;
  let devHosts = process.env.METADATA_DEV_HOSTS ?? "";
  if (!upstream) {
    const { startLocalnet } = await import("../localnet/src/server");
    localnet = await startLocalnet({
      port: Number(process.env.LOCALNET_PORT ?? 8899),
      wsPort: Number(process.env.LOCALNET_WS_PORT ?? 8900),
      seed: Number(process.env.LOCALNET_SEED ?? 1),
    });
    upstream = localnet.rpcUrl;
    upstreamWs = localnet.wsUrl;
    devHosts = new URL(localnet.rpcUrl).host;
    log(`localnet on ${localnet.rpcUrl} (ws ${localnet.wsUrl})`);
  } else {
    log(`using upstream ${upstream} (no localnet)`);
  }

  const { key, record } = await demoKey();
  await Promise.all([
    runWrangler(["d1", "migrations", "apply", "DB", "--local", ...persistArgs()]).then(() => log("D1 migrations applied")),
    putLocalApiKey(kvKeyForHash(record.hash), JSON.stringify(record)).then(() => log("demo API key stored (hash only)")),
  ]);

  // A fresh device-cookie secret per run (docs/accounts.md#login-throttling): browsers trusted by the last run are new ones.
  const vars: Record<string, string> = { UPSTREAM_RPC_URL: upstream, METADATA_DEV_HOSTS: devHosts, DEVICE_COOKIE_SECRET: process.env.DEVICE_COOKIE_SECRET ?? randomBytes(32).toString("base64url") };
  if (localnet) vars.HOLDERS_FULL_SCAN = "true"; // exact holder figures are cheap on the local chain
  if (upstreamWs) vars.UPSTREAM_WS_URL = upstreamWs;
  devVars = writeDevVars(projectRoot, vars);
  log(`vars for wrangler in ${devVars.path} (mode 0600, removed on exit)`);
  worker = spawnWrangler(["dev", SCHEDULED_FLAG, "--port", String(port), "--ip", "127.0.0.1", ...persistArgs(), ...devVars.wranglerArgs], {
    stdio: ["ignore", "inherit", "inherit"],
    detached: true, // own process group, so Ctrl-C can stop wrangler and workerd together
    // --env-file is only honoured with this on (the default); say so in case the user's shell turned it off.
    env: { ...process.env, ...quietWranglerEnv, CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "true" },
  });
  worker.on("exit", (code) => {
    if (!stopping) {
      console.error(`wrangler dev exited (${code}); stopping`);
      void stop(code ?? 1);
    }
  });

  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(`${base}/health`, 60_000);
  log("worker ready");
  // wrangler dev never fires cron triggers: without this the pool registry stays empty (registry-only pools unpriced).
  if (cronIntervalMs > 0) cron = startCronDriver(base, cronIntervalMs, log);
  else log("cron off (CRON_INTERVAL_MS=0): registry-only pools stay unpriced");
  const sample = localnet ? await sampleToken(localnet.rpcUrl) : "So11111111111111111111111111111111111111112";
  console.log(startBanner({ base, key, sample, localnetUrl: localnet?.rpcUrl }));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await stop(1);
}
