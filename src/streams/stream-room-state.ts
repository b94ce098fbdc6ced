/**
 * Everything a stream room knows and does, without Durable Object or WebSocket APIs: sockets are `RoomSocket`s (a
 * workerd WebSocket is one), subscriptions live in a `SubscriptionStore` (the room's SQLite), the clock, key check and
 * topic registration come in as functions. src/streams/stream-room.ts is the thin shell around it; the unit tests drive
 * it with fakes (test/unit/streams/stream-room-state.test.ts), hibernation included: a room that wakes builds this
 * from its sockets' attachments and the store (`restore`).
 *
 * What survives hibernation: per socket, its attachment (`SocketAttachment`: connection id, account, auth deadline, its
 * subscriptions' ids and seqs — small, workerd caps it at 2,048 bytes); per subscription, its row (kind, addresses,
 * account; seq when detached), and the kept events of subscriptions waiting for a resume. What does not: the rings of
 * attached subscriptions (a resume after a restart says what it lost), rate buckets, bad-frame counts, unread-byte
 * counts (all start afresh, in the client's favour).
 */
import { z } from "zod/mini";
import { limits } from "../limits";
import { eventIdentity, streamKinds, topicOf, type StreamCommitment, type StreamEvent, type StreamKind } from "./stream-events";
import { ResumeRing, type RingEntry } from "./stream-resume-ring";
import { hashApiKey } from "../accounts/api-keys";
import { digestsEqual } from "../accounts/secret-tokens";
import { socketIdOf } from "../socket-shards";
import {
  closeCodes,
  commitmentOfOptions,
  errorFrame,
  eventFrameText,
  isRefusal,
  kindOfSubscribeMethod,
  pongText,
  readClientFrame,
  subscriptionIdPattern,
  type ClientMessage,
  type SubscribeMethod,
  type SubscriptionOptions,
} from "./stream-protocol";

export interface RoomSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
  serializeAttachment(value: unknown): void;
  deserializeAttachment(): unknown;
}

/** What a socket carries through hibernation. Short names: it is capped at 2,048 bytes serialized. */
export const socketAttachmentSchema = z.object({
  v: z.literal(1),
  /** connection id */
  c: z.string(),
  /** the socket's own id, under which the account's meter counts it (socket-shards.ts socketIdOf) */
  k: z.string(),
  /** the key's account, null until the first-message key is accepted */
  a: z.nullable(z.string()),
  /** unix ms by which an unauthenticated socket must send its key; 0 once authenticated */
  d: z.number(),
  /** [subscription id, last seq sent] */
  s: z.array(z.tuple([z.string(), z.number()])),
  /** the plan's tokens per subscription (absent: the service's cap) */
  t: z.optional(z.number()),
  /** the SHA-256 of the socket's key (hashApiKey; absent: not known yet, the next key in a message is taken) */
  h: z.optional(z.string()),
});
export type SocketAttachment = z.infer<typeof socketAttachmentSchema>;

export interface SubscriptionRow {
  id: string;
  account: string;
  kind: SubscribeMethod;
  tokens: string[];
  /** last seq, as of `detachedAt` (live seqs are in the socket's attachment) */
  seq: number;
  /** when its socket closed; null while attached */
  detachedAt: number | null;
  /** what it asked beyond kind and addresses (a candle interval); absent: nothing */
  options?: SubscriptionOptions;
}

export interface SubscriptionStore {
  all(): SubscriptionRow[];
  put(row: SubscriptionRow): void;
  /** Removes the subscription and its kept events. */
  remove(id: string): void;
  /**
   * Events kept for subscriptions waiting to be resumed (their socket closed): written down so a room that is evicted
   * meanwhile can still replay them. Attached subscriptions' rings live in memory only.
   */
  keepEvents(id: string, entries: RingEntry[]): void;
  keptEvents(id: string): RingEntry[];
  dropEvents(id: string): void;
  /** Forgets kept events older than `before` (unix ms), of every subscription. */
  expireEvents(before: number): void;
}

