/**
 * The local Solana node stand-in: JSON-RPC 2.0 over HTTP (plus `GET /health`, the `/__localnet/` admin routes and the
 * world's off-chain files under other GET paths) and Solana PubSub over WebSocket (on `wsPort`, and on the RPC port too).
 * Slots advance every `slotMs`, or only through `advance(n)` / `POST /__localnet/advance` when `slotMs` is 0.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { handleAdmin, type AdminDeps } from "./admin/admin-routes.js";
import { FaultInjector, type FaultMode } from "./admin/fault-injector.js";
import { RequestStats } from "./admin/request-stats.js";
import { NOMINAL_SLOT_MS } from "./chain/cluster-constants.js";
import { loadFixtureAccounts } from "./chain/fixture-accounts.js";
import { Ledger } from "./chain/ledger.js";
import { startSlotClock } from "./chain/slot-clock.js";
import type { World } from "./chain/types.js";
import { PubSubServer } from "./pubsub/pubsub-server.js";
import { accountsRequestedBy, executeRpc, methodsOf, parseRpcBody } from "./rpc/json-rpc.js";
import { stringifyJson } from "./rpc/json-serialize.js";
import { createMethodTable } from "./rpc/methods/index.js";
import { createWorld } from "./world/index.js";

export interface LocalnetOptions {
  /** RPC HTTP port (default 8899; 0 = any free port). */
  port?: number;
  /** PubSub port (default port + 1; 0 = any free port, and the default when `port` is 0). */
  wsPort?: number;
  host?: string;
  seed?: number;
  /** Milliseconds per slot (default 400); 0 = manual mode, slots advance only on demand. */
  slotMs?: number;
  /** Added before every JSON-RPC HTTP answer: models a remote provider's round trip (benchmarks). Default 0. */
  latencyMs?: number;
  /** Directories of account fixtures (JSON) loaded at genesis, over the world's accounts. */
  accountsDirs?: string[];
  /** Slots between processed and finalized (default 32). */
  finalityDepth?: number;
  /**
   * Retention: slots of blocks kept before pruning, with their transactions, signature / address indexes and statuses
   * (default 3,000 ≈ 20 min at 400 ms; `--retain-slots` on the CLI).
   */
  maxBlockSlots?: number;
  /** The token world; by default `createWorld` from ./world/index.ts. */
  world?: World;
  /** The default world's extras edition (`--extras`; world/world-extras.ts). Default off. */
  extras?: boolean;
}

export interface Localnet {
  rpcUrl: string;
  wsUrl: string;
  port: number;
  wsPort: number;
  ledger: Ledger;
  world: World;
  /** Fixture files loaded and skipped. */
  fixtures: { loaded: number; skipped: string[] };
  /** Produces `slots` slots now (skipped ones count), then resolves. */
  advance(slots: number): Promise<void>;
  close(): Promise<void>;
}

/** Agave's MAX_REQUEST_BODY_SIZE. */
const MAX_REQUEST_BODY = 50 * 1024;
/** How long a `timeout` fault holds a request before dropping the connection. */
const FAULT_TIMEOUT_MS = 30_000;
/** How long a `slow` fault delays a correct answer. */
const SLOW_FAULT_MS = 2_000;
const JSON_TYPE = "application/json; charset=utf-8";
const CORS = { "access-control-allow-origin": "*" };

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BODY) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_REQUEST_BODY ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: string | Uint8Array, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...CORS, "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** The "wrong-shape" fault's result: every array member of an object result becomes a number (`transactions: 0`). */
function wrongShape(result: unknown): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, Array.isArray(v) ? v.length : v]));
}

/** A different id for the "wrong-id" fault: numbers shift, strings get a suffix. */
function wrongId(id: unknown): unknown {
  return typeof id === "number" ? id + 1_000_000 : `${String(id)}-wrong`;
}

