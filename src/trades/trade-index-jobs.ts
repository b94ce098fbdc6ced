/**
 * The trade index's entry points, as the worker's handlers call them: the cron run (ingest, frontier, trend windows,
 * upkeep) and the queue consumer. Builds the dependencies from the env once per call.
 */
import type { Address } from "@solana/kit";
import type { Env } from "../env";
import { servicesOf } from "../services";
import { computeTrendWindows } from "../trend/trend-windows";
import { runIngestCron } from "./ingest-cron";
import type { IngestDeps } from "./ingest-range";
import { consumeIngestBatch, type IngestRangeMessage } from "./ingest-queue";
import { upkeepIndex } from "./index-upkeep";

function ingestDeps(env: Env, ctx: ExecutionContext): IngestDeps {
  const services = servicesOf(env);
  return {
    db: env.DB,
    upstream: services.upstream,
    liveSolUsd: () => services.prices.solUsd({ waitUntil: (p) => ctx.waitUntil(p) }),
    quoteUsd: (mints) => services.prices.quoteUsd(mints as Address[], { waitUntil: (p) => ctx.waitUntil(p) }),
  };
}

/** One cron run: ingest, then the trend windows and upkeep at the new frontier (buckets close up to the minute before the live one). Logs one line per step. */
export async function runTradeIndexCron(env: Env, ctx: ExecutionContext): Promise<void> {
  const deps = ingestDeps(env, ctx);
  const ingest = await runIngestCron({ ...deps, ...(env.INGEST_QUEUE ? { queue: env.INGEST_QUEUE } : {}) });
  console.log(JSON.stringify({ level: "info", cron: "ingest", ...ingest, inline: ingest.inline.length, trades: ingest.inline.reduce((a, r) => a + r.trades, 0) }));
  const trend = await computeTrendWindows(env.DB, deps.upstream, ingest.frontier);
  const upkeep = trend.endMinute === null ? null : await upkeepIndex(env.DB, trend.endMinute - 1, Date.now());
  console.log(JSON.stringify({ level: "info", cron: "trend", ...trend, upkeep }));
}

export async function consumeTradeIndexQueue(batch: MessageBatch<IngestRangeMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
  await consumeIngestBatch(batch, ingestDeps(env, ctx));
}
