/**
 * Solana PubSub through `/rpc` (the PubSubHub Durable Object) under random and hostile clients, end to end: the worker
 * bundle served by Miniflare, localnet's tiny world behind it (a slot every 200 ms, alice's token account changing in
 * each), the hub's upstream socket through a tap that can drop it, `ws` clients in front. Checked:
 * - every frame fast-check makes (invalid JSON or UTF-8, batches, scalars, bad ids and versions, extra members,
 *   unknown and HTTP methods, object or scalar params, nesting past 32, frames over 64 KiB, unsubscribes of ids not
 *   held or unreadable, subscribes the node refuses or takes, notifications) gets exactly one well-formed JSON-RPC
 *   answer — with the caller's own id, byte for byte, or null where docs/rpc.md says — or none for a notification;
 * - sockets dropped abruptly mid-subscribe leave no upstream subscription behind (localnet's own count returns to
 *   where it was), and a fresh client still subscribes and is notified;
 * - the upstream socket dropped again and again while clients are subscribed: they keep their ids and are notified
 *   after each reconnect, with one upstream subscription per topic;
 * - unselective subscriptions (programSubscribe on the Token program without a mint/owner memcmp, logsSubscribe all)
 *   are refused before the node; keys revoked mid-stream lose their sockets within 5 s while the account's other keys
 *   stream on; clients that stop reading are closed, readers beside them keep every copy.
 */
import { getAddressDecoder } from "@solana/kit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { limits } from "../../src/limits";
import { startTinyChain, type TinyChain } from "../localnet/helpers/local-chain";
import { startPubSubTap, type PubSubTap } from "./helpers/pubsub-tap";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { openRecording, type RecordingClient } from "./helpers/ws-client";
import { until } from "../helpers/wait";
import { sleep } from "../helpers/wait";

let chain: TinyChain;
let tap: PubSubTap;
let worker: ServedWorker;
let key: string;

const rpcUrl = () => `${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`;
const json = JSON.stringify;

/** What localnet itself holds: one group per distinct subscription, with its count. */
async function nodeSubscriptions(): Promise<{ method: string; params: unknown; count: number }[]> {
  return ((await (await fetch(`${chain.net.rpcUrl}/__localnet/pubsub`)).json()) as { subscriptions: { method: string; params: unknown; count: number }[] }).subscriptions;
}
const nodeTotal = async () => (await nodeSubscriptions()).reduce((n, s) => n + s.count, 0);

// ---- frames, each with the answer it must get (from docs/rpc.md and JSON-RPC 2.0) ----

/** `id`: the id text the answer carries (`null` for ids that cannot be read), or undefined for no answer. */
interface Expectation {
  id?: string;
  /** an error with this code; "node": whatever error the node gives (a negative integer); "result": a subscription id */
  answer?: number | "node" | "result";
  message?: string;
}
interface RpcFrame extends Expectation {
  label: string;
  frame: string | Buffer;
}

const codes = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, frameTooLarge: -32061 };
const subscribes = ["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe", "slotSubscribe", "rootSubscribe"];
const unsubscribes = subscribes.map((m) => m.replace(/Subscribe$/, "Unsubscribe"));
const anAddress = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => getAddressDecoder().decode(b) as string);
const isJson = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** Frame number `n`'s own id, of a random JSON-RPC id type: a number, a string, or a u64 past 2^53 (kept exactly). */
const idOf = (n: number) => fc.constantFrom(String(n), json(`id-${n}`), `1844674407370955${String(1000 + n).slice(-4)}`, json(`ü ${n} "\\`));
const request = (idText: string, method: string, params?: string) => `{"jsonrpc":"2.0","id":${idText},"method":${json(method)}${params === undefined ? "" : `,"params":${params}`}}`;

