import { jsonRpcCodes, proxyErrors, tooManyAccountSubscriptions, tooManyPendingRequests, tooManySubscriptions, type RpcErrorObject } from "../errors/rpc-errors";
import { objectMemberSpans, skipWhitespace, sliceSpan, type Span } from "../json/json-spans";
import { limits } from "../limits";
import { rawErrorResponseText, resultResponseText, upstreamRequestText } from "../rpc/json-rpc-envelope";
import { readPubSubFrame, unsubscribeMethodOf } from "./pubsub-frames";
import { topicKeyOf } from "./pubsub-topic-key";

/**
 * The protocol state of the PubSub hub (pubsub/pubsub-hub.ts), without sockets: many client sockets (`C`, opaque here)
 * over ONE upstream socket. Each distinct subscription (method + canonical params, pubsub-topic-key.ts) is a topic
 * with one upstream subscription and a set of client subscriptions; each client subscription has its own id, unique in
 * the hub, never reused (ids are reserved durably in blocks) and stable across upstream reconnects and evictions, and
 * notifications are rewritten to it. A topic is unsubscribed
 * upstream when its last client subscription goes; a signature topic ends with its notification (as Agave does).
 */

/** What a client socket keeps across hibernation: its subscriptions as [client id, method, params text or null]. */
export interface PubSubAttachment {
  subs: [number, string, string | null][];
  /** The subscriptions did not fit the attachment: after an eviction this socket cannot be restored. */
  lost?: true;
  /** Whose socket it is (the account's plan caps), kept across hibernation. */
  owner?: ClientOwner;
}

/** The account of a socket and its plan's caps on PubSub subscriptions (plans.ts); `data` is the hub's own (the key record). */
export interface ClientOwner {
  account: string;
  /** Subscriptions per socket (never above `limits.maxPubSubSubscriptionsPerSocket`). */
  perSocket: number;
  /** Subscriptions of all the account's sockets in this hub shard (an account's sockets all go to one shard). */
  perAccount: number;
  socketId: string;
  data?: unknown;
}

interface Topic<C> {
  key: string;
  method: string;
  paramsText: string | undefined;
  /** The upstream subscription id (as the node wrote it) once the node has answered the subscribe. */
  upstreamId: string | undefined;
  /** The upstream request of the subscribe in flight, if any. */
  requestId: number | undefined;
  subscribers: Map<number, ClientState<C>>;
  /** Client subscribes made while the node's answer is awaited; answered with it. */
  waiters: { client: ClientState<C>; idJson: string; subId: number }[];
}

interface ClientState<C> {
  socket: C;
  closed: boolean;
  owner: ClientOwner | undefined;
  subs: Map<number, Topic<C>>;
  /** Subscribes of this client waiting for the node's answer. */
  waiting: number;
  /** Requests passed through to the node (unsubscribes it alone can answer) waiting for its answer. */
  forwarded: number;
}

type Pending<C> =
  | { kind: "subscribe"; topic: Topic<C>; text: string; sent: boolean }
  | { kind: "unsubscribe"; text: string; sent: boolean }
  | { kind: "forward"; client: ClientState<C>; idJson: string; text: string; sent: boolean };

/** What the hub does with the sockets. */
export interface PubSubHubIo<C> {
  /** `copyOf`: set on a notification copy (the owner it is billed to), absent on answers. */
  toClient(socket: C, text: string, copyOf?: ClientOwner): void;
  /**
   * A subscribe within the caps, before it is taken: the owner's credits (pubsub-hub.ts). An error refuses it; nothing
   * taken. Absent: every subscribe within the caps is taken.
   */
  admitSubscribe?(owner: ClientOwner): RpcErrorObject | undefined;
  toUpstream(text: string): void;
  /** The client's subscriptions changed: keep them with the socket (hibernation). */
  persist(socket: C, attachment: PubSubAttachment): void;
  /** Client subscription ids below `next` may be handed out: keep `next` durably, so ids are never reused after an eviction. */
  reserveSubIds(next: number): void;
}

