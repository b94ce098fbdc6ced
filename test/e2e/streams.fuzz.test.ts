/**
 * `/ws` under random and hostile clients, end to end: the worker bundle served by Miniflare (stream rooms and the chain
 * tail as Durable Objects), localnet's tiny world behind it (a slot every 200 ms, each with one token transfer by
 * alice), the chain tail's slot socket through a tap that can drop it, `ws` clients in front. Checked:
 * - every bad frame fast-check makes (invalid JSON, binary, invalid UTF-8, over 64 KiB, deeply nested, non-objects,
 *   unknown methods, wrong types, bad or too many tokens, extra fields, bogus unsubscribe / resume ids and seqs, a key
 *   again) gets exactly one error frame saying why, in order, and the socket stays usable below the bad-frame cap;
 * - the 11th bad frame closes with the documented code (1009 when it was oversize, else 1008), floods too;
 * - random interleavings of subscribe / unsubscribe / resume are each answered as a model of the protocol predicts;
 * - sockets dropped abruptly mid-subscribe leave nothing behind: a room admits a key's full quota of sockets again;
 * - with the tail's upstream slot socket dropped and localnet's JSON-RPC failing (fault modes) while a client is
 *   subscribed, the client gets every block's events once, numbered without a gap, after recovery;
 * - keys of one account revoked mid-stream lose their sockets within 5 s (1008 "API key revoked"); the other keys'
 *   sockets keep their events;
 * - after all of it a fresh client subscribes and receives events.
 */
import { getAddressDecoder, getAddressEncoder } from "@solana/kit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { limits } from "../../src/limits";
import { startTinyChain, type TinyChain } from "../localnet/helpers/local-chain";
import { startPubSubTap, type PubSubTap } from "./helpers/pubsub-tap";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { endClient, openRecording, type RecordingClient } from "./helpers/ws-client";
import { until } from "../helpers/wait";
import { sleep } from "../helpers/wait";

const { maxFrameBytes, maxBadFrames, tokensPerSubscription, messageBurst, messagesPerSecond, connectionsPerKeyPerShard } = limits.streams;

let chain: TinyChain;
let tap: PubSubTap;
let worker: ServedWorker;
let key: string;

const wsUrl = (query = "") => `${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}${query}`;
const answers = (c: RecordingClient) => c.frames.filter((f) => f.type !== "heartbeat" && f.type !== "connected");

async function connect(query = ""): Promise<RecordingClient> {
  const client = await openRecording(wsUrl(query));
  await client.frame("connected", (f) => f.type === "connected");
  return client;
}

/** The HTTP status of an upgrade the worker refused, or 101 when it was accepted (and the socket then closed). */
function upgradeStatus(url: string): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on("open", () => resolve({ status: 101, ws }));
    ws.on("error", () => undefined);
    ws.on("unexpected-response", (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode! });
    });
  });
}

// ---- bad frames, each with the error message it must get (written from docs/streams.md, not from the reader) ----

interface BadFrame {
  label: string;
  frame: string | Buffer;
  message: RegExp;
  oversize?: true;
}

const addressDecoder = getAddressDecoder();
const addressEncoder = getAddressEncoder();
const anAddress = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => addressDecoder.decode(b) as string);
const isAddress = (s: string) => {
  try {
    return addressEncoder.encode(s as never).length === 32;
  } catch {
    return false;
  }
};
const notAddress = fc.string({ maxLength: 60 }).filter((s) => !isAddress(s));
const isJson = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const knownMethods = new Set(["subscribePrice", "subscribeTrade", "subscribeWallet", "subscribeNewpair", "unsubscribePrice", "unsubscribeTrade", "unsubscribeWallet", "unsubscribeNewpair", "resume", "ping"]);
const addressMethod = fc.constantFrom("subscribePrice", "subscribeTrade", "subscribeWallet");
const unsubscribeMethod = fc.constantFrom("unsubscribePrice", "unsubscribeTrade", "unsubscribeWallet");
const key0 = (s: string) => s !== "__proto__";
/** Nesting that fits a frame: `depth` levels of one opener/closer pair `width` bytes wide. */
const depthFor = (width: number) => fc.integer({ min: 50, max: Math.floor((maxFrameBytes - 200) / width) });
const json = JSON.stringify;

