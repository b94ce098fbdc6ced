// npm start: the local chain (localnet) + the worker (wrangler dev) together, a demo API key, and a curl to paste.
// With UPSTREAM_RPC_URL set in the environment no localnet is started and the worker serves that upstream (e.g. mainnet).
// Ctrl-C stops everything this script started. Vars reach wrangler through a 0600 file (scripts/lib/dev-vars.ts), never
// through `--var` arguments that `ps` would show: UPSTREAM_RPC_URL may carry a provider's API key.
// Every port it needs is checked before anything starts (a busy one is refused, never shared), the worker is known by a
// per-run nonce in its /health answer, PORT+1 forwards WebSocket upgrades to the worker (web3.js subscribes there), and
// request lines are shown only with `--verbose` (scripts/lib/log-filter.ts).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Server } from "node:http";
import { createApiKey, hashApiKey, isWellFormedApiKey, kvKeyForHash } from "../src/accounts/api-keys";
import type { ApiKeyRecord } from "../src/accounts/api-key-record";
import { parseCronInterval, SCHEDULED_FLAG, startCronDriver, type CronDriver } from "./lib/cron-driver";
import { writeDevVars, type DevVarsFile } from "./lib/dev-vars";
import { waitForOwnHealth } from "./lib/health-wait";
import { recordStartRun, startStateDir } from "./lib/local-state";
import { pipeLines, verboseRequested } from "./lib/log-filter";
import { portProblems, type NeededPort } from "./lib/ports";
import { startBanner } from "./lib/start-banner";
import { persistArgs, projectRoot, quietWranglerEnv, runWrangler, spawnWrangler } from "./lib/wrangler";
import { startWsForwarder } from "./lib/ws-forward";

