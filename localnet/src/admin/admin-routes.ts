/**
 * Test and operator endpoints under `/__localnet/` on the RPC HTTP port (documented in localnet/README.md):
 * world manifest, manual slot advance, chain status, request stats, memory (retained counts and the process's usage), and
 * fault injection for the JSON-RPC endpoint.
 */
import type { Ledger } from "../chain/ledger.js";
import type { World } from "../chain/types.js";
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
      await deps.advance(slots);
      return { status: 200, body: status(deps.ledger, deps.manual) };
    }
    case "GET /__localnet/memory":
      return {
        status: 200,
        body: { slot: deps.ledger.currentSlot, retained: deps.ledger.retained(), requestStats: deps.stats.sizes(), process: process.memoryUsage() },
      };
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
