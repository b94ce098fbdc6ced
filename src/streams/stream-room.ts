import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/**
 * A WebSocket room (hibernation API). Clients join over `/ws`; the worker publishes to rooms with `publish`.
 * Messages from clients are parsed defensively: invalid JSON, unknown types or extra fields never kill the room.
 */
export class StreamRoom extends DurableObject<Env> {
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("expected websocket", { status: 426 });
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof message === "string" ? message : new TextDecoder().decode(message));
    } catch {
      ws.send(JSON.stringify({ type: "error", message: "invalid JSON" }));
      return;
    }
    if (typeof parsed === "object" && parsed !== null && (parsed as { type?: unknown }).type === "ping") {
      ws.send(JSON.stringify({ type: "pong" }));
      return;
    }
    ws.send(JSON.stringify({ type: "error", message: "unknown message type" }));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }

  /** Sends one event to every socket of the room; returns how many received it. */
  async publish(event: unknown): Promise<number> {
    const text = JSON.stringify(event);
    let sent = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
        sent++;
      } catch {
        // a dead socket is cleaned up by its close event
      }
    }
    return sent;
  }
}
