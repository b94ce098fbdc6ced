/**
 * The cron's side of the trade index (every minute in production, every few seconds under `npm start`): hand out the
 * slots produced since the last run as ranges, ingest them here when few (one run's worth at mainnet pace goes to the
 * queue), hand out again the ranges nobody finished, move the frontier, then close buckets and drop expired rows.
 */
import { limits } from "../limits";
import { ingestRange, type IngestDeps, type RangeReport } from "./ingest-range";
import type { IngestRangeMessage } from "./ingest-queue";
import { advanceFrontier, insertRanges, markRange, readCursor, staleRanges, writeCursor } from "./ingest-ranges";

export interface CronDeps extends IngestDeps {
  /** absent: every range is ingested in the run (no scale-out) */
  queue?: Queue<IngestRangeMessage>;
}

export interface CronIngestReport {
  tip: number;
  dispatchedFrom: number | null;
  dispatchedTo: number | null;
  viaQueue: number;
  inline: RangeReport[];
  redispatched: number;
  frontier: number;
  /** set when the cursor was reset: first run, a restarted chain, or an outage longer than the catch-up window */
  jumped?: string;
}

function split(from: number, to: number, size: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (let s = from; s <= to; s += size) out.push({ from: s, to: Math.min(to, s + size - 1) });
  return out;
}

/** A chain restarted from an earlier slot (a local chain under `npm start`; D1 persists): forget its old blocks above `from`. */
async function forgetAbove(db: D1Database, from: number): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM ingested_blocks WHERE slot >= ?").bind(from),
    db.prepare("DELETE FROM trades WHERE slot >= ?").bind(from),
    db.prepare("DELETE FROM ingest_ranges"),
  ]);
}

export async function runIngestCron(deps: CronDeps): Promise<CronIngestReport> {
  const { db, upstream } = deps;
  const cfg = limits.tradeIngest;
  const { result: tip } = await upstream.call<number>("getSlot", [{ commitment: "confirmed" }], { idempotent: true });
  const dispatched = await readCursor(db, "trades-dispatched");
  let start: number;
  let jumped: string | undefined;
  if (dispatched === null) {
    start = Math.max(0, tip - cfg.initialSlots);
    jumped = "first run";
  } else if (dispatched > tip) {
    start = Math.max(0, tip - cfg.initialSlots);
    jumped = `cursor ${dispatched} ahead of the tip ${tip} (a restarted chain)`;
    await forgetAbove(db, start);
  } else if (tip - dispatched > cfg.maxCatchUpSlots) {
    start = tip - cfg.maxCatchUpSlots;
    jumped = `${tip - dispatched} slots behind, over the catch-up window: slots ${dispatched + 1}..${start - 1} are not indexed`;
  } else {
    start = dispatched + 1;
  }
  if (jumped) console.log(JSON.stringify({ level: "warn", ingest: "cursor-jump", reason: jumped, start }));

  const end = Math.min(tip, start + cfg.maxSlotsPerRun - 1);
  const fresh = start <= end ? split(start, end, cfg.rangeSlots) : [];
  const stale = await staleRanges(db, cfg.staleRangeMs, cfg.maxRedispatchPerRun);
  if (fresh.length > 0) await db.batch([insertRanges(db, fresh, Date.now()), writeCursor(db, "trades-dispatched", end)]);
  const newDispatched = fresh.length > 0 ? end : (dispatched ?? end);

  const report: CronIngestReport = {
    tip, dispatchedFrom: fresh.length ? start : null, dispatchedTo: fresh.length ? end : null, viaQueue: 0, inline: [], redispatched: stale.length, frontier: newDispatched,
  };
  if (jumped) report.jumped = jumped;
  const work = [...stale.map((r) => ({ ...r, lastAttempt: r.attempts + 1 >= cfg.maxRangeAttempts })), ...fresh.map((r) => ({ ...r, lastAttempt: false }))];
  const slotsWaiting = work.reduce((a, r) => a + r.to - r.from + 1, 0);
  if (deps.queue && slotsWaiting > cfg.inlineMaxSlots) {
    for (let i = 0; i < work.length; i += limits.tradeIngest.queueSendBatch) {
      await deps.queue.sendBatch(work.slice(i, i + limits.tradeIngest.queueSendBatch).map((r) => ({ body: { from: r.from, to: r.to } })));
    }
    // touch the stale ones so they are not handed out again before their consumer had a chance
    for (const r of stale) await markRange(db, r.from, "pending");
    report.viaQueue = work.length;
  } else {
    for (let i = 0; i < work.length; i++) {
      const r = work[i]!;
      try {
        report.inline.push(await ingestRange(deps, r.from, r.to, r.lastAttempt));
        await markRange(db, r.from, "done");
      } catch (err) {
        // The upstream failed: stop here; this range and the rest stay pending, stale at once, so the next run resumes them.
        console.error(JSON.stringify({ level: "warn", ingest: "range-failed", from: r.from, to: r.to, error: err instanceof Error ? err.message : String(err) }));
        for (const left of work.slice(i)) await markRange(db, left.from, "pending", 0);
        break;
      }
    }
  }
  report.frontier = await advanceFrontier(db, newDispatched);
  return report;
}
