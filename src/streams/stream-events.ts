/**
 * What the chain tail (src/streams/chain-tail.ts) hands the rooms (src/streams/stream-room.ts): events by topic, in
 * chain order. A room forwards an event to the sockets subscribed to its topic, numbering it per subscription (`seq`).
 *
 * Topics: `trade:<mint>` and `trade:<wallet>` (a trade appears under both its base mint and its wallet), `price:<mint>`,
 * `wallet:<address>` (every SOL or token balance change of the address), `newpair` (pool creations, migrations,
 * graduations of every kind).
 */
import { z } from "zod/mini";
import type { PublishPosition } from "./publish-position";
import { tradeItemSchema } from "../trades/trade-queries";
import { priceRecordSchema } from "../pricing/price-record";

export const newPairSchema = z.object({
  type: z.enum(["create", "migrate", "graduate"]),
  /** the token (base mint) */
  mint: z.string(),
  quoteMint: z.string(),
  pool: z.string(),
  /** the `dex` word of the pool's kind */
  kind: z.string(),
  /** the transaction's fee payer */
  creator: z.string(),
  /**
   * quote per base: of the first trade of the pool in its creating block; else, for a created pool quoted in SOL or a
   * USD stable, its price read right after that block; else null
   */
  initialPrice: z.nullable(z.number()),
  signature: z.string(),
  slot: z.number(),
  blockTime: z.nullable(z.number()),
});
export type NewPair = z.infer<typeof newPairSchema>;

export const walletChangeSchema = z.object({
  wallet: z.string(),
  /** the token mint, or "SOL" for lamports */
  mint: z.string(),
  /** raw amounts as decimal strings: before, after, and after − before */
  pre: z.string(),
  post: z.string(),
  change: z.string(),
  decimals: z.number(),
  signature: z.string(),
  slot: z.number(),
  blockTime: z.nullable(z.number()),
});
export type WalletChange = z.infer<typeof walletChangeSchema>;

/**
 * Slots whose events the tail could not stream (it fell more than `limits.chainTail.maxCatchUpSlots` behind, or a block
 * could not be read): every subscription gets it in its numbered stream, so a client knows what to fetch over REST.
 */
export const streamGapSchema = z.object({
  fromSlot: z.number(),
  toSlot: z.number(),
  reason: z.enum(["fell-behind", "unreadable-block"]),
  message: z.string(),
});
export type StreamGap = z.infer<typeof streamGapSchema>;

/** The topic of gap events: every room, every subscription. */
export const GAP_TOPIC = "*";

export const streamEventSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("trade"), topic: z.string(), slot: z.number(), data: tradeItemSchema }),
  z.object({ kind: z.literal("price"), topic: z.string(), slot: z.number(), data: priceRecordSchema }),
  z.object({ kind: z.literal("wallet"), topic: z.string(), slot: z.number(), data: walletChangeSchema }),
  z.object({ kind: z.literal("newpair"), topic: z.literal("newpair"), slot: z.number(), data: newPairSchema }),
  z.object({ kind: z.literal("gap"), topic: z.literal(GAP_TOPIC), slot: z.number(), data: streamGapSchema }),
]);
export type StreamEvent = z.infer<typeof streamEventSchema>;

/**
 * The rooms' side of the contract: the chain tail calls it (Durable Object RPC) with the events of one block part, at
 * `position` (publish-position.ts: a room takes each position once, so a tail that publishes a block again after a crash
 * duplicates nothing).
 */
export interface StreamEventSink {
  publish(events: StreamEvent[], position: PublishPosition): Promise<void>;
}

/** The chain tail's side: a room tells it which topics its sockets want (the tail produces events for those only). */
export interface TopicRegistry {
  setTopics(room: string, topics: string[]): Promise<void>;
}
