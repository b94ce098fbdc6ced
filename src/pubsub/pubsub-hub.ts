import { DurableObject } from "cloudflare:workers";
import { configOf } from "../config";
import type { Env } from "../env";
import { limits } from "../limits";
import { PubSubHubState, type ClientOwner, type PubSubAttachment } from "./pubsub-hub-state";
import { openUpstreamSocket } from "../rpc/upstream-socket";
import { apiKeyRecordSchema, type ApiKeyRecord } from "../accounts/api-key-record";
import { chargeStream, releaseConnection, termsOf } from "../accounts/meter-client";
import { creditsExhausted, proxyErrors } from "../errors/rpc-errors";
import { errorResponseText } from "../rpc/json-rpc-envelope";
import { hubHandoff } from "./pubsub-hub-handoff";

/** Close code for a client that does not read, a revoked key, a changed plan, or an account out of credits (policy). */
const policyCloseCode = 1008;

/**
 * Solana PubSub through `GET /rpc` (Upgrade: websocket), shared: one `PubSubHub` Durable Object per upstream cluster
 * (named by `hubNameOf`, socket-shards.ts) accepts every client socket and keeps ONE upstream PubSub socket, on which each distinct
 * subscription is made once (protocol: pubsub-hub-state.ts; frames: pubsub-frames.ts).
 *
 * Lifecycle:
 * - Client sockets use the Hibernation API (`ctx.acceptWebSocket`); each socket's subscriptions live in its attachment,
 *   so when the object is evicted they are read back in the constructor, under the same ids, and subscribed again.
 * - An outgoing WebSocket cannot hibernate: while any subscription is live (or asked for) the upstream socket is open
 *   and the hub stays in memory. With none left it closes the upstream socket (1000) and can hibernate; idle client
 *   sockets stay connected meanwhile.
 * - The upstream socket closing or failing is reconnected with backoff (`pubSubHubReconnectDelaysMs`); every live
 *   topic is subscribed again and clients keep their ids (notifications during the gap are lost). When every attempt
 *   fails, every client is closed with 1014.
 */

/** Close code sent to clients when no upstream PubSub socket can be opened (RFC 6455's "bad gateway"). */
const upstreamGoneCloseCode = 1014;
/** Close code for a socket whose subscriptions could not be kept across an eviction ("service restart": reconnect). */
const notRestorableCloseCode = 1012;

/** Storage (the object's SQLite-backed KV): the next client subscription id not yet handed out, reserved in blocks. */
const nextSubIdKey = "nextSubId";