export interface RoomDeps {
  store: SubscriptionStore;
  now(): number;
  /** The account of a valid key, null for a missing, malformed, unknown or revoked one; throws when the check itself failed. */
  authenticate(apiKey: string): Promise<string | null>;
  /**
   * A socket whose key came in its first message: the account's plan admits it (its meter counts connections per
   * account) or not (the message says why); `tokensCap` is the plan's tokens per subscription. Absent: admitted.
   */
  admit?(account: string, socketId: string): Promise<{ ok: true; tokensCap: number } | { ok: false; message: string }>;
  /** An admitted socket left (closed, failed or dropped): its account's meter counts one connection less. */
  released?(account: string, socketId: string): void;
  /** The room's union of topics changed (sorted). */
  topicsChanged(topics: string[]): void;
  /**
   * The current state of `tokens` for a new subscription of a kind with a snapshot (`streamKinds[kind].snapshot`: a
   * price subscription's current records, as REST answers them), as events of the subscription's topics at
   * `commitment`. Absent: no snapshot. A token it cannot give is left out.
   */
  snapshot?(kind: StreamKind, tokens: readonly string[], commitment: StreamCommitment): Promise<StreamEvent[]>;
  /** When the socket last had an app ping auto-answered (ms), if ever. */
  lastPingAt(ws: RoomSocket): number | null;
  /** A fresh subscription id (12 hex chars). */
  newId(): string;
  log(level: "warn" | "error", fields: Record<string, unknown>): void;
}

interface Subscription {
  id: string;
  account: string;
  /** as stored (the subscribe method) */
  kind: SubscribeMethod;
  /** the kind of events it streams */
  stream: StreamKind;
  /** topics still waiting for their snapshot: a live event of one first makes its snapshot stale (it is skipped) */
  snapshotPending?: Set<string>;
  /** per topic, the identity of the snapshot sent: the same record published live right after is not sent twice */
  snapshotSent?: Map<string, string>;
  tokens: string[];
  topics: string[];
  options: SubscriptionOptions;
  seq: number;
  socket: RoomSocket | null;
  detachedAt: number | null;
  ring: ResumeRing;
}

interface SocketState {
  connectionId: string;
  /** what the account's meter counts: one per socket, whatever connection id the client sent */
  socketId: string;
  account: string | null;
  /** the plan's tokens per subscription */
  tokensCap: number;
  /** the SHA-256 of its key (hashApiKey), null until known */
  keyDigest: string | null;
  authDeadline: number;
  authPending: boolean;
  /** a key check in progress (with the rest of its message): later messages wait for it, in arrival order */
  authing: Promise<void> | null;
  subs: Map<string, Subscription>;
  bucket: number;
  bucketAt: number;
  strikes: number;
  unackedBytes: number;
  lastHeardAt: number;
}

export class StreamRoomState {
  private readonly sockets = new Map<RoomSocket, SocketState>();
  private readonly subs = new Map<string, Subscription>();
  private readonly topicIndex = new Map<string, Set<Subscription>>();
  /** the topics the tail was last told (joined), null when unknown: the next check tells it again */
  private topicsKey: string | null = "";
  private lastHeartbeat = 0;

  constructor(private readonly deps: RoomDeps) {}

  /** A woken room: sockets from their attachments, subscriptions from the store. Returns what it restored. */
  restore(sockets: RoomSocket[]): { sockets: number; subscriptions: number; detached: number } {
    const now = this.deps.now();
    const rows = new Map(this.deps.store.all().map((row) => [row.id, row]));
    // The tail has the topics of every stored subscription, expired ones included (they expire below, unannounced): the
    // next change check (the alarm that woke the room, a subscribe) then tells it what is left.
    const told = new Set<string>();
    for (const row of rows.values()) for (const topic of topicsOf(row.kind, row.tokens, row.options)) told.add(topic);
    for (const ws of sockets) {
      const parsed = socketAttachmentSchema.safeParse(safely(() => ws.deserializeAttachment()));
      if (!parsed.success) {
        // Not ours (or from an older shape): it cannot be served.
        safely(() => ws.close(closeCodes.policy, "Connection state lost; reconnect"));
        continue;
      }
      const attachment = parsed.data;
      const st = this.newSocketState(attachment.c, attachment.k, attachment.a, attachment.d, now, attachment.t, attachment.h ?? null);
      this.sockets.set(ws, st);
      for (const [id, seq] of attachment.s) {
        const row = rows.get(id);
        if (row === undefined) continue;
        rows.delete(id);
        const sub = this.addSubscription({ ...row, seq: Math.max(seq, row.seq) }, ws);
        st.subs.set(id, sub);
      }
    }
    let detached = 0;
    for (const row of rows.values()) {
      if (row.detachedAt !== null && row.detachedAt + limits.streams.resumeWindowMs < now) {
        this.deps.store.remove(row.id);
        continue;
      }
      const at = row.detachedAt ?? now;
      const sub = this.addSubscription({ ...row, detachedAt: at }, null);
      const kept = this.deps.store.keptEvents(row.id);
      if (kept.length > 0 && kept[kept.length - 1]!.seq === row.seq) {
        // Seqs up to the first kept one are lost (and reported on resume); the kept ones replay as before the eviction.
        sub.ring = new ResumeRing(limits.streams.resumeWindowMs, limits.streams.resumeRingBytes, kept[0]!.seq - 1);
        for (const entry of kept) sub.ring.push(entry);
        sub.ring.expire(now);
      }
      if (row.detachedAt === null) this.deps.store.put({ ...row, detachedAt: at });
      detached++;
    }
    // The tail had these topics before the room slept: only a change is sent.
    this.topicsKey = [...told].sort().join("\n");
    return { sockets: this.sockets.size, subscriptions: this.subs.size, detached };
  }