export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const host = options.host ?? "127.0.0.1";
  const seed = options.seed ?? 1;
  const slotMs = options.slotMs ?? 400;
  const latencyMs = options.latencyMs ?? 0;
  const requestedPort = options.port ?? 8899;
  const requestedWsPort = options.wsPort ?? (requestedPort === 0 ? 0 : requestedPort + 1);

  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => send(res, 503, "starting");
  const http = createServer((req, res) => handler(req, res));
  // Idle keep-alive connections stay open a minute, as RPC nodes behind their proxies keep them: with Node's default
  // 5 s a client reusing a connection just as the server drops it gets "fetch failed" (seen after a large answer on a
  // loaded machine).
  http.keepAliveTimeout = 60_000;
  http.headersTimeout = 65_000;
  const wsHttp = createServer((_req, res) => send(res, 426, "Upgrade Required", { connection: "close" }));
  // Tracked so close() can drop keep-alive and held (fault "timeout") connections instead of waiting for them.
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  http.on("connection", track);
  wsHttp.on("connection", track);

  const port = await listen(http, requestedPort, host);
  const wsPort = await listen(wsHttp, requestedWsPort, host);
  const rpcUrl = `http://${host}:${port}`;

  const ledger = new Ledger({
    seed,
    finalityDepth: options.finalityDepth ?? 32,
    slotDurationMs: slotMs > 0 ? slotMs : NOMINAL_SLOT_MS,
    genesisTime: Math.floor(Date.now() / 1000),
    // ~78 MB of blocks per 1,000 slots with the default world: 3,000 slots (20 min at 400 ms) keeps a dev box light.
    maxBlockSlots: options.maxBlockSlots ?? 3_000,
  });
  let world: World;
  let fixtures: ReturnType<typeof loadFixtureAccounts>;
  try {
    world = options.world ?? createWorld({ seed, metadataBaseUrl: rpcUrl, extras: options.extras ?? false });
    fixtures = loadFixtureAccounts(options.accountsDirs ?? []);
    ledger.genesis(world, fixtures.accounts);
  } catch (err) {
    // The ports are already bound (the world needs the RPC URL): release them before failing.
    await Promise.all([http, wsHttp].map((server) => new Promise((resolve) => server.close(resolve))));
    throw err;
  }

  const ctx = { ledger, node: { host, rpcPort: port, wsPort } };
  const methods = createMethodTable(ctx);
  const pubsub = new PubSubServer(ctx);
  http.on("upgrade", pubsub.upgrade);
  wsHttp.on("upgrade", pubsub.upgrade);

  const stats = new RequestStats();
  const faults = new FaultInjector();
  let advancing = Promise.resolve();
  const advance = (slots: number): Promise<void> => {
    // Serialised so concurrent callers each get their slots, in order.
    advancing = advancing.then(async () => {
      for (let i = 0; i < slots; i++) {
        ledger.advance(world);
        if (i % 5_000 === 4_999) await new Promise((resolve) => setImmediate(resolve));
      }
    });
    return advancing;
  };
  const adminDeps: AdminDeps = { ledger, world, stats, faults, advance, manual: slotMs === 0 };

  function answerRpc(body: string, req: IncomingMessage, res: ServerResponse): void {
    const parsed = parseRpcBody(body);
    const called = methodsOf(parsed);
    const requestId = req.headers["x-request-id"];
    stats.record(typeof requestId === "string" ? requestId : undefined, called, accountsRequestedBy(parsed), body);
    const fault: FaultMode | undefined = faults.take(called);
    switch (fault) {
      case "500":
        return send(res, 500, "Internal Server Error", { "content-type": "text/plain" });
      case "429":
        return send(res, 429, "Too Many Requests", { "content-type": "text/plain", "retry-after": "1" });
      case "html":
        return send(res, 200, "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>", {
          "content-type": "text/html; charset=utf-8",
        });
      case "garbage":
        return send(res, 200, Uint8Array.from([0x00, 0xff, 0x7b, 0x22, 0xfe, 0x13, 0x5d, 0x9c, 0x22, 0x0a]), { "content-type": JSON_TYPE });
      case "timeout":
        return later(FAULT_TIMEOUT_MS, () => res.destroy());
      case "refused":
        return void req.socket.destroy();
      case "slow":
        return later(SLOW_FAULT_MS, () => send(res, 200, executeRpc(parsed, methods) ?? "", { "content-type": JSON_TYPE }));
      case "reset": {
        const full = executeRpc(parsed, methods) ?? "";
        res.writeHead(200, { "content-type": JSON_TYPE, "content-length": String(Buffer.byteLength(full)) });
        res.write(full.slice(0, Math.floor(full.length / 2)));
        return later(50, () => res.destroy());
      }
    }
    let answer = executeRpc(parsed, methods) ?? "";
    if (fault === "truncated") answer = answer.slice(0, Math.floor(answer.length / 2));
    if (fault === "wrong-shape" && answer) {
      const json = JSON.parse(answer) as { result?: unknown } | { result?: unknown }[];
      for (const item of Array.isArray(json) ? json : [json]) item.result = wrongShape(item.result);
      answer = stringifyJson(json);
    }
    if (fault === "wrong-id" && answer) {
      const json = JSON.parse(answer) as { id: unknown } | { id: unknown }[];
      for (const item of Array.isArray(json) ? json : [json]) item.id = wrongId(item.id);
      answer = stringifyJson(json);
    }
    send(res, 200, answer, { "content-type": JSON_TYPE });
  }

  handler = (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", rpcUrl);
      if (req.method === "OPTIONS") {
        return send(res, 200, "", { "access-control-allow-methods": "POST, GET, OPTIONS", "access-control-allow-headers": "*" });
      }
      const body = await readBody(req);
      if (body === undefined) return send(res, 413, "Payload Too Large", { "content-type": "text/plain" });
      if (url.pathname.startsWith("/__localnet/")) {
        const reply = await handleAdmin(req.method ?? "GET", url, body, adminDeps);
        return send(res, reply.status, stringifyJson(reply.body), { "content-type": JSON_TYPE });
      }
      if (req.method === "POST") {
        if (latencyMs > 0) return void setTimeout(() => answerRpc(body, req, res), latencyMs);
        return answerRpc(body, req, res);
      }
      if (req.method === "GET" && url.pathname === "/health") return send(res, 200, "ok", { "content-type": "text/plain" });
      const reply = req.method === "GET" ? world.http(url.pathname) : undefined;
      if (!reply) return send(res, 404, "Not Found", { "content-type": "text/plain" });
      const respond = () => send(res, reply.status, reply.body, reply.headers);
      if (reply.delayMs) later(reply.delayMs, respond);
      else respond();
    })().catch((err: unknown) => {
      console.error("[localnet] request failed:", err);
      if (!res.headersSent) send(res, 500, "Internal Server Error");
    });
  };

  const stopClock = slotMs > 0 ? startSlotClock(slotMs, () => ledger.advance(world)) : undefined;

  return {
    rpcUrl,
    wsUrl: `ws://${host}:${wsPort}`,
    port,
    wsPort,
    ledger,
    world,
    fixtures: { loaded: fixtures.accounts.length, skipped: fixtures.skipped },
    advance,
    async close() {
      stopClock?.();
      for (const timer of timers) clearTimeout(timer);
      pubsub.close();
      for (const socket of sockets) socket.destroy();
      await Promise.all([http, wsHttp].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
