/**
 * The chain tail goes idle when no room has a topic, and wakes when one comes back: the real worker under workerd (the
 * route, a room, the `chain-tail` object) against localnet, whose PubSub stat (`GET /__localnet/pubsub`) shows the
 * tail's upstream `slotSubscribe` socket. A client leaves by closing its socket, so its room keeps the subscription for
 * a resume; the room sleeps (evicted) and wakes on its alarm after the resume window: it must tell the tail it has
 * nothing left. Idle means no slot socket upstream, no alarm (so no run and no log line), a cursor that stays put.
 */
import { runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { chainTailName } from "../../src/streams/stream-room";
import { roomOfConnection } from "../../src/socket-shards";
import { newApiKey } from "../helpers/keys";
import { advance } from "../helpers/localnet";
import { sleep, until as untilWithin } from "../helpers/wait";

const tail = () => env.CHAIN_TAIL.get(env.CHAIN_TAIL.idFromName(chainTailName));

/** 30 s at most, polled every 250 ms (each probe asks localnet or a Durable Object). */
const until = <T>(what: string, probe: () => Promise<T | undefined>) => untilWithin(what, probe, 30_000, 250);

/** Live `slotSubscribe` subscriptions at localnet (the tail's socket is the only client asking for slots here). */
async function slotSubscriptions(): Promise<number> {
  const stat = (await (await fetch(`${env.LOCALNET_URL}/__localnet/pubsub`)).json()) as { subscriptions: { method: string; count: number }[] };
  return stat.subscriptions.filter((s) => s.method === "slotSubscribe").reduce((a, s) => a + s.count, 0);
}

const tailState = () =>
  runInDurableObject(tail(), async (_i, state) => ({
    alarm: await state.storage.getAlarm(),
    cursor: await state.storage.get<number>("cursor"),
    rooms: [...(await state.storage.list({ prefix: "room:" })).keys()],
  }));

interface Client {
  ws: WebSocket;
  frames: { type: string; status?: string }[];
}

async function subscribedClient(key: string, connectionId: string): Promise<Client> {
  const res = await SELF.fetch(`https://api.test/ws?x-api-key=${key}&connectionId=${connectionId}`, { headers: { upgrade: "websocket" } });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const frames: Client["frames"] = [];
  ws.addEventListener("message", (m) => {
    frames.push(JSON.parse(String(m.data)));
  });
  ws.send(JSON.stringify({ method: "subscribeNewpair" }));
  await until("the ack", async () => frames.find((f) => f.type === "subscribeNewpair" && f.status === "success"));
  return { ws, frames };
}

const connectionId = "idle-tail-conn-1";
const room = () => env.STREAM_ROOM.get(env.STREAM_ROOM.idFromName(roomOfConnection(connectionId, limits.streams.shards)));
let later: Client | undefined;

afterAll(async () => {
  later?.ws.close(1000, "done");
  // leave the tail idle for later files
  const { rooms } = await tailState();
  for (const key of rooms) await tail().setTopics(key.slice("room:".length), []);
});

describe("the chain tail goes idle with the last topic and wakes with the next", () => {
  it("a client leaves; its room wakes after the resume window: the tail closes its upstream socket and stops; a new subscriber starts it again", async () => {
    // Given a subscriber: the tail runs, with its slot socket open upstream
    expect(await slotSubscriptions()).toBe(0);
    const key = await newApiKey();
    const first = await subscribedClient(key, connectionId);
    await until("the tail's slot socket", async () => ((await slotSubscriptions()) >= 1 ? true : undefined));
    expect((await tailState()).alarm).not.toBeNull();

    // When the client closes its socket (its subscription waits for a resume), the room sleeps, and wakes on its alarm
    // once the resume window is over
    first.ws.close(1000, "bye");
    await until("the room to see the close", () =>
      runInDurableObject(room(), async (_i, state) => (state.storage.sql.exec("SELECT count(*) AS n FROM subscriptions WHERE detached_at IS NOT NULL").one().n === 1 ? true : undefined)),
    );
    await runInDurableObject(room(), async (_i, state) => {
      state.storage.sql.exec("UPDATE subscriptions SET detached_at = ?", Date.now() - limits.streams.resumeWindowMs - 1_000);
      await state.storage.setAlarm(Date.now());
    });
    await runInDurableObject(room(), (_i, state) => {
      try {
        state.abort("test: the room is evicted while it waits");
      } catch {
        // abort throws in the aborted call itself
      }
    }).catch(() => undefined);
    await runDurableObjectAlarm(room());

    // Then the tail forgets the room, closes its upstream socket and sets no alarm
    await until("the tail idle", async () => {
      const state = await tailState();
      return state.rooms.length === 0 && state.alarm === null && (await slotSubscriptions()) === 0 ? state : undefined;
    });
    // and stays so while the chain moves on: no socket, no alarm, the cursor where it stopped (nothing runs or logs)
    const idle = await tailState();
    await advance(5);
    await sleep(2_000);
    expect(await slotSubscriptions()).toBe(0);
    expect(await tailState()).toEqual(idle);

    // When a client subscribes again
    later = await subscribedClient(key, "idle-tail-conn-2");
    // Then the tail opens its socket again and follows the chain from the tip
    await until("the slot socket again", async () => ((await slotSubscriptions()) >= 1 ? true : undefined));
    const tip = await advance(3);
    await until("the cursor past the new slots", async () => (((await tailState()).cursor ?? -1) >= tip - 1 ? true : undefined));
    expect((await tailState()).alarm).not.toBeNull();
  }, 90_000);
});