function frameArb(n: number): fc.Arbitrary<RpcFrame> {
  const id = idOf(n);
  return fc.oneof(
    fc.string({ minLength: 1, maxLength: 100 }).filter((s) => !isJson(s)).map((frame) => ({ label: "invalid JSON", frame, id: "null", answer: codes.parse })),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => ({ label: "invalid UTF-8", frame: Buffer.concat([Buffer.from(b), Buffer.from([0xff, 0xfe])]), id: "null", answer: codes.parse })),
    fc.array(fc.constant(request("1", "slotSubscribe")), { maxLength: 3 }).map((items) => ({ label: "a batch", frame: `[${items.join(",")}]`, id: "null", answer: codes.invalidRequest })),
    fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)).map((v) => ({ label: "a scalar", frame: json(v), id: "null", answer: codes.invalidRequest })),
    fc.constantFrom("-5", "1.5", "1e3", "true", "{}", "[]", "18446744073709551616").map((bad) => ({ label: "an unreadable id", frame: request(bad, "slotSubscribe"), id: "null", answer: codes.invalidRequest })),
    fc.tuple(id, fc.constantFrom(`"1.0"`, "2", "null", undefined)).map(([i, version]) => ({
      label: "a wrong jsonrpc version",
      frame: `{${version === undefined ? "" : `"jsonrpc":${version},`}"id":${i},"method":"slotSubscribe"}`,
      id: i,
      answer: codes.invalidRequest,
    })),
    fc.tuple(id, fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !["jsonrpc", "id", "method", "params"].includes(k))).map(([i, extra]) => ({
      label: "an extra member",
      frame: `{"jsonrpc":"2.0","id":${i},"method":"slotSubscribe",${json(extra)}:1}`,
      id: i,
      answer: codes.invalidRequest,
    })),
    fc.tuple(id, fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.nat(), { maxLength: 2 }))).map(([i, m]) => ({ label: "a method that is not a string", frame: `{"jsonrpc":"2.0","id":${i},"method":${json(m)}}`, id: i, answer: codes.invalidRequest })),
    fc.tuple(id, fc.oneof(fc.integer(), fc.string(), fc.boolean())).map(([i, p]) => ({ label: "scalar params", frame: request(i, "slotSubscribe", json(p)), id: i, answer: codes.invalidRequest })),
    fc.tuple(id, fc.constantFrom(...subscribes, ...unsubscribes)).map(([i, m]) => ({ label: "object params", frame: request(i, m, "{}"), id: i, answer: codes.invalidParams, message: "`params` should be an array" })),
    fc.tuple(id, fc.oneof(fc.constantFrom("getSlot", "getAccountInfo", "blockSubscribe", "voteSubscribe", "slotsUpdatesSubscribe", "__proto__", "constructor", ""), fc.string({ maxLength: 30 })).filter((m) => !subscribes.includes(m) && !unsubscribes.includes(m)))
      .map(([i, m]) => ({ label: "an unknown method", frame: request(i, m, "[]"), id: i, answer: codes.methodNotFound })),
    fc.oneof(fc.constantFrom("slotSubscribe", "rootSubscribe"), fc.constant("ping")).map((m) => ({ label: "a notification (no id)", frame: `{"jsonrpc":"2.0","method":${json(m)}}` })),
    fc.tuple(id, fc.constantFrom(...unsubscribes), fc.integer({ min: 900_000_000, max: 999_999_999_999 })).map(([i, m, sub]) => ({
      label: "an unsubscribe of an id not held",
      frame: request(i, m, `[${sub}]`),
      id: i,
      answer: codes.invalidParams,
      message: "Invalid subscription id.",
    })),
    fc.tuple(id, fc.constantFrom(...unsubscribes), fc.constantFrom("[]", `["x"]`, "[1.5]", "[-1]", "[1,2]", "[null]", "[99999999999999999999]")).map(([i, m, p]) => ({
      label: "an unsubscribe the hub cannot read (the node answers)",
      frame: request(i, m, p),
      id: i,
      answer: "node" as const,
    })),
    fc.tuple(id, fc.constantFrom(`["notakey"]`, "[]", `["11111111111111111111111111111111",{"encoding":"nope"}]`, `[{"mentions":["a","b"]}]`)).map(([i, p]) => ({
      label: "a subscribe the node refuses",
      frame: request(i, p.includes("mentions") ? "logsSubscribe" : "accountSubscribe", p),
      id: i,
      answer: "node" as const,
    })),
    fc.tuple(id, fc.oneof(
      fc.constant(["slotSubscribe", "[]"] as const),
      fc.constant(["rootSubscribe", undefined] as const),
      fc.tuple(anAddress, fc.constantFrom("base64", "base58", "jsonParsed", "base64+zstd")).map(([a, e]) => ["accountSubscribe", json([a, { encoding: e, commitment: "confirmed" }])] as const),
      anAddress.map((a) => ["logsSubscribe", json([{ mentions: [a] }, { commitment: "processed" }])] as const),
    )).map(([i, [m, p]]) => ({ label: "a subscribe the node takes", frame: request(i, m, p), id: i, answer: "result" as const })),
    fc.tuple(id, fc.oneof(
      fc.constantFrom(["logsSubscribe", `["all"]`], ["logsSubscribe", `["allWithVotes",{"commitment":"processed"}]`], ["logsSubscribe", "[]"]),
      fc.constantFrom(`[]`, `[{"dataSize":165}]`, `[{"memcmp":{"offset":64,"bytes":"11111111111111111111111111111111"}}]`, `[{"memcmp":{"offset":0,"bytes":""}}]`)
        .map((filters) => ["programSubscribe", `["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",{"encoding":"base64","filters":${filters}}]`]),
      anAddress.map((a) => ["programSubscribe", json([a, { encoding: "base64" }])]),
    )).map(([i, [m, p]]) => ({ label: "an unselective subscribe (refused before the node)", frame: request(i, m!, p), id: i, answer: codes.invalidParams })),
    fc.tuple(id, fc.integer({ min: limits.maxRpcJsonDepth, max: 20_000 })).map(([i, d]) => ({
      label: "nesting past the limit",
      frame: request(i, "accountSubscribe", "[".repeat(d) + "]".repeat(d)),
      id: i,
      answer: codes.invalidRequest,
    })),
    fc.tuple(id, fc.integer({ min: limits.maxPubSubFrameBytes + 1, max: 3 * limits.maxPubSubFrameBytes })).map(([i, size]) => ({
      label: "a frame over the byte cap",
      frame: request(i, "accountSubscribe", `["${"1".repeat(size)}"]`),
      id: "null",
      answer: codes.frameTooLarge,
    })),
  );
}