const badFrame: fc.Arbitrary<BadFrame> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 200 }).filter((s) => !isJson(s)).map((frame) => ({ label: "invalid JSON", frame, message: /^Invalid JSON$/ })),
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.string(), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }))
    .map((v) => ({ label: "not an object", frame: json(v), message: /^A message is a JSON object$/ })),
  fc.dictionary(fc.string({ maxLength: 12 }).filter((k) => k !== "method" && k !== "apiKey" && key0(k)), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
    .map((o) => ({ label: "no method", frame: json(o), message: /^Missing field: method$/ })),
  fc.string({ maxLength: 80 }).filter((m) => !knownMethods.has(m)).map((m) => ({ label: "unknown method", frame: json({ method: m }), message: new RegExp(`^Unknown method: ${escape(m.slice(0, 40))}$`) })),
  fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.nat(), { maxLength: 3 }), fc.object({ maxDepth: 1 }))
    .map((m) => ({ label: "method not a string", frame: json({ method: m }), message: /^Unknown method: (number|boolean|object)$/ })),
  addressMethod.map((method) => ({ label: "no tokens", frame: json({ method }), message: /^Missing field: tokens$/ })),
  addressMethod.map((method) => ({ label: "empty tokens", frame: json({ method, tokens: [] }), message: /^Invalid tokens: / })),
  fc.tuple(addressMethod, fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.object({ maxDepth: 1 })))
    .map(([method, tokens]) => ({ label: "tokens not an array", frame: json({ method, tokens }), message: /^Invalid tokens: / })),
  fc.tuple(addressMethod, fc.array(anAddress, { maxLength: 3 }), notAddress, fc.array(anAddress, { maxLength: 3 })).map(([method, before, bad, after]) => ({
    label: "an invalid address",
    frame: json({ method, tokens: [...before, bad, ...after] }),
    message: new RegExp(`^Invalid tokens\\.${before.length}: not a base58 address \\(32 bytes\\)$`),
  })),
  fc.tuple(addressMethod, fc.array(anAddress, { minLength: tokensPerSubscription + 1, maxLength: tokensPerSubscription + 20 })).map(([method, tokens]) => ({
    label: "too many tokens",
    frame: json({ method, tokens }),
    message: new RegExp(`^Too many tokens; max ${tokensPerSubscription}$`),
  })),
  fc.tuple(addressMethod, anAddress, fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== "method" && k !== "tokens" && key0(k)), fc.jsonValue({ maxDepth: 1 })).map(([method, token, extra, value]) => ({
    label: "an extra field",
    frame: json({ method, tokens: [token], [extra]: value }),
    message: new RegExp(`^Unknown field: ${escape(extra)}$`),
  })),
  anAddress.map((token) => ({ label: "subscribeNewpair with tokens", frame: json({ method: "subscribeNewpair", tokens: [token] }), message: /^Invalid tokens: subscribeNewpair takes no tokens$/ })),
  fc.tuple(unsubscribeMethod, fc.string({ maxLength: 64 })).map(([method, id]) => ({
    label: "unsubscribe of an unknown id",
    frame: json({ method, unsubscribeId: id }),
    message: new RegExp(`^Unknown unsubscribeId for ${method}: ${escape(id)}$`),
  })),
  fc.tuple(unsubscribeMethod, fc.oneof(fc.integer(), fc.constant(null), fc.string({ minLength: 65, maxLength: 300 }))).map(([method, id]) => ({
    label: "unsubscribeId of the wrong type or too long",
    frame: json({ method, unsubscribeId: id }),
    message: /^Invalid unsubscribeId: /,
  })),
  fc.constant({ label: "unsubscribeNewpair with none", frame: json({ method: "unsubscribeNewpair" }), message: /^No subscribeNewpair subscription on this connection$/ }),
  fc.tuple(fc.string({ maxLength: 64 }), fc.nat()).map(([id, fromSeq]) => ({ label: "resume of an unknown id", frame: json({ method: "resume", subscribeId: id, fromSeq }), message: new RegExp(`^Unknown subscribeId: ${escape(id)}$`) })),
  fc.oneof(fc.integer({ max: -1 }), fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)), fc.constant(1e300), fc.string(), fc.constant(null))
    .map((fromSeq) => ({ label: "resume with a bad fromSeq", frame: json({ method: "resume", subscribeId: "0123456789ab", fromSeq }), message: /^Invalid fromSeq: / })),
  fc.string({ maxLength: 256 }).map((apiKey) => ({ label: "another key", frame: json({ apiKey }), message: /^Already authenticated with another API key$/ })),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ label: "binary, invalid UTF-8", frame: Buffer.concat([Buffer.from(bytes), Buffer.from([0xc3, 0x28, 0xff])]), message: /^Frame is not UTF-8 text$/ })),
  fc.string({ minLength: 1, maxLength: 100 }).filter((s) => !isJson(s)).map((s) => ({ label: "binary, not JSON", frame: Buffer.from(s), message: /^Invalid JSON$/ })),
  depthFor(2).map((d) => ({ label: "deep arrays", frame: "[".repeat(d) + "]".repeat(d), message: /^A message is a JSON object$/ })),
  depthFor(6).map((d) => ({ label: "deep objects", frame: '{"a":'.repeat(d) + "1" + "}".repeat(d), message: /^Missing field: method$/ })),
  depthFor(2).map((d) => ({ label: "deep tokens", frame: `{"method":"subscribeTrade","tokens":${"[".repeat(d)}${"]".repeat(d)}}`, message: /^Invalid tokens\.0: / })),
  fc.tuple(fc.integer({ min: maxFrameBytes + 1, max: 4 * maxFrameBytes }), fc.boolean()).map(([size, binary]) => {
    const text = `{"method":"subscribeTrade","tokens":["${"1".repeat(size - 40)}"]}`;
    return { label: `over ${maxFrameBytes} bytes`, frame: binary ? Buffer.from(text) : text, message: new RegExp(`^Frame too large; max ${maxFrameBytes} bytes$`), oversize: true as const };
  }),
);

