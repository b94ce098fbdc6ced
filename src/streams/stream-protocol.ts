/**
 * The `/ws` protocol (CoinVera-compatible, docs/streams.md): a zod schema for every message either side sends, and the
 * one reader of client frames. The reader is the trust boundary of the rooms: whatever a client sends — binary, invalid
 * UTF-8 or JSON, a non-object, an unknown method, missing or extra fields, bad addresses, too many of them, too big —
 * it returns a verdict and never throws.
 */
import { z } from "zod/mini";
import { limits } from "../limits";
import { isBase58Address } from "../solana/base58";
import { utf8ByteLength } from "../json/utf8-length";
import {
  candleIntervalNames,
  streamCommitments,
  streamKindNames,
  streamKinds,
  type CandleInterval,
  type StreamCommitment,
  type StreamKind,
  type SubscribeMethod,
  type UnsubscribeMethod,
} from "./stream-events";

export type { SubscribeMethod } from "./stream-events";

const address = z.string().check(z.refine(isBase58Address, "not a base58 address (32 bytes)"));
const addresses = z.array(address).check(
  z.minLength(1, "at least one address"),
  z.maxLength(limits.streams.tokensPerSubscription, `at most ${limits.streams.tokensPerSubscription} addresses`),
);
/** Subscription ids are ours (random, `subscriptionIdPattern`); anything else cannot name one. */
export const subscriptionIdPattern = /^[0-9a-f]{12}$/;
const subscribeId = z.string().check(z.maxLength(64));

/** The subscribe and unsubscribe methods, by the kind they stream (stream-events.ts `streamKinds`). */
export const subscribeMethods = streamKindNames.map((k) => streamKinds[k].subscribe);
const kindOfSubscribe = new Map<string, StreamKind>(streamKindNames.map((k) => [streamKinds[k].subscribe, k]));
const kindOfUnsubscribe = new Map<string, StreamKind>(streamKindNames.map((k) => [streamKinds[k].unsubscribe, k]));

/** The kind a subscribe method streams (undefined: not one). */
export const kindOfSubscribeMethod = (method: string): StreamKind | undefined => kindOfSubscribe.get(method);
/** The kind an unsubscribe method ends (undefined: not one). */
export const kindOfUnsubscribeMethod = (method: string): StreamKind | undefined => kindOfUnsubscribe.get(method);

// ---- client → server ----

const apiKey = z.string().check(z.maxLength(256));
export const authMessageSchema = z.strictObject({ apiKey });
/**
 * `commitment` of a subscribe: one the kind streams at (`streamKinds[kind].commitments`; absent: confirmed). A kind
 * that streams confirmed only says so, whatever was asked.
 */
const commitmentOf = (kind: StreamKind) => {
  const allowed = streamKinds[kind].commitments;
  return z.optional(
    z.string().check(
      z.refine((c) => (streamCommitments as readonly string[]).includes(c), `must be one of ${streamCommitments.join(", ")}`),
      z.refine((c) => !(streamCommitments as readonly string[]).includes(c) || (allowed as readonly string[]).includes(c), `${streamKinds[kind].subscribe} streams ${allowed.join(", ")} only`),
    ),
  );
};
/** A kind with addresses: `tokens` names them. */
const subscribeAddressesSchema = (kind: StreamKind) => z.strictObject({ method: z.literal(streamKinds[kind].subscribe), tokens: addresses, commitment: commitmentOf(kind) });
/** Candles: `tokens` and the candle `interval`. */
const subscribeCandleSchema = z.strictObject({ method: z.literal(streamKinds.candle.subscribe), tokens: addresses, interval: z.enum(candleIntervalNames), commitment: commitmentOf("candle") });

/** What a subscription asks beyond its kind and addresses (kept with it: a resume goes on with the same). */
export const subscriptionOptionsSchema = z.object({
  /** candles: their interval */
  interval: z.optional(z.enum(candleIntervalNames)),
  /** `processed`: events read from processed state (absent: confirmed, the default) */
  commitment: z.optional(z.literal("processed")),
});
export type SubscriptionOptions = z.infer<typeof subscriptionOptionsSchema>;
/** The commitment a subscription streams at. */
export const commitmentOfOptions = (options: SubscriptionOptions | undefined): StreamCommitment => options?.commitment ?? "confirmed";
/** A kind without addresses takes none; an empty `tokens` is tolerated (clients written for the other methods send one). */
const subscribeAllSchema = (kind: StreamKind) =>
  z.strictObject({
    method: z.literal(streamKinds[kind].subscribe),
    tokens: z.optional(z.array(z.string()).check(z.maxLength(0, `${streamKinds[kind].subscribe} takes no tokens`))),
    commitment: commitmentOf(kind),
  });