/** Client subscription ids reserved (made durable) at a time: one storage write per this many subscribes. */
const SUB_ID_BLOCK = 1000;

/** Agave's answer to an unsubscribe of an id the connection does not hold. */
const invalidSubscriptionId: RpcErrorObject = { code: jsonRpcCodes.INVALID_PARAMS, message: "Invalid subscription id." };

/** `[<id>]` as Agave's unsubscribes take it (a u64 we can hold exactly); anything else is the node's to answer. */
const unsubscribeParams = /^\[\s*(0|[1-9][0-9]{0,14})\s*\]$/;

export class PubSubHubState<C> {
  private readonly clients = new Map<C, ClientState<C>>();
  /** The clients of each account (owner), for the per-account cap. */
  private readonly byAccount = new Map<string, Set<ClientState<C>>>();
  private readonly topics = new Map<string, Topic<C>>();
  private readonly byUpstreamId = new Map<string, Topic<C>>();
  /** Upstream requests by our id, in the order made (a reconnect sends the unsent ones again in this order). */
  private readonly pending = new Map<number, Pending<C>>();
  private upstreamOpen = false;
  private nextRequestId = 1;
  private nextSubId: number;
  /** Ids below this are reserved (io.reserveSubIds); `nextSubId` reaching it reserves the next block. */
  private reservedSubIds: number;

  /** `firstSubId`: the reservation kept by the hub's previous life (1 for a new hub). */
  constructor(
    private readonly io: PubSubHubIo<C>,
    firstSubId = 1,
  ) {
    this.nextSubId = firstSubId;
    this.reservedSubIds = firstSubId;
  }

  /** The hub needs its upstream socket: a topic is live or asked for, or a request waits for the node. */
  get needsUpstream(): boolean {
    return this.topics.size > 0 || this.pending.size > 0;
  }