beforeAll(async () => {
  chain = await startTinyChain({ slotMs: 200 });
  tap = await startPubSubTap(chain.net.wsUrl);
  worker = await serveWorker({ UPSTREAM_RPC_URL: chain.net.rpcUrl, UPSTREAM_WS_URL: tap.url });
  key = await worker.newApiKey();
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await tap?.close();
  await chain?.net.close();
});

describe("/ws under random and hostile frames", () => {
  it(`up to ${maxBadFrames} bad frames of every kind: one error frame each, in order, saying why; the socket stays usable`, async () => {
    let runs = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(badFrame, { minLength: 1, maxLength: maxBadFrames }), async (bad) => {
        runs++;
        // Given a connected socket
        const client = await connect();
        // When it sends the bad frames back to back, then a good subscribe
        for (const b of bad) client.send(b.frame);
        client.send({ method: "subscribeNewpair" });
        await client.frame("the subscribe's ack", (f) => f.type === "subscribeNewpair", 10_000);
        // Then each bad frame got one error frame with its reason, in order, and the subscribe its ack, still open
        const got = answers(client);
        expect(got).toHaveLength(bad.length + 1);
        bad.forEach((b, i) => {
          seen.add(b.label);
          expect(Object.keys(got[i]).sort(), b.label).toEqual(["message", "type"]);
          expect(got[i].type, b.label).toBe("error");
          expect(got[i].message, `${b.label}: ${String(b.frame).slice(0, 120)}`).toMatch(b.message);
        });
        expect(got[bad.length]).toMatchObject({ type: "subscribeNewpair", status: "success", tokens: [] });
        expect(client.ws.readyState).toBe(WebSocket.OPEN);
        await endClient(client);
      }),
      { numRuns: 80 },
    );
    console.log(JSON.stringify({ wsFuzz: { runs, kinds: seen.size } }));
  }, 60_000);

  it("before its key (first-message form) a socket is told why for each bad frame, then authenticates and subscribes", async () => {
    // frames the reader accepts are refused only for want of a key
    const wellFormed = new Set(["unsubscribe of an unknown id", "unsubscribeNewpair with none", "resume of an unknown id"]);
    await fc.assert(
      fc.asyncProperty(fc.array(badFrame.filter((b) => b.label !== "another key"), { minLength: 1, maxLength: maxBadFrames }), async (bad) => {
        const client = await openRecording(`${worker.origin.replace(/^http/, "ws")}/ws`);
        for (const b of bad) client.send(b.frame);
        client.send({ apiKey: key });
        await client.frame("connected", (f) => f.type === "connected", 10_000);
        client.send({ method: "subscribeNewpair" });
        await client.frame("the subscribe's ack", (f) => f.type === "subscribeNewpair", 10_000);
        const got = answers(client);
        expect(got).toHaveLength(bad.length + 1);
        bad.forEach((b, i) => expect(got[i].message, b.label).toMatch(wellFormed.has(b.label) ? /^Not authenticated: send \{"apiKey":"<key>"\} first$/ : b.message));
        await endClient(client);
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it(`the ${maxBadFrames + 1}th bad frame closes: 1009 "Frames too large" when it was oversize, else 1008 "Too many bad frames"`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(badFrame, { minLength: maxBadFrames + 1, maxLength: maxBadFrames + 1 }), async (bad) => {
        const client = await connect();
        for (const b of bad) client.send(b.frame);
        const closed = await client.closed;
        const last = bad.at(-1)!;
        expect(closed).toEqual(last.oversize ? { code: 1009, reason: "Frames too large" } : { code: 1008, reason: "Too many bad frames" });
        const got = answers(client);
        expect(got).toHaveLength(maxBadFrames + 1);
        bad.forEach((b, i) => expect(got[i].message, b.label).toMatch(b.message));
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it(`a flood: ${messageBurst} frames at once are served, the rest are refused (rate limit) until the ${maxBadFrames + 1}th refusal closes with 1008`, async () => {
    const client = await connect();
    // a ping spelled with spaces reaches the room (the exact text is answered by workerd without waking it)
    for (let i = 0; i < messageBurst + maxBadFrames + 10; i++) client.send('{ "method": "ping" }');
    expect(await client.closed).toEqual({ code: 1008, reason: "Too many bad frames" });
    const got = answers(client);
    const pongs = got.filter((f) => f.type === "pong").length;
    const limited = got.filter((f) => f.type === "error" && f.message === `Rate limit: at most ${messagesPerSecond} messages per second`).length;
    // the bucket refills while the flood is read: a pong or two more than the burst
    expect(pongs).toBeGreaterThanOrEqual(messageBurst);
    expect(pongs).toBeLessThan(messageBurst + 5);
    expect(limited).toBe(maxBadFrames + 1);
    expect(got).toHaveLength(pongs + limited);
  }, 20_000);

  it("random interleavings of subscribe / unsubscribe / resume are answered as a model of the protocol predicts", async () => {
    type Op =
      | { op: "subscribe"; method: "subscribePrice" | "subscribeTrade" | "subscribeWallet"; tokens: string[] }
      | { op: "subscribeNewpair" }
      | { op: "unsubscribe"; pick: number; wrongKind: boolean }
      | { op: "unsubscribeNewpair" }
      | { op: "resume"; pick: number; ahead: boolean };
    // addresses with no activity on the tiny chain: subscriptions stay at seq 0
    const pool = fc.sample(anAddress, { numRuns: 6, seed: 7 });
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant("subscribe" as const), method: addressMethod, tokens: fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 4 }) }),
      fc.constant({ op: "subscribeNewpair" as const }),
      fc.record({ op: fc.constant("unsubscribe" as const), pick: fc.nat(), wrongKind: fc.boolean() }),
      fc.constant({ op: "unsubscribeNewpair" as const }),
      fc.record({ op: fc.constant("resume" as const), pick: fc.nat(), ahead: fc.boolean() }),
    );
    const unsubscribeOf: Record<string, string> = { subscribePrice: "unsubscribePrice", subscribeTrade: "unsubscribeTrade", subscribeWallet: "unsubscribeWallet" };
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: messageBurst - 2 }), fc.boolean(), async (ops, abrupt) => {
        const client = await connect();
        const live: { id: string; kind: string }[] = [];
        for (const [i, o] of ops.entries()) {
          let frame: unknown;
          let want: (f: any) => void;
          const addressSubs = live.filter((s) => s.kind !== "subscribeNewpair");
          if (o.op === "subscribe") {
            frame = { method: o.method, tokens: o.tokens };
            want = (f) => {
              expect(f).toEqual({ type: o.method, status: "success", tokens: [...new Set(o.tokens)], subscribeId: expect.stringMatching(/^[0-9a-f]{12}$/) });
              live.push({ id: f.subscribeId, kind: o.method });
            };
          } else if (o.op === "subscribeNewpair") {
            frame = { method: "subscribeNewpair" };
            want = (f) => {
              expect(f).toMatchObject({ type: "subscribeNewpair", status: "success", tokens: [] });
              live.push({ id: f.subscribeId, kind: "subscribeNewpair" });
            };
          } else if (o.op === "unsubscribe" && addressSubs.length > 0) {
            const sub = addressSubs[o.pick % addressSubs.length]!;
            const method = o.wrongKind ? Object.values(unsubscribeOf).find((m) => m !== unsubscribeOf[sub.kind])! : unsubscribeOf[sub.kind]!;
            frame = { method, unsubscribeId: sub.id };
            want = o.wrongKind
              ? (f) => expect(f).toEqual({ type: "error", message: `Unknown unsubscribeId for ${method}: ${sub.id}` })
              : (f) => {
                  expect(f).toEqual({ type: method, status: "success", unsubscribeId: sub.id });
                  live.splice(live.indexOf(sub), 1);
                };
          } else if (o.op === "unsubscribe") {
            frame = { method: "unsubscribeTrade", unsubscribeId: "0123456789ab" };
            want = (f) => expect(f).toEqual({ type: "error", message: "Unknown unsubscribeId for unsubscribeTrade: 0123456789ab" });
          } else if (o.op === "unsubscribeNewpair") {
            const ended = live.filter((s) => s.kind === "subscribeNewpair");
            frame = { method: "unsubscribeNewpair" };
            want = ended.length
              ? (f) => {
                  expect(f).toEqual({ type: "unsubscribeNewpair", status: "success", unsubscribeIds: ended.map((s) => s.id) });
                  for (const s of ended) live.splice(live.indexOf(s), 1);
                }
              : (f) => expect(f).toEqual({ type: "error", message: "No subscribeNewpair subscription on this connection" });
          } else if (live.length > 0) {
            const sub = live[o.pick % live.length]!;
            frame = { method: "resume", subscribeId: sub.id, fromSeq: o.ahead ? 1 : 0 };
            want = o.ahead
              ? (f) => expect(f).toEqual({ type: "error", message: `fromSeq 1 is ahead of the subscription (last seq 0)` })
              : (f) => expect(f).toEqual({ type: "resume", status: "success", subscribeId: sub.id, fromSeq: 0, replayed: 0 });
          } else {
            frame = { method: "resume", subscribeId: "0123456789ab", fromSeq: 0 };
            want = (f) => expect(f).toEqual({ type: "error", message: "Unknown subscribeId: 0123456789ab" });
          }
          client.send(frame);
          want(await until(`answer ${i} (${o.op})`, () => answers(client)[i], 10_000));
        }
        expect(answers(client)).toHaveLength(ops.length);
        if (abrupt) {
          client.ws.terminate();
          await client.closed;
        } else await endClient(client);
      }),
      { numRuns: 20 },
    );
  }, 60_000);
});

