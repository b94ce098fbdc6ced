import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import path from "node:path";
import { startStateDir } from "./local-state";

/** No telemetry, no Cloudflare lookups: this project runs offline (TOOLCHAIN.md). */
export const quietWranglerEnv: Record<string, string> = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  WRANGLER_SEND_ERROR_REPORTS: "false",
};

export const projectRoot = path.resolve(import.meta.dirname, "../..");
const wranglerBin = path.join(projectRoot, "node_modules", ".bin", "wrangler");

export function spawnWrangler(args: string[], opts: SpawnOptions = {}): ChildProcess {
  return spawn(wranglerBin, args, {
    cwd: projectRoot,
    env: { ...process.env, ...quietWranglerEnv },
    ...opts,
  });
}

/** Runs a wrangler command to completion; rejects with its output on failure. */
export function runWrangler(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout?.on("data", (d) => (out += d));
    child.stderr?.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrangler ${args.join(" ")} exited ${code}\n${out}`))));
  });
}

/**
 * `--persist-to` the local state npm start uses (scripts/lib/local-state.ts): `WRANGLER_STATE_DIR`, made absolute, or
 * `.wrangler/state`, wrangler's default, named explicitly so every command of a run agrees on it.
 */
export function persistArgs(): string[] {
  return ["--persist-to", startStateDir(projectRoot)];
}
