/**
 * Sharing through the PubSub hub (src/pubsub/pubsub-hub.ts), end to end: the worker bundle served by Miniflare, localnet's
 * tiny world in manual mode (a token transfer each slot we produce), and 1,000 raw client sockets on one account.
 * The oracle: one socket straight to localnet with the same subscription; localnet's `GET /__localnet/pubsub` counts
 * what the node itself holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { TinyChain } from "../localnet/helpers/local-chain";
import { closeWorkerAndChain, serveWorkerOnTinyChain, type ServedWorker } from "./helpers/served-worker";
import { until as poll } from "../helpers/wait";

const CLIENTS = 1000;

let chain: TinyChain;
let worker: ServedWorker;
let key: string;

interface Client {
  ws: WebSocket;
  /** every frame received, parsed */
  frames: any[];
  /** when each notification arrived (ms, performance.now()) by its slot */
  notifiedAt: Map<number, number>;
}

async function open(url: string): Promise<Client> {
  const ws = new WebSocket(url);
  const client: Client = { ws, frames: [], notifiedAt: new Map() };
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data));
    client.frames.push(frame);
    if (frame.method === "accountNotification") client.notifiedAt.set(frame.params.result.context.slot, performance.now());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return client;
}

/** A condition, in the argument order this file reads best. */
const until = (done: () => boolean, what: string, timeoutMs = 20_000) => poll(what, () => done() || undefined, timeoutMs);

/** What localnet holds now: `{method, params, count}` groups. */
async function nodeSubscriptions(): Promise<{ method: string; params: unknown; count: number }[]> {
  const stat = (await (await fetch(`${chain.net.rpcUrl}/__localnet/pubsub`)).json()) as { subscriptions: { method: string; params: unknown; count: number }[] };
  return stat.subscriptions;
}

