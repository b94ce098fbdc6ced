/**
 * A `/ws` stream room (one shard, `STREAM_ROOM.idFromName("shard-N")`): a Durable Object holding its sockets with the
 * WebSocket Hibernation API. The route (src/routes/streams.ts) checks the key when it can and hands the upgrade here;
 * the chain tail calls `publish` with events; the room tells the tail its topics (`setTopics`) when they change.
 * All protocol state and logic is in StreamRoomState; this shell wires it to workerd and keeps every handler from
 * throwing: an error is logged and the room goes on.
 */
import type { Address } from "@solana/kit";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { ApiError } from "../errors/api-error";
import { authenticate } from "../accounts/api-key-auth";
import type { ApiKeyRecord } from "../accounts/api-key-record";
import { admitConnection, releaseConnection } from "../accounts/meter-client";
import { limits } from "../limits";
import { servicesOf } from "../services";
import { priceEvents, processedPriceEvents } from "./stream-event-builders";
import type { StreamCommitment, StreamEvent, StreamEventSink, StreamKind } from "./stream-events";
import { pingText, pongText, subscribeMethods, subscriptionOptionsSchema, type SubscribeMethod, type SubscriptionOptions } from "./stream-protocol";
import { roomHandoff, socketIdOf } from "../socket-shards";
import { isNewPosition, publishPositionSchema, streamOfPosition, type PublishPosition, type PublishStream } from "./publish-position";
import { newSubscriptionId, StreamRoomState, type RoomSocket, type SubscriptionRow, type SubscriptionStore } from "./stream-room-state";

/** The name under which the chain tail is reached (`CHAIN_TAIL.idFromName`). */
export const chainTailName = "chain-tail";

