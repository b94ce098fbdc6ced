import { buildApp } from "./app";
import type { Env } from "./env";
import { consumeTradeIndexQueue, runTradeIndexCron } from "./trades/trade-index-jobs";
import type { IngestRangeMessage } from "./trades/ingest-queue";

export { PubSubHub } from "./rpc/pubsub-hub";
export { StreamRoom } from "./streams/stream-room";
export { ChainTail } from "./streams/chain-tail";
export { AccountMeter } from "./accounts/meter";

const app = buildApp();

export default {
  fetch: app.fetch,
  /** Cron: the trade index (blocks since the last run → trades, buckets, pool registry, trend windows). */
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    await runTradeIndexCron(env, ctx).catch((err: unknown) =>
      console.error(JSON.stringify({ level: "error", cron: "trade-index", error: err instanceof Error ? err.message : String(err) })),
    );
  },
  /** Queue: slot ranges handed out by the cron when more blocks wait than one run takes. */
  async queue(batch: MessageBatch<IngestRangeMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
    await consumeTradeIndexQueue(batch, env, ctx);
  },
} satisfies ExportedHandler<Env, IngestRangeMessage>;
