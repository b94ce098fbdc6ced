import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./helpers/free-port";
import { SCHEDULED_FLAG, SCHEDULED_PATH } from "../../scripts/lib/cron-driver";
import { spawnWrangler } from "../../scripts/lib/wrangler";

/**
 * `npm start` runs the cron itself through `wrangler dev` (scripts/lib/cron-driver.ts). That route depends on wrangler's
 * own plumbing — with static assets configured (the /docs page), `/cdn-cgi/handler/scheduled` stopped reaching the
 * handler and the pool registry stayed empty under `npm start`. So this starts `wrangler dev` exactly as `npm start`
 * does (same flag, same wrangler.toml, assets included) and asks the driver's route: the handler itself must answer.
 */
let wrangler: ChildProcess | undefined;
let base = "";
let stateDir = "";


beforeAll(async () => {
  const port = await freePort();
  stateDir = mkdtempSync(path.join(tmpdir(), "cron-dev-"));
  base = `http://127.0.0.1:${port}`;
  // The upstream is a secret of deployments, not a var of wrangler.toml: name one, as npm start does (nothing listens there).
  const vars = ["--var", "UPSTREAM_RPC_URL:http://127.0.0.1:9"];
  wrangler = spawnWrangler(["dev", SCHEDULED_FLAG, "--port", String(port), "--ip", "127.0.0.1", "--persist-to", stateDir, ...vars], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  wrangler.stdout?.on("data", (d) => (output += d));
  wrangler.stderr?.on("data", (d) => (output += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || wrangler.exitCode !== null) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 90_000);

afterAll(() => {
  if (wrangler?.pid) {
    try {
      process.kill(-wrangler.pid, "SIGTERM");
    } catch {
      // gone
    }
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("the cron route npm start drives, under wrangler dev with the project's assets", () => {
  it("runs the scheduled handler (its own reply, not an assets router's)", async () => {
    const res = await fetch(`${base}${SCHEDULED_PATH}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Ran scheduled event");
  });

  it("and the assets are served beside it (/docs)", async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<html");
  });
});
