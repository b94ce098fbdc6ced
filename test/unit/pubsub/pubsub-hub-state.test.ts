import { describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { PubSubHubState, type PubSubAttachment } from "../../../src/pubsub/pubsub-hub-state";

const PK = "11111111111111111111111111111111";

/** A hub with sockets as names; every frame each way recorded, attachments kept per socket. */
function hub(open = true, firstSubId = 1) {
  const reservations: number[] = [];
  const toClient = new Map<string, any[]>();
  const toUpstream: any[] = [];
  const attachments = new Map<string, PubSubAttachment>();
  const state = new PubSubHubState<string>({
    toClient: (socket, text) => toClient.set(socket, [...(toClient.get(socket) ?? []), JSON.parse(text)]),
    toUpstream: (text) => toUpstream.push(JSON.parse(text)),
    persist: (socket, attachment) => attachments.set(socket, structuredClone(attachment)),
    reserveSubIds: (next) => reservations.push(next),
  }, firstSubId);
  if (open) state.upstreamOpened();
  const connect = (...names: string[]) => names.forEach((name) => state.addClient(name));
  const send = (socket: string, id: unknown, method: string, params?: unknown[]) =>
    state.fromClient(socket, JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }));
  const frames = (socket: string) => toClient.get(socket) ?? [];
  const upstreamAnswer = (id: number, result: unknown) => state.fromUpstream(JSON.stringify({ jsonrpc: "2.0", result, id }));
  const notify = (method: string, subscription: number, result: unknown) => state.fromUpstream(JSON.stringify({ jsonrpc: "2.0", method, params: { result, subscription } }));
  return { state, toUpstream, attachments, reservations, connect, send, frames, upstreamAnswer, notify };
}

