/**
 * The /ws frame reader (src/streams/stream-protocol.ts): every hostile input gets a verdict, never a throw; every
 * limit at N and N+1; every server frame the room builds matches its schema.
 */
import { describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { base58Encode } from "../../../src/solana/base58";
import {
  errorFrame,
  eventFrameText,
  pingText,
  pongText,
  readClientFrame,
  serverFrameSchema,
  subscribeAckSchema,
  unsubscribeAckSchema,
  resumeAckSchema,
  eventFrameSchema,
  errorFrameSchema,
} from "../../../src/streams/stream-protocol";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const addresses = (n: number) => Array.from({ length: n }, (_, i) => base58Encode(new Uint8Array(32).fill(1).map((b, j) => (j < 4 ? (i >> (8 * j)) & 0xff : b))));
const read = (value: unknown) => readClientFrame(typeof value === "string" ? value : JSON.stringify(value));

describe("client frames that are read", () => {
  it("the four subscribes, the unsubscribes, resume, ping and the first-message key", () => {
    expect(read({ method: "subscribePrice", tokens: [SOL] })).toEqual({ method: "subscribe", kind: "price", tokens: [SOL] });
    expect(read({ method: "subscribeTrade", tokens: [SOL, USDC] })).toEqual({ method: "subscribe", kind: "trade", tokens: [SOL, USDC] });
    expect(read({ method: "subscribeWallet", tokens: [USDC] })).toEqual({ method: "subscribe", kind: "wallet", tokens: [USDC] });
    expect(read({ method: "subscribeNewpair" })).toEqual({ method: "subscribe", kind: "newpair", tokens: [] });
    expect(read({ method: "subscribeNewpair", tokens: [] })).toEqual({ method: "subscribe", kind: "newpair", tokens: [] });
    expect(read({ method: "unsubscribeTrade", unsubscribeId: "0123456789ab" })).toEqual({ method: "unsubscribe", kind: "trade", unsubscribeId: "0123456789ab" });
    expect(read({ method: "unsubscribeNewpair" })).toEqual({ method: "unsubscribe", kind: "newpair" });
    expect(read({ method: "resume", subscribeId: "0123456789ab", fromSeq: 0 })).toEqual({ method: "resume", subscribeId: "0123456789ab", fromSeq: 0 });
    expect(read(pingText)).toEqual({ method: "ping" });
    expect(read({ apiKey: "tmd_x" })).toEqual({ method: "auth", apiKey: "tmd_x" });
  });

  it("CoinVera's form: `apiKey` in any message is read with it (checked like a lone key)", () => {
    expect(read({ apiKey: "tmd_x", method: "subscribeTrade", tokens: [SOL] })).toEqual({ method: "subscribe", kind: "trade", tokens: [SOL], apiKey: "tmd_x" });
    expect(read({ method: "unsubscribeNewpair", apiKey: "tmd_x" })).toEqual({ method: "unsubscribe", kind: "newpair", apiKey: "tmd_x" });
    expect(read({ apiKey: "tmd_x", method: "ping" })).toEqual({ method: "ping", apiKey: "tmd_x" });
    expect(read({ apiKey: 5, method: "ping" })).toEqual({ refused: "Invalid apiKey: expected string" });
    expect(read({ apiKey: "k".repeat(257), method: "ping" })).toMatchObject({ refused: expect.stringMatching(/^Invalid apiKey/) });
    expect(read({ apiKey: "tmd_x", method: "subscribeTrade", tokens: [SOL], extra: 1 })).toEqual({ refused: "Unknown field: extra" });
  });

  it("a binary frame of UTF-8 JSON is read like text", () => {
    expect(readClientFrame(new TextEncoder().encode(JSON.stringify({ method: "subscribePrice", tokens: [SOL] })).buffer as ArrayBuffer)).toEqual({
      method: "subscribe",
      kind: "price",
      tokens: [SOL],
    });
  });
});

describe("bad frames: each gets a refusal that says what is wrong", () => {
  const cases: [string, unknown, string][] = [
    ["invalid JSON", "{not json", "Invalid JSON"],
    ["empty frame", "", "Invalid JSON"],
    ["a JSON array", "[1,2]", "A message is a JSON object"],
    ["a JSON string", '"subscribePrice"', "A message is a JSON object"],
    ["null", "null", "A message is a JSON object"],
    ["no method", { tokens: [SOL] }, "Missing field: method"],
    ["unknown method", { method: "subscribeEverything" }, "Unknown method: subscribeEverything"],
    ["method not a string", { method: 7 }, "Unknown method: number"],
    ["inherited name as method", { method: "toString" }, "Unknown method: toString"],
    ["missing tokens", { method: "subscribePrice" }, "Missing field: tokens"],
    ["tokens not an array", { method: "subscribePrice", tokens: SOL }, "Invalid tokens: expected array"],
    ["empty tokens", { method: "subscribeTrade", tokens: [] }, "Invalid tokens: at least one address"],
    ["an invalid address", { method: "subscribePrice", tokens: ["not-an-address"] }, "Invalid tokens.0: not a base58 address (32 bytes)"],
    ["a 31-byte address", { method: "subscribePrice", tokens: [base58Encode(new Uint8Array(31).fill(9))] }, "Invalid tokens.0: not a base58 address (32 bytes)"],
    ["an extra field", { method: "subscribePrice", tokens: [SOL], extra: 1 }, "Unknown field: extra"],
    ["tokens on newpair", { method: "subscribeNewpair", tokens: [SOL] }, "Invalid tokens: subscribeNewpair takes no tokens"],
    ["missing unsubscribeId", { method: "unsubscribePrice" }, "Missing field: unsubscribeId"],
    ["negative fromSeq", { method: "resume", subscribeId: "0123456789ab", fromSeq: -1 }, "Invalid fromSeq: must be at least 0"],
    ["fractional fromSeq", { method: "resume", subscribeId: "0123456789ab", fromSeq: 1.5 }, "Invalid fromSeq: expected int"],
    ["apiKey with extra fields", { apiKey: "k", method2: 1 }, "Unknown field: method2"],
    ["apiKey not a string", { apiKey: 5 }, "Invalid apiKey: expected string"],
  ];
  for (const [name, frame, message] of cases) {
    it(`${name} → "${message}"`, () => {
      expect(read(frame)).toEqual({ refused: message });
    });
  }

  it("invalid UTF-8 in a binary frame → refused", () => {
    expect(readClientFrame(new Uint8Array([0x7b, 0xff, 0x7d]).buffer as ArrayBuffer)).toEqual({ refused: "Frame is not UTF-8 text" });
  });

  it(`tokens: ${limits.streams.tokensPerSubscription} are read, one more is refused`, () => {
    const cap = limits.streams.tokensPerSubscription;
    expect(read({ method: "subscribeTrade", tokens: addresses(cap) })).toMatchObject({ method: "subscribe", kind: "trade" });
    expect(read({ method: "subscribeTrade", tokens: addresses(cap + 1) })).toEqual({ refused: `Too many tokens; max ${cap}` });
  });

  it(`frames: ${limits.streams.maxFrameBytes} bytes are read, one more is refused as oversize (counted in UTF-8 bytes)`, () => {
    const max = limits.streams.maxFrameBytes;
    const frame = JSON.stringify({ method: "subscribePrice", tokens: [SOL] });
    expect(readClientFrame(frame + " ".repeat(max - frame.length))).toMatchObject({ method: "subscribe", kind: "price" });
    expect(readClientFrame(frame + " ".repeat(max + 1 - frame.length))).toEqual({ refused: `Frame too large; max ${max} bytes`, oversize: true });
    // 2-byte characters: half as many fit
    const wide = JSON.stringify({ apiKey: "é".repeat(max / 2) });
    expect(readClientFrame(wide)).toMatchObject({ oversize: true });
  });
});

describe("server frames match their schemas", () => {
  it("acks, events, errors, heartbeat, pong", () => {
    const ack = { type: "subscribeTrade", status: "success", tokens: [SOL], subscribeId: "0123456789ab" };
    expect(subscribeAckSchema.parse(ack)).toEqual(ack);
    expect(unsubscribeAckSchema.parse({ type: "unsubscribeTrade", status: "success", unsubscribeId: "0123456789ab" })).toBeTruthy();
    expect(resumeAckSchema.parse({ type: "resume", status: "success", subscribeId: "0123456789ab", fromSeq: 3, replayed: 2 })).toBeTruthy();
    const event = JSON.parse(eventFrameText("trade", "0123456789ab", 7, JSON.stringify({ signature: "s" })));
    expect(eventFrameSchema.parse(event)).toEqual({ type: "trade", subscribeId: "0123456789ab", seq: 7, data: { signature: "s" } });
    expect(errorFrameSchema.parse(JSON.parse(errorFrame("x", { subscribeId: "a", lostFromSeq: 1, lostToSeq: 2 })))).toBeTruthy();
    for (const frame of [{ type: "heartbeat", ts: 1 }, JSON.parse(pongText), { type: "connected", connectionId: "abc" }]) {
      expect(serverFrameSchema.safeParse(frame).success).toBe(true);
    }
    expect(serverFrameSchema.safeParse({ type: "pong", extra: 1 }).success).toBe(false);
  });
});

describe("commitment", () => {
  it("subscribePrice takes confirmed (the default, not kept) or processed (kept with the subscription, said in the ack); the rest confirmed only", () => {
    expect(read({ method: "subscribePrice", tokens: [SOL], commitment: "processed" })).toEqual({ method: "subscribe", kind: "price", tokens: [SOL], options: { commitment: "processed" } });
    expect(read({ method: "subscribePrice", tokens: [SOL], commitment: "confirmed" })).toEqual({ method: "subscribe", kind: "price", tokens: [SOL] });
    expect(read({ method: "subscribeTrade", tokens: [SOL], commitment: "confirmed" })).toEqual({ method: "subscribe", kind: "trade", tokens: [SOL] });
    expect(subscribeAckSchema.safeParse({ type: "subscribePrice", status: "success", tokens: [SOL], subscribeId: "0123456789ab", commitment: "processed" }).success).toBe(true);
    expect(eventFrameSchema.safeParse({ type: "correction", subscribeId: "0123456789ab", seq: 3, data: { ca: SOL, slot: 9, reason: "dropped", message: "m" } }).success).toBe(true);
  });

  it("refuses any other value, and processed where a kind streams confirmed only", () => {
    const refusal = (value: unknown) => (read(value) as { refused?: string }).refused;
    expect(refusal({ method: "subscribePrice", tokens: [SOL], commitment: "finalized" })).toBe("Invalid commitment: must be one of confirmed, processed");
    expect(refusal({ method: "subscribePrice", tokens: [SOL], commitment: "" })).toBe("Invalid commitment: must be one of confirmed, processed");
    expect(refusal({ method: "subscribePrice", tokens: [SOL], commitment: null })).toBe("Invalid commitment: expected string");
    expect(refusal({ method: "subscribePrice", tokens: [SOL], commitment: ["processed"] })).toBe("Invalid commitment: expected string");
    expect(refusal({ method: "subscribeWallet", tokens: [SOL], commitment: "processed" })).toBe("Invalid commitment: subscribeWallet streams confirmed only");
    expect(refusal({ method: "subscribeCandle", tokens: [SOL], interval: "1s", commitment: "processed" })).toBe("Invalid commitment: subscribeCandle streams confirmed only");
    expect(refusal({ method: "subscribeNewpair", commitment: "processed" })).toBe("Invalid commitment: subscribeNewpair streams confirmed only");
    expect(refusal({ method: "unsubscribePrice", unsubscribeId: "0123456789ab", commitment: "processed" })).toBe("Unknown field: commitment");
  });
});