  /** Sockets of an account (authenticated ones). */
  connectionsOf(account: string): number {
    let n = 0;
    for (const st of this.sockets.values()) if (st.account === account) n++;
    return n;
  }

  get socketCount(): number {
    return this.sockets.size;
  }

  /** A socket just accepted: `account` when its key was checked before the upgrade, else it has `authTimeoutMs` to send one. */
  accept(ws: RoomSocket, connectionId: string, account: string | null, tokensCap?: number, socketId: string = socketIdOf(connectionId), keyDigest: string | null = null): void {
    const now = this.deps.now();
    const st = this.newSocketState(connectionId, socketId, account, account === null ? now + limits.streams.authTimeoutMs : 0, now, tokensCap, account === null ? null : keyDigest);
    this.sockets.set(ws, st);
    this.saveAttachment(ws, st);
    if (account !== null) this.send(ws, st, JSON.stringify({ type: "connected", connectionId }));
  }

  async message(ws: RoomSocket, frame: string | ArrayBuffer): Promise<void> {
    const st = this.sockets.get(ws);
    if (st === undefined) return;
    const now = this.deps.now();
    st.lastHeardAt = now;
    st.unackedBytes = 0;
    // Token bucket: `messageBurst` at most, refilled at `messagesPerSecond`.
    st.bucket = Math.min(limits.streams.messageBurst, st.bucket + ((now - st.bucketAt) / 1000) * limits.streams.messagesPerSecond);
    st.bucketAt = now;
    if (st.bucket < 1) return this.strike(ws, st, `Rate limit: at most ${limits.streams.messagesPerSecond} messages per second`);
    st.bucket -= 1;

    const read = readClientFrame(frame);
    if (isRefusal(read)) return this.strike(ws, st, read.refused, read.oversize);
    // A key check in progress: this message waits for it (a client that sends its key in every message sends them back
    // to back), then is read as the socket now stands. Waiters resume in arrival order.
    while (st.authing !== null) {
      await st.authing;
      if (!this.sockets.has(ws)) return;
    }
    if (st.account === null) {
      if (read.apiKey === undefined) return this.strike(ws, st, 'Not authenticated: send {"apiKey":"<key>"} first');
      st.authing = this.authenticateThenHandle(ws, st, read, read.apiKey).finally(() => {
        st.authing = null;
      });
      return st.authing;
    }
    if (read.apiKey !== undefined && !this.isSocketKey(ws, st, read.apiKey)) return this.strike(ws, st, "Already authenticated with another API key");
    return this.handle(ws, st, read);
  }

