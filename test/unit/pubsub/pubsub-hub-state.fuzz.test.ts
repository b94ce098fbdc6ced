/**
 * The PubSub hub's protocol state (src/pubsub/pubsub-hub-state.ts) under random interleavings, against a node that
 * behaves as Agave does (it answers in order, when the run lets it; refuses bad params; forgets everything when its
 * socket drops; ends a signature subscription with its notification). fast-check drives clients connecting,
 * subscribing (shared and distinct topics, some refused), unsubscribing (their ids, others' ids, made-up ids), closing
 * mid-subscribe, the node answering late, notifying, and the upstream socket dropping and coming back. Checked:
 * nothing throws; every request of a client still open is answered exactly once, with its own id; a client is
 * notified only under ids it holds; and once every client has gone and the node has answered, the node holds no
 * subscription and the hub no topic — nothing leaks upstream.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PubSubHubState } from "../../../src/pubsub/pubsub-hub-state";

const keys = ["11111111111111111111111111111111", "So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"];
const topics: [string, unknown[] | undefined][] = [
  ["slotSubscribe", undefined],
  ["rootSubscribe", []],
  ...keys.map((k): [string, unknown[]] => ["accountSubscribe", [k, { encoding: "base64" }]]),
  ...keys.map((k): [string, unknown[]] => ["logsSubscribe", [{ mentions: [k] }]]),
  ["signatureSubscribe", ["5".repeat(88)]],
  // refused by the node (a bad param)
  ["accountSubscribe", ["not-a-key"]],
];
const CLIENTS = 3;

type Action =
  | { a: "connect"; c: number }
  | { a: "subscribe"; c: number; t: number }
  | { a: "unsubscribe"; c: number; pick: number; how: "own" | "other" | "made-up" | "wrong-method" }
  | { a: "close"; c: number }
  | { a: "answer"; n: number }
  | { a: "notify"; pick: number }
  | { a: "drop" }
  | { a: "reopen" };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ a: fc.constant("connect" as const), c: fc.nat(CLIENTS - 1) }) },
  { weight: 5, arbitrary: fc.record({ a: fc.constant("subscribe" as const), c: fc.nat(CLIENTS - 1), t: fc.nat(topics.length - 1) }) },
  { weight: 3, arbitrary: fc.record({ a: fc.constant("unsubscribe" as const), c: fc.nat(CLIENTS - 1), pick: fc.nat(), how: fc.constantFrom("own" as const, "own" as const, "other" as const, "made-up" as const, "wrong-method" as const) }) },
  { weight: 1, arbitrary: fc.record({ a: fc.constant("close" as const), c: fc.nat(CLIENTS - 1) }) },
  { weight: 4, arbitrary: fc.record({ a: fc.constant("answer" as const), n: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ a: fc.constant("notify" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ a: "drop" as const }) },
  { weight: 2, arbitrary: fc.constant({ a: "reopen" as const }) },
);

/** A node as Agave behaves on one socket: answers in order (when the run says), forgets all when the socket drops. */
class Node {
  /** requests received on the current socket, not yet answered */
  queue: { id: number; method: string; params: unknown[] | undefined }[] = [];
  live = new Map<number, { method: string }>();
  private nextId = 1000;
  open = true;
  constructor(private readonly hub: () => PubSubHubState<string>) {}

  receive(text: string): void {
    if (this.open) this.queue.push(JSON.parse(text));
  }

  answer(n: number): void {
    for (let i = 0; i < n && this.open && this.queue.length > 0; i++) {
      const { id, method, params } = this.queue.shift()!;
      let reply: object;
      if (method.endsWith("Unsubscribe")) {
        const sub = Array.isArray(params) && params.length === 1 ? params[0] : undefined;
        const held = typeof sub === "number" && this.live.get(sub)?.method === method.replace(/Unsubscribe$/, "Subscribe");
        if (held) this.live.delete(sub);
        reply = held ? { result: true } : { error: { code: -32602, message: "Invalid subscription id." } };
      } else if (method === "accountSubscribe" && params?.[0] === "not-a-key") {
        reply = { error: { code: -32602, message: "Invalid param: WrongSize" } };
      } else {
        const sub = this.nextId++;
        this.live.set(sub, { method });
        reply = { result: sub };
      }
      this.hub().fromUpstream(JSON.stringify({ jsonrpc: "2.0", ...reply, id }));
    }
  }

  notify(pick: number): void {
    const subs = [...this.live];
    if (!this.open || subs.length === 0) return;
    const [sub, { method }] = subs[pick % subs.length]!;
    const notification = method.replace(/Subscribe$/, "Notification");
    // Agave ends a signature subscription with its notification
    if (method === "signatureSubscribe") this.live.delete(sub);
    this.hub().fromUpstream(JSON.stringify({ jsonrpc: "2.0", method: notification, params: { result: { context: { slot: 1 }, value: {} }, subscription: sub } }));
  }

  drop(): void {
    this.open = false;
    this.queue = [];
    this.live.clear();
  }
}

