/**
 * `GET /ws` end to end: the worker bundle served by Miniflare on a free port (test/e2e/helpers/served-worker.ts) with
 * its stream rooms (Durable Objects, hibernation API), localnet behind it, `ws` clients in front. The key check before
 * the upgrade and in the first message, every bad frame and its answer, acks, app ping/pong, the heartbeat, resume
 * on a new socket, and the close codes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { refusedUpgrade } from "./helpers/ws-client";
import { limits } from "../../src/limits";
import type { TinyChain } from "../localnet/helpers/local-chain";
import { closeWorkerAndChain, serveWorkerOnTinyChain, type ServedWorker } from "./helpers/served-worker";

let chain: TinyChain;
let worker: ServedWorker;
let key: string;

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const wsPath = () => `${worker.origin.replace(/^http/, "ws")}/ws`;

beforeAll(async () => {
  ({ chain, worker } = await serveWorkerOnTinyChain({ slotMs: 100 }));
  key = await worker.newApiKey();
});

afterAll(() => closeWorkerAndChain({ chain, worker }));

interface Client {
  ws: WebSocket;
  /** The next frame (parsed), within `timeoutMs`. */
  next(timeoutMs?: number): Promise<any>;
  /** The next frame that is not a heartbeat. */
  answer(): Promise<any>;
  send(value: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

async function open(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const ws = new WebSocket(url, { headers });
  const frames: any[] = [];
  const waiters: ((frame: any) => void)[] = [];
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data));
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    ws.on("open", resolve);
    ws.on("error", reject);
  });
  const next = (timeoutMs = 5000) =>
    frames.length > 0
      ? Promise.resolve(frames.shift())
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
          waiters.push((frame) => {
            clearTimeout(timer);
            resolve(frame);
          });
        });
  const answer = async () => {
    for (;;) {
      const frame = await next();
      if (frame.type !== "heartbeat") return frame;
    }
  };
  return { ws, next, answer, send: (value) => ws.send(typeof value === "string" ? value : JSON.stringify(value)), closed };
}

/** A socket upgraded with the key in the query; its `connected` frame read. */
async function connected(query = ""): Promise<Client & { connectionId: string }> {
  const client = await open(`${wsPath()}?x-api-key=${key}${query}`);
  const hello = await client.answer();
  expect(hello).toEqual({ type: "connected", connectionId: expect.any(String) });
  return { ...client, connectionId: hello.connectionId };
}

/** The next answer that is not a price event (each price subscription first gets SOL's current record). */
async function notPrice(client: Client): Promise<any> {
  for (;;) {
    const frame = await client.answer();
    if (frame.type !== "price") return frame;
  }
}

const unauthorized = { status: 401, body: { status: "error", error: { code: 401, message: "Missing or invalid API key" } } };

