import { DurableObject } from "cloudflare:workers";
import { configOf } from "../config";
import type { Env } from "../env";
import { limits } from "../limits";
import { PubSubHubState, type PubSubAttachment } from "./pubsub-hub-state";
import { openUpstreamSocket } from "./upstream-socket";

/**
 * Solana PubSub through `GET /rpc` (Upgrade: websocket), shared: one `PubSubHub` Durable Object per upstream cluster
 * (named by `hubNameOf`, pubsub-hub-name.ts) accepts every client socket and keeps ONE upstream PubSub socket, on which each distinct
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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.state = new PubSubHubState<WebSocket>({
      toClient: (socket, text) => {
        try {
          socket.send(text);
        } catch {
          // closing: its close event cleans up
        }
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
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ subs: [] } satisfies PubSubAttachment);
    this.state.addClient(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    guarded("message", () => {
      this.state.addClient(socket);
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
    guarded("close", () => this.state.clientClosed(socket));
    closeQuietly(socket, 1000, "closed");
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
