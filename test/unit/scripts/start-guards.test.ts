/**
 * The pieces npm start guards itself with: the port check, the /health nonce, the quiet-output filter, and the state
 * resolution key:create and plan:set share with it.
 */
import { createServer, type Server } from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitForOwnHealth } from "../../../scripts/lib/health-wait";
import { resolveLocalState } from "../../../scripts/lib/local-state";
import { isRoutineLine, verboseRequested } from "../../../scripts/lib/log-filter";
import { portIsFree, portProblems } from "../../../scripts/lib/ports";

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
}

describe("the port check", () => {
  it("names each busy port and what it was for; a free set passes", async () => {
    const busy = await serve((_q, r) => r.end());
    const message = await portProblems([
      { port: busy, what: "API (PORT)" },
      { port: busy + 0, what: "again" },
    ]);
    expect(message).toContain(`API (PORT): port ${busy} is in use`);
    expect(message).toContain(`again: port ${busy} is also the API (PORT)`);
    expect(message).toContain("nothing was started");
    expect(await portIsFree(busy)).toBe(false);
  });

  it("a port that is not a TCP port is refused", async () => {
    expect(await portProblems([{ port: 70000, what: "API (PORT)" }])).toContain("70000 is not a TCP port");
  });
});

describe("waiting for this run's worker", () => {
  it("another server answering /health ok is refused at once, not waited for", async () => {
    const port = await serve((_q, r) => r.end(JSON.stringify({ status: "ok" })));
    const started = Date.now();
    await expect(waitForOwnHealth({ url: `http://127.0.0.1:${port}/health`, nonce: "n1", timeoutMs: 10_000 })).rejects.toThrow(/another server/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("the worker with the nonce is accepted, even when its first answers are slow or not JSON yet", async () => {
    let calls = 0;
    const port = await serve((_q, r) => {
      calls++;
      if (calls === 1) return void r.writeHead(503).end("<html>starting</html>");
      // A slow body (over a second) is not a wrong answer.
      setTimeout(() => r.end(JSON.stringify({ status: "ok", instance: "n1" })), 1_500);
    });
    await expect(waitForOwnHealth({ url: `http://127.0.0.1:${port}/health`, nonce: "n1", timeoutMs: 20_000, pollMs: 50 })).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it("a worker process that exited is reported, not waited for", async () => {
    await expect(waitForOwnHealth({ url: "http://127.0.0.1:9/health", nonce: "n", timeoutMs: 10_000, exited: () => "wrangler dev exited with 1" })).rejects.toThrow("wrangler dev exited with 1");
  });
});

describe("quiet output", () => {
  it("drops request lines and info reports; keeps warnings, errors and everything else", () => {
    expect(isRoutineLine("[wrangler:info] GET /health 200 OK (3ms)")).toBe(true);
    expect(isRoutineLine("\u001b[2m[wrangler:info] POST /rpc 200 OK (5ms)\u001b[0m")).toBe(true);
    expect(isRoutineLine("[wrangler:info] QUEUE trade-ingest 4/4 (3197ms)")).toBe(true);
    expect(isRoutineLine('{"level":"info","cron":"ingest","tip":80}')).toBe(true);
    expect(isRoutineLine('{"level":"warn","ingest":"cursor-jump"}')).toBe(false);
    expect(isRoutineLine('{"level":"error","chainTail":true}')).toBe(false);
    expect(isRoutineLine("[wrangler:info] Ready on http://127.0.0.1:8787")).toBe(false);
    expect(isRoutineLine("✘ [ERROR] something broke")).toBe(false);
  });

  it("--verbose, VERBOSE=1 or npm's own --verbose turn the lines on", () => {
    expect(verboseRequested([], {})).toBe(false);
    expect(verboseRequested(["--verbose"], {})).toBe(true);
    expect(verboseRequested([], { VERBOSE: "1" })).toBe(true);
    expect(verboseRequested([], { VERBOSE: "0" })).toBe(false);
    expect(verboseRequested([], { npm_config_loglevel: "verbose" })).toBe(true);
  });
});

describe("which local state key:create and plan:set write", () => {
  const root = "/project";
  it("WRANGLER_STATE_DIR first, then the running npm start's, then wrangler's default", () => {
    const run = { pid: 1, port: 8787, stateDir: "/tmp/s1" };
    expect(resolveLocalState(root, { WRANGLER_STATE_DIR: "rel/dir" }, [run]).dir).toBe(path.resolve("rel/dir"));
    expect(resolveLocalState(root, {}, [run])).toEqual({ dir: "/tmp/s1", source: "the running npm start on port 8787" });
    expect(resolveLocalState(root, {}, []).dir).toBe("/project/.wrangler/state");
  });

  it("two npm start runs on different states: refused, naming both", () => {
    expect(() => resolveLocalState(root, {}, [{ pid: 1, port: 8787, stateDir: "/a" }, { pid: 2, port: 9000, stateDir: "/b" }])).toThrow(/port 8787: WRANGLER_STATE_DIR=\/a\n\s+port 9000: WRANGLER_STATE_DIR=\/b/);
  });
});
