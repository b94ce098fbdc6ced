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

/**
 * The kinds of stream events: the one table every other spelling derives from — the subscribe and unsubscribe methods
 * and their schemas (stream-protocol.ts), the event frame types, the chain tail's topics (`topicOf`, `topicPattern`),
 * the event schema (`streamEventSchema`) and what makes two published events the same (`eventIdentity`). `addressed`:
 * a subscription names addresses (`<kind>:<address>` topics); else the kind is the one topic. `snapshot`: a new
 * subscription first gets the current state of each address (a price: its current record), then changes. Adding a kind here makes
 * the compiler ask for the rest (the room's handling is by kind, never by method name).
 */
export const streamKinds = {
  price: kind({ subscribe: "subscribePrice", unsubscribe: "unsubscribePrice", addressed: true, snapshot: true, data: priceRecordSchema, identity: (d) => `${d.ca}:${d.slot}` }),
  trade: kind({ subscribe: "subscribeTrade", unsubscribe: "unsubscribeTrade", addressed: true, snapshot: false, data: tradeItemSchema, identity: (d) => `${d.signature}:${d.ordinal}` }),
  wallet: kind({ subscribe: "subscribeWallet", unsubscribe: "unsubscribeWallet", addressed: true, snapshot: false, data: walletChangeSchema, identity: (d) => `${d.signature}:${d.wallet}:${d.mint}` }),
  newpair: kind({ subscribe: "subscribeNewpair", unsubscribe: "unsubscribeNewpair", addressed: false, snapshot: false, data: newPairSchema, identity: (d) => `${d.signature}:${d.pool}:${d.type}` }),
} as const;

interface KindDescriptor<S extends string, U extends string, D extends z.ZodMiniType> {
  subscribe: S;
  unsubscribe: U;
  addressed: boolean;
  snapshot: boolean;
  data: D;
  identity: (data: z.infer<D>) => string;
}

/** Types one row of the table (the identity's argument is the kind's data). */
function kind<const S extends string, const U extends string, D extends z.ZodMiniType>(descriptor: KindDescriptor<S, U, D>): KindDescriptor<S, U, D> {
  return descriptor;
}

export type StreamKind = keyof typeof streamKinds;
export const streamKindNames = Object.keys(streamKinds) as StreamKind[];
export type SubscribeMethod = (typeof streamKinds)[StreamKind]["subscribe"];
export type UnsubscribeMethod = (typeof streamKinds)[StreamKind]["unsubscribe"];

/** The chain tail's topic of a kind's address (the kind itself for a kind without addresses). */
export function topicOf(kind: StreamKind, address?: string): string {
  return streamKinds[kind].addressed ? `${kind}:${address}` : kind;
}

/** A topic a room may register: a kind without addresses, or an addressed kind, `:` and a base58 address. */
export const topicPattern = new RegExp(
  `^(${streamKindNames.filter((k) => !streamKinds[k].addressed).join("|")}|(${streamKindNames.filter((k) => streamKinds[k].addressed).join("|")}):[1-9A-HJ-NP-Za-km-z]{32,44})$`,
);

/** An event of one kind, as the tail publishes it. */
export type KindEvent<K extends StreamKind> = { kind: K; topic: string; slot: number; data: z.infer<(typeof streamKinds)[K]["data"]> };

export const streamGapEventSchema = z.object({ kind: z.literal("gap"), topic: z.literal(GAP_TOPIC), slot: z.number(), data: streamGapSchema });
export type StreamGapEvent = z.infer<typeof streamGapEventSchema>;
export type StreamEvent = { [K in StreamKind]: KindEvent<K> }[StreamKind] | StreamGapEvent;

export const streamEventSchema = z.discriminatedUnion("kind", [
  ...streamKindNames.map((k) =>
    z.object({ kind: z.literal(k), topic: streamKinds[k].addressed ? z.string() : z.literal(k), slot: z.number(), data: streamKinds[k].data as z.ZodMiniType }),
  ),
  streamGapEventSchema,
] as unknown as [typeof streamGapEventSchema]) as unknown as z.ZodMiniType<StreamEvent>;

/** What makes two published events the same event (a trade under its mint and under its wallet). */
export function eventIdentity(event: StreamEvent): string {
  if (event.kind === "gap") return `gap:${event.data.fromSlot}:${event.data.toSlot}`;
  return (streamKinds[event.kind].identity as (data: unknown) => string)(event.data);
}

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