  /** A message of an authenticated socket. */
  private async handle(ws: RoomSocket, st: SocketState, read: ClientMessage): Promise<void> {
    switch (read.method) {
      case "auth":
        // The socket's own key again (CoinVera's clients repeat it): accepted, and answered as the first one was.
        return this.send(ws, st, JSON.stringify({ type: "connected", connectionId: st.connectionId }));
      case "ping":
        return this.send(ws, st, pongText);
      case "subscribe": {
        const sub = this.subscribe(ws, st, read.kind, [...new Set(read.tokens)], read.options ?? {});
        if (sub !== undefined) await this.sendSnapshot(sub);
        return;
      }
      case "unsubscribe":
        return streamKinds[read.kind].addressed ? this.unsubscribe(ws, st, read.kind, read.unsubscribeId ?? "") : this.unsubscribeAll(ws, st, read.kind);
      case "resume":
        return this.resume(ws, st, read.subscribeId, read.fromSeq);
    }
  }

  /** Whether `apiKey` is the socket's key; a socket whose key digest is not known (an older attachment) takes this one. */
  private isSocketKey(ws: RoomSocket, st: SocketState, apiKey: string): boolean {
    const digest = hashApiKey(apiKey);
    if (st.keyDigest === null) {
      st.keyDigest = digest;
      this.saveAttachment(ws, st);
      return true;
    }
    return digestsEqual(st.keyDigest, digest);
  }

  /** The socket closed (or failed): its subscriptions wait `resumeWindowMs` to be resumed, still numbering events. */
  closed(ws: RoomSocket): void {
    const st = this.sockets.get(ws);
    if (st === undefined) return;
    this.sockets.delete(ws);
    if (st.account !== null) this.deps.released?.(st.account, st.socketId);
    const now = this.deps.now();
    for (const sub of st.subs.values()) {
      sub.socket = null;
      sub.detachedAt = now;
      this.deps.store.put(rowOf(sub));
      sub.ring.expire(now);
      this.deps.store.keepEvents(sub.id, sub.ring.kept());
    }
  }

  /** Events from the chain tail, in chain order: each subscription gets those of its topics, numbered, at most once each. */
  publish(events: readonly StreamEvent[]): void {
    const now = this.deps.now();
    const touched = new Set<RoomSocket>();
    /** subscriptions waiting for a resume: their seq is written down, so a restart cannot number an event twice */
    const waiting = new Set<Subscription>();
    let seen: Map<Subscription, Set<string>> | undefined;
    let staleAtTail = false;
    for (const event of events) {
      // A gap concerns every subscription of the room: each gets it in its numbered stream.
      const subscribers = event.kind === "gap" ? this.subs.values() : this.topicIndex.get(event.topic);
      if (subscribers === undefined) {
        staleAtTail = true;
        continue;
      }
      const dataJson = JSON.stringify(event.data);
      for (const sub of subscribers) {
        // a correction retracts price events: it goes to the price subscriptions of its (processed) topic
        if (event.kind !== "gap" && sub.stream !== (event.kind === "correction" ? "price" : event.kind)) continue;
        // a mint's candles of every interval share its topic: each subscription gets its own interval's
        if (event.kind === "candle" && event.data.interval !== sub.options.interval) continue;
        // a live event before the snapshot: the snapshot of this topic would be older, so it is not sent
        sub.snapshotPending?.delete(event.topic);
        if (sub.snapshotSent?.has(event.topic)) {
          const snapshot = sub.snapshotSent.get(event.topic);
          sub.snapshotSent.delete(event.topic);
          if (sub.snapshotSent.size === 0) sub.snapshotSent = undefined;
          if (snapshot === eventIdentity(event)) continue;
        }
        // A trade is published under its mint and its wallet: a subscription holding both gets it once.
        if (sub.topics.length > 1) {
          seen ??= new Map();
          let keys = seen.get(sub);
          if (keys === undefined) seen.set(sub, (keys = new Set()));
          const key = eventIdentity(event);
          if (keys.has(key)) continue;
          keys.add(key);
        }
        const ws = this.deliver(sub, event.kind, dataJson, now);
        if (ws === null) waiting.add(sub);
        else if (ws !== undefined) touched.add(ws);
      }
    }
    for (const ws of touched) {
      const st = this.sockets.get(ws);
      if (st !== undefined) this.saveAttachment(ws, st);
    }
    for (const sub of waiting) this.deps.store.put(rowOf(sub));
    if (staleAtTail) {
      // The tail published a topic no subscription here has: its copy of our topics is stale (a lost or late
      // setTopics). Registering them again, whatever we sent last, keeps it from following topics nobody wants.
      this.topicsKey = null;
      this.noteTopics();
    }
  }