/** The answer text's id, as written (the hub writes `"id"` last): compared as text, so u64 ids are exact. */
const idTextOf = (text: string) => /,"id":(.*)\}$/s.exec(text)?.[1];

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

describe("/rpc PubSub under random and hostile frames", () => {
  it("every frame gets one well-formed JSON-RPC answer with the caller's id (or none, for a notification); nothing else comes", async () => {
    let runs = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, n) => frameArb(n)))),
        fc.boolean(),
        async (frames, abrupt) => {
          runs++;
          // Given a socket on /rpc, recording every raw frame
          const client = await openRecording(rpcUrl());
          const raw: string[] = [];
          client.ws.on("message", (data) => raw.push(String(data)));
          // When the frames are sent back to back
          for (const f of frames) client.send(f.frame);
          // Then each expected answer comes, one per frame that has an id, and nothing more
          const expected = frames.filter((f) => f.id !== undefined);
          // a notification names its method; anything else (even a frame that is not JSON: it fails below) is an answer
          const isAnswer = (t: string) => {
            try {
              return !Object.hasOwn(JSON.parse(t), "method");
            } catch {
              return true;
            }
          };
          await until(`${expected.length} answers`, () => (raw.filter(isAnswer).length >= expected.length ? true : undefined), 10_000);
          await sleep(150);
          const answers = raw.filter(isAnswer);
          expect(answers, frames.map((f) => f.label).join(" | ")).toHaveLength(expected.length);
          const unmatched = [...answers];
          for (const f of expected) {
            seen.add(f.label);
            const at = unmatched.findIndex((t) => idTextOf(t) === f.id && (f.id !== "null" || JSON.parse(t).error?.code === f.answer));
            expect(at, `${f.label}: no answer with id ${f.id} among ${unmatched.join("\n")}`).toBeGreaterThanOrEqual(0);
            const text = unmatched.splice(at, 1)[0]!;
            const answer = JSON.parse(text);
            expect(Object.keys(answer).sort(), f.label).toEqual(f.answer === "result" ? ["id", "jsonrpc", "result"] : ["error", "id", "jsonrpc"]);
            expect(answer.jsonrpc).toBe("2.0");
            if (f.answer === "result") {
              expect(Number.isSafeInteger(answer.result) && answer.result >= 0, `${f.label}: ${text}`).toBe(true);
              continue;
            }
            expect(Number.isInteger(answer.error.code) && answer.error.code < 0, `${f.label}: ${text}`).toBe(true);
            expect(typeof answer.error.message, f.label).toBe("string");
            expect(Object.keys(answer.error).every((k) => ["code", "message", "data"].includes(k)), f.label).toBe(true);
            if (typeof f.answer === "number") expect(answer.error.code, `${f.label}: ${text}`).toBe(f.answer);
            if (f.message) expect(answer.error.message, f.label).toBe(f.message);
          }
          for (const f of frames) if (f.id === undefined) seen.add(f.label);
          if (abrupt) client.ws.terminate();
          else client.ws.close();
          await client.closed;
        },
      ),
      { numRuns: 40 },
    );
    console.log(JSON.stringify({ rpcPubSubFuzz: { runs, kinds: seen.size } }));
  }, 60_000);

  it("sockets dropped abruptly mid-subscribe leave no upstream subscription behind; a fresh client is still served", async () => {
    // Given what localnet holds with no client on the hub (the fuzz's sockets are all closed)
    await until("the fuzz's subscriptions gone upstream", async () => ((await nodeTotal()) === 0 ? true : undefined), 10_000);

    const upBefore = tap.framesUp.length;
    // When 40 sockets each subscribe to a distinct account (and all to slots) and are dropped at once, a moment later,
    // or (every fourth) once their account subscribe is answered — the hub answers only when the node has, so those
    // surely reached it, however slow the machine
    const accounts = fc.sample(anAddress, { numRuns: 40, seed: 3 });
    await Promise.all(
      accounts.map(async (account, i) => {
        const client = await openRecording(rpcUrl());
        client.send(request(String(i), "accountSubscribe", json([account, { encoding: "base64" }])));
        client.send(request(`"s${i}"`, "slotSubscribe"));
        if (i % 4 === 2) await client.frame("the account subscribe's answer", (f) => f.id === i);
        else await sleep(i % 5 === 0 ? 0 : i % 23);
        client.ws.terminate();
      }),
    );

    // Then localnet holds nothing of theirs once the hub has seen them go (each subscribe answered later is unsubscribed)
    // (and stays so: a subscribe the node answers after its socket went is unsubscribed then)
    const leftAfterMs = Date.now();
    const quiet = async () => {
      const frames = tap.framesUp.length;
      await sleep(1000);
      return (await nodeTotal()) === 0 && tap.framesUp.length === frames ? true : undefined;
    };
    await until("every upstream subscription of the dropped sockets gone, for good", quiet, 15_000);
    const up = tap.framesUp.slice(upBefore).map((t) => JSON.parse(t) as { method: string });
    const count = (method: string) => up.filter((f) => f.method === method).length;
    // some of them reached the node before their socket went (at least the ten answered ones): each was unsubscribed again
    expect(count("accountSubscribe")).toBeGreaterThanOrEqual(10);
    expect(count("accountUnsubscribe")).toBe(count("accountSubscribe"));
    expect(count("slotUnsubscribe")).toBe(count("slotSubscribe"));
    console.log(JSON.stringify({ rpcPubSubChurn: { sockets: accounts.length, upstreamSubscribes: count("accountSubscribe") + count("slotSubscribe"), upstreamEmptyAfterMs: Date.now() - leftAfterMs } }));

    // and a fresh client subscribes and is notified
    const fresh = await openRecording(rpcUrl());
    fresh.send(request("1", "slotSubscribe"));
    const ack = await fresh.frame("the subscribe's answer", (f) => f.id === 1);
    await fresh.frame("a slot notification", (f) => f.method === "slotNotification" && f.params.subscription === ack.result);
    expect(await nodeSubscriptions()).toEqual([expect.objectContaining({ method: "slotSubscribe", count: 1 })]);
    fresh.ws.close();
    await fresh.closed;
  }, 60_000);

  it("a frame over the runtime's own 32 MiB cap never reaches the hub: workerd closes the socket (1009), and the hub drops its subscriptions", async () => {
    // Given a socket holding a subscription the node holds for it alone
    const client = await openRecording(rpcUrl());
    client.send(request("1", "accountSubscribe", json([chain.world.keys.bob, { encoding: "base64" }])));
    await client.frame("the subscribe's answer", (f) => f.id === 1);
    expect(await nodeSubscriptions()).toEqual([expect.objectContaining({ method: "accountSubscribe", count: 1 })]);

    // When it sends one frame of 33 MiB
    client.send(Buffer.alloc(33 * 1024 * 1024));
    await until("the close frame (the socket CLOSING)", () => (client.ws.readyState >= WebSocket.CLOSING ? true : undefined), 10_000);

    // Then it is closed with 1009 and no answer (Node's ws reports the close when the TCP connection ends: dropped here),
    client.ws.terminate();
    expect(await client.closed).toEqual({ code: 1009, reason: "Message is too large" });
    expect(client.frames.filter((f) => f.id !== 1)).toEqual([]);
    // and its subscription is unsubscribed upstream
    await until("its upstream subscription gone", async () => ((await nodeTotal()) === 0 ? true : undefined), 10_000);
  }, 30_000);

  it("the upstream socket dropped again and again: subscribed clients keep their ids and are notified after each reconnect, one upstream subscription per topic", async () => {
    const aliceToken = chain.world.keys.aliceToken;
    // Given three clients, two on alice's token account and one on slots
    const clients: RecordingClient[] = [];
    const ids: number[] = [];
    for (const [i, [method, params]] of ([["accountSubscribe", [aliceToken, { encoding: "base64" }]], ["accountSubscribe", [aliceToken, { encoding: "base64" }]], ["slotSubscribe", []]] as const).entries()) {
      const c = await openRecording(rpcUrl());
      c.send(request(String(i), method, json(params)));
      ids.push((await c.frame("the subscribe's answer", (f) => f.id === i)).result);
      clients.push(c);
    }
    const notified = (c: RecordingClient, id: number) => c.frames.filter((f) => typeof f.method === "string" && f.params?.subscription === id).length;

    // When the upstream socket is dropped five times, at random moments a notification or so apart
    const gaps = fc.sample(fc.integer({ min: 0, max: 600 }), { numRuns: 5, seed: 11 });
    for (const gap of gaps) {
      const before = clients.map((c, i) => notified(c, ids[i]!));
      await sleep(gap);
      tap.dropAll();
      // Then each client is notified again under its own id
      await until("notifications after the reconnect", () => (clients.every((c, i) => notified(c, ids[i]!) > before[i]! + 1) ? true : undefined), 15_000);
    }
    // and localnet holds one subscription per topic
    await until("one upstream subscription per topic", async () => {
      const subs = await nodeSubscriptions();
      return subs.length === 2 && subs.every((s) => s.count === 1) ? true : undefined;
    }, 10_000);
    expect(clients.every((c) => c.frames.every((f) => f.error === undefined))).toBe(true);
    for (const c of clients) c.ws.close();
    await until("nothing left upstream", async () => ((await nodeTotal()) === 0 ? true : undefined), 10_000);
  }, 60_000);

  it("revocations mid-stream: random keys of one account revoked while their sockets stream; theirs closed 1008 within 5 s, the others keep every notification; nothing left upstream", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 2, maxLength: 5 }), fc.integer({ min: 0, max: 400 }), async (revokeFlags, delay) => {
        // Given one account with several keys (DEV), each with a socket on alice's token account and on slots
        const account = `acct_rv${crypto.randomUUID().slice(0, 8)}`;
        const keys = await Promise.all(revokeFlags.map(() => worker.newApiKey({ account })));
        const clients = await Promise.all(keys.map((k) => openRecording(`${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${k}`)));
        clients.forEach((c) => {
          c.send(request("1", "accountSubscribe", json([chain.world.keys.aliceToken, { encoding: "base64" }])));
          c.send(request("2", "slotSubscribe"));
        });
        await until("subscribed", () => (clients.every((c) => c.frames.filter((f) => f.id === 1 || f.id === 2).length === 2) ? true : undefined));
        // When some keys are revoked mid-stream
        await sleep(delay);
        const at = Date.now();
        await Promise.all(keys.map((k, i) => (revokeFlags[i] ? worker.updateApiKey(k, { revoked: true }) : undefined)));
        // Then the revoked keys' sockets are told and closed within 5 s
        const revoked = clients.filter((_, i) => revokeFlags[i]);
        const kept = clients.filter((_, i) => !revokeFlags[i]);
        await until("revoked sockets told", () => (revoked.every((c) => c.frames.some((f) => f.error?.message === "API key revoked")) ? true : undefined), 5_000);
        expect(Date.now() - at).toBeLessThan(5_000);
        for (const c of revoked) expect(await c.closed).toEqual({ code: 1008, reason: "API key revoked" });
        // and the others still stream, never told anything of the kind
        const counts = kept.map((c) => c.frames.length);
        await until("the others notified", () => (kept.every((c, i) => c.frames.length > counts[i]! + 1) ? true : undefined), 5_000);
        for (const c of kept) expect(c.frames.some((f) => f.error !== undefined)).toBe(false);
        for (const c of kept) c.ws.close();
        await Promise.all(kept.map((c) => c.closed));
        await until("nothing left upstream", async () => ((await nodeTotal()) === 0 ? true : undefined), 10_000);
      }),
      { numRuns: 4, seed: 19 },
    );
  }, 90_000);

  it("non-reading clients among readers: each silent socket past the byte bound is closed 1008, the readers (who ping) stay and keep every notification", async () => {
    const params = json([chain.world.keys.aliceToken, { commitment: "processed", encoding: "base64" }]);
    const silent = await Promise.all([0, 1].map(() => openRecording(rpcUrl())));
    const readers = await Promise.all([0, 1].map(() => openRecording(rpcUrl())));
    // 100 subscriptions each on one busy account: 100 copies of every notification per socket
    for (const c of [...silent, ...readers]) for (let i = 1; i <= 100; i++) c.send(request(String(i), "accountSubscribe", params));
    await until("subscribed", () => ([...silent, ...readers].every((c) => c.frames.filter((f) => f.id !== undefined).length >= 100) ? true : undefined));
    const refused = [...silent, ...readers].flatMap((c) => c.frames.filter((f) => f.id !== undefined && !Number.isInteger(f.result)));
    expect(refused, "every subscribe answered with a subscription id").toEqual([]);
    // copies counted from here: every subscription of every reader is live
    const from = readers.map((r) => r.frames.length);
    const pings = setInterval(() => readers.forEach((r) => r.send({ jsonrpc: "2.0", method: "ping" })), 200);
    try {
      // once the readers were sent more than the bound (the silent sockets were sent the same notifications; how long
      // that takes depends on the chain's pace, not the rule), each silent socket is closed within a few seconds
      const notificationBytes = (r: RecordingClient, k: number) => r.frames.slice(from[k]).reduce((n, f) => n + (f.method === "accountNotification" ? JSON.stringify(f).length : 0), 0);
      await until("the readers sent 1.25 × the bound", () => (readers.every((r, k) => notificationBytes(r, k) > 1.25 * limits.pubSubHub.maxUnackedBytes) ? true : undefined), 150_000, 250);
      for (const c of silent) expect(await Promise.race([c.closed, sleep(5_000).then(() => "still open")])).toEqual({ code: 1008, reason: expect.stringMatching(/^Client not reading/) });
      for (const r of readers) expect(r.ws.readyState).toBe(WebSocket.OPEN);
      // every reader got the same number of copies of each notification (100: one per subscription)
      for (const [k, r] of readers.entries()) {
        const perSlot = new Map<number, number>();
        for (const f of r.frames.slice(from[k])) if (f.method === "accountNotification") perSlot.set(f.params.result.context.slot, (perSlot.get(f.params.result.context.slot) ?? 0) + 1);
        // (the first and last slots counted may be cut by the window's edges)
        const [first, last] = [Math.min(...perSlot.keys()), Math.max(...perSlot.keys())];
        expect(perSlot.size).toBeGreaterThan(5);
        expect([...perSlot].filter(([slot, n]) => slot !== first && slot !== last && n !== 100)).toEqual([]);
      }
    } finally {
      clearInterval(pings);
      for (const r of readers) r.ws.close();
    }
  }, 200_000);
});
