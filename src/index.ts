import { buildApp } from "./app";
import type { Env } from "./env";
import { consumeTradeIndexQueue, runTradeIndexCron } from "./trades/trade-index-jobs";
import { sweepExpiredAuthRows } from "./accounts/auth-sweep";
import type { IngestRangeMessage } from "./trades/ingest-queue";

export { PubSubHub } from "./rpc/pubsub-hub";
export { StreamRoom } from "./streams/stream-room";
export { ChainTail } from "./streams/chain-tail";
export { AccountMeter } from "./accounts/meter";
export { PasswordHasher } from "./accounts/password-hasher";

const app = buildApp();

export default {
  fetch: app.fetch,
  /**
   * Cron: the trade index (blocks since the last run → trades, buckets, pool registry, trend windows), and the sweep of
   * expired sessions and ended login/sign-up throttle windows.
   */
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    const logged = (cron: string) => (err: unknown) =>
      console.error(JSON.stringify({ level: "error", cron, error: err instanceof Error ? err.message : String(err) }));
    await Promise.all([runTradeIndexCron(env, ctx).catch(logged("trade-index")), sweepExpiredAuthRows(env.DB).catch(logged("auth-sweep"))]);
  },
  /** Queue: slot ranges handed out by the cron when more blocks wait than one run takes. */
  async queue(batch: MessageBatch<IngestRangeMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
    await consumeTradeIndexQueue(batch, env, ctx);
  },
} satisfies ExportedHandler<Env, IngestRangeMessage>;