  /** Distinct upstream subscriptions (live or asked for). */
  get topicCount(): number {
    return this.topics.size;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Live plus asked-for subscriptions of one client. */
  subscriptionCount(socket: C): number {
    const client = this.clients.get(socket);
    return client === undefined ? 0 : client.subs.size + client.waiting;
  }

  addClient(socket: C, owner?: ClientOwner): void {
    if (this.clients.has(socket)) return;
    const client: ClientState<C> = { socket, closed: false, owner, subs: new Map(), waiting: 0, forwarded: 0 };
    this.clients.set(socket, client);
    if (owner !== undefined) {
      let set = this.byAccount.get(owner.account);
      if (set === undefined) this.byAccount.set(owner.account, (set = new Set()));
      set.add(client);
    }
  }

  /** The client's owner (account and caps), if it has one. */
  ownerOf(socket: C): ClientOwner | undefined {
    return this.clients.get(socket)?.owner;
  }

  /** Live plus asked-for subscriptions of all of an account's sockets here. */
  accountSubscriptionCount(account: string): number {
    let n = 0;
    for (const client of this.byAccount.get(account) ?? []) n += client.subs.size + client.waiting;
    return n;
  }

  /** The sockets of an account here. */
  socketsOf(account: string): C[] {
    return [...(this.byAccount.get(account) ?? [])].map((client) => client.socket);
  }

  /**
   * A socket accepted before the hub was evicted: its subscriptions come back under the same ids and their topics are
   * subscribed again once the upstream socket opens. False when the attachment says they could not all be kept.
   */
  restoreClient(socket: C, attachment: PubSubAttachment | null): boolean {
    this.addClient(socket, attachment?.owner);
    if (attachment?.lost) return false;
    const client = this.clients.get(socket)!;
    for (const [subId, method, paramsText] of attachment?.subs ?? []) {
      const topic = this.topicFor(method, paramsText === null ? undefined : (JSON.parse(paramsText) as unknown[]), paramsText ?? undefined);
      topic.subscribers.set(subId, client);
      client.subs.set(subId, topic);
      this.nextSubId = Math.max(this.nextSubId, subId + 1);
    }
    return true;
  }

  clientClosed(socket: C): void {
    const client = this.clients.get(socket);
    if (client === undefined) return;
    this.clients.delete(socket);
    client.closed = true;
    if (client.owner !== undefined) {
      const set = this.byAccount.get(client.owner.account);
      set?.delete(client);
      if (set?.size === 0) this.byAccount.delete(client.owner.account);
    }
    for (const [subId, topic] of client.subs) {
      topic.subscribers.delete(subId);
      this.dropIfUnused(topic);
    }
    client.subs.clear();
    // Its pass-through requests not yet on the upstream socket never go.
    for (const [id, request] of this.pending) if (request.kind === "forward" && request.client === client && !request.sent) this.pending.delete(id);
  }

  fromClient(socket: C, frame: string | ArrayBuffer): void {
    const client = this.clients.get(socket);
    if (client === undefined) return;
    const read = readPubSubFrame(frame);
    if (read.kind === "ignored") return;
    if (read.kind === "refused") return this.io.toClient(socket, read.answer);
    const { idJson, method } = read;
    if (read.subscribe) {
      const perSocket = Math.min(limits.maxPubSubSubscriptionsPerSocket, client.owner?.perSocket ?? Infinity);
      if (client.subs.size + client.waiting >= perSocket) return this.refuse(client, idJson, tooManySubscriptions(perSocket));
      const owner = client.owner;
      if (owner !== undefined && this.accountSubscriptionCount(owner.account) >= owner.perAccount) {
        return this.refuse(client, idJson, tooManyAccountSubscriptions(owner.perAccount));
      }
    }
    const waitingForNode = client.waiting + client.forwarded;
    if (waitingForNode >= limits.maxPubSubInFlightRequests) return this.refuse(client, idJson, tooManyPendingRequests(limits.maxPubSubInFlightRequests));
    // While the upstream socket opens, pass-through requests wait as frames (capped here); subscribes wait as topic
    // waiters, already bounded by the subscription cap: a client opening its full set on connect is not refused.
    if (!this.upstreamOpen && !read.subscribe && client.forwarded >= limits.maxPubSubQueuedFrames) return this.refuse(client, idJson, tooManyPendingRequests(limits.maxPubSubQueuedFrames));

    if (read.subscribe) {
      const refusal = client.owner === undefined ? undefined : this.io.admitSubscribe?.(client.owner);
      if (refusal !== undefined) return this.refuse(client, idJson, refusal);
      const topic = this.topicFor(method, read.params, read.paramsText);
      const subId = this.newSubId();
      if (topic.upstreamId !== undefined) {
        this.attach(client, topic, subId);
        return this.io.toClient(socket, resultResponseText(idJson, String(subId)));
      }
      topic.waiters.push({ client, idJson, subId });
      client.waiting++;
      return;
    }
    const match = unsubscribeParams.exec(read.paramsText ?? "");
    if (match === null) {
      client.forwarded++;
      this.request({ kind: "forward", client, idJson, text: "", sent: false }, method, read.paramsText);
      return;
    }
    const subId = Number(match[1]);
    const topic = client.subs.get(subId);
    if (topic === undefined || unsubscribeMethodOf(topic.method) !== method) return this.refuse(client, idJson, invalidSubscriptionId);
    client.subs.delete(subId);
    topic.subscribers.delete(subId);
    this.io.persist(socket, this.attachmentOf(client));
    this.io.toClient(socket, resultResponseText(idJson, "true"));
    this.dropIfUnused(topic);
  }

  fromUpstream(frame: string | ArrayBuffer): void {
    const text = typeof frame === "string" ? frame : new TextDecoder().decode(frame);
    const members = objectMemberSpans(text, skipWhitespace(text, 0));
    if (members === undefined) return;
    const method = members.get("method");
    if (method !== undefined) return this.notify(text, sliceSpan(text, method), members.get("params"));
    const idSpan = members.get("id");
    const requestId = idSpan === undefined ? NaN : Number(sliceSpan(text, idSpan));
    const request = this.pending.get(requestId);
    // Not an answer to anything we sent (the node's own error about a frame it could not read): dropped.
    if (request === undefined) return;
    this.pending.delete(requestId);
    const result = members.get("result");
    const error = members.get("error");
    const resultText = result === undefined ? undefined : sliceSpan(text, result);
    const errorText = error === undefined ? (result === undefined ? JSON.stringify(proxyErrors.upstreamBadResponse) : undefined) : sliceSpan(text, error);
    if (request.kind === "forward") {
      request.client.forwarded--;
      if (request.client.closed) return;
      return this.io.toClient(request.client.socket, resultText !== undefined ? resultResponseText(request.idJson, resultText) : rawErrorResponseText(request.idJson, errorText!));
    }
    if (request.kind === "subscribe") this.subscribed(request.topic, resultText, errorText);
  }

  /** The upstream socket is open: every request not yet sent on it goes now, in order. */
  upstreamOpened(): void {
    this.upstreamOpen = true;
    for (const request of this.pending.values()) {
      if (request.sent) continue;
      request.sent = true;
      this.io.toUpstream(request.text);
    }
  }

  /**
   * The upstream socket is gone: its subscriptions died with it. Every topic is subscribed again on the next socket
   * (clients keep their ids), requests awaiting an answer are sent again, unsubscribes are moot.
   */
  upstreamLost(): void {
    this.upstreamOpen = false;
    this.byUpstreamId.clear();
    for (const [id, request] of this.pending) {
      const moot = request.kind === "unsubscribe" || (request.kind === "subscribe" && this.topics.get(request.topic.key) !== request.topic);
      if (!moot) request.sent = false;
      else {
        this.pending.delete(id);
        if (request.kind === "subscribe") request.topic.requestId = undefined;
      }
    }
    for (const topic of this.topics.values()) {
      if (topic.requestId !== undefined) continue;
      topic.upstreamId = undefined;
      this.requestSubscribe(topic);
    }
  }

  /** Every socket, for closing them all (the upstream cannot be reached). */
  sockets(): C[] {
    return [...this.clients.keys()];
  }

  attachmentOf(client: ClientState<C>): PubSubAttachment {
    const subs: PubSubAttachment["subs"] = [...client.subs].map(([subId, topic]) => [subId, topic.method, topic.paramsText ?? null]);
    return client.owner === undefined ? { subs } : { subs, owner: client.owner };
  }

  private newSubId(): number {
    if (this.nextSubId >= this.reservedSubIds) {
      this.reservedSubIds = this.nextSubId + SUB_ID_BLOCK;
      this.io.reserveSubIds(this.reservedSubIds);
    }
    return this.nextSubId++;
  }

  private topicFor(method: string, params: unknown[] | undefined, paramsText: string | undefined): Topic<C> {
    const identity = topicKeyOf(method, params, paramsText);
    let topic = this.topics.get(identity.key);
    if (topic === undefined) {
      topic = { key: identity.key, method, paramsText: identity.paramsText, upstreamId: undefined, requestId: undefined, subscribers: new Map(), waiters: [] };
      this.topics.set(identity.key, topic);
      this.requestSubscribe(topic);
    }
    return topic;
  }

  private requestSubscribe(topic: Topic<C>): void {
    topic.requestId = this.request({ kind: "subscribe", topic, text: "", sent: false }, topic.method, topic.paramsText);
  }

  private request(request: Pending<C>, method: string, paramsText: string | undefined): number {
    const id = this.nextRequestId++;
    request.text = upstreamRequestText(String(id), method, paramsText);
    this.pending.set(id, request);
    if (this.upstreamOpen) {
      request.sent = true;
      this.io.toUpstream(request.text);
    }
    return id;
  }

  /** The node answered a topic's subscribe: waiters get their own ids (or the node's error). */
  private subscribed(topic: Topic<C>, resultText: string | undefined, errorText: string | undefined): void {
    topic.requestId = undefined;
    const current = this.topics.get(topic.key) === topic;
    if (resultText !== undefined && !current) {
      // Every client left while the subscribe was in flight.
      return void this.request({ kind: "unsubscribe", text: "", sent: false }, unsubscribeMethodOf(topic.method), `[${resultText}]`);
    }
    const waiters = topic.waiters.splice(0);
    if (resultText === undefined) {
      // Refused (a bad param; or, after a reconnect, a subscription the node no longer takes): it ends for everyone.
      for (const { client, idJson } of waiters) {
        client.waiting--;
        if (!client.closed) this.io.toClient(client.socket, rawErrorResponseText(idJson, errorText!));
      }
      if (current) this.endTopic(topic);
      return;
    }
    topic.upstreamId = resultText;
    this.byUpstreamId.set(resultText, topic);
    for (const { client, idJson, subId } of waiters) {
      client.waiting--;
      if (client.closed) continue;
      this.attach(client, topic, subId);
      this.io.toClient(client.socket, resultResponseText(idJson, String(subId)));
    }
    this.dropIfUnused(topic);
  }

  /** A notification: one copy per client subscription, each with the client's own id in `params.subscription`. */
  private notify(text: string, method: string, params: Span | undefined): void {
    const subscription = params === undefined ? undefined : objectMemberSpans(text, params.start)?.get("subscription");
    if (subscription === undefined) return;
    const topic = this.byUpstreamId.get(sliceSpan(text, subscription));
    if (topic === undefined) return;
    const before = text.slice(0, subscription.start);
    const after = text.slice(subscription.end);
    for (const [subId, client] of topic.subscribers) this.io.toClient(client.socket, before + subId + after, client.owner);
    // Agave ends a signature subscription with its notification (not with the optional "receivedSignature" one).
    if (method === '"signatureNotification"' && !text.includes('"receivedSignature"', params!.start)) this.endTopic(topic);
  }

  private attach(client: ClientState<C>, topic: Topic<C>, subId: number): void {
    topic.subscribers.set(subId, client);
    client.subs.set(subId, topic);
    this.io.persist(client.socket, this.attachmentOf(client));
  }

  /** The topic is over upstream (notified signature, refused): its client subscriptions end with it. */
  private endTopic(topic: Topic<C>): void {
    this.topics.delete(topic.key);
    if (topic.upstreamId !== undefined) this.byUpstreamId.delete(topic.upstreamId);
    for (const [subId, client] of topic.subscribers) {
      client.subs.delete(subId);
      if (!client.closed) this.io.persist(client.socket, this.attachmentOf(client));
    }
    topic.subscribers.clear();
  }

  /** No client holds or waits for the topic: it goes, and its upstream subscription with it. */
  private dropIfUnused(topic: Topic<C>): void {
    if (topic.subscribers.size > 0 || topic.waiters.some((waiter) => !waiter.client.closed)) return;
    if (this.topics.get(topic.key) !== topic) return;
    this.topics.delete(topic.key);
    if (topic.requestId !== undefined) {
      // Not yet answered: if still unsent, it never goes; else its answer is unsubscribed (subscribed()).
      const request = this.pending.get(topic.requestId);
      if (request !== undefined && !request.sent) {
        this.pending.delete(topic.requestId);
        topic.requestId = undefined;
      }
      return;
    }
    if (topic.upstreamId === undefined) return;
    this.byUpstreamId.delete(topic.upstreamId);
    this.request({ kind: "unsubscribe", text: "", sent: false }, unsubscribeMethodOf(topic.method), `[${topic.upstreamId}]`);
  }

  private refuse(client: ClientState<C>, idJson: string, error: RpcErrorObject): void {
    this.io.toClient(client.socket, rawErrorResponseText(idJson, JSON.stringify(error)));
  }
}
