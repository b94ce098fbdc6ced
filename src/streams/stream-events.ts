/**
 * What the chain tail (src/streams/chain-tail.ts) hands the rooms (src/streams/stream-room.ts): events by topic, in
 * chain order. A room forwards an event to the sockets subscribed to its topic, numbering it per subscription (`seq`).
 *
 * Topics: `trade:<mint>` and `trade:<wallet>` (a trade appears under both its base mint and its wallet), `price:<mint>`,
 * `wallet:<address>` (every SOL or token balance change of the address), `newpair` (pool creations, migrations,
 * graduations of every kind), `candle:<mint>` (the mint's candles of every live interval; a room sends each
 * subscription those of its interval). A kind that streams at `processed` too (`commitments`) has a topic per address
 * at that commitment: `price@processed:<mint>` (price events read from processed state, and their corrections).
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

/** The intervals of live candles (`subscribeCandle`), in seconds; REST OHLCV answers the same intervals. */
export const candleIntervals = { "1s": 1, "1m": 60, "5m": 300, "1h": 3600 } as const;
export type CandleInterval = keyof typeof candleIntervals;
export const candleIntervalNames = Object.keys(candleIntervals) as [CandleInterval, ...CandleInterval[]];

const candlePrice = z.nullable(z.number());
/**
 * A live candle of one mint: the REST OHLCV candle (USD prices and volume) with its SOL prices and volume beside it.
 * `closed: false` is the candle still forming (sent at most once per slot, after a block that traded the mint);
 * `closed: true` its final state, sent once, with the first block past its end.
 */
export const liveCandleSchema = z.object({
  ca: z.string(),
  interval: z.enum(candleIntervalNames),
  /** start of the interval, unix seconds (a multiple of the interval) */
  time: z.number(),
  open: candlePrice,
  high: candlePrice,
  low: candlePrice,
  close: candlePrice,
  /** buy + sell volume in USD */
  volume: z.number(),
  /** buy + sell volume in the token, human units */
  volumeBase: z.number(),
  buys: z.number(),
  sells: z.number(),
  /** the same candle in SOL */
  sol: z.object({ open: candlePrice, high: candlePrice, low: candlePrice, close: candlePrice, volume: z.number() }),
  closed: z.boolean(),
  /**
   * true when the stream may lack some of the candle's trades: it began following the mint (or skipped slots, see the
   * gap event) after the candle started. Its REST candle (GET /api/v1/ohlcv) has them all.
   */
  partial: z.boolean(),
  /** the slot of the block that made this state */
  slot: z.number(),
});
export type LiveCandle = z.infer<typeof liveCandleSchema>;

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

/** The commitments a subscription may ask (`"commitment"`); confirmed, the default, first. */
export const streamCommitments = ["confirmed", "processed"] as const;
export type StreamCommitment = (typeof streamCommitments)[number];

/** A price event's data: the REST price record, with the commitment it was read at on a processed subscription. */
export const streamPriceSchema = z.extend(priceRecordSchema, {
  /** processed subscriptions only: `processed` (read from processed state) or `confirmed` (the snapshot, the record after a correction) */
  commitment: z.optional(z.enum(streamCommitments)),
});

/**
 * A processed block whose price events were sent turned out not to be on the confirmed chain (the cluster dropped it):
 * every event of this subscription with this `ca` and `slot` is retracted. The token's confirmed record follows.
 */