  /**
   * One event to one subscription: numbered, kept for a resume, sent (or written down while its socket is away).
   * Returns the socket it went to, null when it waits for a resume, undefined when its socket is gone.
   */
  private deliver(sub: Subscription, type: string, dataJson: string, now: number): RoomSocket | null | undefined {
    sub.seq++;
    sub.ring.push({ seq: sub.seq, at: now, type, dataJson });
    sub.ring.expire(now);
    const ws = sub.socket;
    if (ws === null) {
      this.deps.store.keepEvents(sub.id, [{ seq: sub.seq, at: now, type, dataJson }]);
      return null;
    }
    const st = this.sockets.get(ws);
    if (st === undefined) return undefined;
    this.sendEvent(ws, st, eventFrameText(type, sub.id, sub.seq, dataJson));
    return ws;
  }

  /**
   * A new subscription of a kind with a snapshot gets the current state of its tokens at once (numbered like any
   * event: a resume replays it), then changes as they come. A token whose live event came first gets no snapshot (it
   * would be older); one the snapshot cannot give is left out (logged).
   */
  private async sendSnapshot(sub: Subscription): Promise<void> {
    if (!streamKinds[sub.stream].snapshot || this.deps.snapshot === undefined) return;
    sub.snapshotPending = new Set(sub.topics);
    let events: StreamEvent[];
    try {
      events = await this.deps.snapshot(sub.stream, sub.tokens, commitmentOfOptions(sub.options));
    } catch (err) {
      this.deps.log("warn", { room: "stream", event: "snapshot-failed", subscribeId: sub.id, error: err instanceof Error ? err.message : String(err) });
      events = [];
    }
    const pending = sub.snapshotPending;
    sub.snapshotPending = undefined;
    if (this.subs.get(sub.id) !== sub) return;
    const now = this.deps.now();
    for (const event of events) {
      if (event.kind !== sub.stream || !pending.delete(event.topic)) continue;
      this.deliver(sub, event.kind, JSON.stringify(event.data), now);
      (sub.snapshotSent ??= new Map()).set(event.topic, eventIdentity(event));
    }
    const ws = sub.socket;
    const st = ws === null ? undefined : this.sockets.get(ws);
    if (ws !== null && st !== undefined) this.saveAttachment(ws, st);
    else if (ws === null) this.deps.store.put(rowOf(sub));
  }

  /**
   * Timed work: unauthenticated sockets past their deadline are closed, heartbeats go out, subscriptions not resumed
   * within the window end. Returns when to run again (null: nothing left to time).
   */
  alarm(): number | null {
    const now = this.deps.now();
    for (const [ws, st] of this.sockets) {
      if (st.account === null && st.authDeadline <= now && !st.authPending) {
        // The error frame first: a client may not see the close's reason (and workerd is slow to end a socket it woke for this).
        const reason = `No API key within ${limits.streams.authTimeoutMs / 1000} s`;
        this.send(ws, st, errorFrame(reason));
        this.sockets.delete(ws);
        safely(() => ws.close(closeCodes.policy, reason));
      }
    }
    if (now - this.lastHeartbeat >= limits.streams.heartbeatMs - 1000) {
      this.lastHeartbeat = now;
      const text = JSON.stringify({ type: "heartbeat", ts: now });
      for (const [ws, st] of this.sockets) if (st.account !== null) this.send(ws, st, text);
    }
    for (const sub of [...this.subs.values()]) {
      if (sub.socket === null && sub.detachedAt !== null && sub.detachedAt + limits.streams.resumeWindowMs <= now) this.removeSubscription(sub);
      else sub.ring.expire(now);
    }
    this.deps.store.expireEvents(now - limits.streams.resumeWindowMs);
    this.noteTopics();
    return this.nextAlarm(now);
  }

  /** The next time `alarm` has work, from now. */
  nextAlarm(now = this.deps.now()): number | null {
    let next = Infinity;
    if (this.sockets.size > 0) next = Math.max(now, this.lastHeartbeat) + limits.streams.heartbeatMs;
    for (const st of this.sockets.values()) if (st.account === null) next = Math.min(next, st.authDeadline);
    for (const sub of this.subs.values()) if (sub.socket === null && sub.detachedAt !== null) next = Math.min(next, sub.detachedAt + limits.streams.resumeWindowMs);
    return next === Infinity ? null : Math.max(next, now);
  }

