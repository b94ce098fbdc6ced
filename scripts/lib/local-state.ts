import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Which local state (the D1/KV files `wrangler dev --persist-to DIR` keeps) a script writes to. `npm run key:create`
 * and `plan:set` must write where the running `npm start` reads, or the key they print answers 401: a user who started
 * it with `WRANGLER_STATE_DIR=…` rarely repeats the variable in the next shell. So `npm start` records its state
 * directory in a run file for as long as it runs, and the other scripts resolve, in this order:
 * 1. `WRANGLER_STATE_DIR` when set (the variable `npm start` reads);
 * 2. the state of the running `npm start` of this checkout (refused when several run with different states);
 * 3. `.wrangler/state`, wrangler's default.
 */
export interface LocalState {
  /** Absolute directory, as given to `--persist-to`. */
  dir: string;
  /** Why this one, for the line the scripts print. */
  source: string;
}

const runFileSchema = z.object({ pid: z.number().int().positive(), port: z.number().int(), stateDir: z.string() });
export type StartRun = z.infer<typeof runFileSchema>;

export function defaultStateDir(projectRoot: string): string {
  return path.join(projectRoot, ".wrangler", "state");
}

function runsDir(projectRoot: string): string {
  return path.join(projectRoot, ".wrangler", "npm-start");
}

/** The state directory `npm start` uses: `WRANGLER_STATE_DIR` (made absolute) or wrangler's default. */
export function startStateDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env.WRANGLER_STATE_DIR?.trim();
  return given ? path.resolve(given) : defaultStateDir(projectRoot);
}

/** Records a running `npm start`; the returned function removes the record (synchronous, safe in an exit handler). */
export function recordStartRun(projectRoot: string, run: StartRun): () => void {
  mkdirSync(runsDir(projectRoot), { recursive: true });
  const file = path.join(runsDir(projectRoot), `${run.pid}.json`);
  writeFileSync(file, JSON.stringify(run));
  return () => rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The `npm start` runs of this checkout still alive; records of runs that were killed are removed. */
export function runningStarts(projectRoot: string): StartRun[] {
  let names: string[];
  try {
    names = readdirSync(runsDir(projectRoot)).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const runs: StartRun[] = [];
  for (const name of names) {
    const file = path.join(runsDir(projectRoot), name);
    let parsed: StartRun | undefined;
    try {
      parsed = runFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    } catch {
      parsed = undefined;
    }
    if (parsed && alive(parsed.pid)) runs.push(parsed);
    else rmSync(file, { force: true });
  }
  return runs;
}

/** The state a script should write (see the top of this file); throws with a message for the user when ambiguous. */
export function resolveLocalState(projectRoot: string, env: NodeJS.ProcessEnv = process.env, runs: StartRun[] = runningStarts(projectRoot)): LocalState {
  if (env.WRANGLER_STATE_DIR?.trim()) return { dir: startStateDir(projectRoot, env), source: "WRANGLER_STATE_DIR" };
  const dirs = [...new Set(runs.map((r) => path.resolve(r.stateDir)))];
  if (dirs.length === 1) {
    const ports = runs.map((r) => r.port).join(", ");
    return { dir: dirs[0]!, source: `the running npm start on port ${ports}` };
  }
  if (dirs.length > 1) {
    const list = runs.map((r) => `  port ${r.port}: WRANGLER_STATE_DIR=${r.stateDir}`).join("\n");
    throw new Error(`several npm start runs use different local states; say which with WRANGLER_STATE_DIR:\n${list}`);
  }
  return { dir: defaultStateDir(projectRoot), source: "wrangler's default; no npm start is running" };
}

/** resolveLocalState for a command-line script: on an ambiguous state (several npm start runs) it prints why and exits 2. */
export function localStateOrExit(projectRoot: string): LocalState {
  try {
    return resolveLocalState(projectRoot);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}
