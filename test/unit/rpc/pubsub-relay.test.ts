import { describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { PubSubRelaySession } from "../../../src/rpc/pubsub-relay";

/** A session with both directions recorded; the upstream socket opened or not. */
function session(open = true) {
  const toClient: string[] = [];
  const toUpstream: string[] = [];
  const relay = new PubSubRelaySession(
    (text) => toClient.push(text),
    (text) => toUpstream.push(text),
  );
  if (open) relay.upstreamOpened();
  return { relay, toClient, toUpstream, client: () => toClient.map((t) => JSON.parse(t)), upstream: () => toUpstream.map((t) => JSON.parse(t)) };
}

const request = (id: unknown, method: string, params?: unknown[]) => JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
const answer = (id: number, result: unknown) => JSON.stringify({ jsonrpc: "2.0", result, id });

describe("client → upstream", () => {
  it("a PubSub request is renumbered and its params travel as the client wrote them", () => {
    // Given an open session
    const s = session();
    // When two requests arrive, the second with the first's id and params spelled with spaces and a u64
    s.relay.fromClient(request("a", "slotSubscribe"));
    s.relay.fromClient('{"jsonrpc":"2.0","id":"a","method":"accountSubscribe","params":[ "11111111111111111111111111111111", {"minContextSlot": 18446744073709551615} ]}');
    // Then each goes upstream with our own id, params verbatim
    expect(s.toUpstream).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}',
      '{"jsonrpc":"2.0","id":2,"method":"accountSubscribe","params":[ "11111111111111111111111111111111", {"minContextSlot": 18446744073709551615} ]}',
    ]);
    expect(s.toClient).toEqual([]);
  });

  it("every stable subscribe and unsubscribe method is forwarded; blockSubscribe, voteSubscribe, slotsUpdatesSubscribe and HTTP methods are not", () => {
    const s = session();
    const forwarded = ["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe", "slotSubscribe", "rootSubscribe"];
    const refused = ["blockSubscribe", "voteSubscribe", "slotsUpdatesSubscribe", "getSlot", "sendTransaction", "requestAirdrop", "blockUnsubscribe"];
    for (const method of [...forwarded, ...forwarded.map((m) => m.replace("Subscribe", "Unsubscribe"))]) s.relay.fromClient(request(1, method, []));
    for (const method of refused) s.relay.fromClient(request(7, method, []));
    expect(s.upstream().map((r) => r.method)).toEqual([...forwarded, ...forwarded.map((m) => m.replace("Subscribe", "Unsubscribe"))]);
    expect(s.client()).toEqual(refused.map(() => ({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 7 })));
  });

  it("malformed frames are answered here: not JSON → -32700, a batch → -32600, params not an array → -32602; a notification is dropped", () => {
    const s = session();
    s.relay.fromClient("{");
    s.relay.fromClient(JSON.stringify([JSON.parse(request(1, "slotSubscribe"))]));
    s.relay.fromClient(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "slotSubscribe", params: { a: 1 } }));
    s.relay.fromClient(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "slotSubscribe", extra: true }));
    s.relay.fromClient(JSON.stringify({ jsonrpc: "2.0", method: "slotSubscribe" }));
    s.relay.fromClient("");
    expect(s.toUpstream).toEqual([]);
    expect(s.client()).toEqual([
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null },
      { jsonrpc: "2.0", error: { code: -32602, message: "`params` should be an array" }, id: 2 },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: 3 },
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null },
    ]);
  });

  it("binary frames are read as UTF-8; invalid UTF-8 → -32700", () => {
    const s = session();
    s.relay.fromClient(new TextEncoder().encode(request(1, "slotSubscribe")).buffer as ArrayBuffer);
    s.relay.fromClient(new Uint8Array([0x7b, 0xff, 0x7d]).buffer);
    expect(s.upstream()).toEqual([{ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }]);
    expect(s.client()).toEqual([{ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }]);
  });

  it(`frames are capped in bytes: ${limits.maxPubSubFrameBytes} read, one more (or the same count of characters, one of them two bytes) → -32061`, () => {
    const s = session();
    const base = request(1, "slotSubscribe");
    const max = limits.maxPubSubFrameBytes;
    s.relay.fromClient(base + " ".repeat(max - base.length));
    s.relay.fromClient(base + " ".repeat(max + 1 - base.length));
    const accented = JSON.stringify({ jsonrpc: "2.0", id: "é", method: "slotSubscribe" });
    s.relay.fromClient(accented + " ".repeat(max - accented.length));
    s.relay.fromClient(new Uint8Array(max + 1).fill(0x20).buffer);
    expect(s.toUpstream).toHaveLength(1);
    const tooLarge = { jsonrpc: "2.0", error: { code: -32061, message: `WebSocket frame too large; max ${max} bytes`, data: { maxBytes: max } }, id: null };
    expect(s.client()).toEqual([tooLarge, tooLarge, tooLarge]);
  });
});