export class StreamRoom extends DurableObject<Env> implements StreamEventSink {
  private readonly state: StreamRoomState;
  private roomName: string | undefined;
  /**
   * The last publish position taken of each of the tail's outputs (kept in room_meta: `position`, `position:processed`):
   * a tail publishing a block again after a crash is dropped here.
   */
  private readonly lastPositions = new Map<PublishStream, PublishPosition>();
  /** setTopics calls go one after another, so the tail sees them in the order the topics changed. */
  private topicsQueue: Promise<void> = Promise.resolve();
  /** Records of first-message keys just checked, by account, for the plan's admission that follows (deps.admit). */
  private readonly checkedKeys = new Map<string, ApiKeyRecord>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS subscriptions (id TEXT PRIMARY KEY, account TEXT NOT NULL, kind TEXT NOT NULL, tokens TEXT NOT NULL, seq INTEGER NOT NULL, detached_at INTEGER)",
    );
    // `options`: what a subscription asked beyond kind and tokens (JSON; a candle interval), added after the first rooms
    if (!sql.exec<{ name: string }>("PRAGMA table_info(subscriptions)").toArray().some((c) => c.name === "options")) sql.exec("ALTER TABLE subscriptions ADD COLUMN options TEXT");
    sql.exec("CREATE TABLE IF NOT EXISTS room_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS kept_events (sub TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (sub, seq))");
    this.roomName = sql.exec<{ value: string }>("SELECT value FROM room_meta WHERE key = 'name'").toArray()[0]?.value;
    for (const stream of ["confirmed", "processed"] as const) {
      const stored = storedPosition(sql.exec<{ value: string }>("SELECT value FROM room_meta WHERE key = ?", positionKey(stream)).toArray()[0]?.value);
      if (stored !== null) this.lastPositions.set(stream, stored);
    }
    this.state = new StreamRoomState({
      store: sqlSubscriptionStore(sql),
      now: () => Date.now(),
      authenticate: async (apiKey) => {
        try {
          const record = await authenticate(env.API_KEYS, apiKey);
          this.checkedKeys.set(record.account, record);
          return record.account;
        } catch (err) {
          if (err instanceof ApiError) return null;
          throw err;
        }
      },
      topicsChanged: (topics) => this.sendTopics(topics),
      snapshot: (kind, tokens, commitment) => this.snapshot(kind, tokens, commitment),
      admit: async (account, connectionId) => {
        const record = this.checkedKeys.get(account);
        this.checkedKeys.delete(account);
        return record === undefined ? { ok: true, tokensCap: limits.streams.tokensPerSubscription } : admitConnection(env, record, connectionId);
      },
      released: (account, connectionId) => this.ctx.waitUntil(releaseConnection(env, account, connectionId)),
      lastPingAt: (ws) => ctx.getWebSocketAutoResponseTimestamp(ws as WebSocket)?.getTime() ?? null,
      newId: newSubscriptionId,
      log: (level, fields) => console[level](JSON.stringify({ level, room: this.roomName, ...fields })),
    });
    this.guard("restore", () => {
      const restored = this.state.restore(ctx.getWebSockets() as RoomSocket[]);
      if (restored.sockets + restored.subscriptions > 0) console.log(JSON.stringify({ level: "info", room: this.roomName, event: "restored", ...restored }));
    });
    // `{"method":"ping"}` is answered by workerd itself: a client's keep-alive never wakes the room.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(pingText, pongText));
  }

  /** The upgrade handed over by the route. */
  override async fetch(request: Request): Promise<Response> {
    const room = request.headers.get(roomHandoff.room);
    const connectionId = request.headers.get(roomHandoff.connectionId);
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || room === null || connectionId === null) {
      return new Response("Expected a WebSocket handed over by /ws", { status: 400 });
    }
    if (this.roomName !== room) {
      this.roomName = room;
      this.ctx.storage.sql.exec("INSERT OR REPLACE INTO room_meta (key, value) VALUES ('name', ?)", room);
    }
    const account = request.headers.get(roomHandoff.account);
    if (account !== null && this.state.connectionsOf(account) >= limits.streams.connectionsPerKeyPerShard) {
      return tooManyConnections();
    }
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    const tokensCap = Number(request.headers.get(roomHandoff.tokensCap) ?? Number.NaN);
    const socketId = request.headers.get(roomHandoff.socketId) ?? socketIdOf(connectionId);
    const keyDigest = request.headers.get(roomHandoff.keyDigest);
    this.state.accept(server as RoomSocket, connectionId, account, Number.isInteger(tokensCap) && tokensCap > 0 ? tokensCap : undefined, socketId, keyDigest);
    await this.scheduleAlarm();
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await this.guardAsync("message", () => this.state.message(ws as RoomSocket, message));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string, _wasClean: boolean): Promise<void> {
    this.guard("close", () => this.state.closed(ws as RoomSocket));
    // Complete the closing handshake (1005/1006 are never sent on the wire); a socket already closed throws.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    await this.scheduleAlarm();
  }

  override async webSocketError(ws: WebSocket, _error: unknown): Promise<void> {
    this.guard("error", () => this.state.closed(ws as RoomSocket));
    await this.scheduleAlarm();
  }

  override async alarm(): Promise<void> {
    // If the timed work throws, the heartbeat still comes back (an alarm not set again would end them for good).
    let next: number | null = Date.now() + limits.streams.heartbeatMs;
    this.guard("alarm", () => {
      next = this.state.alarm();
    });
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** Durable Object RPC from an account's meter: does this room still hold this authenticated socket (its socket id)? */
  async holdsConnection(socketId: string): Promise<boolean> {
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as { k?: unknown; a?: unknown } | null;
      if (attachment?.k === socketId && typeof attachment.a === "string") return true;
    }
    return false;
  }

  /**
   * Durable Object RPC from an account's meter: these sockets' key was revoked or its terms changed (meter.ts key
   * checks): each gets an error frame and is closed (1008). Answers how many this room held.
   */
  async closeSockets(socketIds: string[], reason: string): Promise<number> {
    const ids = new Set(socketIds);
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as { k?: unknown } | null;
      if (typeof attachment?.k !== "string" || !ids.has(attachment.k)) continue;
      closed++;
      this.guard("close-sockets", () => this.state.closed(ws as RoomSocket));
      try {
        ws.send(JSON.stringify({ type: "error", message: reason }));
        ws.close(1008, reason);
      } catch {
        // already closed
      }
    }
    await this.scheduleAlarm();
    return closed;
  }

  /** Durable Object RPC from the chain tail: events in chain order, each position taken once. */
  async publish(events: StreamEvent[], position: PublishPosition): Promise<void> {
    const at = publishPositionSchema.safeParse(position);
    if (!at.success) {
      console.error(JSON.stringify({ level: "error", room: this.roomName, handler: "publish", error: "publish without a valid position refused" }));
      return;
    }
    const stream = streamOfPosition(at.data);
    const last = this.lastPositions.get(stream) ?? null;
    if (!isNewPosition(last, at.data)) {
      console.warn(JSON.stringify({ level: "warn", room: this.roomName, event: "publish-repeated", position: at.data, last }));
      return;
    }
    this.guard("publish", () => this.state.publish(events));
    // Written in the same turn as the sends (the output gate holds them until it is stored).
    this.lastPositions.set(stream, at.data);
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO room_meta (key, value) VALUES (?, ?)", positionKey(stream), JSON.stringify(at.data));
  }

  /**
   * A new subscription's snapshot: for prices, each token's current record from the price service (its cache, the
   * records REST answers: confirmed, said so on a processed subscription), as price events. A token that cannot be
   * priced now (no pool, an upstream fault) is left out and comes with its next change; a stale record is left out too
   * (it says nothing current).
   */
  private async snapshot(kind: StreamKind, tokens: readonly string[], commitment: StreamCommitment): Promise<StreamEvent[]> {
    if (kind !== "price" || tokens.length === 0) return [];
    const mints = tokens as readonly Address[];
    const outcomes = await servicesOf(this.env).prices.price(mints, { waitUntil: (p) => this.ctx.waitUntil(p) });
    return mints.flatMap((mint) => {
      const outcome = outcomes.get(mint);
      if (!outcome?.ok || outcome.record.stale === true) return [];
      return commitment === "processed" ? processedPriceEvents([outcome.record], "confirmed") : priceEvents(outcome.record.slot, [outcome.record]);
    });
  }

  private async scheduleAlarm(): Promise<void> {
    const next = this.state.nextAlarm();
    if (next === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  private sendTopics(topics: string[]): void {
    const room = this.roomName;
    if (room === undefined) return;
    const tail = this.env.CHAIN_TAIL.get(this.env.CHAIN_TAIL.idFromName(chainTailName));
    this.topicsQueue = this.topicsQueue
      .then(() => tail.setTopics(room, topics))
      .catch((err: unknown) => console.error(JSON.stringify({ level: "error", room, event: "set-topics-failed", error: err instanceof Error ? err.message : String(err) })));
    this.ctx.waitUntil(this.topicsQueue);
  }

  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      console.error(JSON.stringify({ level: "error", room: this.roomName, handler: what, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
    }
  }

  private async guardAsync(what: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      console.error(JSON.stringify({ level: "error", room: this.roomName, handler: what, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
    }
  }
}

function tooManyConnections(): Response {
  const message = `Too many connections for this key; max ${limits.streams.connectionsPerKeyPerShard} per shard`;
  return new Response(JSON.stringify({ status: "error", error: { code: 429, message } }), { status: 429, headers: { "content-type": "application/json; charset=utf-8" } });
}

/** The room_meta key of an output's last position. */
const positionKey = (stream: PublishStream) => (stream === "confirmed" ? "position" : `position:${stream}`);

function storedPosition(text: string | undefined): PublishPosition | null {
  if (text === undefined) return null;
  try {
    const parsed = publishPositionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

type SubscriptionSqlRow = { id: string; account: string; kind: string; tokens: string; seq: number; detached_at: number | null; options: string | null };

/** A stored subscription's options, or null when they are not ones this service writes (the row is then not served). */
function storedOptions(text: string | null): SubscriptionOptions | null {
  if (text === null) return {};
  try {
    const parsed = subscriptionOptionsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The room's subscriptions in its SQLite (schema in the constructor; docs/streams.md#storage). */
function sqlSubscriptionStore(sql: SqlStorage): SubscriptionStore {
  return {
    all() {
      const rows: SubscriptionRow[] = [];
      for (const row of sql.exec<SubscriptionSqlRow>("SELECT id, account, kind, tokens, seq, detached_at, options FROM subscriptions")) {
        if (!(subscribeMethods as readonly string[]).includes(row.kind)) continue;
        let tokens: unknown;
        try {
          tokens = JSON.parse(row.tokens);
        } catch {
          continue;
        }
        if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === "string")) continue;
        const options = storedOptions(row.options);
        if (options === null) continue;
        rows.push({ id: row.id, account: row.account, kind: row.kind as SubscribeMethod, tokens, seq: row.seq, detachedAt: row.detached_at, options });
      }
      return rows;
    },
    put(row) {
      sql.exec(
        "INSERT OR REPLACE INTO subscriptions (id, account, kind, tokens, seq, detached_at, options) VALUES (?, ?, ?, ?, ?, ?, ?)",
        row.id,
        row.account,
        row.kind,
        JSON.stringify(row.tokens),
        row.seq,
        row.detachedAt,
        row.options === undefined || Object.keys(row.options).length === 0 ? null : JSON.stringify(row.options),
      );
    },
    remove(id) {
      sql.exec("DELETE FROM subscriptions WHERE id = ?", id);
      sql.exec("DELETE FROM kept_events WHERE sub = ?", id);
    },
    keepEvents(id, entries) {
      for (const entry of entries) {
        sql.exec("INSERT OR REPLACE INTO kept_events (sub, seq, at, type, data) VALUES (?, ?, ?, ?, ?)", id, entry.seq, entry.at, entry.type, entry.dataJson);
      }
    },
    keptEvents(id) {
      return sql
        .exec<{ seq: number; at: number; type: string; data: string }>("SELECT seq, at, type, data FROM kept_events WHERE sub = ? ORDER BY seq", id)
        .toArray()
        .map((row) => ({ seq: row.seq, at: row.at, type: row.type, dataJson: row.data }));
    },
    dropEvents(id) {
      sql.exec("DELETE FROM kept_events WHERE sub = ?", id);
    },
    expireEvents(before) {
      sql.exec("DELETE FROM kept_events WHERE at < ?", before);
    },
  };
}
