/**
 * `npm start` as a user runs it, and the commands a user runs beside it:
 * - a busy port (an earlier npm start, any server answering /health) is refused before anything starts, quickly, with
 *   a message naming the port — never a banner with a key that answers 401;
 * - the output is quiet: no request lines, no routine cron reports (the banner and key stay on screen);
 * - `npm run key:create` and `plan:set`, run without WRANGLER_STATE_DIR in a new shell, write the running npm start's
 *   state (so the key answers 200), say which, and print no workerd warnings;
 * - web3.js's `Connection` on the /rpc URL subscribes on PORT+1 (its habit) and gets slots through the forwarder.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Connection } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, freePortPair } from "./helpers/free-port";
import { startNpmStart, type RunningNpmStart } from "./helpers/npm-start";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");

function run(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; out: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [script, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} ${args.join(" ")} still running after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: Date.now() - started });
    });
  });
}

/** One request on a connection of its own (wrangler dev may close a kept-alive one between requests). */
function statusOf(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { "x-api-key": key } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });
}

/** A server that answers /health like the worker does (what the earlier npm start of the report was). */
function impostor(port: number): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ status: "ok" }));
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

function startEnv(ports: { port: number; ln: number; lnWs: number }, stateDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(ports.port), LOCALNET_PORT: String(ports.ln), LOCALNET_WS_PORT: String(ports.lnWs), WRANGLER_STATE_DIR: stateDir, ...extra };
  delete env.UPSTREAM_RPC_URL;
  delete env.VERBOSE;
  return env;
}