describe("identical subscriptions share one upstream subscription", () => {
  it("three clients on one account: one upstream subscribe, each its own id, each notification rewritten per client", () => {
    // Given three clients asking for the same account (one with keys in another order)
    const h = hub();
    h.connect("a", "b", "c");
    h.send("a", 1, "accountSubscribe", [PK, { encoding: "base64", commitment: "confirmed" }]);
    h.send("b", "x", "accountSubscribe", [PK, { commitment: "confirmed", encoding: "base64" }]);
    // When the node answers the one subscribe it got, and a third client comes after
    expect(h.toUpstream).toEqual([{ jsonrpc: "2.0", id: 1, method: "accountSubscribe", params: [PK, { commitment: "confirmed", encoding: "base64" }] }]);
    h.upstreamAnswer(1, 777);
    h.send("c", 9, "accountSubscribe", [PK, { commitment: "confirmed", encoding: "base64" }]);
    // Then each has its own subscription id, the third answered at once
    const ids = ["a", "b", "c"].map((s) => h.frames(s)[0].result);
    expect(new Set(ids).size).toBe(3);
    expect(h.frames("a")[0]).toEqual({ jsonrpc: "2.0", result: ids[0], id: 1 });
    expect(h.frames("b")[0]).toEqual({ jsonrpc: "2.0", result: ids[1], id: "x" });
    expect(h.toUpstream).toHaveLength(1);
    // And a notification reaches each under its own id
    h.notify("accountNotification", 777, { context: { slot: 5 }, value: { lamports: 1 } });
    for (const [i, socket] of ["a", "b", "c"].entries()) {
      expect(h.frames(socket).at(-1)).toEqual({ jsonrpc: "2.0", method: "accountNotification", params: { result: { context: { slot: 5 }, value: { lamports: 1 } }, subscription: ids[i] } });
    }
    expect(h.state.topicCount).toBe(1);
  });

  it("unsubscribes are answered here; the upstream subscription goes with the last one", () => {
    const h = hub();
    h.connect("a", "b");
    h.send("a", 1, "slotSubscribe");
    h.send("b", 1, "slotSubscribe");
    h.upstreamAnswer(1, 50);
    const [a, b] = [h.frames("a")[0].result, h.frames("b")[0].result];
    h.send("a", 2, "slotUnsubscribe", [a]);
    expect(h.frames("a")[1]).toEqual({ jsonrpc: "2.0", result: true, id: 2 });
    expect(h.toUpstream).toHaveLength(1);
    h.notify("slotNotification", 50, { slot: 1 });
    expect(h.frames("a")).toHaveLength(2);
    expect(h.frames("b").at(-1).params.subscription).toBe(b);
    h.send("b", 3, "slotUnsubscribe", [b]);
    expect(h.toUpstream.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, method: "slotUnsubscribe", params: [50] });
    expect(h.state.topicCount).toBe(0);
  });

  it("an unknown id, another client's id, or the wrong unsubscribe method → Agave's -32602; params the hub cannot read go to the node", () => {
    const h = hub();
    h.connect("a", "b");
    h.send("a", 1, "slotSubscribe");
    h.upstreamAnswer(1, 50);
    const a = h.frames("a")[0].result;
    h.send("b", 2, "slotUnsubscribe", [a]);
    h.send("a", 3, "rootUnsubscribe", [a]);
    h.send("a", 4, "slotUnsubscribe", [987654]);
    const invalid = (id: number) => ({ jsonrpc: "2.0", error: { code: -32602, message: "Invalid subscription id." }, id });
    expect(h.frames("b")).toEqual([invalid(2)]);
    expect(h.frames("a").slice(1)).toEqual([invalid(3), invalid(4)]);
    h.send("a", "odd", "slotUnsubscribe", ["x"]);
    expect(h.toUpstream.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, method: "slotUnsubscribe", params: ["x"] });
    h.state.fromUpstream('{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params: invalid type: string \\"x\\", expected u64."},"id":2}');
    expect(h.frames("a").at(-1)).toEqual({ jsonrpc: "2.0", error: { code: -32602, message: 'Invalid params: invalid type: string "x", expected u64.' }, id: "odd" });
  });

  it("the node's refusal of a subscribe reaches every waiting client with its own id, and the topic is gone", () => {
    const h = hub();
    h.connect("a", "b");
    h.send("a", 1, "accountSubscribe", ["bad"]);
    h.send("b", 2, "accountSubscribe", ["bad"]);
    h.state.fromUpstream('{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid Request: Invalid pubkey provided"},"id":1}');
    expect(h.frames("a")).toEqual([{ jsonrpc: "2.0", error: { code: -32602, message: "Invalid Request: Invalid pubkey provided" }, id: 1 }]);
    expect(h.frames("b")).toEqual([{ jsonrpc: "2.0", error: { code: -32602, message: "Invalid Request: Invalid pubkey provided" }, id: 2 }]);
    expect(h.state.topicCount).toBe(0);
    expect(h.state.needsUpstream).toBe(false);
  });

  it("a signature subscription ends with its notification (not with receivedSignature); a client closing drops its share", () => {
    const h = hub();
    h.connect("a", "b");
    h.send("a", 1, "signatureSubscribe", ["sig"]);
    h.send("b", 1, "signatureSubscribe", ["sig"]);
    h.upstreamAnswer(1, 9);
    h.notify("signatureNotification", 9, { context: { slot: 3 }, value: "receivedSignature" });
    expect(h.state.topicCount).toBe(1);
    h.notify("signatureNotification", 9, { context: { slot: 4 }, value: { err: null } });
    expect(h.frames("a").at(-1).params.result).toEqual({ context: { slot: 4 }, value: { err: null } });
    expect(h.frames("b").at(-1).params.result).toEqual({ context: { slot: 4 }, value: { err: null } });
    expect(h.state.topicCount).toBe(0);
    expect(h.state.subscriptionCount("a")).toBe(0);
    expect(h.toUpstream).toHaveLength(1);

    h.send("a", 2, "rootSubscribe");
    h.send("b", 2, "rootSubscribe");
    h.upstreamAnswer(2, 10);
    h.state.clientClosed("a");
    expect(h.toUpstream).toHaveLength(2);
    h.state.clientClosed("b");
    expect(h.toUpstream.at(-1)).toEqual({ jsonrpc: "2.0", id: 3, method: "rootUnsubscribe", params: [10] });
  });

  it("every client leaving while the subscribe is in flight: its answer is unsubscribed at once", () => {
    const h = hub();
    h.connect("a");
    h.send("a", 1, "slotSubscribe");
    h.state.clientClosed("a");
    h.upstreamAnswer(1, 70);
    expect(h.toUpstream.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, method: "slotUnsubscribe", params: [70] });
    expect(h.frames("a")).toEqual([]);
  });
});

