/**
 * Every notification the node sends reaches every subscriber of the /rpc PubSub hub exactly once, over a run long
 * enough (≥ 200 slots, > 6 s) that anything periodic in the hub's upstream socket shows: localnet's tiny world in
 * manual mode (a token transfer each slot, so the watched token account changes every slot), one socket straight to
 * localnet as the oracle, and 1 then many clients through the worker. A single lost or doubled copy fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTinyChain, type TinyChain } from "../localnet/helpers/local-chain";
import { startPubSubTap, type PubSubTap } from "./helpers/pubsub-tap";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { until } from "../helpers/wait";

const SLOTS = 220;
/** Between slots: 220 notifications take > 7 s, past anything that times out at 5 s on the upstream side. */
const SLOT_GAP_MS = 30;

let chain: TinyChain;
let tap: PubSubTap;
let worker: ServedWorker;
let key: string;

interface Listener {
  ws: WebSocket;
  /** slot → how many notifications of that slot arrived */
  seen: Map<number, number>;
  answered: boolean;
}

async function listen(url: string, params: unknown[]): Promise<Listener> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const listener: Listener = { ws, seen: new Map(), answered: false };
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data));
    if (frame.method === "accountNotification") {
      const slot = frame.params.result.context.slot as number;
      listener.seen.set(slot, (listener.seen.get(slot) ?? 0) + 1);
    } else if (frame.id === 1 && frame.result !== undefined) listener.answered = true;
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "accountSubscribe", params }));
  return listener;
}


beforeAll(async () => {
  chain = await startTinyChain({ slotMs: 0 });
  tap = await startPubSubTap(chain.net.wsUrl);
  worker = await serveWorker({ UPSTREAM_RPC_URL: chain.net.rpcUrl, UPSTREAM_WS_URL: tap.url });
  key = await worker.newApiKey();
});

afterAll(async () => {
  await worker?.close();
  await tap?.close();
  await chain?.net.close();
});

/** Subscribes `clients` sockets through the hub and one straight to localnet, produces SLOTS slots, compares. */
async function deliveredToAll(clients: number): Promise<void> {
  const params = [chain.world.keys.aliceToken, { commitment: "processed", encoding: "base64" }];
  const oracle = await listen(chain.net.wsUrl, params);
  const viaHub: Listener[] = [];
  for (let i = 0; i < clients; i += 50) viaHub.push(...(await Promise.all(Array.from({ length: Math.min(50, clients - i) }, () => listen(`${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`, params)))));
  await until("every subscribe answered", () => (oracle.answered && viaHub.every((l) => l.answered)) || undefined, 20_000);
  const acceptedBefore = tap.accepted;
  const first = chain.net.ledger.slotAt("processed") + 1;
  const expected = () => [...oracle.seen.keys()].filter((s) => s >= first);
  // The seed skips some slots (no block, no change): produce until the oracle has seen SLOTS notifications.
  for (let i = 0; i < 2 * SLOTS && expected().length < SLOTS; i++) {
    await chain.net.advance(1);
    await new Promise((resolve) => setTimeout(resolve, SLOT_GAP_MS));
  }
  // the last copies through the hub
  await until("every copy", () => viaHub.every((l) => expected().every((s) => l.seen.has(s))) || undefined, 10_000).catch(() => undefined);
  const problems: string[] = [];
  viaHub.forEach((l, i) => {
    for (const s of expected()) {
      const n = l.seen.get(s) ?? 0;
      if (n !== 1) problems.push(`client ${i}: slot ${s} arrived ${n} times`);
    }
  });
  expect(expected().length).toBeGreaterThanOrEqual(SLOTS);
  expect(problems.slice(0, 10)).toEqual([]);
  // the hub kept one upstream socket through the run
  expect(tap.accepted).toBe(acceptedBefore);
  for (const l of [oracle, ...viaHub]) l.ws.terminate();
}

describe("the /rpc hub delivers every account notification exactly once (≥ 200 slots)", () => {
  it("to 1 client", async () => {
    await deliveredToAll(1);
  }, 60_000);

  it("to 200 clients", async () => {
    await deliveredToAll(200);
  }, 90_000);
});
