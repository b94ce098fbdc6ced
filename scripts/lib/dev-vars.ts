import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * Hands vars to `wrangler dev` in a file instead of `--var NAME:value` arguments, which every local user can read
 * with `ps` (an upstream URL may carry a provider's API key). The file is mode 0600 and removed when the run stops.
 *
 * Wrangler reads `.dev.vars` when it exists and `.env`/`.env.local` otherwise, unless `--env-file` is given, in
 * which case it reads exactly those files (in order, later ones winning) and expands `$NAME` references in them.
 * Ours always goes to `.wrangler/start-<pid>.env` (gitignored), after the user's own files: wrangler gets
 * `--env-file <their files> --env-file <ours>`. A shared `.dev.vars` would not do: wrangler dev reloads the worker when
 * it changes, so a second `npm start` of the same checkout (another port) writing or removing it would cut the first
 * one's connections and restart it without its vars. A user's `.dev.vars` is read as an env file, so `$NAME` in it is
 * expanded for this run (wrangler's own `.dev.vars` reading does not expand).
 * A `.dev.vars` that starts with {@link GENERATED_MARKER} is a leftover of an older version's run: it is removed.
 */
export const GENERATED_MARKER = "# Written by npm start (scripts/start.ts) for one wrangler dev run and deleted when it stops.";

export interface DevVarsFile {
  /** Where the vars were written. */
  path: string;
  /** The `wrangler dev` arguments that load them (and the user's own files first). */
  wranglerArgs: string[];
  /** Removes the file if it is still ours; idempotent, synchronous (safe in a process `exit` handler). */
  cleanup(): void;
}

export function writeDevVars(projectRoot: string, vars: Record<string, string>, runId: string | number = process.pid): DevVarsFile {
  const devVars = path.join(projectRoot, ".dev.vars");
  if (isGenerated(devVars)) rmSync(devVars, { force: true });
  const userFiles = existsSync(devVars)
    ? [devVars]
    : [".env", ".env.local"].map((name) => path.join(projectRoot, name)).filter((file) => existsSync(file));
  const dir = path.join(projectRoot, ".wrangler");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `start-${runId}.env`);
  rmSync(file, { force: true });
  const text = render(vars, true);
  writePrivate(file, text);
  return {
    path: file,
    wranglerArgs: [...userFiles, file].flatMap((f) => ["--env-file", f]),
    cleanup: () => removeIfOurs(file, text),
  };
}

/** KEY='value' lines that dotenv (wrangler's parser) reads back verbatim; `$` escaped when wrangler will expand. */
export function render(vars: Record<string, string>, escapeDollar: boolean): string {
  const lines = Object.entries(vars).map(([name, raw]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a var name: ${JSON.stringify(name)}`);
    const value = escapeDollar ? raw.replaceAll("$", "\\$") : raw;
    const quote = ["'", "`", '"'].find((q) => !value.includes(q));
    // dotenv turns \n and \r into line breaks inside double quotes only; a trailing backslash would escape the quote.
    const unsafe = !quote || /[\r\n]/.test(value) || value.endsWith("\\") || (quote === '"' && /\\[nr]/.test(value));
    if (unsafe) throw new Error(`${name}: value cannot be written to a dotenv file`);
    return `${name}=${quote}${value}${quote}`;
  });
  return `${GENERATED_MARKER}\n${lines.join("\n")}\n`;
}

/** Writes a new file readable by its owner alone (a secret's home). */
export function writePrivate(file: string, text: string): void {
  // O_EXCL: never write through a file (or symlink) someone else put there; 0600 from the first byte.
  const fd = openSync(file, "wx", 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function isGenerated(file: string): boolean {
  try {
    return readFileSync(file, "utf8").startsWith(GENERATED_MARKER);
  } catch {
    return false;
  }
}

/**
 * Removes the file only if it still holds what this run wrote: a run that stops late (its exit after the next run of
 * the same pid started) must not delete the next run's file, which wrangler dev would answer by reloading the worker
 * without its vars. The vars include the run's nonce, so two runs never write the same text.
 */
function removeIfOurs(file: string, text: string): void {
  try {
    if (readFileSync(file, "utf8") === text) rmSync(file, { force: true });
  } catch {
    // already gone
  }
}