describe("upstream reconnects and hibernation: client ids stay", () => {
  it("the upstream socket is lost: every topic is subscribed again on the next one, clients keep their ids", () => {
    const h = hub();
    h.connect("a");
    h.send("a", 1, "slotSubscribe");
    h.upstreamAnswer(1, 50);
    const id = h.frames("a")[0].result;
    h.state.upstreamLost();
    expect(h.toUpstream).toHaveLength(1);
    h.state.upstreamOpened();
    expect(h.toUpstream.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, method: "slotSubscribe" });
    h.upstreamAnswer(2, 51);
    h.notify("slotNotification", 50, { slot: 1 });
    h.notify("slotNotification", 51, { slot: 2 });
    expect(h.frames("a").slice(1)).toEqual([{ jsonrpc: "2.0", method: "slotNotification", params: { result: { slot: 2 }, subscription: id } }]);
  });

  it("attachments hold each client's subscriptions; a new hub restores them under the same ids and subscribes each topic once", () => {
    // Given a hub with two clients sharing an account and one with a slot subscription
    const before = hub();
    before.connect("a", "b");
    before.send("a", 1, "accountSubscribe", [PK, { commitment: "confirmed" }]);
    before.send("b", 1, "accountSubscribe", [PK, { commitment: "confirmed" }]);
    before.send("b", 2, "slotSubscribe");
    before.upstreamAnswer(1, 5);
    before.upstreamAnswer(2, 6);
    const aId = before.frames("a")[0].result;
    const [bAccount, bSlot] = before.frames("b").map((f) => f.result);
    expect(before.attachments.get("b")!.subs).toEqual([
      [bAccount, "accountSubscribe", `["${PK}",{"commitment":"confirmed"}]`],
      [bSlot, "slotSubscribe", null],
    ]);
    // When a new hub (after an eviction) restores the sockets and its upstream opens
    const after = hub(false);
    expect(after.state.restoreClient("a", before.attachments.get("a")!)).toBe(true);
    expect(after.state.restoreClient("b", before.attachments.get("b")!)).toBe(true);
    after.state.upstreamOpened();
    // Then each topic is subscribed once, and notifications reach the old ids
    expect(after.toUpstream.map((r) => r.method)).toEqual(["accountSubscribe", "slotSubscribe"]);
    after.upstreamAnswer(1, 100);
    after.upstreamAnswer(2, 101);
    after.notify("accountNotification", 100, { value: 1 });
    expect(after.frames("a")).toEqual([{ jsonrpc: "2.0", method: "accountNotification", params: { result: { value: 1 }, subscription: aId } }]);
    expect(after.frames("b").map((f) => f.params.subscription)).toEqual([bAccount]);
    // And new ids never collide with restored ones
    after.send("a", 3, "rootSubscribe");
    after.upstreamAnswer(3, 102);
    expect(after.frames("a").at(-1).result).toBeGreaterThan(Math.max(aId, bAccount, bSlot));
    expect(after.state.restoreClient("c", { subs: [], lost: true })).toBe(false);
  });
});