/** A kind with addresses ends one subscription by id; a kind without ends all of the connection's. */
const unsubscribeOneSchema = (method: UnsubscribeMethod) => z.strictObject({ method: z.literal(method), unsubscribeId: subscribeId });
const unsubscribeAllSchema = (method: UnsubscribeMethod) => z.strictObject({ method: z.literal(method) });
export const resumeSchema = z.strictObject({
  method: z.literal("resume"),
  subscribeId,
  fromSeq: z.number().check(z.int(), z.nonnegative()),
});
/** The exact text the room's auto-response answers without waking (any other spelling reaches the room: same answer). */
export const pingText = '{"method":"ping"}';
export const pingSchema = z.strictObject({ method: z.literal("ping") });

const methodSchemas = new Map<string, z.ZodMiniType>([
  ...streamKindNames.flatMap((k): [string, z.ZodMiniType][] => {
    const { subscribe, unsubscribe, addressed } = streamKinds[k];
    return [
      [subscribe, k === "candle" ? subscribeCandleSchema : addressed ? subscribeAddressesSchema(k) : subscribeAllSchema(k)],
      [unsubscribe, addressed ? unsubscribeOneSchema(unsubscribe) : unsubscribeAllSchema(unsubscribe)],
    ];
  }),
  ["resume", resumeSchema],
  ["ping", pingSchema],
]);

/**
 * A client message, read. Any message may also carry `apiKey` (CoinVera's clients put the key in each message): the
 * socket is authenticated with the first one, a repeat of it is ignored, another key is refused.
 */
export type ClientMessage = (
  | { method: "auth" }
  | { method: "subscribe"; kind: StreamKind; tokens: string[]; options?: SubscriptionOptions }
  | { method: "unsubscribe"; kind: StreamKind; unsubscribeId?: string }
  | z.infer<typeof resumeSchema>
  | z.infer<typeof pingSchema>
) & { apiKey?: string };