const started = Date.now();
const port = Number(process.env.PORT ?? 8787);
const wsPort = port + 1;
const externalUpstream = process.env.UPSTREAM_RPC_URL;
const verbose = verboseRequested(process.argv.slice(2), process.env);
/** Echoed by this run's worker on /health (INSTANCE_NONCE): another server on the port cannot know it. */
const nonce = randomBytes(16).toString("hex");
const log = (msg: string) => console.log(`[start +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);

let localnet: { close(): Promise<void>; rpcUrl: string; wsUrl: string } | undefined;
let worker: ChildProcess | undefined;
let devVars: DevVarsFile | undefined;
let cron: CronDriver | undefined;
let forwarder: Server | undefined;
let forgetRun: (() => void) | undefined;
let stopping = false;
process.on("exit", () => {
  devVars?.cleanup();
  forgetRun?.();
});

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    cron?.stop();
    forwarder?.close();
    forwarder?.closeAllConnections();
    if (worker?.pid) await stopGroup(worker, worker.pid);
    await localnet?.close().catch(() => undefined);
  }
  process.exit(code);
}

/**
 * Stops wrangler's process group — wrangler and the workerd processes it started: SIGTERM, then, once wrangler has
 * exited or a grace period has passed, SIGKILL for whatever of the group is left. A workerd left behind after wrangler
 * had exited was found still running half an hour later, a core busy (after test runs).
 */
async function stopGroup(child: ChildProcess, pgid: number): Promise<void> {
  const signal = (sig: NodeJS.Signals): boolean => {
    try {
      process.kill(-pgid, sig);
      return true;
    } catch {
      return false; // ESRCH: no process left in the group
    }
  };
  if (!signal("SIGTERM")) return;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
  await Promise.race([exited, sleep(GROUP_GRACE_MS)]);
  signal("SIGKILL");
}
const GROUP_GRACE_MS = 5_000;
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

/** The demo key's record into the local KV the worker will read (the same state key:create writes). */
async function storeDemoKey(stateDir: string, kvKey: string, value: string): Promise<void> {
  // Loaded here, not at the top: miniflare and wrangler take seconds to import, and a busy port is refused before that.
  const { openLocalKv } = await import("./lib/local-bindings");
  const local = await openLocalKv(projectRoot, stateDir);
  try {
    await local.API_KEYS.put(kvKey, value);
  } finally {
    await local.dispose();
  }
}

/** A graduated pump.fun token of the local world: the most interesting first curl. */
async function sampleToken(rpcUrl: string): Promise<string> {
  const world = (await (await fetch(`${rpcUrl}/__localnet/world`)).json()) as { tokens: { mint: string; tags: string[] }[] };
  return (world.tokens.find((t) => t.tags.includes("graduated")) ?? world.tokens[0]!).mint;
}

try {
  const cronIntervalMs = parseCronInterval(process.env.CRON_INTERVAL_MS);
  const localnetPort = Number(process.env.LOCALNET_PORT ?? 8899);
  const localnetWsPort = Number(process.env.LOCALNET_WS_PORT ?? 8900);
  const needed: NeededPort[] = [
    { port, what: "API (PORT)" },
    { port: wsPort, what: "WebSocket forwarder for web3.js (PORT+1)" },
  ];
  if (!externalUpstream) needed.push({ port: localnetPort, what: "local chain RPC (LOCALNET_PORT)" }, { port: localnetWsPort, what: "local chain PubSub (LOCALNET_WS_PORT)" });
  const busy = await portProblems(needed);
  if (busy) {
    console.error(busy);
    process.exit(3);
  }
  // Held from now on: the forwarder answers 502 until the worker is up.
  forwarder = await startWsForwarder({ listenPort: wsPort, targetPort: port });
  const stateDir = startStateDir(projectRoot);
  forgetRun = recordStartRun(projectRoot, { pid: process.pid, port, stateDir });
  let upstream = externalUpstream;
  let upstreamWs = process.env.UPSTREAM_WS_URL;
  let devHosts = process.env.METADATA_DEV_HOSTS ?? "";
  if (!upstream) {
    const { startLocalnet } = await import("../localnet/src/server");
    // the extras edition: every venue the service reads (LaunchLab, Whirlpool), other quote assets, quiet and later-opening pools
    localnet = await startLocalnet({ port: localnetPort, wsPort: localnetWsPort, seed: Number(process.env.LOCALNET_SEED ?? 1), extras: true });
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
    storeDemoKey(stateDir, kvKeyForHash(record.hash), JSON.stringify(record)).then(() => log("demo API key stored (hash only)")),
  ]);

  // A fresh device-cookie secret per run (docs/accounts.md#login-throttling): browsers trusted by the last run are new ones.
  const vars: Record<string, string> = {
    UPSTREAM_RPC_URL: upstream,
    METADATA_DEV_HOSTS: devHosts,
    INSTANCE_NONCE: nonce,
    DEVICE_COOKIE_SECRET: process.env.DEVICE_COOKIE_SECRET ?? randomBytes(32).toString("base64url"),
  };
  if (localnet) vars.HOLDERS_FULL_SCAN = "true"; // exact holder figures are cheap on the local chain
  if (upstreamWs) vars.UPSTREAM_WS_URL = upstreamWs;
  devVars = writeDevVars(projectRoot, vars);
  log(`vars for wrangler in ${devVars.path} (mode 0600, removed on exit)`);
  worker = spawnWrangler(["dev", SCHEDULED_FLAG, "--port", String(port), "--ip", "127.0.0.1", ...persistArgs(), ...devVars.wranglerArgs], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group, so Ctrl-C can stop wrangler and workerd together
    // --env-file is only honoured with this on (the default); say so in case the user's shell turned it off.
    env: { ...process.env, ...quietWranglerEnv, CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "true" },
  });
  pipeLines(worker.stdout!, process.stdout, verbose);
  pipeLines(worker.stderr!, process.stderr, verbose);
  worker.on("exit", (code) => {
    if (!stopping) {
      console.error(`wrangler dev exited (${code}); stopping`);
      void stop(code ?? 1);
    }
  });

  const base = `http://127.0.0.1:${port}`;
  await waitForOwnHealth({
    url: `${base}/health`,
    nonce,
    timeoutMs: 60_000,
    exited: () => (worker?.exitCode !== null && worker?.exitCode !== undefined ? `wrangler dev exited with ${worker.exitCode}` : undefined),
  });
  log("worker ready");
  log(`WebSocket upgrades on port ${wsPort} go to the worker (web3.js subscribes on the RPC port + 1)`);
  // wrangler dev never fires cron triggers: without this the pool registry stays empty (registry-only pools unpriced).
  if (cronIntervalMs > 0) cron = startCronDriver(base, cronIntervalMs, log);
  else log("cron off (CRON_INTERVAL_MS=0): registry-only pools stay unpriced");
  const sample = localnet ? await sampleToken(localnet.rpcUrl) : "So11111111111111111111111111111111111111112";
  console.log(startBanner({ base, key, sample, localnetUrl: localnet?.rpcUrl, wsPort, stateDir, verbose }));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await stop(1);
}