describe("npm start refuses ports it cannot have", () => {
  it("a server already answering /health on PORT: refused at once, non-zero, naming the port; no banner", async () => {
    // Given another server on PORT that answers /health as the worker would
    const port = await freePortPair();
    const other = await impostor(port);
    const stateDir = mkdtempSync(path.join(tmpdir(), "npm-start-busy-"));
    try {
      // When npm start is run on that PORT
      const { code, out, ms } = await run("scripts/start.ts", [], startEnv({ port, ln: await freePort(), lnWs: await freePort() }, stateDir), 60_000);
      // Then it stops with a clear refusal before starting anything, well before a worker could have started
      expect(code, out).not.toBe(0);
      expect(out).toContain(`port ${port} is in use`);
      expect(out).toContain("nothing was started");
      expect(out).not.toContain("worker ready");
      expect(out).not.toContain("Demo API key");
      expect(out).not.toContain("localnet on");
      expect(ms).toBeLessThan(30_000);
    } finally {
      other.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 90_000);

  it("PORT+1 and the local chain's ports are checked too", async () => {
    // Given PORT+1 and LOCALNET_WS_PORT held by other servers
    const port = await freePortPair();
    const lnWs = await freePort();
    const held = [await impostor(port + 1), await impostor(lnWs)];
    const stateDir = mkdtempSync(path.join(tmpdir(), "npm-start-busy-"));
    try {
      // When npm start is run
      const { code, out } = await run("scripts/start.ts", [], startEnv({ port, ln: await freePort(), lnWs }, stateDir), 60_000);
      // Then both are named, and nothing started
      expect(code, out).not.toBe(0);
      expect(out).toContain(`port ${port + 1} is in use`);
      expect(out).toContain(`port ${lnWs} is in use`);
      expect(out).not.toContain("localnet on");
    } finally {
      for (const s of held) s.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("a running npm start", () => {
  let npmStart: RunningNpmStart | undefined;
  let stateDir = "";
  let base = "";
  let port = 0;
  const key = `tmd_${randomBytes(24).toString("base64url")}`;

  beforeAll(async () => {
    port = await freePortPair();
    stateDir = mkdtempSync(path.join(tmpdir(), "npm-start-"));
    base = `http://127.0.0.1:${port}`;
    const env = startEnv({ port, ln: await freePort(), lnWs: await freePort() }, stateDir, { DEMO_API_KEY: key });
    npmStart = await startNpmStart(env, "Ctrl-C stops everything", 150_000);
  }, 180_000);

  afterAll(async () => {
    await npmStart?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it("is quiet: after requests and cron runs, no request lines and no routine reports; the banner and key stay", async () => {
    // Given requests of all kinds, and time for the cron driver (every 10 s) to run the scheduled handler
    for (const p of ["/health", "/api/v1/price?ca=So11111111111111111111111111111111111111112", "/nope"]) expect(await statusOf(`${base}${p}`, key)).toBeGreaterThanOrEqual(200);
    const deadline = Date.now() + 40_000;
    while (!npmStart!.output.includes("cron: scheduled handler ran") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    await new Promise((r) => setTimeout(r, 12_000)); // one more cron run after the first
    // Then the output holds the banner and key, and none of the per-request or per-run lines
    expect(npmStart!.output).toContain("cron: scheduled handler ran");
    expect(npmStart!.output).toContain(`Demo API key: ${key}`);
    expect(npmStart!.output).not.toMatch(/\[wrangler:info\] (GET|POST|QUEUE)/);
    expect(npmStart!.output).not.toMatch(/"level":"info"/);
    expect(npmStart!.output).toContain("npm start -- --verbose");
  }, 90_000);

  it("key:create, run without WRANGLER_STATE_DIR, writes the running npm start's state: its key answers 200", async () => {
    // When key:create runs in a shell that never set WRANGLER_STATE_DIR
    const env = { ...process.env };
    delete env.WRANGLER_STATE_DIR;
    const { code, out } = await run("scripts/key-create.ts", ["--name", "e2e", "--plan", "pro"], env, 90_000);
    expect(code, out).toBe(0);
    // Then it says which state it wrote (npm start's), prints no workerd warnings, and its key works on the worker
    expect(out).toContain(`Local state: ${stateDir} (the running npm start on port ${port})`);
    expect(out).not.toMatch(/workerd|WARNING/);
    const created = /\n\s+(tmd_[A-Za-z0-9_-]{32})\s*\n/.exec(out)?.[1];
    expect(created, out).toBeDefined();
    const res = await fetch(`${base}/api/v1/price?ca=So11111111111111111111111111111111111111112`, { headers: { "x-api-key": created! } });
    expect(res.status).toBe(200);
  }, 120_000);

  it("plan:set, run without WRANGLER_STATE_DIR, changes the plan of an account of the running npm start, quietly", async () => {
    // Given an account signed up on the running worker
    const email = `plan-${randomBytes(4).toString("hex")}@example.com`;
    const signup = await fetch(`${base}/signup`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email, password: "correct horse battery staple" }).toString(),
    });
    expect(signup.status, await signup.text()).toBe(303);
    // When plan:set runs in a shell that never set WRANGLER_STATE_DIR
    const env = { ...process.env };
    delete env.WRANGLER_STATE_DIR;
    const { code, out } = await run("scripts/plan-set.ts", ["--email", email, "--plan", "pro"], env, 90_000);
    // Then it changed that account's plan in npm start's state, said where, and printed nothing else
    expect(code, out).toBe(0);
    expect(out).toContain(`Local state: ${stateDir} (the running npm start on port ${port})`);
    expect(out).toMatch(/plan free → pro/);
    expect(out).not.toMatch(/workerd|WARNING|Durable Object/);
    expect(out.trim().split("\n")).toHaveLength(2);
  }, 120_000);

  it("web3.js Connection on the /rpc URL subscribes on PORT+1 and receives slots", async () => {
    // Given web3.js pointed at the HTTP URL npm start prints (it derives ws://…:PORT+1/rpc?x-api-key=… itself)
    const connection = new Connection(`${base}/rpc?x-api-key=${key}`, "confirmed");
    const slots: number[] = [];
    const id = connection.onSlotChange((info) => slots.push(info.slot));
    try {
      // When a few slots pass
      const deadline = Date.now() + 30_000;
      while (slots.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      // Then notifications arrived over the forwarded socket, and the slots move forward
      expect(slots.length).toBeGreaterThanOrEqual(3);
      expect(slots[slots.length - 1]!).toBeGreaterThan(slots[0]!);
      expect(await connection.getSlot()).toBeGreaterThan(0);
    } finally {
      await connection.removeSlotChangeListener(id);
    }
  }, 60_000);

  it("stopped (SIGTERM, what Ctrl-C's handler does), it leaves no process behind: no workerd of it runs and its ports are free", async () => {
    // Given its worker's workerd serving PORT (Linux: read from /proc; elsewhere the ports alone are checked)
    const linux = process.platform === "linux";
    if (linux) expect(liveWorkerdOn(port).length).toBeGreaterThan(0);
    // When it is stopped
    await npmStart!.stop();
    // Then no workerd it started is left running, and PORT and PORT+1 can be bound again
    if (linux) expect(liveWorkerdOn(port)).toEqual([]);
    expect(await canListen(port)).toBe(true);
    expect(await canListen(port + 1)).toBe(true);
  }, 60_000);
});

/** Live (not zombie) workerd processes whose command line binds 127.0.0.1:`port`. */
function liveWorkerdOn(port: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (state !== "Z" && cmdline[0]?.endsWith("workerd") && cmdline.some((arg) => arg.endsWith(`127.0.0.1:${port}`))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
