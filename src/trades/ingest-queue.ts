/**
 * The scale-out path of the trade index: the cron hands slot ranges to a Cloudflare Queue when more blocks wait than one
 * run takes; consumers ingest them in parallel. A failed range is retried by the queue (and, should a message be lost or
 * dead-lettered, handed out again by the cron); trade-store.ts makes every retry idempotent.
 */
import { z } from "zod/mini";
import { limits } from "../limits";
import { ingestRange, type IngestDeps } from "./ingest-range";
import { markRange } from "./ingest-ranges";

export const ingestRangeMessageSchema = z.object({ from: z.number(), to: z.number() });
export type IngestRangeMessage = z.infer<typeof ingestRangeMessageSchema>;

/** Consumes a batch of range messages: each acked when stored, retried (with a delay) when the upstream failed. */
export async function consumeIngestBatch(batch: MessageBatch<unknown>, deps: IngestDeps): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ingestRangeMessageSchema.safeParse(message.body);
    if (!parsed.success || parsed.data.from > parsed.data.to) {
      console.error(JSON.stringify({ level: "error", ingest: "bad-message", id: message.id }));
      message.ack();
      continue;
    }
    const { from, to } = parsed.data;
    const lastAttempt = message.attempts >= limits.tradeIngest.maxRangeAttempts;
    try {
      const report = await ingestRange(deps, from, to, lastAttempt);
      await markRange(deps.db, from, "done");
      console.log(JSON.stringify({ level: "info", ingest: "range", via: "queue", ...report }));
      message.ack();
    } catch (err) {
      console.error(JSON.stringify({ level: "warn", ingest: "range-retry", from, to, attempts: message.attempts, error: err instanceof Error ? err.message : String(err) }));
      await markRange(deps.db, from, "pending").catch(() => undefined);
      message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
    }
  }
}
