/**
 * Test and operator endpoints under `/__localnet/` on the RPC HTTP port (documented in localnet/README.md):
 * world manifest, manual slot advance (mainnet-sized blocks on demand), chain status, the world's ground truth of trades,
 * request stats, PubSub subscriptions, memory (retained counts and the process's usage), fault injection for the JSON-RPC endpoint,
 * and the world's controls (a new pool of a given kind, a bonding curve bought out, in the next produced slot).
 */
import type { Ledger } from "../chain/ledger.js";
import type { World, WorldRequest } from "../chain/types.js";
import { pubSubStatsOf } from "../pubsub/pubsub-server.js";
import { FaultInjector, readFaultPlan } from "./fault-injector.js";
import type { RequestStats } from "./request-stats.js";
import { simulateSwapRoute } from "./swap-simulation-route.js";

/** What a fork block's buy may spend (`sol`), and spends when not told. */
const FORK_BUY_SOL = { min: 0.01, max: 1000 } as const;
const DEFAULT_FORK_BUY_SOL = 5;

export interface AdminReply {
  status: number;
  body: unknown;
}

export interface AdminDeps {
  ledger: Ledger;
  world: World;
  stats: RequestStats;
  faults: FaultInjector;
  advance(slots: number): Promise<void>;
  manual: boolean;
}

/** One HTTP call can advance at most this many slots (the chain blocks while it produces them). */
const MAX_ADVANCE = 1_000_000;
/** Mainnet-sized blocks take ~0.5 s each to build: one call asks for at most this many. */
const MAX_HEAVY_ADVANCE = 100;
/** One `GET /__localnet/trades` call spans at most this many slots. */
export const MAX_TRADE_SLOTS = 5_000;

/** `from`/`to` of a trades query: integers, from ≤ to, at most MAX_TRADE_SLOTS slots; else the error text. */
function readSlotRange(url: URL): { from: number; to: number } | string {
  const raw = [url.searchParams.get("from"), url.searchParams.get("to")];
  if (raw.some((x) => x === null || !/^\d{1,15}$/.test(x))) return "from and to must be slot numbers";
  const [from, to] = raw.map(Number) as [number, number];
  if (from > to) return "from must not be above to";
  if (to - from + 1 > MAX_TRADE_SLOTS) return `at most ${MAX_TRADE_SLOTS} slots per call`;
  return { from, to };
}

/** How long `wait=1` waits for the slot that runs a request (then it answers 202, still queued). */
export const MAX_REQUEST_WAIT_MS = 30_000;
const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * A control's answer: at once `{queued: ..., afterSlot}`; with `wait=1` what the slot that ran it made (200), why it
 * could not (409), or still queued after MAX_REQUEST_WAIT_MS (202).
 */
async function answerRequest(request: WorldRequest | string, url: URL, ledger: Ledger): Promise<AdminReply> {
  if (typeof request === "string") return { status: 400, body: { error: request } };
  const queued = { queued: request.queued, afterSlot: ledger.currentSlot };
  if (url.searchParams.get("wait") !== "1") return { status: 200, body: queued };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), MAX_REQUEST_WAIT_MS);
  });
  const outcome = await Promise.race([request.done, timeout]);
  clearTimeout(timer);
  if (outcome === undefined) return { status: 202, body: queued };
  return { status: "error" in outcome ? 409 : 200, body: outcome };
}

/** `wait`, when given, is 0 or 1; else the error text. */
function readWait(url: URL): string | undefined {
  const wait = url.searchParams.get("wait");
  return wait === null || wait === "0" || wait === "1" ? undefined : "wait must be 0 or 1";
}

/**
 * `POST /__localnet/drop-next[?pool=P][&sol=N][&wait=1]`: the next produced slot's block is on a fork the cluster
 * abandons (Ledger.dropNext) — with `pool`, it carries a whale's buy of N SOL's worth (default 5) on that pool or curve.
 * At once `{queued, afterSlot}`; with `wait=1`, once that block is made, `{slot, parentSlot, blockhash, signatures,
 * producedAtMs}` (202 with `{queued, afterSlot}` if no slot made it within MAX_REQUEST_WAIT_MS).
 */
async function dropNext(url: URL, deps: AdminDeps): Promise<AdminReply> {
  const bad = readWait(url);
  if (bad) return { status: 400, body: { error: bad } };
  const pool = url.searchParams.get("pool") ?? undefined;
  if (pool !== undefined && !base58Address.test(pool)) return { status: 400, body: { error: "pool must be a base58 address" } };
  const solText = url.searchParams.get("sol");
  const sol = solText === null ? DEFAULT_FORK_BUY_SOL : Number(solText);
  if (solText !== null && (!/^\d+(\.\d+)?$/.test(solText) || sol < FORK_BUY_SOL.min || sol > FORK_BUY_SOL.max)) {
    return { status: 400, body: { error: `sol must be a number from ${FORK_BUY_SOL.min} to ${FORK_BUY_SOL.max}` } };
  }
  if (pool !== undefined && !deps.world.forkBlock) return { status: 404, body: { error: "this world makes no fork blocks" } };
  const content = pool === undefined ? () => [] : deps.world.forkBlock!(pool, sol);
  if (typeof content === "string") return { status: 400, body: { error: content } };
  const produced = deps.ledger.dropNext(content);
  if (typeof produced === "string") return { status: 409, body: { error: produced } };
  const queued = { queued: { what: "drop-next", ...(pool === undefined ? {} : { pool, sol }) }, afterSlot: deps.ledger.currentSlot };
  if (url.searchParams.get("wait") !== "1") return { status: 200, body: queued };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), MAX_REQUEST_WAIT_MS);
  });
  const block = await Promise.race([produced, timeout]);
  clearTimeout(timer);
  if (block === undefined) return { status: 202, body: queued };
  return {
    status: 200,
    body: { slot: block.slot, parentSlot: block.parentSlot, blockhash: block.blockhash, signatures: block.transactions.map((tx) => tx.signatures[0]), producedAtMs: Date.now() },
  };
}