describe("the upgrade", () => {
  it("without Upgrade: websocket → 426 envelope", async () => {
    const res = await fetch(`${worker.origin}/ws?x-api-key=${key}`);
    expect(res.status).toBe(426);
    expect(await res.json()).toEqual({ status: "error", error: { code: 426, message: "Expected a WebSocket upgrade (Upgrade: websocket)" } });
  });

  it("a malformed, unknown or revoked key in the query, x-api-key or Bearer header → 401 envelope before any upgrade", async () => {
    const revoked = await worker.newApiKey({ revoked: true });
    for (const url of [`${wsPath()}?x-api-key=nope`, `${wsPath()}?x-api-key=tmd_${"A".repeat(32)}`, `${wsPath()}?x-api-key=${revoked}`]) {
      expect(await refusedUpgrade(url)).toEqual(unauthorized);
    }
    expect(await refusedUpgrade(wsPath(), { "x-api-key": "tmd_bad" })).toEqual(unauthorized);
    expect(await refusedUpgrade(wsPath(), { authorization: `Bearer ${revoked}` })).toEqual(unauthorized);
    // a bad header key is not rescued by a good query key (middleware/auth.ts order)
    expect(await refusedUpgrade(`${wsPath()}?x-api-key=${key}`, { "x-api-key": "tmd_bad" })).toEqual(unauthorized);
  });

  it("a malformed connectionId → 400 envelope", async () => {
    expect(await refusedUpgrade(`${wsPath()}?x-api-key=${key}&connectionId=no`)).toMatchObject({ status: 400, body: { error: { code: 400 } } });
  });

  it("a good key in the header, Bearer or query → connected", async () => {
    for (const [url, headers] of [
      [wsPath(), { "x-api-key": key }],
      [wsPath(), { authorization: `Bearer ${key}` }],
      [`${wsPath()}?x-api-key=${key}`, {}],
    ] as const) {
      const client = await open(url, headers);
      expect(await client.answer()).toMatchObject({ type: "connected" });
      client.ws.close();
      await client.closed;
    }
  });

  it("no key at the upgrade: the first message {apiKey} → connected; frames before it are refused", async () => {
    const client = await open(wsPath());
    client.send({ method: "subscribeNewpair" });
    expect(await client.answer()).toEqual({ type: "error", message: 'Not authenticated: send {"apiKey":"<key>"} first' });
    client.send({ apiKey: key });
    expect(await client.answer()).toEqual({ type: "connected", connectionId: expect.any(String) });
    client.send({ method: "subscribeNewpair" });
    expect(await client.answer()).toMatchObject({ type: "subscribeNewpair", status: "success" });
    client.ws.close();
  });

  it("CoinVera's form: the key inside the very first subscribe authenticates it; the same key again passes; another key → error frame", async () => {
    // Given a socket upgraded with no key at all
    const client = await open(wsPath());
    // When its first message is a subscribe carrying the key, as CoinVera's documentation writes it
    client.send({ apiKey: key, method: "subscribeTrade", tokens: [SOL] });
    // Then it is connected and the subscription acked
    expect(await client.answer()).toEqual({ type: "connected", connectionId: expect.any(String) });
    const ack = await client.answer();
    expect(ack).toEqual({ type: "subscribeTrade", status: "success", tokens: [SOL], subscribeId: expect.any(String) });
    // and every later message may repeat the key
    client.send({ apiKey: key, method: "subscribePrice", tokens: [USDC] });
    expect(await client.answer()).toMatchObject({ type: "subscribePrice", status: "success", tokens: [USDC] });
    client.send({ apiKey: key, method: "unsubscribeTrade", unsubscribeId: ack.subscribeId });
    expect(await client.answer()).toEqual({ type: "unsubscribeTrade", status: "success", unsubscribeId: ack.subscribeId });
    client.send({ apiKey: key });
    expect(await client.answer()).toMatchObject({ type: "connected" });
    // while another key — even a valid one — is an error frame, and the socket stays
    const other = await worker.newApiKey();
    client.send({ apiKey: other, method: "subscribeNewpair" });
    expect(await client.answer()).toEqual({ type: "error", message: "Already authenticated with another API key" });
    client.send({ apiKey: key, method: "ping" });
    expect(await client.answer()).toEqual({ type: "pong" });
    client.ws.close();
    await client.closed;
  });

  it("CoinVera's form on a socket keyed at the upgrade: the same key in messages passes, another is an error frame", async () => {
    const client = await connected();
    client.send({ apiKey: key, method: "subscribeNewpair" });
    expect(await client.answer()).toMatchObject({ type: "subscribeNewpair", status: "success" });
    client.send({ apiKey: await worker.newApiKey(), method: "subscribeNewpair" });
    expect(await client.answer()).toEqual({ type: "error", message: "Already authenticated with another API key" });
    client.ws.close();
    await client.closed;
  });

  it("CoinVera's form with a bad key → the same close as a bad lone key (1008), nothing subscribed", async () => {
    for (const bad of ["tmd_nope", await worker.newApiKey({ revoked: true })]) {
      const client = await open(wsPath());
      client.send({ apiKey: bad, method: "subscribeTrade", tokens: [SOL] });
      expect(await client.closed).toEqual({ code: 1008, reason: "Missing or invalid API key" });
    }
  });

  it("a bad first-message key → close 1008", async () => {
    const client = await open(wsPath());
    client.send({ apiKey: "tmd_nope" });
    expect(await client.closed).toEqual({ code: 1008, reason: "Missing or invalid API key" });
  });

  it(`no key within ${limits.streams.authTimeoutMs / 1000} s → close 1008`, async () => {
    const client = await open(wsPath());
    const started = Date.now();
    // The close frame itself (ws emits "close" only once the TCP connection ends, which workerd does late for a room
    // woken from hibernation by its alarm): ws answers a received close frame at once, so the socket is CLOSING.
    expect(await client.next(limits.streams.authTimeoutMs + 3000)).toEqual({ type: "error", message: `No API key within ${limits.streams.authTimeoutMs / 1000} s` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(limits.streams.authTimeoutMs - 500);
    const end = Date.now() + 2000;
    while (client.ws.readyState === WebSocket.OPEN && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(client.ws.readyState).toBeGreaterThanOrEqual(WebSocket.CLOSING);
    client.ws.terminate();
  }, 20_000);
});

describe(`connections per key per shard: ${limits.streams.connectionsPerKeyPerShard}`, () => {
  it("that many sockets of one key in one room are accepted; one more gets the 429 envelope instead of the upgrade", async () => {
    const connectionId = `cap-${Date.now()}`;
    const clients: Client[] = [];
    for (let i = 0; i < limits.streams.connectionsPerKeyPerShard; i++) {
      const client = await open(`${wsPath()}?x-api-key=${key}&connectionId=${connectionId}`);
      expect(await client.answer()).toMatchObject({ type: "connected", connectionId });
      clients.push(client);
    }
    expect(await refusedUpgrade(`${wsPath()}?x-api-key=${key}&connectionId=${connectionId}`)).toEqual({
      status: 429,
      body: { status: "error", error: { code: 429, message: `Too many connections for this key; max ${limits.streams.connectionsPerKeyPerShard} per shard` } },
    });
    for (const client of clients) client.ws.close();
    await Promise.all(clients.map((client) => client.closed));
  });
});

describe("subscribe / unsubscribe acks, ping", () => {
  it("every subscribe is acked with its tokens and an id; unsubscribes are acked", async () => {
    const client = await connected();
    client.send({ method: "subscribePrice", tokens: [SOL, USDC] });
    const price = await client.answer();
    expect(price).toEqual({ type: "subscribePrice", status: "success", tokens: [SOL, USDC], subscribeId: expect.stringMatching(/^[0-9a-f]{12}$/) });
    client.send({ method: "subscribeTrade", tokens: [USDC] });
    const trade = await client.answer();
    expect(trade).toMatchObject({ type: "subscribeTrade", status: "success", tokens: [USDC] });
    client.send({ method: "subscribeWallet", tokens: [SOL] });
    const wallet = await client.answer();
    expect(wallet).toMatchObject({ type: "subscribeWallet", tokens: [SOL] });
    client.send({ method: "subscribeNewpair" });
    const newpair = await client.answer();
    expect(newpair).toMatchObject({ type: "subscribeNewpair", tokens: [] });

    client.send({ method: "unsubscribePrice", unsubscribeId: price.subscribeId });
    expect(await client.answer()).toEqual({ type: "unsubscribePrice", status: "success", unsubscribeId: price.subscribeId });
    client.send({ method: "unsubscribeTrade", unsubscribeId: trade.subscribeId });
    expect(await client.answer()).toEqual({ type: "unsubscribeTrade", status: "success", unsubscribeId: trade.subscribeId });
    client.send({ method: "unsubscribeWallet", unsubscribeId: wallet.subscribeId });
    expect(await client.answer()).toEqual({ type: "unsubscribeWallet", status: "success", unsubscribeId: wallet.subscribeId });
    client.send({ method: "unsubscribeNewpair" });
    expect(await client.answer()).toEqual({ type: "unsubscribeNewpair", status: "success", unsubscribeIds: [newpair.subscribeId] });
    client.ws.close();
  });

  it('app ping {"method":"ping"} → {"type":"pong"} (answered by workerd\'s auto-response), other spellings by the room', async () => {
    const client = await connected();
    client.send('{"method":"ping"}');
    expect(await client.answer()).toEqual({ type: "pong" });
    client.send('{ "method": "ping" }');
    expect(await client.answer()).toEqual({ type: "pong" });
    client.ws.close();
  });

  it(`a server heartbeat within ${limits.streams.heartbeatMs / 1000} s`, async () => {
    const client = await connected();
    const started = Date.now();
    const frame = await client.next(limits.streams.heartbeatMs + 5000);
    expect(frame).toEqual({ type: "heartbeat", ts: expect.any(Number) });
    expect(Date.now() - started).toBeLessThanOrEqual(limits.streams.heartbeatMs + 5000);
    client.ws.close();
  }, limits.streams.heartbeatMs + 10_000);
});

describe("bad frames: each answered with an error frame, the socket kept", () => {
  const cases: [string, unknown, string][] = [
    ["invalid JSON", "{not json", "Invalid JSON"],
    ["a JSON array", "[]", "A message is a JSON object"],
    ["no method", { tokens: [SOL] }, "Missing field: method"],
    ["unknown method", { method: "subscribeAll" }, "Unknown method: subscribeAll"],
    ["missing tokens", { method: "subscribeTrade" }, "Missing field: tokens"],
    ["extra field", { method: "subscribePrice", tokens: [SOL], x: 1 }, "Unknown field: x"],
    ["invalid address", { method: "subscribePrice", tokens: ["abc"] }, "Invalid tokens.0: not a base58 address (32 bytes)"],
    ["unknown unsubscribeId", { method: "unsubscribePrice", unsubscribeId: "ffffffffffff" }, "Unknown unsubscribeId for unsubscribePrice: ffffffffffff"],
    ["resume of an unknown id", { method: "resume", subscribeId: "ffffffffffff", fromSeq: 0 }, "Unknown subscribeId: ffffffffffff"],
    ["another key", { apiKey: "tmd_x" }, "Already authenticated with another API key"],
  ];
  it.each(cases)("%s", async (_name, frame, message) => {
    const client = await connected();
    client.send(frame);
    expect(await client.answer()).toEqual({ type: "error", message });
    client.send('{"method":"ping"}');
    expect(await client.answer()).toEqual({ type: "pong" });
    client.ws.close();
  });

  it(`too many tokens: ${limits.streams.tokensPerSubscription} accepted, one more refused`, async () => {
    const client = await connected();
    const tokens = await addresses(limits.streams.tokensPerSubscription + 1);
    client.send({ method: "subscribeTrade", tokens: tokens.slice(0, -1) });
    expect(await client.answer()).toMatchObject({ type: "subscribeTrade", status: "success" });
    client.send({ method: "subscribeTrade", tokens });
    expect(await client.answer()).toEqual({ type: "error", message: `Too many tokens; max ${limits.streams.tokensPerSubscription}` });
    client.ws.close();
  });

  it(`a frame of ${limits.streams.maxFrameBytes} bytes is read, one byte more is refused; repeated, it closes 1009`, async () => {
    const client = await connected();
    const ping = '{"method":"ping"}';
    client.send(ping + " ".repeat(limits.streams.maxFrameBytes - ping.length));
    expect(await client.answer()).toEqual({ type: "pong" });
    const over = ping + " ".repeat(limits.streams.maxFrameBytes + 1 - ping.length);
    client.send(over);
    expect(await client.answer()).toEqual({ type: "error", message: `Frame too large; max ${limits.streams.maxFrameBytes} bytes` });
    for (let i = 0; i < limits.streams.maxBadFrames; i++) client.send(over);
    expect(await client.closed).toEqual({ code: 1009, reason: "Frames too large" });
  });

  it(`a flood: past ${limits.streams.messageBurst} frames at once → rate-limit errors, then close 1008`, async () => {
    const client = await connected();
    for (let i = 0; i < limits.streams.messageBurst + limits.streams.maxBadFrames + 5; i++) client.send('{ "method": "ping" }');
    const frames: any[] = [];
    const closed = await client.closed;
    for (;;) {
      const frame = await client.next(200).catch(() => undefined);
      if (frame === undefined) break;
      frames.push(frame);
    }
    expect(closed).toEqual({ code: 1008, reason: "Too many bad frames" });
    expect(frames.filter((f) => f.type === "error")[0]).toEqual({ type: "error", message: `Rate limit: at most ${limits.streams.messagesPerSecond} messages per second` });
  });

  it(`subscriptions per socket: ${limits.streams.subscriptionsPerSocket} accepted, one more refused`, async () => {
    const client = await connected();
    for (let i = 0; i < limits.streams.subscriptionsPerSocket; i++) {
      if (i > 0 && i % limits.streams.messagesPerSecond === 0) await new Promise((r) => setTimeout(r, 1000));
      client.send({ method: "subscribePrice", tokens: [SOL] });
      expect(await notPrice(client)).toMatchObject({ type: "subscribePrice", status: "success" });
    }
    client.send({ method: "subscribePrice", tokens: [SOL] });
    expect(await notPrice(client)).toEqual({ type: "error", message: `Too many subscriptions on this connection; max ${limits.streams.subscriptionsPerSocket}` });
    client.ws.close();
  }, 20_000);
});

describe("resume on a new socket", () => {
  it("back in the same room with ?connectionId=, a closed socket's subscription is resumed by a key of the same account", async () => {
    // Given a subscription whose socket closed
    const first = await connected();
    first.send({ method: "subscribeTrade", tokens: [USDC] });
    const { subscribeId } = await first.answer();
    first.ws.close();
    await first.closed;

    // When a new socket (another key of the same account: subscriptions belong to the account) comes back to the same
    // room with the connection id and resumes from 0
    const other = await worker.newApiKey();
    const second = await open(`${wsPath()}?x-api-key=${other}&connectionId=${first.connectionId}`);
    expect(await second.answer()).toEqual({ type: "connected", connectionId: first.connectionId });
    second.send({ method: "resume", subscribeId, fromSeq: 0 });

    // Then it is acked (nothing to replay: no chain tail events in this test), and the subscription is the new socket's
    expect(await second.answer()).toEqual({ type: "resume", status: "success", subscribeId, fromSeq: 0, replayed: 0 });
    second.send({ method: "unsubscribeTrade", unsubscribeId: subscribeId });
    expect(await second.answer()).toMatchObject({ type: "unsubscribeTrade", status: "success" });
    second.ws.close();
  });

  it("a subscription of another connection's room is unknown here", async () => {
    const first = await connected();
    first.send({ method: "subscribeTrade", tokens: [USDC] });
    const { subscribeId } = await first.answer();
    first.ws.close();
    await first.closed;
    // a connection id hashed to another shard than the first one's
    const { roomOfConnection } = await import("../../src/socket-shards");
    let elsewhere = "elsewhere-0";
    for (let i = 1; roomOfConnection(elsewhere, limits.streams.shards) === roomOfConnection(first.connectionId, limits.streams.shards); i++) elsewhere = `elsewhere-${i}`;
    const second = await connected(`&connectionId=${elsewhere}`);
    second.send({ method: "resume", subscribeId, fromSeq: 0 });
    expect(await second.answer()).toEqual({ type: "error", message: `Unknown subscribeId: ${subscribeId}` });
    second.ws.close();
  });
});

/** Distinct valid addresses (32-byte keys of fresh key pairs). */
async function addresses(n: number): Promise<string[]> {
  const { Keypair } = await import("@solana/web3.js");
  return Array.from({ length: n }, () => Keypair.generate().publicKey.toBase58());
}
