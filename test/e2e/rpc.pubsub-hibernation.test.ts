/**
 * The PubSub hub hibernating: with no subscription left it closes its upstream socket, so nothing keeps it in memory
 * and workerd evicts it (~10 s idle); client sockets accepted with the Hibernation API stay connected, and the next
 * subscribe wakes a new instance, which continues client ids above the durable reservation (never reused).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { TinyChain } from "../localnet/helpers/local-chain";
import { closeWorkerAndChain, serveWorkerOnTinyChain, type ServedWorker } from "./helpers/served-worker";

let chain: TinyChain;
let worker: ServedWorker;
let key: string;

beforeAll(async () => {
  ({ chain, worker } = await serveWorkerOnTinyChain({ slotMs: 100 }));
  key = await worker.newApiKey();
}, 120_000);

afterAll(() => closeWorkerAndChain({ chain, worker }));

async function openClient(): Promise<{ ws: WebSocket; call: (method: string, params?: unknown[]) => Promise<any>; notified: any[] }> {
  const ws = new WebSocket(`${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`);
  const notified: any[] = [];
  const waiting = new Map<number, (frame: any) => void>();
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data));
    if (frame.method) notified.push(frame);
    else waiting.get(frame.id)?.(frame);
  });
  await new Promise<void>((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
  let nextId = 1;
  const call = (method: string, params?: unknown[]) =>
    new Promise<any>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }));
    });
  return { ws, call, notified };
}

const nodeConnections = async () => ((await (await fetch(`${chain.net.rpcUrl}/__localnet/pubsub`)).json()) as { connections: number }).connections;

describe("an idle hub is evicted; its client sockets are not", () => {
  it("a client idle through the eviction keeps its socket; its next subscribe is served with an id never handed out before", async () => {
    // Given a client that subscribed, received a few notifications (copies short of a credit, billed later: no timer may
    // keep the hub in memory for them) and unsubscribed: the hub has closed its upstream socket
    const client = await openClient();
    const first = (await client.call("slotSubscribe")).result as number;
    const heard = Date.now() + 5000;
    while (!client.notified.some((n) => n.params.subscription === first) && Date.now() < heard) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(client.notified.some((n) => n.params.subscription === first)).toBe(true);
    expect((await client.call("slotUnsubscribe", [first])).result).toBe(true);
    const end = Date.now() + 5000;
    while ((await nodeConnections()) !== 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await nodeConnections()).toBe(0);

    // When it stays idle long enough for workerd to evict the hub (nothing holds it in memory: workerd evicts after
    // ~10 s idle; on a busy machine later, so an answer from the same instance — an id below its reservation of 1,000
    // ids from 1 — means it was not evicted yet: the client unsubscribes, waits idle again, up to three times)
    const handedOut = [first];
    let second = 0;
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 25_000));
      expect(client.ws.readyState).toBe(WebSocket.OPEN);
      second = (await client.call("slotSubscribe")).result as number;
      expect(handedOut, "an id handed out before").not.toContain(second);
      handedOut.push(second);
      if (second >= 1001) break;
      expect((await client.call("slotUnsubscribe", [second])).result).toBe(true);
      const idle = Date.now() + 5000;
      while ((await nodeConnections()) !== 0 && Date.now() < idle) await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // Then its socket is still open, a subscribe works and notifies, and the id is above the reservation the first
    // instance made: a new instance answered, and no id was reused
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    expect(second, `ids handed out: ${handedOut.join(", ")}`).toBeGreaterThanOrEqual(1001);
    const end2 = Date.now() + 5000;
    while (!client.notified.some((n) => n.params.subscription === second) && Date.now() < end2) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(client.notified.some((n) => n.params.subscription === second)).toBe(true);
    client.ws.close();
  }, 150_000);
});
