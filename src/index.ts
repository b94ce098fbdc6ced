import { buildApp } from "./app";
import type { Env } from "./env";
import { consumeTradeIndexQueue, runTradeIndexCron } from "./trades/trade-index-jobs";
import { sweepExpiredAuthRows } from "./accounts/auth-sweep";
import type { IngestRangeMessage } from "./trades/ingest-queue";
import type { PubSubHub } from "./pubsub/pubsub-hub";
import type { StreamRoom } from "./streams/stream-room";
import type { ChainTail } from "./streams/chain-tail";
import type { AccountMeter } from "./accounts/meter";
import type { PasswordHasher } from "./accounts/password-hasher";

export { PubSubHub } from "./pubsub/pubsub-hub";
export { StreamRoom } from "./streams/stream-room";
export { ChainTail } from "./streams/chain-tail";
export { AccountMeter } from "./accounts/meter";
export { PasswordHasher } from "./accounts/password-hasher";

// The bindings' classes and message, named here at the top where the classes are exported (see `BoundTypes`).
declare module "./env" {
  interface BoundTypes {
    PUBSUB_HUB: PubSubHub;
    STREAM_ROOM: StreamRoom;
    ACCOUNT_METER: AccountMeter;
    PASSWORD_HASHER: PasswordHasher;
    CHAIN_TAIL: ChainTail;
    INGEST_QUEUE: IngestRangeMessage;
  }
}

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
