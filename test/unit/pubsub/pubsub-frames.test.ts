import { describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { logsMentionsRequired, readPubSubFrame, type PubSubFrame } from "../../../src/pubsub/pubsub-frames";

const request = (id: unknown, method: string, params?: unknown[]) => JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
const VENUE = "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK";
const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const answerOf = (frame: PubSubFrame) => (frame.kind === "refused" ? JSON.parse(frame.answer) : frame);

describe("a client frame read by the one PubSub validation path", () => {
  it("a PubSub call keeps its id as text, its parsed params and the params text as written", () => {
    // Given a subscribe whose params hold spaces and a u64 past 2^53
    const text = '{"jsonrpc":"2.0","id":"a","method":"accountSubscribe","params":[ "11111111111111111111111111111111", {"minContextSlot": 18446744073709551615} ]}';
    // When it is read
    const frame = readPubSubFrame(text);
    // Then it is a subscribe call with the caller's params text untouched
    expect(frame).toMatchObject({ kind: "call", idJson: '"a"', method: "accountSubscribe", subscribe: true, paramsText: '[ "11111111111111111111111111111111", {"minContextSlot": 18446744073709551615} ]' });
  });

  it("every stable subscribe and unsubscribe method is a call; blockSubscribe, voteSubscribe, slotsUpdatesSubscribe and HTTP methods → -32601", () => {
    const accepted = ["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe", "slotSubscribe", "rootSubscribe"];
    // (programSubscribe and logsSubscribe need selective params: see the policy below)
    const paramsOf: Record<string, unknown[]> = { programSubscribe: [VENUE, { filters: [{ dataSize: 100 }] }], logsSubscribe: [{ mentions: [VENUE] }] };
    for (const method of accepted) expect(readPubSubFrame(request(1, method, paramsOf[method] ?? []))).toMatchObject({ kind: "call", subscribe: true });
    for (const method of accepted.map((m) => m.replace("Subscribe", "Unsubscribe"))) expect(readPubSubFrame(request(1, method, [1]))).toMatchObject({ kind: "call", subscribe: false });
    for (const method of ["blockSubscribe", "voteSubscribe", "slotsUpdatesSubscribe", "getSlot", "sendTransaction", "requestAirdrop", "blockUnsubscribe"]) {
      expect(answerOf(readPubSubFrame(request(7, method, [])))).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 7 });
    }
  });

  it("malformed frames: not JSON → -32700, a batch → -32600, params not an array → -32602, extra member → -32600; a notification is ignored", () => {
    expect(answerOf(readPubSubFrame("{"))).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    expect(answerOf(readPubSubFrame(JSON.stringify([JSON.parse(request(1, "slotSubscribe"))])))).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null });
    expect(answerOf(readPubSubFrame(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "slotSubscribe", params: { a: 1 } })))).toEqual({
      jsonrpc: "2.0",
      error: { code: -32602, message: "`params` should be an array" },
      id: 2,
    });
    expect(answerOf(readPubSubFrame(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "slotSubscribe", extra: true })))).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: 3 });
    expect(readPubSubFrame(JSON.stringify({ jsonrpc: "2.0", method: "ping" }))).toEqual({ kind: "ignored" });
    expect(answerOf(readPubSubFrame(""))).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
  });

  it("binary frames are read as UTF-8; invalid UTF-8 → -32700", () => {
    expect(readPubSubFrame(new TextEncoder().encode(request(1, "slotSubscribe")).buffer as ArrayBuffer)).toMatchObject({ kind: "call", method: "slotSubscribe" });
    expect(answerOf(readPubSubFrame(new Uint8Array([0x7b, 0xff, 0x7d]).buffer))).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
  });

  it(`frames are capped in bytes: ${limits.maxPubSubFrameBytes} read, one more (or the same count of characters, one of them two bytes) → -32061`, () => {
    const max = limits.maxPubSubFrameBytes;
    const base = request(1, "slotSubscribe");
    const tooLarge = { jsonrpc: "2.0", error: { code: -32061, message: `WebSocket frame too large; max ${max} bytes`, data: { maxBytes: max } }, id: null };
    expect(readPubSubFrame(base + " ".repeat(max - base.length))).toMatchObject({ kind: "call" });
    expect(answerOf(readPubSubFrame(base + " ".repeat(max + 1 - base.length)))).toEqual(tooLarge);
    const accented = JSON.stringify({ jsonrpc: "2.0", id: "é", method: "slotSubscribe" });
    expect(answerOf(readPubSubFrame(accented + " ".repeat(max - accented.length)))).toEqual(tooLarge);
    expect(answerOf(readPubSubFrame(new Uint8Array(max + 1).fill(0x20).buffer))).toEqual(tooLarge);
  });
});

describe("subscriptions that would stream a large share of the chain are refused before the node (the HTTP getProgramAccounts policy)", () => {
  const refusal = (frame: PubSubFrame) => (frame.kind === "refused" ? JSON.parse(frame.answer).error : undefined);

  it("programSubscribe: no filters → -32602 on any program; the Token program needs a 32-byte memcmp at the mint or owner offset", () => {
    expect(refusal(readPubSubFrame(request(1, "programSubscribe", [VENUE])))).toEqual({ code: -32602, message: "programSubscribe requires filters on this endpoint (dataSize, memcmp or tokenAccountState)" });
    expect(refusal(readPubSubFrame(request(1, "programSubscribe", [TOKEN, { encoding: "base64" }])))).toMatchObject({ code: -32602 });
    expect(refusal(readPubSubFrame(request(1, "programSubscribe", [TOKEN, { filters: [{ dataSize: 165 }] }])))).toEqual({
      code: -32602,
      message: `programSubscribe on ${TOKEN} requires a memcmp filter on the mint (offset 0, 32 bytes) or the owner (offset 32, 32 bytes)`,
    });
    expect(refusal(readPubSubFrame(request(1, "programSubscribe", [TOKEN, { filters: [{ memcmp: { offset: 0, bytes: "" } }] }])))).toMatchObject({ code: -32602 });
    // accepted: the mint's token accounts, the owner's, or another program with a filter
    expect(readPubSubFrame(request(1, "programSubscribe", [TOKEN, { encoding: "base64", filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: MINT } }] }]))).toMatchObject({ kind: "call" });
    expect(readPubSubFrame(request(1, "programSubscribe", [TOKEN, { filters: [{ memcmp: { offset: 32, bytes: MINT } }] }]))).toMatchObject({ kind: "call" });
    expect(readPubSubFrame(request(1, "programSubscribe", [VENUE, { filters: [{ dataSize: 1544 }] }]))).toMatchObject({ kind: "call" });
  });

  it('logsSubscribe: "all", "allWithVotes", no filter, several or a bad address → -32602; one mentioned address is a call', () => {
    for (const filter of ["all", "allWithVotes", undefined, { mentions: [] }, { mentions: [VENUE, MINT] }, { mentions: [1] }]) {
      const params = filter === undefined ? [] : [filter];
      expect(refusal(readPubSubFrame(request(1, "logsSubscribe", params)))).toEqual({ code: -32602, message: logsMentionsRequired });
    }
    expect(refusal(readPubSubFrame(request(1, "logsSubscribe", [{ mentions: ["nope"] }])))).toEqual({ code: -32602, message: "Invalid Request: Invalid pubkey provided" });
    expect(readPubSubFrame(request(1, "logsSubscribe", [{ mentions: [VENUE] }, { commitment: "confirmed" }]))).toMatchObject({ kind: "call", method: "logsSubscribe" });
  });
});