  /** The room's union of topics, sorted. */
  currentTopics(): string[] {
    return [...this.topicIndex.keys()].sort();
  }

  // ---- messages ----

  /**
   * The first key of a socket, in `{"apiKey"}` or in any message (CoinVera's form): checked, admitted by the plan, then
   * `connected`, then the rest of the message. A bad key closes the socket (1008), as at the upgrade.
   */
  private async authenticateThenHandle(ws: RoomSocket, st: SocketState, read: ClientMessage, apiKey: string): Promise<void> {
    st.authPending = true;
    let account: string | null;
    try {
      account = await this.deps.authenticate(apiKey);
    } catch (err) {
      // Our side failed (KV), not the key: say so and let the client try again (not counted against it).
      this.deps.log("error", { room: "stream", event: "key-check-failed", connectionId: st.connectionId, error: err instanceof Error ? err.message : String(err) });
      if (this.sockets.has(ws)) this.send(ws, st, errorFrame("Key check failed; send the key again"));
      return;
    } finally {
      st.authPending = false;
    }
    if (!this.sockets.has(ws)) return;
    if (account === null) return this.dropSocket(ws, closeCodes.policy, "Missing or invalid API key");
    if (this.connectionsOf(account) >= limits.streams.connectionsPerKeyPerShard) {
      return this.dropSocket(ws, closeCodes.policy, `Too many connections for this key; max ${limits.streams.connectionsPerKeyPerShard} per shard`);
    }
    // Still in progress while the meter is asked: a second key meanwhile is refused, not admitted twice.
    st.authPending = true;
    let admitted: Awaited<ReturnType<NonNullable<RoomDeps["admit"]>>>;
    try {
      admitted = this.deps.admit ? await this.deps.admit(account, st.socketId) : { ok: true as const, tokensCap: st.tokensCap };
    } finally {
      st.authPending = false;
    }
    if (!this.sockets.has(ws)) {
      // Gone (closed, or dropped here) while the meter admitted it: closed() released nothing (no account yet), so here.
      if (this.deps.admit && admitted.ok) this.deps.released?.(account, st.socketId);
      return;
    }
    if (!admitted.ok) return this.dropSocket(ws, closeCodes.policy, admitted.message);
    st.tokensCap = admitted.tokensCap;
    st.account = account;
    st.keyDigest = hashApiKey(apiKey);
    st.authDeadline = 0;
    this.saveAttachment(ws, st);
    this.send(ws, st, JSON.stringify({ type: "connected", connectionId: st.connectionId }));
    if (read.method !== "auth") return this.handle(ws, st, read);
  }

  /** A new subscription (acked), or undefined when refused. */
  private subscribe(ws: RoomSocket, st: SocketState, kind: StreamKind, tokens: string[], options: SubscriptionOptions): Subscription | undefined {
    if (tokens.length > st.tokensCap) {
      this.strike(ws, st, `Too many tokens for your plan; max ${st.tokensCap} per subscription`);
      return undefined;
    }
    if (st.subs.size >= limits.streams.subscriptionsPerSocket) {
      this.strike(ws, st, `Too many subscriptions on this connection; max ${limits.streams.subscriptionsPerSocket}`);
      return undefined;
    }
    let id = this.deps.newId();
    while (this.subs.has(id)) id = this.deps.newId();
    const method = streamKinds[kind].subscribe;
    const row: SubscriptionRow = { id, account: st.account!, kind: method, tokens, seq: 0, detachedAt: null, options };
    this.deps.store.put(row);
    const sub = this.addSubscription(row, ws);
    st.subs.set(id, sub);
    this.saveAttachment(ws, st);
    this.send(ws, st, JSON.stringify({ type: method, status: "success", tokens, subscribeId: id, ...options }));
    this.noteTopics();
    return sub;
  }

  /** Ends one subscription of a kind with addresses, by its id. */
  private unsubscribe(ws: RoomSocket, st: SocketState, kind: StreamKind, id: string): void {
    const method = streamKinds[kind].unsubscribe;
    const sub = st.subs.get(id);
    if (sub === undefined || sub.stream !== kind) return this.strike(ws, st, `Unknown unsubscribeId for ${method}: ${id.slice(0, 64)}`);
    st.subs.delete(id);
    this.removeSubscription(sub);
    this.saveAttachment(ws, st);
    this.send(ws, st, JSON.stringify({ type: method, status: "success", unsubscribeId: id }));
    this.noteTopics();
  }

