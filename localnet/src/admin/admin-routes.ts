/**
 * Test and operator endpoints under `/__localnet/` on the RPC HTTP port (documented in localnet/README.md):
 * world manifest, manual slot advance (mainnet-sized blocks on demand), chain status, the world's ground truth of trades,
 * request stats, PubSub subscriptions, memory (retained counts and the process's usage), and fault injection for the JSON-RPC endpoint.
 */
import type { Ledger } from "../chain/ledger.js";
import type { World } from "../chain/types.js";
import { pubSubStatsOf } from "../pubsub/pubsub-server.js";
import { FaultInjector, readFaultPlan } from "./fault-injector.js";
import type { RequestStats } from "./request-stats.js";

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
    case "GET /__localnet/trades": {
      const range = readSlotRange(url);
      if (typeof range === "string") return { status: 400, body: { error: range } };
      return { status: 200, body: { trades: deps.world.trades?.(range.from, range.to) ?? [] } };
    }
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
      return { status: 404, body: { error: `no admin route ${route}` } };
  }
}