export const streamCorrectionSchema = z.object({
  ca: z.string(),
  /** the dropped slot: the processed events of `ca` at this slot are retracted */
  slot: z.number(),
  reason: z.literal("dropped"),
  message: z.string(),
});
export type StreamCorrection = z.infer<typeof streamCorrectionSchema>;

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
  price: kind({ subscribe: "subscribePrice", unsubscribe: "unsubscribePrice", addressed: true, snapshot: true, commitments: streamCommitments, data: streamPriceSchema, identity: (d) => `${d.ca}:${d.slot}` }),
  trade: kind({ subscribe: "subscribeTrade", unsubscribe: "unsubscribeTrade", addressed: true, snapshot: false, commitments: ["confirmed"], data: tradeItemSchema, identity: (d) => `${d.signature}:${d.ordinal}` }),
  wallet: kind({ subscribe: "subscribeWallet", unsubscribe: "unsubscribeWallet", addressed: true, snapshot: false, commitments: ["confirmed"], data: walletChangeSchema, identity: (d) => `${d.signature}:${d.wallet}:${d.mint}` }),
  newpair: kind({ subscribe: "subscribeNewpair", unsubscribe: "unsubscribeNewpair", addressed: false, snapshot: false, commitments: ["confirmed"], data: newPairSchema, identity: (d) => `${d.signature}:${d.pool}:${d.type}` }),
  candle: kind({ subscribe: "subscribeCandle", unsubscribe: "unsubscribeCandle", addressed: true, snapshot: false, commitments: ["confirmed"], data: liveCandleSchema, identity: (d) => `${d.ca}:${d.interval}:${d.time}:${d.slot}:${d.closed}` }),
} as const;

interface KindDescriptor<S extends string, U extends string, D extends z.ZodMiniType> {
  subscribe: S;
  unsubscribe: U;
  addressed: boolean;
  snapshot: boolean;
  /**
   * The commitments it streams at. Trades, wallet changes, new pairs and candles need the block's transactions, which
   * RPC nodes serve from confirmed blocks only (getBlock refuses `processed`); a price is read from account state,
   * which every node serves at `processed` too.
   */
  commitments: readonly StreamCommitment[];
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

/** The chain tail's topic of a kind's address (the kind itself for a kind without addresses), at a commitment. */
export function topicOf(kind: StreamKind, address?: string, commitment: StreamCommitment = "confirmed"): string {
  const at = commitment === "confirmed" ? "" : `@${commitment}`;
  return streamKinds[kind].addressed ? `${kind}${at}:${address}` : `${kind}${at}`;
}

/**
 * A topic a room may register: a kind without addresses, or an addressed kind (with `@processed` when it streams at
 * processed), `:` and a base58 address.
 */
export const topicPattern = new RegExp(
  `^(${streamKindNames.filter((k) => !streamKinds[k].addressed).join("|")}|(${streamKindNames
    .filter((k) => streamKinds[k].addressed)
    .map((k) => (streamKinds[k].commitments.includes("processed") ? `${k}(@processed)?` : k))
    .join("|")}):[1-9A-HJ-NP-Za-km-z]{32,44})$`,
);

/** An event of one kind, as the tail publishes it. */
export type KindEvent<K extends StreamKind> = { kind: K; topic: string; slot: number; data: z.infer<(typeof streamKinds)[K]["data"]> };

export const streamGapEventSchema = z.object({ kind: z.literal("gap"), topic: z.literal(GAP_TOPIC), slot: z.number(), data: streamGapSchema });
export type StreamGapEvent = z.infer<typeof streamGapEventSchema>;
export const streamCorrectionEventSchema = z.object({ kind: z.literal("correction"), topic: z.string(), slot: z.number(), data: streamCorrectionSchema });
export type StreamCorrectionEvent = z.infer<typeof streamCorrectionEventSchema>;
export type StreamEvent = { [K in StreamKind]: KindEvent<K> }[StreamKind] | StreamGapEvent | StreamCorrectionEvent;

export const streamEventSchema = z.discriminatedUnion("kind", [
  ...streamKindNames.map((k) =>
    z.object({ kind: z.literal(k), topic: streamKinds[k].addressed ? z.string() : z.literal(k), slot: z.number(), data: streamKinds[k].data as z.ZodMiniType }),
  ),
  streamGapEventSchema,
  streamCorrectionEventSchema,
] as unknown as [typeof streamGapEventSchema]) as unknown as z.ZodMiniType<StreamEvent>;

/** What makes two published events the same event (a trade under its mint and under its wallet). */
export function eventIdentity(event: StreamEvent): string {
  if (event.kind === "gap") return `gap:${event.data.fromSlot}:${event.data.toSlot}`;
  if (event.kind === "correction") return `correction:${event.data.ca}:${event.data.slot}`;
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