function status(ledger: Ledger, manual: boolean) {
  const { processed, confirmed, finalized } = ledger.commitments;
  return {
    slot: processed,
    currentSlot: ledger.currentSlot,
    confirmed,
    finalized,
    blockHeight: ledger.getBlock(processed)?.blockHeight ?? 0,
    firstAvailableBlock: ledger.firstAvailableBlock,
    mode: manual ? "manual" : "auto",
  };
}

export async function handleAdmin(method: string, url: URL, body: string, deps: AdminDeps): Promise<AdminReply> {
  const route = `${method} ${url.pathname}`;
  switch (route) {
    case "GET /__localnet/world":
      return { status: 200, body: deps.world.manifest() };
    case "GET /__localnet/status":
      return { status: 200, body: status(deps.ledger, deps.manual) };
    case "POST /__localnet/advance": {
      const slots = Number(url.searchParams.get("slots") ?? "1");
      if (!Number.isInteger(slots) || slots < 1 || slots > MAX_ADVANCE) {
        return { status: 400, body: { error: `slots must be an integer from 1 to ${MAX_ADVANCE}` } };
      }
      const heavy = url.searchParams.get("heavy");
      if (heavy !== null && heavy !== "0") {
        if (heavy !== "1") return { status: 400, body: { error: "heavy must be 0 or 1" } };
        if (slots > MAX_HEAVY_ADVANCE) return { status: 400, body: { error: `heavy slots: at most ${MAX_HEAVY_ADVANCE} per call` } };
        deps.world.heavySlots?.(slots);
      }
      await deps.advance(slots);
      return { status: 200, body: status(deps.ledger, deps.manual) };
    }
    case "POST /__localnet/launch": {
      if (!deps.world.launchPool) return { status: 404, body: { error: "this world launches no pools" } };
      const bad = readWait(url);
      if (bad) return { status: 400, body: { error: bad } };
      const kind = url.searchParams.get("kind");
      if (kind === null) return { status: 400, body: { error: "kind is required" } };
      return answerRequest(deps.world.launchPool(kind), url, deps.ledger);
    }
    case "POST /__localnet/graduate": {
      if (!deps.world.graduateCurve) return { status: 404, body: { error: "this world has no bonding curves" } };
      const bad = readWait(url);
      if (bad) return { status: 400, body: { error: bad } };
      const mint = url.searchParams.get("mint") ?? undefined;
      if (mint !== undefined && !base58Address.test(mint)) return { status: 400, body: { error: "mint must be a base58 address" } };
      return answerRequest(deps.world.graduateCurve(mint), url, deps.ledger);
    }
    case "POST /__localnet/drop-next":
      return dropNext(url, deps);
    case "GET /__localnet/trades": {
      const range = readSlotRange(url);
      if (typeof range === "string") return { status: 400, body: { error: range } };
      return { status: 200, body: { trades: deps.world.trades?.(range.from, range.to) ?? [] } };
    }
    case "POST /__localnet/simulate-swap":
      return simulateSwapRoute(url, deps.world);
    case "GET /__localnet/memory":
      return {
        status: 200,
        body: { slot: deps.ledger.currentSlot, retained: deps.ledger.retained(), requestStats: deps.stats.sizes(), process: process.memoryUsage() },
      };
    case "GET /__localnet/pubsub":
      return { status: 200, body: pubSubStatsOf(deps.ledger) };
    case "GET /__localnet/stats":
      return { status: 200, body: deps.stats.get(url.searchParams.get("requestId") ?? undefined) };
    case "POST /__localnet/stats/reset":
      deps.stats.reset();
      return { status: 200, body: { reset: true } };
    case "GET /__localnet/faults":
      return { status: 200, body: { pending: deps.faults.pending() } };
    case "POST /__localnet/faults": {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return { status: 400, body: { error: "body must be JSON" } };
      }
      const plan = readFaultPlan(json);
      if (typeof plan === "string") return { status: 400, body: { error: plan } };
      deps.faults.arm(plan);
      return { status: 200, body: { pending: deps.faults.pending() } };
    }
    case "DELETE /__localnet/faults":
      return { status: 200, body: { cleared: deps.faults.clear() } };
    default:
      return deps.world.admin?.(method, url) ?? { status: 404, body: { error: `no admin route ${route}` } };
  }
}