describe("client subscription ids are never reused", () => {
  it("ids are reserved durably 1,000 at a time; a hub started from the reservation continues above every id handed out", () => {
    // Given a hub that hands out 1,001 ids (unsubscribing each, so none is in any attachment)
    const h = hub();
    h.connect("a");
    h.send("a", 0, "slotSubscribe");
    h.upstreamAnswer(1, 5);
    for (let i = 1; i <= 1000; i++) {
      h.send("a", i, "slotSubscribe");
      h.send("a", `u${i}`, "slotUnsubscribe", [h.frames("a").at(-1).result]);
    }
    const handedOut = h.frames("a").filter((f) => typeof f.result === "number").map((f) => f.result as number);
    expect(handedOut).toHaveLength(1001);
    // Then two blocks were reserved, one write each
    expect(h.reservations).toEqual([1001, 2001]);
    // When a new hub starts from the last reservation (an eviction), its first id is above every one handed out
    const after = hub(true, h.reservations.at(-1)!);
    after.connect("a");
    after.send("a", 1, "slotSubscribe");
    after.upstreamAnswer(1, 9);
    expect(after.frames("a")[0].result).toBeGreaterThan(Math.max(...handedOut));
  });
});

describe("caps per socket", () => {
  it(`subscriptions: ${limits.maxPubSubSubscriptionsPerSocket} (answered or not) accepted, one more → -32062`, () => {
    const h = hub();
    h.connect("a");
    const cap = limits.maxPubSubSubscriptionsPerSocket;
    for (let i = 1; i <= cap; i++) h.send("a", i, "accountSubscribe", [`${PK}${i}`]);
    expect(h.state.subscriptionCount("a")).toBe(cap);
    h.send("a", "over", "rootSubscribe");
    expect(h.frames("a")).toEqual([{ jsonrpc: "2.0", error: { code: -32062, message: `Too many subscriptions on this connection; max ${cap}`, data: { max: cap } }, id: "over" }]);
    expect(h.toUpstream).toHaveLength(cap);
  });

  it(`pass-through requests waiting while the upstream socket opens: ${limits.maxPubSubQueuedFrames} held, one more → -32063; the held ones go in order`, () => {
    const h = hub(false);
    h.connect("a");
    const max = limits.maxPubSubQueuedFrames;
    for (let i = 1; i <= max + 1; i++) h.send("a", i, "slotUnsubscribe", [`x${i}`]);
    expect(h.toUpstream).toEqual([]);
    expect(h.frames("a")).toEqual([{ jsonrpc: "2.0", error: { code: -32063, message: `Too many requests waiting for the upstream node; max ${max}`, data: { max } }, id: max + 1 }]);
    h.state.upstreamOpened();
    expect(h.toUpstream.map((r) => r.id)).toEqual(Array.from({ length: max }, (_, i) => i + 1));
  });

  it("a full set of subscribes sent while the upstream socket opens (as a client does on connecting) all wait, bounded by the subscription cap, and go in order once it opens", () => {
    const h = hub(false);
    h.connect("a");
    const cap = limits.maxPubSubSubscriptionsPerSocket;
    for (let i = 1; i <= cap; i++) h.send("a", i, "accountSubscribe", [`${PK}${i}`]);
    h.send("a", "over", "rootSubscribe");
    expect(h.toUpstream).toEqual([]);
    expect(h.frames("a")).toEqual([{ jsonrpc: "2.0", error: { code: -32062, message: `Too many subscriptions on this connection; max ${cap}`, data: { max: cap } }, id: "over" }]);
    h.state.upstreamOpened();
    expect(h.toUpstream).toHaveLength(cap);
    expect(h.state.subscriptionCount("a")).toBe(cap);
  });

  it(`requests waiting for the node: ${limits.maxPubSubInFlightRequests} in flight, one more → -32063`, () => {
    const h = hub();
    h.connect("a");
    const max = limits.maxPubSubInFlightRequests;
    for (let i = 1; i <= max; i++) h.send("a", i, "slotUnsubscribe", [`x${i}`]);
    h.send("a", "more", "slotUnsubscribe", ["y"]);
    expect(h.toUpstream).toHaveLength(max);
    expect(h.frames("a")).toEqual([{ jsonrpc: "2.0", error: { code: -32063, message: `Too many requests waiting for the upstream node; max ${max}`, data: { max } }, id: "more" }]);
  });
});