/** Runs a hook; a bug in it is logged (no frame text: it may be a client's) and never takes the hub down. */
function guarded(hook: string, run: () => void): void {
  try {
    run();
  } catch (err) {
    console.error(JSON.stringify({ level: "error", pubsubHub: hook, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
  }
}

function closeQuietly(socket: WebSocket | undefined, code: number, reason: string): void {
  try {
    socket?.close(code, reason);
  } catch {
    // already closed
  }
}

export class PubSubHub extends DurableObject<Env> {
  private readonly state: PubSubHubState<WebSocket>;
  private upstream: WebSocket | undefined;
  private connecting = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  /** Bytes sent to each socket since its client last sent a frame (reset by any frame, a ping included). */
  private readonly unacked = new Map<WebSocket, number>();
  private readonly closing = new Set<WebSocket>();
  /** Notification copies delivered per account since its last charge. */
  private readonly copies = new Map<string, number>();
  /** Per account: subscribes not yet charged, the owner to bill, and the credits its meter said were left. */
  private readonly charges = new Map<string, { owner: ClientOwner; subscribes: number; remaining: number | undefined }>();
  private chargeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.state = new PubSubHubState<WebSocket>({
      toClient: (socket, text, copyOf) => {
        // Bytes sent since the client last sent anything: past the bound it does not read, and is closed rather than buffered.
        const unacked = (this.unacked.get(socket) ?? 0) + text.length;
        if (unacked > limits.pubSubHub.maxUnackedBytes) {
          if (!this.closing.has(socket)) {
            this.closing.add(socket);
            // After this notification's fan-out (the state is iterating the topic's subscribers).
            queueMicrotask(() => this.dropClient(socket, `Client not reading: over ${limits.pubSubHub.maxUnackedBytes} bytes unread; ping or read to stay`));
          }
          return;
        }
        this.unacked.set(socket, unacked);
        if (copyOf !== undefined) {
          const copies = (this.copies.get(copyOf.account) ?? 0) + 1;
          this.copies.set(copyOf.account, copies);
          // a whole credit's worth to bill (scheduling is a no-op while a charge is pending)
          if (copies >= limits.pubSubHub.notificationsPerCredit) this.scheduleCharge();
        }
        try {
          socket.send(text);
        } catch {
          // closing: its close event cleans up
        }
      },
      admitSubscribe: (owner) => {
        // A subscribe costs 1 credit, billed with the copies: refused once the account's last known balance is spent.
        const charge = this.charges.get(owner.account);
        const record = recordOf(owner);
        if (record === undefined) return undefined;
        const pending = (charge?.subscribes ?? 0) + Math.floor((this.copies.get(owner.account) ?? 0) / limits.pubSubHub.notificationsPerCredit);
        if (charge?.remaining !== undefined && charge.remaining - pending < 1) {
          return creditsExhausted(`Out of credits: a subscription costs 1, ${Math.max(0, charge.remaining - pending)} left this month on the ${termsOf(record).terms.label} plan`, Math.max(0, charge.remaining - pending));
        }
        this.chargeOf(owner).subscribes++;
        this.scheduleCharge();
        return undefined;
      },
      toUpstream: (text) => {
        try {
          this.upstream?.send(text);
        } catch {
          // failing: its close event reconnects
        }
      },
      reserveSubIds: (next) => ctx.storage.kv.put(nextSubIdKey, next),
      persist: (socket, attachment) => {
        try {
          socket.serializeAttachment(attachment);
        } catch {
          // Over the attachment cap (16 KiB; ~100 subscriptions with long filters): mark it, so an eviction closes it.
          try {
            socket.serializeAttachment({ subs: [], lost: true } satisfies PubSubAttachment);
          } catch {
            // the socket is gone: its close event cleans up
          }
        }
      },
    }, ctx.storage.kv.get<number>(nextSubIdKey) ?? 1);
    // Woken after an eviction: the sockets are still there, their subscriptions in their attachments.
    for (const socket of ctx.getWebSockets()) {
      let restored = false;
      guarded("restore", () => (restored = this.state.restoreClient(socket, socket.deserializeAttachment() as PubSubAttachment | null)));
      if (!restored) {
        this.state.clientClosed(socket);
        closeQuietly(socket, notRestorableCloseCode, "PubSub hub restarted; subscribe again");
      }
    }
    this.syncUpstream();
  }

  /** The upgrade, forwarded by `GET /rpc` after its key check. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response(null, { status: 426 });
    if (this.state.clientCount >= limits.pubSubHub.socketsPerShard) {
      const error = { ...proxyErrors.upstreamUnavailable, message: `PubSub hub full (${limits.pubSubHub.socketsPerShard} sockets); retry later` };
      return new Response(errorResponseText(null, error), { status: 503, headers: { "content-type": "application/json; charset=utf-8", "retry-after": "5" } });
    }
    const owner = ownerFrom(request);
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment((owner === undefined ? { subs: [] } : { subs: [], owner }) satisfies PubSubAttachment);
    this.state.addClient(server, owner);
    // The account's balance, for refusing subscribes once it is spent (charged with nothing).
    if (owner !== undefined && this.charges.get(owner.account)?.remaining === undefined) {
      this.chargeOf(owner);
      this.ctx.waitUntil(this.charge(owner.account));
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Durable Object RPC from an account's meter: does this shard still hold this socket? */
  async holdsConnection(socketId: string): Promise<boolean> {
    return this.ctx.getWebSockets().some((ws) => (ws.deserializeAttachment() as PubSubAttachment | null)?.owner?.socketId === socketId);
  }

  /** Durable Object RPC from an account's meter: these sockets' key was revoked or its terms changed. Answers how many were here. */
  async closeSockets(socketIds: string[], reason: string): Promise<number> {
    const ids = new Set(socketIds);
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      const owner = (ws.deserializeAttachment() as PubSubAttachment | null)?.owner;
      if (owner === undefined || !ids.has(owner.socketId)) continue;
      closed++;
      this.dropClient(ws, reason);
    }
    return closed;
  }

  private chargeOf(owner: ClientOwner) {
    let charge = this.charges.get(owner.account);
    if (charge === undefined) this.charges.set(owner.account, (charge = { owner, subscribes: 0, remaining: undefined }));
    return charge;
  }

  private scheduleCharge(): void {
    if (this.chargeTimer !== undefined) return;
    this.chargeTimer = setTimeout(() => {
      this.chargeTimer = undefined;
      const accounts = new Set([...this.charges.keys(), ...this.copies.keys()]);
      this.ctx.waitUntil(Promise.all([...accounts].map((account) => this.charge(account))));
    }, limits.pubSubHub.chargeEveryMs);
  }

  /**
   * Bills an account's subscribes and whole hundreds of copies to its meter; the meter answers what is left. Spent:
   * the account's sockets here are closed (1008). A meter that fails keeps the charge for the next round (fail open).
   */
  private async charge(account: string): Promise<void> {
    const charge = this.charges.get(account);
    if (charge === undefined) return;
    const record = recordOf(charge.owner);
    if (record === undefined) return;
    const copies = this.copies.get(account) ?? 0;
    const copyCredits = Math.floor(copies / limits.pubSubHub.notificationsPerCredit);
    const credits = charge.subscribes + copyCredits;
    charge.subscribes = 0;
    this.copies.set(account, copies - copyCredits * limits.pubSubHub.notificationsPerCredit);
    const remaining = await chargeStream(this.env, record, credits);
    if (remaining === undefined) {
      charge.subscribes += credits - copyCredits;
      this.copies.set(account, (this.copies.get(account) ?? 0) + copyCredits * limits.pubSubHub.notificationsPerCredit);
      this.scheduleCharge();
      return;
    }
    charge.remaining = remaining;
    const sockets = this.state.socketsOf(account);
    if (sockets.length === 0) {
      this.charges.delete(account);
      this.copies.delete(account);
    } else if ((this.copies.get(account) ?? 0) >= limits.pubSubHub.notificationsPerCredit || charge.subscribes > 0) this.scheduleCharge();
    // (copies short of a credit wait for the next one: a timer kept for them would run every chargeEveryMs for as long
    // as the socket stays, keeping an idle hub in memory — never evicted — and calling the meter for nothing)
    if (remaining <= 0 && (credits > 0 || this.state.accountSubscriptionCount(account) > 0)) {
      for (const socket of sockets) this.dropClient(socket, `Out of credits this month on the ${termsOf(record).terms.label} plan`);
    }
  }

  /** Closes a client for a policy reason (not reading, revoked key, changed plan, no credits): its subscriptions go. */
  private dropClient(socket: WebSocket, reason: string): void {
    try {
      socket.send(errorResponseText(null, { code: -32600, message: reason }));
    } catch {
      // closing already
    }
    closeQuietly(socket, policyCloseCode, reason.slice(0, 120));
    this.clientGone(socket);
  }

  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    // The client reads (it answers): what it was sent is no longer owed.
    this.unacked.delete(socket);
    guarded("message", () => {
      this.state.addClient(socket, (socket.deserializeAttachment() as PubSubAttachment | null)?.owner);
      this.state.fromClient(socket, message);
    });
    this.syncUpstream();
  }

  override webSocketClose(socket: WebSocket): void {
    this.clientGone(socket);
  }

  override webSocketError(socket: WebSocket): void {
    this.clientGone(socket);
    closeQuietly(socket, 1011, "error");
  }

  private clientGone(socket: WebSocket): void {
    // Undefined once the state has let the socket go: a second close event releases nothing.
    const owner = this.state.ownerOf(socket);
    guarded("close", () => this.state.clientClosed(socket));
    this.unacked.delete(socket);
    this.closing.delete(socket);
    closeQuietly(socket, 1000, "closed");
    // The account's meter counts one connection less (once: a second close event finds the socket gone).
    if (owner !== undefined) this.ctx.waitUntil(releaseConnection(this.env, owner.account, owner.socketId));
    this.syncUpstream();
  }

  /** Opens the upstream socket when something needs it; closes it when nothing does (the hub may then hibernate). */
  private syncUpstream(): void {
    if (this.state.needsUpstream) {
      if (this.upstream === undefined && !this.connecting && this.retryTimer === undefined) void this.openUpstream();
      return;
    }
    if (this.retryTimer !== undefined) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.failures = 0;
    }
    const upstream = this.upstream;
    if (upstream === undefined) return;
    this.upstream = undefined;
    this.state.upstreamLost();
    closeQuietly(upstream, 1000, "no subscriptions");
  }

  private async openUpstream(): Promise<void> {
    this.connecting = true;
    let socket: WebSocket;
    try {
      socket = await openUpstreamSocket(configOf(this.env).pubSubUrls);
    } catch {
      this.connecting = false;
      return this.upstreamFailed();
    }
    this.connecting = false;
    if (!this.state.needsUpstream) return closeQuietly(socket, 1000, "no subscriptions");
    this.failures = 0;
    this.upstream = socket;
    socket.addEventListener("message", (event) => {
      if (this.upstream !== socket) return;
      guarded("upstream message", () => this.state.fromUpstream(event.data));
      this.syncUpstream();
    });
    const lost = () => {
      if (this.upstream !== socket) return;
      this.upstream = undefined;
      closeQuietly(socket, 1000, "closed");
      this.state.upstreamLost();
      this.upstreamFailed();
    };
    socket.addEventListener("close", lost);
    socket.addEventListener("error", lost);
    this.state.upstreamOpened();
  }

  /** The upstream socket could not open or went away: try again after the next delay, or give up. */
  private upstreamFailed(): void {
    const delay = limits.pubSubHubReconnectDelaysMs[this.failures++];
    if (delay === undefined) {
      this.failures = 0;
      console.error(JSON.stringify({ level: "error", pubsubHub: "upstream unavailable", clients: this.state.clientCount, topics: this.state.topicCount }));
      for (const socket of this.state.sockets()) {
        this.state.clientClosed(socket);
        closeQuietly(socket, upstreamGoneCloseCode, "Upstream PubSub unavailable");
      }
      return;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.syncUpstream();
    }, delay);
  }
}

/** The owner of an upgrade the route handed over (its authenticated key record), or undefined (no owner: no plan caps). */
function ownerFrom(request: Request): ClientOwner | undefined {
  const text = request.headers.get(hubHandoff.record);
  const socketId = request.headers.get(hubHandoff.socketId);
  if (text === null || socketId === null) return undefined;
  let parsed;
  try {
    parsed = apiKeyRecordSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const { terms } = termsOf(parsed.data);
  return { account: parsed.data.account, perSocket: terms.rpcWsSubscriptionsPerSocket, perAccount: terms.rpcWsSubscriptionsPerAccount, socketId, data: parsed.data };
}

function recordOf(owner: ClientOwner): ApiKeyRecord | undefined {
  const parsed = apiKeyRecordSchema.safeParse(owner.data);
  return parsed.success ? parsed.data : undefined;
}
