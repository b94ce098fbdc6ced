import { describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { readPubSubFrame, type PubSubFrame } from "../../../src/rpc/pubsub-frames";

const request = (id: unknown, method: string, params?: unknown[]) => JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
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
    for (const method of accepted) expect(readPubSubFrame(request(1, method, []))).toMatchObject({ kind: "call", subscribe: true });
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
