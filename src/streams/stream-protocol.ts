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

const address = z.string().check(z.refine(isBase58Address, "not a base58 address (32 bytes)"));
const addresses = z.array(address).check(
  z.minLength(1, "at least one address"),
  z.maxLength(limits.streams.tokensPerSubscription, `at most ${limits.streams.tokensPerSubscription} addresses`),
);
/** Subscription ids are ours (random, `subscriptionIdPattern`); anything else cannot name one. */
export const subscriptionIdPattern = /^[0-9a-f]{12}$/;
const subscribeId = z.string().check(z.maxLength(64));

export const subscribeMethods = ["subscribePrice", "subscribeTrade", "subscribeWallet", "subscribeNewpair"] as const;
export type SubscribeMethod = (typeof subscribeMethods)[number];

/** What a subscription streams, and the chain tail's topic prefix for its addresses (src/streams/stream-events.ts). */
export const subscriptionKinds = {
  subscribePrice: { event: "price", topicPrefix: "price:" },
  subscribeTrade: { event: "trade", topicPrefix: "trade:" },
  subscribeWallet: { event: "wallet", topicPrefix: "wallet:" },
  subscribeNewpair: { event: "newpair", topicPrefix: "newpair" },
} as const satisfies Record<SubscribeMethod, { event: string; topicPrefix: string }>;

// ---- client → server ----

export const authMessageSchema = z.strictObject({ apiKey: z.string().check(z.maxLength(256)) });
export const subscribeAddressesSchema = z.strictObject({
  method: z.enum(["subscribePrice", "subscribeTrade", "subscribeWallet"]),
  tokens: addresses,
});
/** New pairs take no addresses; an empty `tokens` is tolerated (clients written for the other methods send one). */
export const subscribeNewpairSchema = z.strictObject({
  method: z.literal("subscribeNewpair"),
  tokens: z.optional(z.array(z.string()).check(z.maxLength(0, "subscribeNewpair takes no tokens"))),
});
export const unsubscribeSchema = z.strictObject({
  method: z.enum(["unsubscribePrice", "unsubscribeTrade", "unsubscribeWallet"]),
  unsubscribeId: subscribeId,
});
export const unsubscribeNewpairSchema = z.strictObject({ method: z.literal("unsubscribeNewpair") });
export const resumeSchema = z.strictObject({
  method: z.literal("resume"),
  subscribeId,
  fromSeq: z.number().check(z.int(), z.nonnegative()),
});
/** The exact text the room's auto-response answers without waking (any other spelling reaches the room: same answer). */
export const pingText = '{"method":"ping"}';
export const pingSchema = z.strictObject({ method: z.literal("ping") });

const methodSchemas = {
  subscribePrice: subscribeAddressesSchema,
  subscribeTrade: subscribeAddressesSchema,
  subscribeWallet: subscribeAddressesSchema,
  subscribeNewpair: subscribeNewpairSchema,
  unsubscribePrice: unsubscribeSchema,
  unsubscribeTrade: unsubscribeSchema,
  unsubscribeWallet: unsubscribeSchema,
  unsubscribeNewpair: unsubscribeNewpairSchema,
  resume: resumeSchema,
  ping: pingSchema,
} as const;

export type ClientMessage =
  | { method: "auth"; apiKey: string }
  | z.infer<typeof subscribeAddressesSchema>
  | { method: "subscribeNewpair" }
  | z.infer<typeof unsubscribeSchema>
  | z.infer<typeof unsubscribeNewpairSchema>
  | z.infer<typeof resumeSchema>
  | z.infer<typeof pingSchema>;

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
  const record = value as Record<string, unknown>;
  if (!Object.hasOwn(record, "method")) {
    if (Object.hasOwn(record, "apiKey")) {
      const auth = authMessageSchema.safeParse(record);
      return auth.success ? { method: "auth", apiKey: auth.data.apiKey } : { refused: issueText(auth.error.issues[0], record) };
    }
    return { refused: "Missing field: method" };
  }
  const method = record.method;
  if (typeof method !== "string" || !Object.hasOwn(methodSchemas, method)) {
    return { refused: `Unknown method: ${typeof method === "string" ? method.slice(0, 40) : typeof method}` };
  }
  const parsed = methodSchemas[method as keyof typeof methodSchemas].safeParse(record);
  if (!parsed.success) return { refused: issueText(parsed.error.issues[0], record) };
  if (parsed.data.method === "subscribeNewpair") return { method: "subscribeNewpair" };
  return parsed.data as ClientMessage;
}

function issueText(issue: z.core.$ZodIssue | undefined, record: Record<string, unknown>): string {
  if (issue === undefined) return "Invalid message";
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") return `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.slice(0, 5).join(", ")}`;
  if (issue.path.length === 1 && !Object.hasOwn(record, String(issue.path[0]))) return `Missing field: ${path}`;
  if (issue.code === "too_big" && path === "tokens" && record.method !== "subscribeNewpair") return `Too many tokens; max ${limits.streams.tokensPerSubscription}`;
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
    default:
      return "invalid";
  }
}

export function isRefusal(read: ClientMessage | FrameRefusal): read is FrameRefusal {
  return "refused" in read;
}

// ---- server → client ----

export const subscribeAckSchema = z.strictObject({
  type: z.enum(subscribeMethods),
  status: z.literal("success"),
  tokens: z.array(z.string()),
  subscribeId: z.string(),
});
export const unsubscribeAckSchema = z.strictObject({
  type: z.enum(["unsubscribePrice", "unsubscribeTrade", "unsubscribeWallet", "unsubscribeNewpair"]),
  status: z.literal("success"),
  unsubscribeId: z.optional(z.string()),
  /** unsubscribeNewpair: the new-pair subscriptions it ended */
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
  type: z.enum(["price", "trade", "wallet", "newpair"]),
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