  /** Ends every subscription of the connection of a kind without addresses (they are named by no id). */
  private unsubscribeAll(ws: RoomSocket, st: SocketState, kind: StreamKind): void {
    const { subscribe, unsubscribe } = streamKinds[kind];
    const ended = [...st.subs.values()].filter((sub) => sub.stream === kind);
    if (ended.length === 0) return this.strike(ws, st, `No ${subscribe} subscription on this connection`);
    for (const sub of ended) {
      st.subs.delete(sub.id);
      this.removeSubscription(sub);
    }
    this.saveAttachment(ws, st);
    this.send(ws, st, JSON.stringify({ type: unsubscribe, status: "success", unsubscribeIds: ended.map((sub) => sub.id) }));
    this.noteTopics();
  }

  /**
   * Moves a subscription of the same account to this socket, replays what it kept after `fromSeq`, then it goes on
   * live. All of it runs without awaiting, so no event can fall between the replay and the live stream, or land twice.
   */
  private resume(ws: RoomSocket, st: SocketState, id: string, fromSeq: number): void {
    const sub = this.subs.get(id);
    // Someone else's subscription is as unknown as a missing one.
    if (sub === undefined || sub.account !== st.account) return this.strike(ws, st, `Unknown subscribeId: ${id.slice(0, 64)}`);
    if (fromSeq > sub.seq) return this.strike(ws, st, `fromSeq ${fromSeq} is ahead of the subscription (last seq ${sub.seq})`);
    if (sub.socket !== ws && st.subs.size >= limits.streams.subscriptionsPerSocket) {
      return this.strike(ws, st, `Too many subscriptions on this connection; max ${limits.streams.subscriptionsPerSocket}`);
    }
    const replay = sub.ring.replayAfter(fromSeq, sub.seq, this.deps.now());
    if (sub.socket !== null && sub.socket !== ws) {
      // Taken over from a socket of the same account (a reconnect before the old socket was seen to close).
      const old = sub.socket;
      const oldState = this.sockets.get(old);
      if (oldState !== undefined) {
        oldState.subs.delete(id);
        this.saveAttachment(old, oldState);
      }
    }
    sub.socket = ws;
    sub.detachedAt = null;
    st.subs.set(id, sub);
    this.deps.store.put(rowOf(sub));
    this.deps.store.dropEvents(id);
    this.send(ws, st, JSON.stringify({ type: "resume", status: "success", subscribeId: id, fromSeq, replayed: replay.entries.length }));
    if (!replay.ok) {
      this.send(
        ws,
        st,
        errorFrame(`Events ${replay.lostFrom}..${replay.lostTo} of this subscription are lost (older than ${limits.streams.resumeWindowMs / 1000} s, over the kept bytes, or the room restarted)`, {
          subscribeId: id,
          lostFromSeq: replay.lostFrom,
          lostToSeq: replay.lostTo,
        }),
      );
    }
    for (const entry of replay.entries) this.sendEvent(ws, st, eventFrameText(entry.type, id, entry.seq, entry.dataJson));
    this.saveAttachment(ws, st);
  }

  // ---- helpers ----

  private strike(ws: RoomSocket, st: SocketState, message: string, oversize = false): void {
    st.strikes++;
    this.send(ws, st, errorFrame(message));
    if (st.strikes > limits.streams.maxBadFrames) {
      this.dropSocket(ws, oversize ? closeCodes.tooBig : closeCodes.policy, oversize ? "Frames too large" : "Too many bad frames");
    }
  }

  private dropSocket(ws: RoomSocket, code: number, reason: string): void {
    this.closed(ws);
    safely(() => ws.close(code, reason));
  }

  private send(ws: RoomSocket, st: SocketState, text: string): void {
    st.unackedBytes += text.length;
    try {
      ws.send(text);
    } catch {
      // Closed under us: its close event will come.
    }
  }

