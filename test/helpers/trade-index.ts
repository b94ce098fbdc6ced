import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { chainRpc } from "./localnet";

/** One run of the worker's scheduled handler (the trade index's cron), awaited with everything it started. */
export async function runCron(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

export async function indexCursor(name: "trades-dispatched" | "trades-frontier"): Promise<number | null> {
  return (await env.DB.prepare("SELECT slot FROM ingest_cursor WHERE name = ?").bind(name).first<{ slot: number }>())?.slot ?? null;
}

/**
 * Runs the cron until the index's frontier reaches `tip` (default: localnet's confirmed slot now) with no range pending;
 * between runs the queue's consumers (the same worker, under workerd) ingest what the cron handed out.
 */
export async function ingestUntil(tip?: number): Promise<number> {
  const target = tip ?? (await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]));
  for (let i = 0; i < 120; i++) {
    await runCron();
    const pending = (await env.DB.prepare("SELECT count(*) AS n FROM ingest_ranges WHERE state = 'pending'").first<{ n: number }>())!.n;
    if (((await indexCursor("trades-frontier")) ?? -1) >= target && pending === 0) return target;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`frontier stuck at ${await indexCursor("trades-frontier")} (target ${target})`);
}
