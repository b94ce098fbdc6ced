import type { Readable, Writable } from "node:stream";

/**
 * `npm start` is quiet by default: wrangler logs one line per request (`[wrangler:info] GET /health 200 OK (3ms)`, and
 * `QUEUE …` per queue batch), and the worker logs its routine cron and ingest reports as JSON lines at level "info";
 * with the cron every 10 s those scroll the banner and its key away within minutes. Those lines are dropped unless
 * `--verbose`; warnings, errors and anything else wrangler says stay.
 */
const ANSI = /\u001b\[[0-9;]*m/g;
const REQUEST_LINE = /^\[wrangler:info\] (?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|QUEUE|SCHEDULED|ALARM|WEBSOCKET)\b/;

export function isRoutineLine(raw: string): boolean {
  const line = raw.replace(ANSI, "").trim();
  if (REQUEST_LINE.test(line)) return true;
  if (!line.startsWith("{")) return false;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return level === "info" || level === "debug";
  } catch {
    return false;
  }
}

/** Copies `from` to `to` line by line, dropping routine lines unless `verbose`. */
export function pipeLines(from: Readable, to: Writable, verbose: boolean): void {
  let pending = "";
  from.setEncoding("utf8");
  from.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (verbose || !isRoutineLine(line)) to.write(`${line}\n`);
  });
  from.on("end", () => {
    if (pending && (verbose || !isRoutineLine(pending))) to.write(pending);
  });
}

/**
 * `npm start -- --verbose` or `VERBOSE=1 npm start`; `npm start --verbose` (no `--`) reaches npm itself, which then
 * says so in `npm_config_loglevel`, so that is honoured too.
 */
export function verboseRequested(argv: string[], env: NodeJS.ProcessEnv): boolean {
  if (argv.includes("--verbose") || argv.includes("-v")) return true;
  if (env.npm_config_loglevel === "verbose" || env.npm_config_loglevel === "silly") return true;
  const v = env.VERBOSE?.trim().toLowerCase();
  return v !== undefined && v !== "" && v !== "0" && v !== "false";
}
