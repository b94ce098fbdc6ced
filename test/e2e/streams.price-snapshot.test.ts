/**
 * `subscribePrice` sends each token's current price at once, then its changes: the worker bundle served by Miniflare
 * (rooms and the chain tail), localnet's full world with manual slots (nothing trades until the test moves the chain),
 * a `ws` client. The first frame after the ack is the token's record — numbered seq 1 like any event — equal to what
 * REST `/api/v1/price` answers at that moment; once the token trades, its new record follows as seq 2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type Localnet } from "../../localnet/src/server";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { endClient, openRecording } from "./helpers/ws-client";
import { sleep, until } from "../helpers/wait";

const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);

let net: Localnet;
let worker: ServedWorker;
let key: string;

async function confirmedSlot(): Promise<number> {
  const res = await fetch(net.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] }) });
  return ((await res.json()) as { result: number }).result;
}

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 29 });
  await net.advance(40);
  worker = await serveWorker({ UPSTREAM_RPC_URL: net.rpcUrl, UPSTREAM_WS_URL: net.wsUrl });
  key = await worker.newApiKey();
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await net?.close();
});

describe("subscribePrice: the current price at once, then changes", () => {
  it("a token not trading now gets its record right after the ack (seq 1, equal to REST /api/v1/price), then its next change as seq 2", async () => {
    // Given the world's busiest token of the last slots (it will trade again once the chain moves), and a chain that
    // does not move: nothing trades
    const tip = await confirmedSlot();
    const res = await fetch(`${net.rpcUrl}/__localnet/trades?from=${tip - 39}&to=${tip}`);
    const recent = ((await res.json()) as { trades: { baseMint: string; failed: boolean }[] }).trades.filter((t) => !t.failed && !STABLE_OR_SOL.has(t.baseMint));
    const counts = new Map<string, number>();
    for (const t of recent) counts.set(t.baseMint, (counts.get(t.baseMint) ?? 0) + 1);
    const [mint] = [...counts].sort((a, b) => b[1] - a[1])[0]!;

    // When a client subscribes to its price
    const client = await openRecording(`${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}`);
    await client.frame("connected", (f) => f.type === "connected");
    client.send({ method: "subscribePrice", tokens: [mint] });
    const ack = await client.frame("the ack", (f) => f.type === "subscribePrice");
    // Then its current record comes at once, numbered 1, with the chain still where it was
    const snapshot = await client.frame("the snapshot", (f) => f.type === "price", 10_000);
    expect(snapshot).toMatchObject({ type: "price", subscribeId: ack.subscribeId, seq: 1, data: { ca: mint } });
    expect(client.frames.indexOf(snapshot)).toBeGreaterThan(client.frames.indexOf(ack));
    expect(await confirmedSlot()).toBe(tip);
    // and it is what REST answers for the token at that moment
    const rest = await (await fetch(`${worker.origin}/api/v1/price?ca=${mint}`, { headers: { "x-api-key": key } })).json();
    expect(snapshot.data).toEqual(rest);

    // When the chain moves until the token trades
    let changed: any;
    for (let i = 0; i < 30 && changed === undefined; i++) {
      await net.advance(5);
      await sleep(400);
      changed = client.frames.find((f) => f.type === "price" && f.seq === 2);
    }
    changed ??= await client.frame("a change", (f) => f.type === "price" && f.seq === 2, 10_000);
    // Then the change follows as seq 2, read after the snapshot
    expect(changed).toMatchObject({ type: "price", subscribeId: ack.subscribeId, seq: 2, data: { ca: mint } });
    expect(changed.data.slot).toBeGreaterThan(snapshot.data.slot);
    await until("no third frame out of order", () => (client.frames.filter((f) => f.type === "price").every((f, i) => f.seq === i + 1) ? true : undefined));
    await endClient(client);
  }, 120_000);
});
