import path from "node:path";
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/**
 * wrangler.toml as wrangler reads it for `wrangler dev`. Its logger would announce the `.dev.vars` it found ("Using
 * secrets defined in …"), which these scripts do not use: warnings and errors only.
 */
function localWorkerOptions(projectRoot: string) {
  const before = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG = "warn";
  try {
    return unstable_getMiniflareWorkerOptions(path.join(projectRoot, "wrangler.toml")).workerOptions;
  } finally {
    if (before === undefined) delete process.env.WRANGLER_LOG;
    else process.env.WRANGLER_LOG = before;
  }
}

export interface LocalBindings {
  DB: D1Database;
  API_KEYS: KVNamespace;
  /**
   * What workerd printed (its last 64 KiB): kept, not shown, since a busy database it was waited for (retryWhileBusy)
   * makes workerd print an error that the retry then makes moot. Show it when the script fails.
   */
  runtimeOutput(): string;
  dispose(): Promise<void>;
}

const RUNTIME_OUTPUT_BYTES = 64 * 1024;

/**
 * The local D1 and KV of wrangler.toml over the state in `stateDir` (what `wrangler dev --persist-to stateDir` keeps in
 * `stateDir/v3`), and nothing else. Not `getPlatformProxy`: that loads every binding of the config, and workerd then
 * prints ~30 lines of warnings about the Durable Object classes an empty script does not export.
 * The namespace and database ids come from wrangler's own reading of the config, so the files are the ones
 * `wrangler dev` opens.
 */
export async function openLocalBindings(projectRoot: string, stateDir: string): Promise<LocalBindings> {
  const workerOptions = localWorkerOptions(projectRoot);
  let output = "";
  const keep = (chunk: Buffer | string) => {
    output = (output + String(chunk)).slice(-RUNTIME_OUTPUT_BYTES);
  };
  const mf = new Miniflare({
    modules: true,
    script: "export default {};",
    kvNamespaces: workerOptions.kvNamespaces,
    d1Databases: workerOptions.d1Databases,
    kvPersist: path.join(stateDir, "v3", "kv"),
    d1Persist: path.join(stateDir, "v3", "d1"),
    // Typed here: miniflare's option types are a union whose members take Readable from "node:stream" or from
    // "stream"; on a fresh install the localnet type check (tsc -p localnet) found no contextual type in it (TS7006).
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.on("data", keep);
      stderr.on("data", keep);
    },
  });
  await mf.ready;
  return {
    DB: (await mf.getD1Database("DB")) as unknown as D1Database,
    API_KEYS: (await mf.getKVNamespace("API_KEYS")) as unknown as KVNamespace,
    runtimeOutput: () => output,
    dispose: () => mf.dispose(),
  };
}

/** The local KV alone (npm start writes its demo key while `wrangler d1 migrations apply` holds the D1 files). */
export async function openLocalKv(projectRoot: string, stateDir: string): Promise<{ API_KEYS: KVNamespace; dispose(): Promise<void> }> {
  const workerOptions = localWorkerOptions(projectRoot);
  const mf = new Miniflare({ modules: true, script: "export default {};", kvNamespaces: workerOptions.kvNamespaces, kvPersist: path.join(stateDir, "v3", "kv") });
  await mf.ready;
  return { API_KEYS: (await mf.getKVNamespace("API_KEYS")) as unknown as KVNamespace, dispose: () => mf.dispose() };
}

/** What a local D1 statement throws while another workerd (the running npm start) writes the same SQLite file. */
const busyMessage = /SQLITE_BUSY|database is locked|internal error; reference = /;

/**
 * Runs `task` again while the local D1 is busy: the running `npm start` writes the same SQLite file (the trade index,
 * every few seconds), and a second writer then meets SQLITE_BUSY, which reaches JavaScript only as D1's "internal
 * error; reference = …". Backs off from 100 ms to 2 s, for at most `waitMs`; any other error is thrown at once.
 * `task` must be safe to run again (it may have been refused part way).
 */
export async function retryWhileBusy<T>(task: () => Promise<T>, waitMs = 15_000, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Promise<T> {
  const until = Date.now() + waitMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await task();
    } catch (err) {
      if (!busyMessage.test(String((err as Error)?.message ?? err)) || Date.now() + delay > until) throw err;
      await sleep(delay);
    }
  }
}
