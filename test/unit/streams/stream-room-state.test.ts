/**
 * A stream room's logic (src/streams/stream-room-state.ts) with fake sockets, a memory store and a hand-moved clock:
 * auth, acks, every limit at N and N+1, fan-out numbering, resume, heartbeat, slow clients, and hibernation (a new
 * room state built from the same sockets' attachments and the store carries on where the old one stopped).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { base58Encode } from "../../../src/solana/base58";
import type { StreamEvent } from "../../../src/streams/stream-events";
import { correctionEvent, gapEvent, processedPriceEvents } from "../../../src/streams/stream-event-builders";
import type { PriceRecord } from "../../../src/pricing/price-record";
import type { RingEntry } from "../../../src/streams/stream-resume-ring";
import { StreamRoomState, type RoomDeps, type RoomSocket, type SubscriptionRow } from "../../../src/streams/stream-room-state";
import { hashApiKey } from "../../../src/accounts/api-keys";
import { memorySubscriptionStore } from "./memory-subscription-store";

const SOL = "So11111111111111111111111111111111111111112";
const MINT_A = base58Encode(new Uint8Array(32).fill(7));
const MINT_B = base58Encode(new Uint8Array(32).fill(8));
const WALLET = base58Encode(new Uint8Array(32).fill(9));

class FakeSocket implements RoomSocket {
  sent: any[] = [];
  closedWith: { code?: number; reason?: string } | undefined;
  attachment: unknown = null;
  send(text: string) {
    if (this.closedWith) throw new Error("closed");
    this.sent.push(JSON.parse(text));
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
  }
  serializeAttachment(value: unknown) {
    const text = JSON.stringify(value);
    if (text.length > 2048) throw new Error("attachment over 2,048 bytes");
    this.attachment = JSON.parse(text);
  }
  deserializeAttachment() {
    return this.attachment;
  }
  take(): any[] {
    return this.sent.splice(0);
  }
  last(): any {
    return this.sent[this.sent.length - 1];
  }
}

let clock: number;
let rows: Map<string, SubscriptionRow>;
let kept: Map<string, Map<number, RingEntry>>;
let topics: string[][];
let pings: Map<RoomSocket, number>;
let nextId: number;

function deps(): RoomDeps {
  return {
    store: memorySubscriptionStore(rows, kept),
    now: () => clock,
    authenticate: async (key) => (key.startsWith("good-") ? key.slice(5) : null),
    topicsChanged: (t) => void topics.push(t),
    lastPingAt: (ws) => pings.get(ws) ?? null,
    newId: () => (nextId++).toString(16).padStart(12, "0"),
    log: () => undefined,
  };
}

beforeEach(() => {
  clock = 1_000_000;
  rows = new Map();
  kept = new Map();
  topics = [];
  pings = new Map();
  nextId = 1;
});

function trade(mint: string, n: number, wallet = WALLET): StreamEvent[] {
  const data = {
    signature: `sig${n}`,
    slot: 100 + n,
    blockTime: null,
    txIndex: 0,
    ordinal: 0,
    pool: SOL,
    kind: "pumpswap",
    baseMint: mint,
    quoteMint: SOL,
    side: "buy" as const,
    baseAmount: "1",
    quoteAmount: "1",
    baseAmountUi: "1",
    quoteAmountUi: "1",
    priceQuote: 1,
    priceSol: 1,
    priceUsd: 1,
    valueUsd: 1,
    wallet,
  };
  return [
    { kind: "trade", topic: `trade:${mint}`, slot: data.slot, data },
    { kind: "trade", topic: `trade:${wallet}`, slot: data.slot, data },
  ];
}

function connected(room: StreamRoomState, account = "acct") {
  const ws = new FakeSocket();
  room.accept(ws, `conn-${Math.random()}`, account);
  ws.take();
  return ws;
}

async function subscribe(room: StreamRoomState, ws: FakeSocket, method: string, tokens?: string[]): Promise<string> {
  await room.message(ws, JSON.stringify(tokens ? { method, tokens } : { method }));
  const ack = ws.take().at(-1);
  expect(ack).toMatchObject({ type: method, status: "success" });
  return ack.subscribeId;
}

describe("authentication", () => {
  it("a key checked before the upgrade: `connected` at once", () => {
    const room = new StreamRoomState(deps());
    const ws = new FakeSocket();
    room.accept(ws, "conn-1", "acct");
    expect(ws.take()).toEqual([{ type: "connected", connectionId: "conn-1" }]);
  });

  it("first-message key: other messages refused until then; a good key → connected; a bad one → 1008", async () => {
    const room = new StreamRoomState(deps());
    const ws = new FakeSocket();
    room.accept(ws, "conn-1", null);
    expect(ws.take()).toEqual([]);
    await room.message(ws, JSON.stringify({ method: "subscribeNewpair" }));
    expect(ws.take()).toEqual([{ type: "error", message: 'Not authenticated: send {"apiKey":"<key>"} first' }]);
    await room.message(ws, JSON.stringify({ apiKey: "good-acct" }));
    expect(ws.take()).toEqual([{ type: "connected", connectionId: "conn-1" }]);
    // the same key again is accepted (CoinVera's clients repeat it); another key is refused, the socket stays
    await room.message(ws, JSON.stringify({ apiKey: "good-acct" }));
    expect(ws.take()).toEqual([{ type: "connected", connectionId: "conn-1" }]);
    await room.message(ws, JSON.stringify({ apiKey: "good-other" }));
    expect(ws.take()).toEqual([{ type: "error", message: "Already authenticated with another API key" }]);
    expect(ws.closedWith).toBeUndefined();

    const bad = new FakeSocket();
    room.accept(bad, "conn-2", null);
    await room.message(bad, JSON.stringify({ apiKey: "nope" }));
    expect(bad.closedWith).toEqual({ code: 1008, reason: "Missing or invalid API key" });
  });

  it("CoinVera's form: the key inside the first subscribe authenticates and subscribes; repeats pass; another key is an error frame", async () => {
    const room = new StreamRoomState(deps());
    const ws = new FakeSocket();
    room.accept(ws, "conn-1", null);
    // When the very first message is a subscribe carrying the key
    await room.message(ws, JSON.stringify({ apiKey: "good-acct", method: "subscribeTrade", tokens: [MINT_A] }));
    // Then the socket is connected and the subscription acked
    const [hello, ack] = ws.take();
    expect(hello).toEqual({ type: "connected", connectionId: "conn-1" });
    expect(ack).toMatchObject({ type: "subscribeTrade", status: "success", tokens: [MINT_A] });
    // and later messages with the same key work as without it
    await room.message(ws, JSON.stringify({ apiKey: "good-acct", method: "subscribePrice", tokens: [MINT_B] }));
    expect(ws.take()).toEqual([expect.objectContaining({ type: "subscribePrice", status: "success" })]);
    await room.message(ws, JSON.stringify({ apiKey: "good-acct", method: "unsubscribeTrade", unsubscribeId: ack.subscribeId }));
    expect(ws.take()).toEqual([{ type: "unsubscribeTrade", status: "success", unsubscribeId: ack.subscribeId }]);
    // while another key (even a valid one) is refused with an error frame, and the message is not carried out
    await room.message(ws, JSON.stringify({ apiKey: "good-other", method: "subscribeNewpair" }));
    expect(ws.take()).toEqual([{ type: "error", message: "Already authenticated with another API key" }]);
    expect(room.currentTopics()).toEqual([`price:${MINT_B}`]);
    // a bad key in the first message: the same close as a bad lone key
    const bad = new FakeSocket();
    room.accept(bad, "conn-2", null);
    await room.message(bad, JSON.stringify({ apiKey: "nope", method: "subscribeTrade", tokens: [MINT_A] }));
    expect(bad.closedWith).toEqual({ code: 1008, reason: "Missing or invalid API key" });
    expect(bad.take().filter((f) => f.type === "subscribeTrade")).toEqual([]);
  });

  it("messages sent back to back while the first key is checked wait for it, in order", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const room = new StreamRoomState({ ...deps(), authenticate: async (key) => (await gate, key.startsWith("good-") ? key.slice(5) : null) });
    const ws = new FakeSocket();
    room.accept(ws, "conn-1", null);
    const sent = [
      room.message(ws, JSON.stringify({ apiKey: "good-acct", method: "subscribeTrade", tokens: [MINT_A] })),
      room.message(ws, JSON.stringify({ apiKey: "good-acct", method: "subscribePrice", tokens: [MINT_A] })),
      room.message(ws, JSON.stringify({ method: "subscribeNewpair" })),
    ];
    release();
    await Promise.all(sent);
    expect(ws.take().map((f) => f.type)).toEqual(["connected", "subscribeTrade", "subscribePrice", "subscribeNewpair"]);
  });

  it("a key given before the upgrade: the same key in messages passes, another is refused", async () => {
    const room = new StreamRoomState(deps());
    const ws = new FakeSocket();
    room.accept(ws, "conn-1", "acct", undefined, "conn-1~a", hashApiKey("good-acct"));
    ws.take();
    await room.message(ws, JSON.stringify({ apiKey: "good-acct", method: "subscribeNewpair" }));
    expect(ws.take()).toEqual([expect.objectContaining({ type: "subscribeNewpair", status: "success" })]);
    await room.message(ws, JSON.stringify({ apiKey: "good-acct2", method: "subscribeNewpair" }));
    expect(ws.take()).toEqual([{ type: "error", message: "Already authenticated with another API key" }]);
    // and the digest survives hibernation (the socket's attachment)
    const after = new StreamRoomState(deps());
    after.restore([ws]);
    await after.message(ws, JSON.stringify({ apiKey: "good-acct2", method: "ping" }));
    expect(ws.take()).toEqual([{ type: "error", message: "Already authenticated with another API key" }]);
    expect(JSON.stringify(ws.attachment)).not.toContain("good-acct");
  });

  it("the key check itself failing (KV down) → an error frame, not a close; the key sent again is accepted", async () => {
    let kvDown = true;
    const room = new StreamRoomState({ ...deps(), authenticate: async (key) => {
      if (kvDown) throw new Error("KV unavailable");
      return key.startsWith("good-") ? key.slice(5) : null;
    } });
    const ws = new FakeSocket();
    room.accept(ws, "conn-1", null);
    await room.message(ws, JSON.stringify({ apiKey: "good-acct" }));
    expect(ws.take()).toEqual([{ type: "error", message: "Key check failed; send the key again" }]);
    expect(ws.closedWith).toBeUndefined();
    kvDown = false;
    await room.message(ws, JSON.stringify({ apiKey: "good-acct" }));
    expect(ws.take()).toEqual([{ type: "connected", connectionId: "conn-1" }]);
  });

  it(`no key within ${limits.streams.authTimeoutMs} ms → 1008 at the alarm; a socket just in time stays`, async () => {
    const room = new StreamRoomState(deps());
    const late = new FakeSocket();
    const onTime = new FakeSocket();
    room.accept(late, "conn-1", null);
    room.accept(onTime, "conn-2", null);
    expect(room.nextAlarm()).toBe(clock + limits.streams.authTimeoutMs);
    clock += limits.streams.authTimeoutMs - 1;
    await room.message(onTime, JSON.stringify({ apiKey: "good-acct" }));
    clock += 1;
    room.alarm();
    expect(late.closedWith).toEqual({ code: 1008, reason: `No API key within ${limits.streams.authTimeoutMs / 1000} s` });
    expect(onTime.closedWith).toBeUndefined();
  });

  it(`connections per key per shard: the ${limits.streams.connectionsPerKeyPerShard}th first-message key is accepted, the next closes 1008`, async () => {
    const room = new StreamRoomState(deps());
    for (let i = 0; i < limits.streams.connectionsPerKeyPerShard - 1; i++) connected(room, "acct");
    const last = new FakeSocket();
    room.accept(last, "conn-last", null);
    await room.message(last, JSON.stringify({ apiKey: "good-acct" }));
    expect(last.take()).toEqual([{ type: "connected", connectionId: "conn-last" }]);
    expect(room.connectionsOf("acct")).toBe(limits.streams.connectionsPerKeyPerShard);
    const over = new FakeSocket();
    room.accept(over, "conn-over", null);
    await room.message(over, JSON.stringify({ apiKey: "good-acct" }));
    expect(over.closedWith?.code).toBe(1008);
    expect(room.connectionsOf("other")).toBe(0);
  });
});

describe("subscribe / unsubscribe", () => {
  it("acks with the tokens (deduplicated) and an id; the room's topics go to the tail on each change", async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    await room.message(ws, JSON.stringify({ method: "subscribeTrade", tokens: [MINT_A, WALLET, MINT_A] }));
    const [ack] = ws.take();
    expect(ack).toEqual({ type: "subscribeTrade", status: "success", tokens: [MINT_A, WALLET], subscribeId: "000000000001" });
    expect(topics).toEqual([[`trade:${MINT_A}`, `trade:${WALLET}`].sort()]);
    await subscribe(room, ws, "subscribePrice", [MINT_A]);
    await subscribe(room, ws, "subscribeWallet", [WALLET]);
    await subscribe(room, ws, "subscribeNewpair");
    expect(topics.at(-1)).toEqual(["newpair", `price:${MINT_A}`, `trade:${MINT_A}`, `trade:${WALLET}`, `wallet:${WALLET}`]);

    await room.message(ws, JSON.stringify({ method: "unsubscribeTrade", unsubscribeId: "000000000001" }));
    expect(ws.take()).toEqual([{ type: "unsubscribeTrade", status: "success", unsubscribeId: "000000000001" }]);
    await room.message(ws, JSON.stringify({ method: "unsubscribeNewpair" }));
    expect(ws.take()).toEqual([{ type: "unsubscribeNewpair", status: "success", unsubscribeIds: ["000000000004"] }]);
    expect(topics.at(-1)).toEqual([`price:${MINT_A}`, `wallet:${WALLET}`]);
    expect([...rows.keys()].sort()).toEqual(["000000000002", "000000000003"]);
  });

  it("an unknown id, or the id of another kind, or a second unsubscribeNewpair → error frames", async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    const id = await subscribe(room, ws, "subscribePrice", [MINT_A]);
    await room.message(ws, JSON.stringify({ method: "unsubscribeTrade", unsubscribeId: id }));
    await room.message(ws, JSON.stringify({ method: "unsubscribePrice", unsubscribeId: "ffffffffffff" }));
    await room.message(ws, JSON.stringify({ method: "unsubscribeNewpair" }));
    expect(ws.take()).toEqual([
      { type: "error", message: `Unknown unsubscribeId for unsubscribeTrade: ${id}` },
      { type: "error", message: "Unknown unsubscribeId for unsubscribePrice: ffffffffffff" },
      { type: "error", message: "No subscribeNewpair subscription on this connection" },
    ]);
  });

  it(`subscriptions per socket: ${limits.streams.subscriptionsPerSocket} accepted (the attachment still fits 2,048 bytes), one more refused`, async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    for (let i = 0; i < limits.streams.subscriptionsPerSocket; i++) {
      clock += 1000; // stay under the message rate
      await subscribe(room, ws, "subscribeTrade", [MINT_A]);
    }
    for (let i = 0; i < 3; i++) room.publish(trade(MINT_A, 1_000_000_000 + i)); // seqs grow: the attachment too
    expect(JSON.stringify(ws.attachment).length).toBeLessThanOrEqual(2048);
    await room.message(ws, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A] }));
    expect(ws.last()).toEqual({ type: "error", message: `Too many subscriptions on this connection; max ${limits.streams.subscriptionsPerSocket}` });
  });
});

describe("abuse", () => {
  it(`rate: a burst of ${limits.streams.messageBurst} is answered, the next is refused; a second later there is room again`, async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    for (let i = 0; i < limits.streams.messageBurst; i++) await room.message(ws, '{"method":"ping"}');
    expect(ws.take()).toEqual(Array.from({ length: limits.streams.messageBurst }, () => ({ type: "pong" })));
    await room.message(ws, '{"method":"ping"}');
    expect(ws.take()).toEqual([{ type: "error", message: `Rate limit: at most ${limits.streams.messagesPerSecond} messages per second` }]);
    clock += 1000;
    await room.message(ws, '{"method":"ping"}');
    expect(ws.take()).toEqual([{ type: "pong" }]);
  });

  it(`${limits.streams.maxBadFrames} bad frames get error frames; the next closes 1008 — or 1009 when it is oversize`, async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    for (let i = 0; i < limits.streams.maxBadFrames; i++) {
      clock += 1000;
      await room.message(ws, "{bad");
    }
    expect(ws.closedWith).toBeUndefined();
    expect(ws.take()).toHaveLength(limits.streams.maxBadFrames);
    await room.message(ws, "{bad");
    expect(ws.closedWith).toEqual({ code: 1008, reason: "Too many bad frames" });

    const big = connected(room);
    for (let i = 0; i <= limits.streams.maxBadFrames; i++) {
      clock += 1000;
      await room.message(big, " ".repeat(limits.streams.maxFrameBytes + 1));
    }
    expect(big.closedWith).toEqual({ code: 1009, reason: "Frames too large" });
  });
});

describe("events", () => {
  it("each subscription numbers its events from 1 with no gap, gets nothing of other mints, and a trade once even under mint and wallet", async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    const both = await subscribe(room, ws, "subscribeTrade", [MINT_A, WALLET]);
    const other = connected(room);
    const onlyB = await subscribe(room, other, "subscribeTrade", [MINT_B]);
    room.publish([...trade(MINT_A, 1), ...trade(MINT_B, 2, SOL), ...trade(MINT_A, 3)]);
    expect(ws.take().map((f) => [f.type, f.subscribeId, f.seq, f.data.signature])).toEqual([
      ["trade", both, 1, "sig1"],
      ["trade", both, 2, "sig3"],
    ]);
    expect(other.take().map((f) => [f.subscribeId, f.seq, f.data.baseMint])).toEqual([[onlyB, 1, MINT_B]]);
    // events of a kind the subscription is not for are not sent (a price on a trade topic cannot happen, but)
    room.publish([{ kind: "newpair", topic: "newpair", slot: 1, data: { type: "create", mint: MINT_A, quoteMint: SOL, pool: SOL, kind: "pumpswap", creator: WALLET, initialPrice: null, signature: "s", slot: 1, blockTime: null } }]);
    expect(ws.take()).toEqual([]);
  });

  it("a gap (slots the tail could not stream) reaches every subscription once, numbered in its stream, and is replayed by resume", async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    const trades = await subscribe(room, ws, "subscribeTrade", [MINT_A, WALLET]);
    const pairs = await subscribe(room, ws, "subscribeNewpair");
    const other = connected(room);
    const prices = await subscribe(room, other, "subscribePrice", [MINT_B]);
    room.publish(trade(MINT_A, 1));
    ws.take();
    const gap = gapEvent(100, 250, "fell-behind");
    room.publish([gap]);
    const want = (id: string, seq: number) => ({ type: "gap", subscribeId: id, seq, data: gap.data });
    expect(ws.take()).toEqual([want(trades, 2), want(pairs, 1)]);
    expect(other.take()).toEqual([want(prices, 1)]);
    expect(gap.data.message).toBe("Events of slots 100..250 were not streamed (the live source fell behind the chain); read them from /api/v1/trades");
    // a client resuming from before it gets it again, in order
    await room.message(ws, JSON.stringify({ method: "resume", subscribeId: trades, fromSeq: 1 }));
    expect(ws.take().filter((f) => f.type === "gap")).toEqual([want(trades, 2)]);
  });

  it(`heartbeat every ${limits.streams.heartbeatMs} ms to authenticated sockets`, () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    const pending = new FakeSocket();
    room.accept(pending, "conn-p", null);
    expect(room.nextAlarm()).toBeLessThanOrEqual(clock + limits.streams.heartbeatMs);
    clock += limits.streams.heartbeatMs;
    room.alarm();
    expect(ws.take()).toEqual([{ type: "heartbeat", ts: clock }]);
    // the socket without a key gets none (it is past its own deadline here: closed with an error frame instead)
    expect(pending.take().filter((f) => f.type === "heartbeat")).toEqual([]);
  });

  it(`a client sent over ${limits.streams.maxUnackedBytes} bytes without a word back is closed 1008; an app ping in between keeps it`, async () => {
    const room = new StreamRoomState(deps());
    const reader = connected(room);
    const deaf = connected(room);
    await subscribe(room, reader, "subscribeTrade", [MINT_A]);
    await subscribe(room, deaf, "subscribeTrade", [MINT_A]);
    let n = 0;
    while (!deaf.closedWith && n < 100_000) {
      n++;
      clock += 1;
      if (n % 1000 === 0) pings.set(reader, clock); // the reader's keep-alive, answered by workerd
      room.publish(trade(MINT_A, n));
      reader.sent.length = 0;
    }
    expect(deaf.closedWith).toEqual({ code: 1008, reason: "Client is not reading (send backlog)" });
    // a trade frame is ~600 bytes: closed once the bytes since its last word passed the cap, not before
    expect(n * 600).toBeGreaterThan(limits.streams.maxUnackedBytes);
    expect((n - 1) * 500).toBeLessThan(limits.streams.maxUnackedBytes);
    expect(reader.closedWith).toBeUndefined();
  });
});

describe("resume", () => {
  it("a client that closes and resumes from its last seq gets every missed event once, then live ones", async () => {
    const room = new StreamRoomState(deps());
    const first = connected(room);
    const id = await subscribe(room, first, "subscribeTrade", [MINT_A]);
    room.publish(trade(MINT_A, 1));
    room.publish(trade(MINT_A, 2));
    const lastSeen = first.take().at(-1).seq;
    room.closed(first);
    room.publish(trade(MINT_A, 3));
    room.publish(trade(MINT_A, 4));
    clock += 30_000;
    const second = connected(room);
    await room.message(second, JSON.stringify({ method: "resume", subscribeId: id, fromSeq: lastSeen }));
    room.publish(trade(MINT_A, 5));
    const frames = second.take();
    expect(frames[0]).toEqual({ type: "resume", status: "success", subscribeId: id, fromSeq: 2, replayed: 2 });
    expect(frames.slice(1).map((f) => [f.seq, f.data.signature])).toEqual([
      [3, "sig3"],
      [4, "sig4"],
      [5, "sig5"],
    ]);
  });

  it("beyond the window: an error frame names the lost seqs; an unresumed subscription ends after the window", async () => {
    const room = new StreamRoomState(deps());
    const first = connected(room);
    const id = await subscribe(room, first, "subscribeTrade", [MINT_A]);
    room.publish(trade(MINT_A, 1));
    room.closed(first);
    clock += limits.streams.resumeWindowMs - 1;
    room.publish(trade(MINT_A, 2));
    clock += 2;
    const second = connected(room);
    await room.message(second, JSON.stringify({ method: "resume", subscribeId: id, fromSeq: 0 }));
    expect(second.take()).toEqual([
      { type: "resume", status: "success", subscribeId: id, fromSeq: 0, replayed: 1 },
      expect.objectContaining({ type: "error", subscribeId: id, lostFromSeq: 1, lostToSeq: 1 }),
      expect.objectContaining({ type: "trade", seq: 2 }),
    ]);

    const third = connected(room);
    const gone = await subscribe(room, third, "subscribePrice", [MINT_B]);
    room.closed(third);
    clock += limits.streams.resumeWindowMs;
    room.alarm();
    const fourth = connected(room);
    await room.message(fourth, JSON.stringify({ method: "resume", subscribeId: gone, fromSeq: 0 }));
    expect(fourth.take()).toEqual([{ type: "error", message: `Unknown subscribeId: ${gone}` }]);
    expect(topics.at(-1)).toEqual([`trade:${MINT_A}`]);
  });

  it("another account cannot resume it; fromSeq ahead of the subscription is refused", async () => {
    const room = new StreamRoomState(deps());
    const owner = connected(room, "acct");
    const id = await subscribe(room, owner, "subscribeTrade", [MINT_A]);
    room.closed(owner);
    const stranger = connected(room, "other");
    await room.message(stranger, JSON.stringify({ method: "resume", subscribeId: id, fromSeq: 0 }));
    const again = connected(room, "acct");
    await room.message(again, JSON.stringify({ method: "resume", subscribeId: id, fromSeq: 5 }));
    expect(stranger.take()).toEqual([{ type: "error", message: `Unknown subscribeId: ${id}` }]);
    expect(again.take()).toEqual([{ type: "error", message: `fromSeq 5 is ahead of the subscription (last seq 0)` }]);
  });
});

describe("price snapshot: a new price subscription gets each token's current record at once, then changes", () => {
  const record = (mint: string, slot: number) => ({ ca: mint, slot, priceInUsd: String(slot) });
  const priceEvent = (mint: string, slot: number) => ({ kind: "price", topic: `price:${mint}`, slot, data: record(mint, slot) }) as unknown as StreamEvent;

  it("the snapshot is numbered like any event (seq 1 per token), live changes follow, and a resume replays it", async () => {
    const asked: string[][] = [];
    const room = new StreamRoomState({ ...deps(), snapshot: async (kind, tokens) => (asked.push([kind, ...tokens]), tokens.map((t) => priceEvent(t, 50))) });
    const ws = connected(room);
    await room.message(ws, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A, MINT_B] }));
    const [ack, ...snapshot] = ws.take();
    expect(ack).toMatchObject({ type: "subscribePrice", status: "success" });
    expect(asked).toEqual([["price", MINT_A, MINT_B]]);
    expect(snapshot).toEqual([
      { type: "price", subscribeId: ack.subscribeId, seq: 1, data: record(MINT_A, 50) },
      { type: "price", subscribeId: ack.subscribeId, seq: 2, data: record(MINT_B, 50) },
    ]);
    // the same record published live just after (read at the same slot) is not sent twice; a newer one follows
    room.publish([priceEvent(MINT_A, 50), priceEvent(MINT_B, 50)]);
    expect(ws.take()).toEqual([]);
    room.publish([priceEvent(MINT_A, 60)]);
    expect(ws.take()).toEqual([{ type: "price", subscribeId: ack.subscribeId, seq: 3, data: record(MINT_A, 60) }]);
    // other kinds get no snapshot
    await room.message(ws, JSON.stringify({ method: "subscribeTrade", tokens: [MINT_A] }));
    expect(ws.take()).toEqual([expect.objectContaining({ type: "subscribeTrade", status: "success" })]);
    expect(asked).toHaveLength(1);
    // a resume from 0 replays the snapshot too
    room.closed(ws);
    const back = connected(room);
    await room.message(back, JSON.stringify({ method: "resume", subscribeId: ack.subscribeId, fromSeq: 0 }));
    expect(back.take().filter((f) => f.type === "price").map((f) => [f.seq, f.data.slot])).toEqual([[1, 50], [2, 50], [3, 60]]);
  });

  it("a live change that comes before the snapshot wins: the older snapshot of that token is not sent; a failed snapshot sends nothing", async () => {
    let answer!: (events: StreamEvent[]) => void;
    const room = new StreamRoomState({ ...deps(), snapshot: () => new Promise((r) => (answer = r)) });
    const ws = connected(room);
    const subscribing = room.message(ws, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A, MINT_B] }));
    const ack = ws.take()[0];
    room.publish([priceEvent(MINT_A, 70)]);
    answer([priceEvent(MINT_A, 69), priceEvent(MINT_B, 69)]);
    await subscribing;
    expect(ws.take().map((f) => [f.seq, f.data.ca, f.data.slot])).toEqual([[1, MINT_A, 70], [2, MINT_B, 69]]);
    expect(ack.subscribeId).toBeDefined();

    const failing = new StreamRoomState({ ...deps(), snapshot: async () => Promise.reject(new Error("upstream down")) });
    const other = connected(failing);
    await failing.message(other, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A] }));
    expect(other.take().map((f) => f.type)).toEqual(["subscribePrice"]);
  });
});

describe("hibernation: a woken room restores subscriptions from the sockets' attachments and its store", () => {
  it("sockets, subscriptions and seqs carry on; nothing is sent to the tail for unchanged topics; closed sockets' subscriptions wait for resume", async () => {
    // Given a room with two sockets, subscriptions that have seen events, and one socket closed
    const before = new StreamRoomState(deps());
    const ws = connected(before);
    const id = await subscribe(before, ws, "subscribeTrade", [MINT_A]);
    const closing = connected(before);
    const waiting = await subscribe(before, closing, "subscribePrice", [MINT_B]);
    before.publish(trade(MINT_A, 1));
    before.publish(trade(MINT_A, 2));
    before.closed(closing);
    ws.take();
    const topicsSent = topics.length;

    // When the room is evicted and a new one wakes with the same sockets and store
    const after = new StreamRoomState(deps());
    const restored = after.restore([ws]);

    // Then the socket's subscription goes on at seq 3, the closed one can still be resumed, and the tail is not told again
    expect(restored).toEqual({ sockets: 1, subscriptions: 2, detached: 1 });
    expect(after.currentTopics()).toEqual([`price:${MINT_B}`, `trade:${MINT_A}`]);
    expect(topics.length).toBe(topicsSent);
    after.publish(trade(MINT_A, 3));
    expect(ws.take().map((f) => [f.subscribeId, f.seq])).toEqual([[id, 3]]);
    await after.message(ws, JSON.stringify({ method: "unsubscribeTrade", unsubscribeId: id }));
    expect(ws.take()).toEqual([{ type: "unsubscribeTrade", status: "success", unsubscribeId: id }]);
    const back = connected(after);
    await after.message(back, JSON.stringify({ method: "resume", subscribeId: waiting, fromSeq: 0 }));
    expect(back.take()[0]).toMatchObject({ type: "resume", status: "success", subscribeId: waiting });
  });

  it("a subscription waiting for its resume keeps its events across a restart (they are written down)", async () => {
    const before = new StreamRoomState(deps());
    const ws = connected(before);
    const id = await subscribe(before, ws, "subscribeTrade", [MINT_A]);
    before.publish(trade(MINT_A, 1));
    before.closed(ws);
    before.publish(trade(MINT_A, 2));
    const after = new StreamRoomState(deps());
    after.restore([]);
    after.publish(trade(MINT_A, 3));
    const back = connected(after);
    await after.message(back, JSON.stringify({ method: "resume", subscribeId: id, fromSeq: 1 }));
    // Then seq 2 (numbered while the socket was away, before the restart) was written down and is replayed, then 3
    expect(back.take()).toEqual([
      { type: "resume", status: "success", subscribeId: id, fromSeq: 1, replayed: 2 },
      expect.objectContaining({ type: "trade", subscribeId: id, seq: 2, data: expect.objectContaining({ signature: "sig2" }) }),
      expect.objectContaining({ type: "trade", subscribeId: id, seq: 3, data: expect.objectContaining({ signature: "sig3" }) }),
    ]);
    // and once resumed, its kept events are no longer written down (its ring is in memory again)
    expect(kept.get(id)).toBeUndefined();
  });

  it("what a restart loses is said, never renumbered: events of an attached subscription before the room slept", async () => {
    // Given a socket that got seqs 1..2, then the room slept (its memory rings are gone) and the socket closed
    const before = new StreamRoomState(deps());
    const ws = connected(before);
    const id = await subscribe(before, ws, "subscribeTrade", [MINT_A]);
    before.publish(trade(MINT_A, 1));
    before.publish(trade(MINT_A, 2));
    const after = new StreamRoomState(deps());
    after.restore([ws]);
    after.closed(ws);
    after.publish(trade(MINT_A, 3));
    // When it resumes from 0
    const back = connected(after);
    await after.message(back, JSON.stringify({ method: "resume", subscribeId: id, fromSeq: 0 }));
    // Then 1..2 are reported lost and 3 follows as seq 3
    expect(back.take()).toEqual([
      { type: "resume", status: "success", subscribeId: id, fromSeq: 0, replayed: 1 },
      expect.objectContaining({ type: "error", subscribeId: id, lostFromSeq: 1, lostToSeq: 2 }),
      expect.objectContaining({ type: "trade", subscribeId: id, seq: 3 }),
    ]);
  });

  it("a room that wakes after its last subscriptions' resume window tells the tail it has no topics (else the tail never goes idle)", async () => {
    // Given a room whose only socket closed, so its subscription waits for a resume, and then the room slept
    const before = new StreamRoomState(deps());
    const ws = connected(before);
    await subscribe(before, ws, "subscribeTrade", [MINT_A]);
    before.closed(ws);
    expect(topics.at(-1)).toEqual([`trade:${MINT_A}`]);
    // When it wakes (its alarm) after the resume window: the restore drops the expired subscription
    clock += limits.streams.resumeWindowMs + 1;
    const after = new StreamRoomState(deps());
    expect(after.restore([])).toEqual({ sockets: 0, subscriptions: 0, detached: 0 });
    after.alarm();
    // Then the tail is told the room wants nothing
    expect(topics.at(-1)).toEqual([]);
  });

  it("a publish of a topic the room no longer has tells the tail its topics again (the tail's copy went stale)", async () => {
    // Given a room with no subscription left whose tail still has an old registration (a lost setTopics)
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    const id = await subscribe(room, ws, "subscribeTrade", [MINT_A]);
    await room.message(ws, JSON.stringify({ method: "unsubscribeTrade", unsubscribeId: id }));
    const told = topics.length;
    // When the tail publishes for the old topic
    room.publish(trade(MINT_A, 1));
    // Then the room registers its real topics again (none), and nothing was sent to the socket
    expect(topics.length).toBe(told + 1);
    expect(topics.at(-1)).toEqual([]);
    expect(ws.take().filter((f) => f.type === "trade")).toEqual([]);
  });

  it("a socket whose attachment is not ours is closed, never served", () => {
    const room = new StreamRoomState(deps());
    const stranger = new FakeSocket();
    stranger.attachment = { hello: 1 };
    expect(room.restore([stranger])).toEqual({ sockets: 0, subscriptions: 0, detached: 0 });
    expect(stranger.closedWith?.code).toBe(1008);
  });
});

describe("candle subscriptions", () => {
  const candle = (interval: string, slot: number): StreamEvent =>
    ({
      kind: "candle",
      topic: `candle:${MINT_A}`,
      slot,
      data: { ca: MINT_A, interval, time: 60, open: 1, high: 1, low: 1, close: 1, volume: 1, volumeBase: 1, buys: 1, sells: 0, sol: { open: 1, high: 1, low: 1, close: 1, volume: 1 }, closed: false, partial: false, slot },
    }) as StreamEvent;

  it("share the mint's topic but each gets its own interval's candles, numbered; the interval survives a restart (the store keeps it)", async () => {
    // Given one socket with 1s and 1m candle subscriptions of the same mint
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    await room.message(ws, JSON.stringify({ method: "subscribeCandle", tokens: [MINT_A], interval: "1s" }));
    const [ackS] = ws.take();
    expect(ackS).toEqual({ type: "subscribeCandle", status: "success", tokens: [MINT_A], subscribeId: ackS.subscribeId, interval: "1s" });
    await room.message(ws, JSON.stringify({ method: "subscribeCandle", tokens: [MINT_A], interval: "1m" }));
    const [ackM] = ws.take();
    expect(room.currentTopics()).toEqual([`candle:${MINT_A}`]);
    // When candles of every interval are published
    room.publish([candle("1s", 1), candle("1m", 1), candle("5m", 1), candle("1h", 1), candle("1s", 2)]);
    // Then each subscription gets its own interval's, numbered on its own
    expect(ws.take().map((f) => [f.subscribeId, f.seq, f.data.interval, f.data.slot])).toEqual([
      [ackS.subscribeId, 1, "1s", 1],
      [ackM.subscribeId, 1, "1m", 1],
      [ackS.subscribeId, 2, "1s", 2],
    ]);
    // and a room woken from the store serves the same intervals
    const after = new StreamRoomState(deps());
    after.restore([ws]);
    after.publish([candle("1m", 3), candle("1s", 3)]);
    expect(ws.take().map((f) => [f.subscribeId, f.seq, f.data.interval])).toEqual([
      [ackM.subscribeId, 2, "1m"],
      [ackS.subscribeId, 3, "1s"],
    ]);
  });
});

describe("processed price subscriptions", () => {
  const record = (ca: string, slot: number) => ({ ca, slot, priceInSol: "0.5", priceInUsd: "1", pool: SOL }) as unknown as PriceRecord;
  const confirmedPrice = (ca: string, slot: number): StreamEvent => ({ kind: "price", topic: `price:${ca}`, slot, data: record(ca, slot) }) as StreamEvent;

  it("have their own topics: processed price events and corrections go to them only, numbered in one stream; a restart keeps the commitment", async () => {
    // Given a processed and a confirmed price subscription of the same mint on one socket
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    await room.message(ws, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A], commitment: "processed" }));
    const [ackP] = ws.take();
    expect(ackP).toEqual({ type: "subscribePrice", status: "success", tokens: [MINT_A], subscribeId: ackP.subscribeId, commitment: "processed" });
    const idC = await subscribe(room, ws, "subscribePrice", [MINT_A]);
    expect(room.currentTopics()).toEqual([`price:${MINT_A}`, `price@processed:${MINT_A}`]);
    expect(topics.at(-1)).toEqual([`price:${MINT_A}`, `price@processed:${MINT_A}`]);
    // When the tail publishes a processed record, a confirmed one, then a correction of the processed slot and the confirmed record
    room.publish(processedPriceEvents([record(MINT_A, 11)], "processed"));
    room.publish([confirmedPrice(MINT_A, 10)]);
    room.publish([correctionEvent(MINT_A, 11), ...processedPriceEvents([record(MINT_A, 12)], "confirmed")]);
    // Then each goes to its own subscription: the processed one gets the record, the correction and the record after it
    expect(ws.take().map((f) => [f.type, f.subscribeId, f.seq, f.data.slot, f.data.commitment ?? null])).toEqual([
      ["price", ackP.subscribeId, 1, 11, "processed"],
      ["price", idC, 1, 10, null],
      ["correction", ackP.subscribeId, 2, 11, null],
      ["price", ackP.subscribeId, 3, 12, "confirmed"],
    ]);
    // and a room woken from the store serves the processed topic still
    const after = new StreamRoomState(deps());
    after.restore([ws]);
    expect(after.currentTopics()).toEqual([`price:${MINT_A}`, `price@processed:${MINT_A}`]);
    after.publish(processedPriceEvents([record(MINT_A, 13)], "processed"));
    expect(ws.take().map((f) => [f.subscribeId, f.seq])).toEqual([[ackP.subscribeId, 4]]);
  });

  it("a processed subscription counts against the same limits, and a bad commitment is a bad frame", async () => {
    const room = new StreamRoomState(deps());
    const ws = connected(room);
    for (let i = 0; i < limits.streams.subscriptionsPerSocket; i++) {
      clock += 1000; // within the socket's message rate
      await subscribe(room, ws, "subscribePrice", [MINT_B]);
    }
    clock += 1000;
    await room.message(ws, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A], commitment: "processed" }));
    expect(ws.take()).toEqual([{ type: "error", message: `Too many subscriptions on this connection; max ${limits.streams.subscriptionsPerSocket}` }]);
    await room.message(ws, JSON.stringify({ method: "subscribePrice", tokens: [MINT_A], commitment: "finalized" }));
    expect(ws.take()).toEqual([{ type: "error", message: "Invalid commitment: must be one of confirmed, processed" }]);
  });
});
