/**
 * End to end through the real rooms: a client on `GET /ws` subscribes to trades of some tokens; the room registers its
 * topics with the chain tail (`chain-tail`), which follows the chain and publishes to the room, which numbers the
 * events per subscription. Against localnet's ground truth over 60 slots: every trade of those tokens arrives exactly
 * once, in chain order, with seq 1, 2, 3, ...; nothing of other tokens. Then the tail dies between publishing 20 blocks
 * and writing its cursor (its cursor put back, the object reset): it publishes them again, and the client still gets
 * every trade once. Then the client leaves and the tail goes idle.
 */
import { runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { advance, chainRpc } from "../helpers/localnet";
import { sleep, until as poll } from "../helpers/wait";

interface Truth {
  signature: string;
  slot: number;
  ordinal: number;
  baseMint: string;
  failed: boolean;
}

interface Frame {
  type: string;
  subscribeId?: string;
  seq?: number;
  status?: string;
  data?: { signature: string; ordinal: number; baseMint: string; slot: number };
}

const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
const tail = () => env.CHAIN_TAIL.get(env.CHAIN_TAIL.idFromName("chain-tail"));
const confirmedSlot = () => chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
/** The tail moves at localnet's slot pace: up to a minute, asked every 250 ms. */
const until = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined) => poll(what, probe, 60_000, 250);

async function truthIn(from: number, to: number): Promise<Truth[]> {
  return ((await (await fetch(`${env.LOCALNET_URL}/__localnet/trades?from=${from}&to=${to}`)).json()) as { trades: Truth[] }).trades;
}


const frames: Frame[] = [];
let ws: WebSocket;
let mints: string[] = [];
let start = 0;
let tip = 0;

beforeAll(async () => {
  // Given a client subscribed to trades of half the recently traded tokens
  await advance(2);
  const recent = (await truthIn(Math.max(1, (await confirmedSlot()) - 300), await confirmedSlot())).filter((t) => !t.failed);
  mints = [...new Set(recent.map((t) => t.baseMint))].filter((m) => !STABLE_OR_SOL.has(m)).sort().filter((_, i) => i % 2 === 0).slice(0, 50);
  const key = await newApiKey();
  const res = await SELF.fetch(`https://api.test/ws?x-api-key=${key}`, { headers: { upgrade: "websocket" } });
  expect(res.status).toBe(101);
  ws = res.webSocket!;
  ws.accept();
  ws.addEventListener("message", (m) => frames.push(JSON.parse(String(m.data)) as Frame));
  ws.send(JSON.stringify({ method: "subscribeTrade", tokens: mints }));
  await until("the ack", () => frames.find((f) => f.type === "subscribeTrade" && f.status === "success"));
  // the room tells the tail, which starts at the tip
  start = await until("the tail's cursor", () => runInDurableObject(tail(), async (_i, state) => state.storage.get<number>("cursor")));
  // When 60 slots of traffic follow
  await advance(60);
  tip = await confirmedSlot();
  await until("the tail at the tip", () => runInDurableObject(tail(), async (_i, state) => (((await state.storage.get<number>("cursor")) ?? -1) >= tip ? true : undefined)));
  await sleep(500);
}, 180_000);

afterAll(async () => {
  ws?.close(1000, "done");
  // The room keeps a closed socket's subscriptions for resume; the tail is told to forget them, so it goes idle and no
  // later file's faults or slot counts meet its polls.
  const rooms = await runInDurableObject(tail(), async (_i, state) => [...(await state.storage.list({ prefix: "room:" })).keys()]);
  for (const key of rooms) await tail().setTopics(key.slice("room:".length), []);
});

describe("chain tail → room → client", () => {
  it("every trade of the subscribed tokens arrives once, in chain order, numbered 1, 2, 3, ...; nothing else", async () => {
    const trades = frames.filter((f) => f.type === "trade" && f.data!.slot > start && f.data!.slot <= tip);
    const want = (await truthIn(start + 1, tip)).filter((t) => !t.failed && mints.includes(t.baseMint));
    expect(want.length).toBeGreaterThan(10);
    expect(trades.map((f) => `${f.data!.signature}:${f.data!.ordinal}`)).toEqual(want.map((t) => `${t.signature}:${t.ordinal}`));
    const all = frames.filter((f) => f.type === "trade");
    expect(all.map((f) => f.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.every((f) => mints.includes(f.data!.baseMint))).toBe(true);
    console.log(JSON.stringify({ chainTailE2e: { slots: tip - start, tokens: mints.length, trades: trades.length } }));
  });

  it("a tail that dies between publishing blocks and writing its cursor publishes them again: the client gets nothing twice", async () => {
    // Given the tail at the tip, put its cursor 20 blocks back and reset the object (memory gone), as if it had died
    // after publishing those blocks and before writing its cursor
    const at = await until("the tail at the tip", () => runInDurableObject(tail(), async (_i, state) => state.storage.get<number>("cursor")));
    const back = at - 20;
    await runInDurableObject(tail(), async (_i, state) => {
      await state.storage.put("cursor", back);
    });
    await runInDurableObject(tail(), (_i, state) => {
      try {
        state.abort("test: die before the cursor is written");
      } catch {
        // abort throws in the aborted call itself
      }
    }).catch(() => undefined);
    // When 10 more slots follow
    await advance(10);
    const end = await confirmedSlot();
    await until("the tail past its old cursor", () => runInDurableObject(tail(), async (_i, state) => (((await state.storage.get<number>("cursor")) ?? -1) >= end ? true : undefined)));
    await sleep(500);
    // Then every trade from the start arrives once, in order, numbered without a gap
    const trades = frames.filter((f) => f.type === "trade" && f.data!.slot > start && f.data!.slot <= end);
    const want = (await truthIn(start + 1, end)).filter((t) => !t.failed && mints.includes(t.baseMint));
    expect(want.filter((t) => t.slot > back && t.slot <= at).length).toBeGreaterThan(0);
    expect(trades.map((f) => `${f.data!.signature}:${f.data!.ordinal}`)).toEqual(want.map((t) => `${t.signature}:${t.ordinal}`));
    const all = frames.filter((f) => f.type === "trade");
    expect(all.map((f) => f.seq)).toEqual(all.map((_, i) => i + 1));
  }, 120_000);
});