  /** An event frame: the one place a client that does not read is noticed (acks and heartbeats are small). */
  private sendEvent(ws: RoomSocket, st: SocketState, text: string): void {
    if (st.unackedBytes + text.length > limits.streams.maxUnackedBytes) {
      const ping = this.deps.lastPingAt(ws);
      if (ping !== null && ping > st.lastHeardAt) {
        st.lastHeardAt = ping;
        st.unackedBytes = 0;
      } else {
        this.deps.log("warn", { room: "stream", event: "slow-client-closed", connectionId: st.connectionId, unackedBytes: st.unackedBytes });
        return this.dropSocket(ws, closeCodes.policy, "Client is not reading (send backlog)");
      }
    }
    this.send(ws, st, text);
  }

  private newSocketState(
    connectionId: string,
    socketId: string,
    account: string | null,
    authDeadline: number,
    now: number,
    tokensCap: number = limits.streams.tokensPerSubscription,
    keyDigest: string | null = null,
  ): SocketState {
    return {
      connectionId,
      socketId,
      account,
      tokensCap,
      keyDigest,
      authDeadline,
      authPending: false,
      authing: null,
      subs: new Map(),
      bucket: limits.streams.messageBurst,
      bucketAt: now,
      strikes: 0,
      unackedBytes: 0,
      lastHeardAt: now,
    };
  }

  private saveAttachment(ws: RoomSocket, st: SocketState): void {
    const attachment: SocketAttachment = { v: 1, c: st.connectionId, k: st.socketId, a: st.account, d: st.authDeadline, s: [...st.subs.values()].map((sub) => [sub.id, sub.seq]), t: st.tokensCap, ...(st.keyDigest === null ? {} : { h: st.keyDigest }) };
    try {
      ws.serializeAttachment(attachment);
    } catch (err) {
      this.deps.log("error", { room: "stream", event: "attachment-not-saved", connectionId: st.connectionId, error: err instanceof Error ? err.message : String(err) });
    }
  }

  private addSubscription(row: SubscriptionRow, ws: RoomSocket | null): Subscription {
    const topics = topicsOf(row.kind, row.tokens, row.options);
    const sub: Subscription = {
      id: row.id,
      account: row.account,
      kind: row.kind,
      stream: kindOfSubscribeMethod(row.kind)!,
      tokens: row.tokens,
      topics,
      options: row.options ?? {},
      seq: row.seq,
      socket: ws,
      detachedAt: ws === null ? row.detachedAt : null,
      ring: new ResumeRing(limits.streams.resumeWindowMs, limits.streams.resumeRingBytes, row.seq),
    };
    this.subs.set(sub.id, sub);
    for (const topic of topics) {
      let set = this.topicIndex.get(topic);
      if (set === undefined) this.topicIndex.set(topic, (set = new Set()));
      set.add(sub);
    }
    return sub;
  }

  private removeSubscription(sub: Subscription): void {
    this.subs.delete(sub.id);
    this.deps.store.remove(sub.id);
    for (const topic of sub.topics) {
      const set = this.topicIndex.get(topic);
      if (set === undefined) continue;
      set.delete(sub);
      if (set.size === 0) this.topicIndex.delete(topic);
    }
  }

  private noteTopics(): void {
    const topics = this.currentTopics();
    const key = topics.join("\n");
    if (key === this.topicsKey) return;
    this.topicsKey = key;
    this.deps.topicsChanged(topics);
  }
}

/** The chain tail's topics of a subscription (those of its commitment). */
function topicsOf(method: SubscribeMethod, tokens: readonly string[], options: SubscriptionOptions | undefined): string[] {
  const kind = kindOfSubscribeMethod(method)!;
  const commitment = commitmentOfOptions(options);
  return streamKinds[kind].addressed ? tokens.map((token) => topicOf(kind, token, commitment)) : [topicOf(kind, undefined, commitment)];
}

function rowOf(sub: Subscription): SubscriptionRow {
  return { id: sub.id, account: sub.account, kind: sub.kind, tokens: sub.tokens, seq: sub.seq, detachedAt: sub.socket === null ? sub.detachedAt : null, options: sub.options };
}

function safely<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** A fresh subscription id: 12 hex chars (48 random bits; the room checks it is unused). */
export function newSubscriptionId(): string {
  const id = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
  return subscriptionIdPattern.test(id) ? id : newSubscriptionId();
}