describe("/ws under churn and upstream chaos", () => {
  it(`sockets dropped abruptly mid-subscribe leave nothing behind: the room admits the key's ${connectionsPerKeyPerShard} sockets again, and no more`, async () => {
    const connectionId = `fuzz-churn-${Date.now()}`;
    const url = wsUrl(`&connectionId=${connectionId}`);
    for (let round = 0; round < 3; round++) {
      // Given the key's whole quota of sockets in one room, admitted (a leaked socket of an earlier round would
      // leave a 429 here for good; a closing one is seen within a few seconds)
      const admitted: WebSocket[] = [];
      await until(`round ${round}: ${connectionsPerKeyPerShard} sockets admitted`, async () => {
        const tried = await Promise.all(Array.from({ length: connectionsPerKeyPerShard - admitted.length }, () => upgradeStatus(url)));
        for (const t of tried) if (t.ws) admitted.push(t.ws);
        return admitted.length === connectionsPerKeyPerShard ? true : undefined;
      }, 10_000);
      if (round === 2) {
        expect((await upgradeStatus(url)).status).toBe(429);
        for (const ws of admitted) ws.close();
        break;
      }
      // When each sends a subscribe (or a few) and is dropped at once, or a moment later, mid-answer
      await Promise.all(
        admitted.map(async (ws, i) => {
          ws.send(json({ method: "subscribeTrade", tokens: [chain.world.keys.mint] }));
          if (i % 3 === 1) ws.send(json({ method: "subscribeWallet", tokens: [chain.world.keys.alice] }));
          await sleep(i % 4 === 0 ? 0 : i % 7);
          ws.terminate();
        }),
      );
    }
  }, 60_000);

  it("a frame over the runtime's own 32 MiB cap never reaches the room: workerd closes the socket (1009), and the room lets go of it", async () => {
    // Given the key's quota of sockets in one room, the last of them about to send 33 MiB
    const connectionId = `fuzz-huge-${Date.now()}`;
    const url = wsUrl(`&connectionId=${connectionId}`);
    const held: WebSocket[] = [];
    for (let i = 0; i < connectionsPerKeyPerShard - 1; i++) held.push((await upgradeStatus(url)).ws!);
    const huge = await openRecording(url);
    await huge.frame("connected", (f) => f.type === "connected");
    expect((await upgradeStatus(url)).status).toBe(429);

    // When it sends one frame of 33 MiB, then a subscribe
    huge.send(Buffer.alloc(33 * 1024 * 1024));
    await until("the close frame (the socket CLOSING)", () => (huge.ws.readyState >= WebSocket.CLOSING ? true : undefined), 10_000);

    // Then it got no frame from the room, and the room admits another socket of the key in its place
    expect(answers(huge)).toEqual([]);
    const next = await until("a socket admitted in its place", async () => {
      const t = await upgradeStatus(url);
      return t.ws;
    }, 15_000);
    // (Node's ws reports the close only when the TCP connection ends, ~10 s later in Miniflare: docs/streams.md; the
    // close frame has come, so its code is known once the connection is dropped here)
    huge.ws.terminate();
    expect(await huge.closed).toEqual({ code: 1009, reason: "Message is too large" });
    for (const ws of [...held, next]) ws.close();
  }, 60_000);

  it("the tail's slot socket dropped and localnet's JSON-RPC failing: a subscribed client gets every block's events once, numbered without a gap", async () => {
    const alice = chain.world.keys.alice;
    const mint = chain.world.keys.mint;
    // Given a client subscribed to alice's wallet (a token transfer by her in every block), receiving events
    const client = await connect();
    client.send({ method: "subscribeWallet", tokens: [alice] });
    await client.frame("ack", (f) => f.type === "subscribeWallet");
    const first = await client.frame("a first event", (f) => f.type === "wallet", 15_000);

    // When the tail's upstream slot socket is dropped and localnet's JSON-RPC misbehaves, mode after mode (each fault
    // once the tail has recovered from the one before; the last three in a row, so it backs off), the slot socket
    // dropped again halfway
    const faults = ["500", "429", "garbage", "truncated", "wrong-id", "reset", "refused", "html", "wrong-shape"];
    const wallet = () => client.frames.filter((f) => f.type === "wallet");
    const started = Date.now();
    tap.dropAll();
    const arm = async (modes: string[]) => {
      for (const mode of modes) {
        const res = await fetch(`${chain.net.rpcUrl}/__localnet/faults`, { method: "POST", body: json({ mode, count: 1, methods: ["getBlock", "getBlocks", "getSlot"] }) });
        expect(res.status).toBe(200);
      }
      await until(`the ${modes.join(", ")} faults taken`, async () => ((await (await fetch(`${chain.net.rpcUrl}/__localnet/faults`)).json()) as { pending: unknown[] }).pending.length === 0 || undefined, 30_000);
    };
    for (const [i, mode] of faults.slice(0, -3).entries()) {
      const seen = wallet().length;
      await arm([mode]);
      if (i === 2) tap.dropAll();
      await until(`events again after the ${mode} fault`, () => (wallet().length > seen + 2 ? true : undefined), 30_000);
    }
    await arm(faults.slice(-3));
    const recoveredMs = Date.now() - started;
    // and the chain goes on a little
    const endSlot = chain.net.ledger.slotAt("confirmed") + 5;
    // (a block's events may come in more than one frame: a later block's event means endSlot's have all arrived)
    await until("the events of the blocks after the faults", () => client.frames.find((f) => f.type === "wallet" && f.data.slot > endSlot), 30_000);

    // Then every block from the first event's to endSlot gave alice's two changes (SOL fee, token), once each
    const { result: blocks } = (await (await fetch(chain.net.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: json({ jsonrpc: "2.0", id: 1, method: "getBlocks", params: [first.data.slot, endSlot, { commitment: "confirmed" }] }) })).json()) as { result: number[] };
    const events = client.frames.filter((f) => f.type === "wallet" && f.data.slot <= endSlot);
    expect(events.map((f) => `${f.data.slot}:${f.data.mint}`).sort()).toEqual(blocks.flatMap((slot) => [`${slot}:SOL`, `${slot}:${mint}`]).sort());
    expect(events.every((f, i) => i === 0 || f.data.slot >= events[i - 1].data.slot)).toBe(true);
    expect(events.every((f) => f.data.wallet === alice)).toBe(true);
    // and numbered 1, 2, 3, ... with no gap
    const all = client.frames.filter((f) => f.type === "wallet");
    expect(all.map((f) => f.seq)).toEqual(all.map((_, i) => i + 1));
    console.log(JSON.stringify({ wsChaos: { faults: faults.length, slotSocketDrops: 2, recoveredMs, blocks: blocks.length, events: events.length } }));
    client.ws.close();
  }, 90_000);

  it("revocations mid-stream: random keys of one account revoked while their sockets stream; theirs closed 1008 within 5 s, the others keep their events", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 2, maxLength: 4 }), fc.integer({ min: 0, max: 400 }), async (revokeFlags, delay) => {
        // Given one account with several keys (DEV), each with a socket subscribed to alice's wallet (an event every block)
        const account = `acct_wv${crypto.randomUUID().slice(0, 8)}`;
        const keys = await Promise.all(revokeFlags.map(() => worker.newApiKey({ account })));
        const clients = await Promise.all(keys.map(async (k) => {
          const c = await openRecording(`${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${k}`);
          await c.frame("connected", (f) => f.type === "connected");
          c.send({ method: "subscribeWallet", tokens: [chain.world.keys.alice] });
          await c.frame("ack", (f) => f.type === "subscribeWallet");
          return c;
        }));
        // When some keys are revoked mid-stream
        await sleep(delay);
        const at = Date.now();
        await Promise.all(keys.map((k, i) => (revokeFlags[i] ? worker.updateApiKey(k, { revoked: true }) : undefined)));
        // Then the revoked keys' sockets get an error frame saying so within 5 s, and are closed 1008
        const revoked = clients.filter((_, i) => revokeFlags[i]);
        const kept = clients.filter((_, i) => !revokeFlags[i]);
        await until("revoked sockets told", () => (revoked.every((c) => c.frames.some((f) => f.type === "error" && f.message === "API key revoked")) ? true : undefined), 5_000);
        expect(Date.now() - at).toBeLessThan(5_000);
        for (const c of revoked) expect(await c.closed).toEqual({ code: 1008, reason: "API key revoked" });
        // and the others still get events, and no error
        const counts = kept.map((c) => c.frames.filter((f) => f.type === "wallet").length);
        await until("the others' events", () => (kept.every((c, i) => c.frames.filter((f) => f.type === "wallet").length > counts[i]!) ? true : undefined), 15_000);
        for (const c of kept) expect(c.frames.some((f) => f.type === "error")).toBe(false);
        await Promise.all(kept.map((c) => endClient(c)));
      }),
      { numRuns: 3, seed: 23 },
    );
  }, 120_000);

  it("after all of it, a fresh client subscribes and receives events", async () => {
    const client = await connect();
    client.send({ method: "subscribeTrade", tokens: [chain.world.keys.alice] });
    client.send({ method: "subscribeWallet", tokens: [chain.world.keys.bob] });
    await client.frame("wallet ack", (f) => f.type === "subscribeWallet");
    const event = await client.frame("an event", (f) => f.type === "wallet", 15_000);
    expect(event).toMatchObject({ seq: 1, data: { wallet: chain.world.keys.bob, mint: chain.world.keys.mint } });
    client.ws.close();
  }, 30_000);
});
