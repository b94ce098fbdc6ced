/**
 * `subscribePrice` sends each token's current price at once, then its changes: the worker bundle served by Miniflare
 * (rooms and the chain tail), localnet's full world with manual slots (nothing trades until the test moves the chain),
 * a `ws` client. The first frame after the ack is the token's record — numbered seq 1 like any event — equal to what
 * REST `/api/v1/price` answers at that moment; once the token trades, its new record follows as seq 2.
 * At `"commitment":"processed"`: a whale's buy in a processed block reaches the client before that block is confirmed,
 * and when localnet drops the block (`POST /__localnet/drop-next`), a correction naming its slot, then the confirmed record.
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

async function confirmedSlot(commitment = "confirmed"): Promise<number> {
  const res = await fetch(net.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment }] }) });
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

describe("subscribePrice at processed: a block's price before it is confirmed, and a correction when the cluster drops it", () => {
  it("the buy in a processed block comes within its slot marked processed (a confirmed subscription gets nothing); once the block is dropped, a correction for its slot, then the confirmed record", async () => {
    // Given a SOL-quoted token priced by a pool the world trades, and two subscriptions of it: processed and confirmed
    const world = (await (await fetch(`${net.rpcUrl}/__localnet/world`)).json()) as { tokens: { mint: string; pools: { kind: string; address: string; quoteMint: string }[] }[] };
    const candidates = world.tokens.filter((t) => t.pools.length === 1 && t.pools[0]!.kind === "raydium-cpmm" && t.pools[0]!.quoteMint === "So11111111111111111111111111111111111111112");
    let mint = "";
    let rest: any;
    for (const t of candidates) {
      rest = await (await fetch(`${worker.origin}/api/v1/price?ca=${t.mint}`, { headers: { "x-api-key": key } })).json();
      if (rest.pool === t.pools[0]!.address) {
        mint = t.mint;
        break;
      }
    }
    expect(mint, "a CPMM-priced token").not.toBe("");
    const client = await openRecording(`${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}`);
    await client.frame("connected", (f) => f.type === "connected");
    client.send({ method: "subscribePrice", tokens: [mint], commitment: "processed" });
    const processed = await client.frame("the processed ack", (f) => f.type === "subscribePrice" && f.commitment === "processed");
    client.send({ method: "subscribePrice", tokens: [mint] });
    const confirmed = await client.frame("the confirmed ack", (f) => f.type === "subscribePrice" && f.commitment === undefined);
    // its snapshot is the confirmed record, said so; then the tail follows the token at processed (its first record)
    const snapshot = await client.frame("the processed subscription's snapshot", (f) => f.subscribeId === processed.subscribeId && f.type === "price" && f.data.commitment === "confirmed");
    expect(snapshot.data).toEqual({ ...rest, commitment: "confirmed", slot: snapshot.data.slot, updatedAt: snapshot.data.updatedAt });
    await client.frame("the first processed record", (f) => f.subscribeId === processed.subscribeId && f.type === "price" && f.data.commitment === "processed", 10_000);
    const confirmedFramesBefore = client.frames.filter((f) => f.subscribeId === confirmed.subscribeId).length;

    // When the next block, processed only, carries a whale's buy of 30 SOL on the token's pool
    let settled = false;
    const drop = fetch(`${net.rpcUrl}/__localnet/drop-next?pool=${rest.pool}&sol=30&wait=1`, { method: "POST" }).finally(() => (settled = true));
    while (!settled) {
      await sleep(30);
      if (!settled) await net.advance(1);
    }
    const fork = ((await (await drop).json()) as { slot: number }).slot;
    expect(await confirmedSlot("processed")).toBe(fork);

    // Then the processed subscription gets its price read at that slot, higher (a buy), while the slot is not confirmed
    const early = await client.frame("the fork's processed price", (f) => f.subscribeId === processed.subscribeId && f.type === "price" && f.data.slot === fork, 10_000);
    expect(early.data).toMatchObject({ ca: mint, pool: rest.pool, commitment: "processed" });
    expect(Number(early.data.priceInSol)).toBeGreaterThan(Number(snapshot.data.priceInSol));
    expect(await confirmedSlot()).toBeLessThan(fork);
    // and the confirmed subscription got nothing of it
    expect(client.frames.filter((f) => f.subscribeId === confirmed.subscribeId)).toHaveLength(confirmedFramesBefore);

    // When the chain goes on: the next block builds on the fork's parent, and the confirmed chain passes the slot
    const from = client.frames.length;
    for (let i = 0; i < 20 && (await confirmedSlot()) <= fork; i++) await net.advance(1);
    expect(await confirmedSlot()).toBeGreaterThan(fork);

    // Then a correction names the dropped slot, and the confirmed record follows it (numbered in the same stream)
    const correction = await client.frame("the correction", (f) => f.subscribeId === processed.subscribeId && f.type === "correction", 10_000, from);
    expect(correction.data).toMatchObject({ ca: mint, slot: fork, reason: "dropped" });
    expect(correction.data.message).toContain(`Slot ${fork} was dropped`);
    const after = await client.frame("the confirmed record after it", (f) => f.subscribeId === processed.subscribeId && f.type === "price" && f.seq === correction.seq + 1, 10_000, from);
    expect(after.data).toMatchObject({ ca: mint, pool: rest.pool, commitment: "confirmed" });
    expect(after.data.slot).toBeGreaterThan(fork);
    // the whale's buy never happened on the confirmed chain: the confirmed subscription never saw a price at that slot
    expect(client.frames.some((f) => f.subscribeId === confirmed.subscribeId && f.type === "price" && f.data.slot === fork)).toBe(false);
    // seqs of the processed subscription go on without a gap
    const seqs = client.frames.filter((f) => f.subscribeId === processed.subscribeId && typeof f.seq === "number").map((f) => f.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    await endClient(client);
  }, 120_000);

  it("refuses a commitment that is not confirmed or processed, and processed on a kind that streams confirmed only, with an error frame (the socket kept)", async () => {
    const client = await openRecording(`${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}`);
    await client.frame("connected", (f) => f.type === "connected");
    const mint = "So11111111111111111111111111111111111111112";
    const cases: [unknown, string][] = [
      [{ method: "subscribePrice", tokens: [mint], commitment: "finalized" }, "Invalid commitment: must be one of confirmed, processed"],
      [{ method: "subscribePrice", tokens: [mint], commitment: 1 }, "Invalid commitment: expected string"],
      [{ method: "subscribeTrade", tokens: [mint], commitment: "processed" }, "Invalid commitment: subscribeTrade streams confirmed only"],
      [{ method: "subscribeCandle", tokens: [mint], interval: "1m", commitment: "processed" }, "Invalid commitment: subscribeCandle streams confirmed only"],
      [{ method: "subscribeNewpair", commitment: "processed" }, "Invalid commitment: subscribeNewpair streams confirmed only"],
    ];
    for (const [message, error] of cases) {
      const from = client.frames.length;
      client.send(message);
      expect((await client.frame(error, (f) => f.type === "error", 5_000, from)).message).toBe(error);
    }
    client.send({ method: "ping" });
    await client.frame("pong", (f) => f.type === "pong");
    await endClient(client);
  });
});