/** One slot at a time, 200 ms apart, so each notification's delay is its own and not a burst's queue. */
async function advanceSlowly(slots: number): Promise<void> {
  for (let i = 0; i < slots; i++) {
    await chain.net.advance(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const answerTo = (client: Client, id: unknown) => client.frames.find((f) => f.id === id);
const notifications = (client: Client) => client.frames.filter((f) => f.method === "accountNotification");

/** Delay of each client's copy behind the oracle's (the node's own socket), over every notification: p50 / p99 / max (ms). */
function fanOutDelays(oracle: Client, clients: Client[], slots: number[]): string {
  const delays = clients.flatMap((client) => slots.map((slot) => client.notifiedAt.get(slot)! - oracle.notifiedAt.get(slot)!)).sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!.toFixed(1);
  return `${clients.length} client(s) × ${slots.length} notifications: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${delays.at(-1)!.toFixed(1)} ms`;
}

beforeAll(async () => {
  ({ chain, worker } = await serveWorkerOnTinyChain());
  key = await worker.newApiKey();
}, 120_000);

afterAll(() => closeWorkerAndChain({ chain, worker }));

describe(`${CLIENTS} clients on one account through /rpc`, () => {
  it("cause exactly ONE upstream accountSubscribe; each client gets every notification under its own id; 999 unsubscribes keep the last one receiving; the last one removes the upstream subscription", async () => {
    const account = chain.world.keys.bobToken;
    const params = [account, { commitment: "processed", encoding: "base64" }];
    const wsUrl = `${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`;

    // Given the oracle: one socket straight to localnet with the same subscription
    const oracle = await open(chain.net.wsUrl);
    oracle.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "accountSubscribe", params }));
    await until(() => answerTo(oracle, 1) !== undefined, "the oracle's subscription");

    // And 1,000 client sockets through the worker, each subscribing to the account (opened 100 at a time)
    const clients: Client[] = [];
    for (let i = 0; i < CLIENTS; i += 100) clients.push(...(await Promise.all(Array.from({ length: 100 }, () => open(wsUrl)))));
    clients.forEach((client, i) => client.ws.send(JSON.stringify({ jsonrpc: "2.0", id: `c${i}`, method: "accountSubscribe", params })));
    await until(() => clients.every((client, i) => answerTo(client, `c${i}`) !== undefined), "every subscribe answer");
    const ids = clients.map((client, i) => answerTo(client, `c${i}`).result as number);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    expect(new Set(ids).size).toBe(CLIENTS);

    // Then the node holds exactly two subscriptions of the account: the oracle's and the hub's one
    const ofAccount = (await nodeSubscriptions()).filter((s) => s.method === "accountSubscribe" && (s.params as unknown[])[0] === account);
    expect(ofAccount.reduce((sum, s) => sum + s.count, 0)).toBe(2);

    // When slots are produced one at a time (each moves tokens into the account)
    await advanceSlowly(5);
    const expected = () => notifications(oracle).map((n) => n.params.result);
    await until(() => expected().length >= 3 && clients.every((client) => notifications(client).length === expected().length), "every client to get every notification");

    // Then every client got the oracle's notifications, in order, byte for byte but for its own subscription id
    const truth = expected();
    for (const [i, client] of clients.entries()) {
      const got = notifications(client);
      expect(got.map((n) => n.params.result)).toEqual(truth);
      expect(got.every((n) => n.params.subscription === ids[i])).toBe(true);
    }

    console.log(`push delay behind the node's own socket, ${fanOutDelays(oracle, clients, truth.map((r) => r.context.slot))}`);

    // When 999 clients unsubscribe
    for (let i = 0; i < CLIENTS - 1; i++) clients[i]!.ws.send(JSON.stringify({ jsonrpc: "2.0", id: `u${i}`, method: "accountUnsubscribe", params: [ids[i]] }));
    await until(() => clients.slice(0, -1).every((client, i) => answerTo(client, `u${i}`) !== undefined), "every unsubscribe answer");
    expect(clients.slice(0, -1).every((client, i) => answerTo(client, `u${i}`).result === true)).toBe(true);
    const before = clients.map((client) => notifications(client).length);
    const oracleBefore = notifications(oracle).length;
    await advanceSlowly(5);
    const last = clients.at(-1)!;
    await until(() => notifications(oracle).length >= oracleBefore + 3 && notifications(last).length === notifications(oracle).length, "the last client to keep receiving");
    expect(notifications(last).map((n) => n.params.result)).toEqual(expected());
    console.log(`push delay behind the node's own socket, ${fanOutDelays(oracle, [last], expected().slice(oracleBefore).map((r) => r.context.slot))}`);

    // Then only the last one still receives, and the node still holds the hub's one subscription
    expect(notifications(last).length).toBeGreaterThan(before.at(-1)!);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(clients.slice(0, -1).every((client, i) => notifications(client).length === before[i])).toBe(true);
    expect((await nodeSubscriptions()).filter((s) => s.method === "accountSubscribe" && (s.params as unknown[])[0] === account).reduce((sum, s) => sum + s.count, 0)).toBe(2);

    // When the last one unsubscribes, the hub's upstream subscription goes (only the oracle's is left)
    last.ws.send(JSON.stringify({ jsonrpc: "2.0", id: "last", method: "accountUnsubscribe", params: [ids.at(-1)] }));
    await until(() => answerTo(last, "last") !== undefined, "the last unsubscribe answer");
    expect(answerTo(last, "last").result).toBe(true);
    let left: number | undefined;
    await until(() => {
      void nodeSubscriptions().then((subs) => (left = subs.filter((s) => s.method === "accountSubscribe" && (s.params as unknown[])[0] === account).reduce((sum, s) => sum + s.count, 0)));
      return left === 1;
    }, "the upstream subscription to go");

    await Promise.all([oracle, ...clients].map((client) => new Promise((resolve) => (client.ws.once("close", resolve), client.ws.close()))));
  }, 120_000);
});