interface Client {
  open: boolean;
  /** request id → answers received */
  answers: Map<number, unknown[]>;
  sent: number[];
  /** subscription ids it holds (answered, not unsubscribed or ended) */
  held: Map<number, string>;
  /** notifications under ids it did not hold */
  strays: unknown[];
}

function run(actions: Action[]): void {
  let hub!: PubSubHubState<string>;
  const node = new Node(() => hub);
  const clients = new Map<string, Client>();
  const requestMethods = new Map<string, string>();
  hub = new PubSubHubState<string>({
    toClient: (socket, text) => {
      const c = clients.get(socket)!;
      const frame = JSON.parse(text);
      if (frame.method !== undefined) {
        const sub = frame.params.subscription;
        if (!c.held.has(sub)) c.strays.push(frame);
        // a signature subscription ends with its notification, for every client that shared it
        if (frame.method === "signatureNotification") c.held.delete(sub);
        return;
      }
      c.answers.set(frame.id, [...(c.answers.get(frame.id) ?? []), frame]);
      const asked = requestMethods.get(`${socket}:${frame.id}`)!;
      if (asked.endsWith("Subscribe") && typeof frame.result === "number") c.held.set(frame.result, asked);
    },
    toUpstream: (text) => node.receive(text),
    persist: () => undefined,
    reserveSubIds: () => undefined,
  });
  hub.upstreamOpened();
  let nextRequest = 1;
  /** client slot → its socket open now */
  const current = new Map<number, string>();
  const send = (name: string, method: string, params: unknown[] | undefined) => {
    const c = clients.get(name)!;
    const id = nextRequest++;
    c.sent.push(id);
    requestMethods.set(`${name}:${id}`, method);
    hub.fromClient(name, JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }));
  };

  for (const act of actions) {
    switch (act.a) {
      case "connect": {
        if (current.has(act.c)) break;
        // a new socket each time (a closed one is gone for good)
        const name = `c${act.c}#${nextRequest++}`;
        clients.set(name, { open: true, answers: new Map(), sent: [], held: new Map(), strays: [] });
        current.set(act.c, name);
        hub.addClient(name);
        break;
      }
      case "subscribe": {
        const name = current.get(act.c);
        if (name === undefined) break;
        const [method, params] = topics[act.t]!;
        send(name, method, params);
        break;
      }
      case "unsubscribe": {
        const name = current.get(act.c);
        if (name === undefined) break;
        const c = clients.get(name)!;
        const own = [...c.held];
        const others = [...clients.entries()].filter(([n, x]) => n !== name && x.open).flatMap(([, x]) => [...x.held]);
        const pool = act.how === "other" ? others : own;
        if (act.how === "made-up" || pool.length === 0) {
          send(name, "slotUnsubscribe", [987_654_321 + act.pick]);
          break;
        }
        const [sub, method] = pool[act.pick % pool.length]!;
        const unsubscribe = act.how === "wrong-method" ? (method === "slotSubscribe" ? "rootUnsubscribe" : "slotUnsubscribe") : method.replace(/Subscribe$/, "Unsubscribe");
        send(name, unsubscribe, [sub]);
        if (act.how === "own") c.held.delete(sub);
        break;
      }
      case "close": {
        const name = current.get(act.c);
        if (name === undefined) break;
        clients.get(name)!.open = false;
        current.delete(act.c);
        hub.clientClosed(name);
        break;
      }
      case "answer":
        node.answer(act.n);
        break;
      case "notify":
        node.notify(act.pick);
        break;
      case "drop":
        if (!node.open) break;
        node.drop();
        hub.upstreamLost();
        break;
      case "reopen":
        if (node.open) break;
        node.open = true;
        hub.upstreamOpened();
        break;
    }
  }

  // Drain: the upstream comes back if it was down, and the node answers everything
  if (!node.open) {
    node.open = true;
    hub.upstreamOpened();
  }
  const drain = () => {
    for (let guard = 0; node.queue.length > 0; guard++) {
      if (guard > 10_000) throw new Error("the node never runs out of requests");
      node.answer(1);
    }
  };
  drain();
  // every request of a socket still open was answered once, under its own id
  for (const [name, c] of clients) {
    if (!c.open) continue;
    for (const id of c.sent) expect(c.answers.get(id), `${name}: request ${id}`).toHaveLength(1);
    expect([...c.answers.keys()].every((id) => c.sent.includes(id))).toBe(true);
    expect(c.strays, `${name} was notified under ids it does not hold`).toEqual([]);
  }
  // When every client goes, and the node answers what that causes
  for (const [name, c] of clients) if (c.open) hub.clientClosed(name);
  drain();
  // Then nothing is left, upstream or in the hub
  expect([...node.live.values()], "subscriptions left on the node").toEqual([]);
  expect(hub.topicCount).toBe(0);
  expect(hub.needsUpstream).toBe(false);
}

describe("PubSub hub state under random interleavings (fast-check, a node that behaves as Agave's)", () => {
  it("never throws; every open client's request answered once; notifications only under held ids; nothing leaks upstream once every client is gone", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 10, maxLength: 120, size: "max" }), (actions) => run(actions)),
      { numRuns: 2000 },
    );
  });
});