/** A refused frame: the message for the error frame; `oversize` frames close with 1009 when they are the last straw. */
export interface FrameRefusal {
  refused: string;
  oversize?: true;
}

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Reads one client frame. Never throws. */
export function readClientFrame(frame: string | ArrayBuffer): ClientMessage | FrameRefusal {
  const max = limits.streams.maxFrameBytes;
  const size = typeof frame === "string" ? (frame.length > max ? frame.length : utf8ByteLength(frame)) : frame.byteLength;
  if (size > max) return { refused: `Frame too large; max ${max} bytes`, oversize: true };
  let text: string;
  try {
    text = typeof frame === "string" ? frame : fatalUtf8.decode(frame);
  } catch {
    return { refused: "Frame is not UTF-8 text" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { refused: "Invalid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { refused: "A message is a JSON object" };
  const { apiKey: key, ...record } = value as Record<string, unknown>;
  let withKey: { apiKey?: string } = {};
  if (key !== undefined) {
    const auth = authMessageSchema.safeParse({ apiKey: key });
    if (!auth.success) return { refused: issueText(auth.error.issues[0], { apiKey: key }) };
    withKey = { apiKey: auth.data.apiKey };
  }
  if (!Object.hasOwn(record, "method")) {
    if (withKey.apiKey === undefined) return { refused: "Missing field: method" };
    const extra = Object.keys(record);
    // `{"apiKey"}` alone authenticates; with other fields but no method, those fields are what is wrong
    if (extra.length > 0) return { refused: `Unknown field${extra.length > 1 ? "s" : ""}: ${extra.slice(0, 5).join(", ")}` };
    return { method: "auth", ...withKey };
  }
  const method = record.method;
  const schema = typeof method === "string" ? methodSchemas.get(method) : undefined;
  if (typeof method !== "string" || schema === undefined) {
    return { refused: `Unknown method: ${typeof method === "string" ? method.slice(0, 40) : typeof method}` };
  }
  const parsed = schema.safeParse(record);
  if (!parsed.success) return { refused: issueText(parsed.error.issues[0], record) };
  const data = parsed.data as { method: string; tokens?: string[]; unsubscribeId?: string; interval?: CandleInterval; commitment?: StreamCommitment };
  const subscribes = kindOfSubscribeMethod(method);
  if (subscribes !== undefined) {
    const options: SubscriptionOptions = {
      ...(data.interval === undefined ? {} : { interval: data.interval }),
      ...(data.commitment === "processed" ? { commitment: "processed" as const } : {}),
    };
    return { method: "subscribe", kind: subscribes, tokens: streamKinds[subscribes].addressed ? data.tokens! : [], ...(Object.keys(options).length > 0 ? { options } : {}), ...withKey };
  }
  const unsubscribes = kindOfUnsubscribeMethod(method);
  if (unsubscribes !== undefined) {
    return { method: "unsubscribe", kind: unsubscribes, ...(data.unsubscribeId === undefined ? {} : { unsubscribeId: data.unsubscribeId }), ...withKey };
  }
  return { ...(parsed.data as z.infer<typeof resumeSchema> | z.infer<typeof pingSchema>), ...withKey };
}

function issueText(issue: z.core.$ZodIssue | undefined, record: Record<string, unknown>): string {
  if (issue === undefined) return "Invalid message";
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") return `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.slice(0, 5).join(", ")}`;
  if (issue.path.length === 1 && !Object.hasOwn(record, String(issue.path[0]))) return `Missing field: ${path}`;
  if (issue.code === "too_big" && path === "tokens" && typeof record.method === "string" && streamKinds[kindOfSubscribeMethod(record.method) ?? "newpair"].addressed) return `Too many tokens; max ${limits.streams.tokensPerSubscription}`;
  return `Invalid ${path || "message"}: ${reason(issue)}`;
}

/** zod/mini carries no locale: its own text is "Invalid input", so say what was expected (a message given in the schema wins). */
function reason(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== "Invalid input") return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "too_small":
      return `must be at least ${String(issue.minimum)}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    default:
      return "invalid";
  }
}

export function isRefusal(read: ClientMessage | FrameRefusal): read is FrameRefusal {
  return "refused" in read;
}

// ---- server → client ----

export const subscribeAckSchema = z.strictObject({
  type: z.enum(subscribeMethods as [SubscribeMethod, ...SubscribeMethod[]]),
  status: z.literal("success"),
  tokens: z.array(z.string()),
  subscribeId: z.string(),
  /** subscribeCandle: the interval asked */
  interval: z.optional(z.enum(candleIntervalNames)),
  /** a subscription at processed (absent: confirmed) */
  commitment: z.optional(z.literal("processed")),
});
export const unsubscribeAckSchema = z.strictObject({
  type: z.enum(streamKindNames.map((k) => streamKinds[k].unsubscribe) as [UnsubscribeMethod, ...UnsubscribeMethod[]]),
  status: z.literal("success"),
  unsubscribeId: z.optional(z.string()),
  /** a kind without addresses (unsubscribeNewpair): the subscriptions it ended */
  unsubscribeIds: z.optional(z.array(z.string())),
});
export const resumeAckSchema = z.strictObject({
  type: z.literal("resume"),
  status: z.literal("success"),
  subscribeId: z.string(),
  fromSeq: z.number(),
  /** events replayed right after this frame (seq fromSeq+1 …), before live ones */
  replayed: z.number(),
});
export const eventFrameSchema = z.strictObject({
  /** the event's kind, "gap", or "correction" (processed subscriptions) */
  type: z.enum(["gap", "correction", ...streamKindNames] as [StreamKind | "gap" | "correction", ...(StreamKind | "gap" | "correction")[]]),
  subscribeId: z.string(),
  seq: z.number(),
  data: z.unknown(),
});
export const errorFrameSchema = z.strictObject({
  type: z.literal("error"),
  message: z.string(),
  subscribeId: z.optional(z.string()),
  /** resume: the seqs that can no longer be replayed (inclusive) */
  lostFromSeq: z.optional(z.number()),
  lostToSeq: z.optional(z.number()),
});
export const connectedFrameSchema = z.strictObject({ type: z.literal("connected"), connectionId: z.string() });
export const heartbeatFrameSchema = z.strictObject({ type: z.literal("heartbeat"), ts: z.number() });
export const pongFrameSchema = z.strictObject({ type: z.literal("pong") });
export const pongText = '{"type":"pong"}';

export const serverFrameSchema = z.union([
  subscribeAckSchema,
  unsubscribeAckSchema,
  resumeAckSchema,
  eventFrameSchema,
  errorFrameSchema,
  connectedFrameSchema,
  heartbeatFrameSchema,
  pongFrameSchema,
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
export type ErrorFrame = z.infer<typeof errorFrameSchema>;

export function errorFrame(message: string, extra: Omit<ErrorFrame, "type" | "message"> = {}): string {
  return JSON.stringify({ type: "error", message, ...extra });
}

/**
 * An event frame from its parts. `dataJson` is the event data serialized once per publish and shared by every
 * subscription (and ring entry) it goes to.
 */
export function eventFrameText(type: string, subscribeId: string, seq: number, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"subscribeId":${JSON.stringify(subscribeId)},"seq":${seq},"data":${dataJson}}`;
}

/** Close codes (RFC 6455 registry). */
export const closeCodes = {
  /** the client asked, or the server is going away */
  normal: 1000,
  /** no key within `authTimeoutMs`, a bad key, repeated bad frames, too many connections of the key, a client that does not read */
  policy: 1008,
  /** repeated abuse whose last straw was an oversize frame */
  tooBig: 1009,
} as const;