describe("upstream → client", () => {
  it("answers get the client's id back, result or error text as the node wrote it; notifications pass byte for byte", () => {
    const s = session();
    s.relay.fromClient(request("x", "slotSubscribe"));
    s.relay.fromClient(request(42, "accountSubscribe", ["bad"]));
    s.relay.fromUpstream('{"jsonrpc":"2.0","result":18446744073709551615,"id":1}');
    s.relay.fromUpstream('{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid Request: Invalid pubkey provided"},"id":2}');
    const notification = '{"jsonrpc":"2.0","method":"slotNotification","params":{"result":{"parent":9,"root":1,"slot":10},"subscription":18446744073709551615}}';
    s.relay.fromUpstream(notification);
    const big = `{"jsonrpc":"2.0","method":"accountNotification","params":{"result":{"value":"${"A".repeat(limits.maxPubSubFrameBytes)}"},"subscription":3}}`;
    s.relay.fromUpstream(big);
    expect(s.toClient).toEqual([
      '{"jsonrpc":"2.0","result":18446744073709551615,"id":"x"}',
      '{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid Request: Invalid pubkey provided"},"id":42}',
      notification,
      big,
    ]);
  });

  it("an answer to nothing we sent (unknown or null id) is dropped", () => {
    const s = session();
    s.relay.fromUpstream(answer(99, 1));
    s.relay.fromUpstream('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}');
    expect(s.toClient).toEqual([]);
  });
});

describe("caps", () => {
  it(`subscriptions per socket: ${limits.maxPubSubSubscriptionsPerSocket} (answered or not) accepted, one more → -32062; unsubscribes still go`, () => {
    const s = session();
    const cap = limits.maxPubSubSubscriptionsPerSocket;
    for (let i = 1; i <= cap; i++) s.relay.fromClient(request(i, "slotSubscribe"));
    expect(s.relay.subscriptionCount).toBe(cap);
    s.relay.fromClient(request("over", "rootSubscribe"));
    s.relay.fromClient(request("un", "slotUnsubscribe", [1]));
    expect(s.toUpstream).toHaveLength(cap + 1);
    expect(s.client()).toEqual([{ jsonrpc: "2.0", error: { code: -32062, message: `Too many subscriptions on this connection; max ${cap}`, data: { max: cap } }, id: "over" }]);
  });

  it("a subscription counts until the node refuses it, its unsubscribe is answered true, or (signature) it has notified", () => {
    // Given three subscribe requests
    const s = session();
    s.relay.fromClient(request(1, "slotSubscribe"));
    s.relay.fromClient(request(2, "signatureSubscribe", ["sig"]));
    s.relay.fromClient(request(3, "accountSubscribe", ["bad"]));
    expect(s.relay.subscriptionCount).toBe(3);
    // When the node refuses one and grants two, they count as live
    s.relay.fromUpstream('{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid Request: Invalid pubkey provided"},"id":3}');
    s.relay.fromUpstream(answer(1, 10));
    s.relay.fromUpstream(answer(2, 11));
    expect(s.relay.subscriptionCount).toBe(2);
    // A refused unsubscribe changes nothing; the signature's notification ends it; an unsubscribe answered true ends it
    s.relay.fromClient(request(4, "slotUnsubscribe", [10]));
    s.relay.fromUpstream('{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid subscription id."},"id":4}');
    expect(s.relay.subscriptionCount).toBe(2);
    s.relay.fromUpstream('{"jsonrpc":"2.0","method":"signatureNotification","params":{"result":{"context":{"slot":5},"value":{"err":null}},"subscription":11}}');
    expect(s.relay.subscriptionCount).toBe(1);
    s.relay.fromClient(request(5, "slotUnsubscribe", [10]));
    s.relay.fromUpstream(answer(5, true));
    expect(s.relay.subscriptionCount).toBe(0);
  });

  it(`requests waiting for the upstream socket to open: ${limits.maxPubSubQueuedFrames} held, one more → -32063; held ones go in order once it opens`, () => {
    const s = session(false);
    const max = limits.maxPubSubQueuedFrames;
    for (let i = 1; i <= max + 1; i++) s.relay.fromClient(request(i, "slotSubscribe"));
    expect(s.toUpstream).toEqual([]);
    expect(s.client()).toEqual([{ jsonrpc: "2.0", error: { code: -32063, message: `Too many requests waiting for the upstream node; max ${max}`, data: { max } }, id: max + 1 }]);
    // The refused one holds no subscription slot
    expect(s.relay.subscriptionCount).toBe(max);
    s.relay.upstreamOpened();
    expect(s.upstream().map((r) => r.id)).toEqual(Array.from({ length: max }, (_, i) => i + 1));
  });

  it(`requests waiting for an answer: ${limits.maxPubSubInFlightRequests} in flight, one more → -32063`, () => {
    const s = session();
    const max = limits.maxPubSubInFlightRequests;
    for (let i = 1; i <= max; i++) s.relay.fromClient(request(i, "slotUnsubscribe", [i]));
    s.relay.fromClient(request("more", "slotUnsubscribe", [0]));
    expect(s.toUpstream).toHaveLength(max);
    expect(s.client()).toEqual([{ jsonrpc: "2.0", error: { code: -32063, message: `Too many requests waiting for the upstream node; max ${max}`, data: { max } }, id: "more" }]);
    // Once one is answered, another fits
    s.relay.fromUpstream(answer(1, false));
    s.relay.fromClient(request("fits", "slotUnsubscribe", [0]));
    expect(s.toUpstream).toHaveLength(max + 1);
  });
});

