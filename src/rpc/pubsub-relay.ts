import { frameTooLarge, jsonRpcCodes, standardErrors, tooManyPendingRequests, tooManySubscriptions, type RpcErrorObject } from "../errors/rpc-errors";
import { limits } from "../limits";
import { objectMemberSpans, skipWhitespace, sliceSpan } from "../json/json-spans";
import { utf8ByteLength } from "../json/utf8-length";
import { errorResponseText, idText, parseRequestBody, rawErrorResponseText, resultResponseText, upstreamRequestText } from "./json-rpc-envelope";

/**
 * Solana PubSub through `GET /rpc` with `Upgrade: websocket`: each client socket gets its own upstream
 * socket (identical subscriptions of many clients are not shared yet: that needs the streams' Durable Objects). What crosses, and what does not:
 * - client → upstream: only the stable PubSub methods below, one request object a frame, ≤ `maxPubSubFrameBytes`;
 *   ids are renumbered per socket (so answers are matched to requests whatever ids the client reuses) and params
 *   travel as the client wrote them. Anything else is answered here with a JSON-RPC error frame and never sent.
 * - upstream → client: notifications pass through as the node wrote them; answers get the client's id back.
 * - subscriptions are counted from the node's answers (and signature subscriptions end with their notification),
 *   capped per socket; requests waiting for the upstream socket to open, or for an answer, are capped too.
 * Close codes: a client close closes the upstream socket (1000); the upstream socket failing to open, closing or
 * failing closes the client with 1014 ("bad gateway", RFC 6455 registry).
 */

/** Stable Solana PubSub methods. blockSubscribe, slotsUpdatesSubscribe and voteSubscribe are left out: Agave marks them unstable and disables them by default. */
const subscribeMethods = new Set(["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe", "slotSubscribe", "rootSubscribe"]);
const unsubscribeMethods = new Set([...subscribeMethods].map((method) => method.replace(/Subscribe$/, "Unsubscribe")));

/** The close code sent to the client when its upstream socket cannot open, closes or fails. */
export const upstreamGoneCloseCode = 1014;

type PendingRequest = { clientId: string; kind: "subscribe" } | { clientId: string; kind: "unsubscribe"; subscription: string | undefined };

/**
 * The protocol state of one client socket and its upstream socket, without the sockets: `send` functions in,
 * frames in through `fromClient` / `fromUpstream`.
 */
export class PubSubRelaySession {
  private upstreamReady = false;
  /** Upstream request texts held until the upstream socket opens (≤ `maxPubSubQueuedFrames`). */
  private readonly queued: string[] = [];
  /** Sent (or queued) requests by our upstream id, waiting for their answer. */
  private readonly pending = new Map<number, PendingRequest>();
  /** Subscription ids the node gave this socket, as the node wrote them. */
  private readonly live = new Set<string>();
  private pendingSubscribes = 0;
  private nextUpstreamId = 1;

  constructor(
    private readonly toClient: (text: string) => void,
    private readonly toUpstream: (text: string) => void,
  ) {}

  /** Live subscriptions plus those asked for and not yet answered. */
  get subscriptionCount(): number {
    return this.live.size + this.pendingSubscribes;
  }

  /** The upstream socket is open: held requests go now, in order. */
  upstreamOpened(): void {
    this.upstreamReady = true;
    for (const text of this.queued.splice(0)) this.toUpstream(text);
  }

  fromClient(frame: string | ArrayBuffer): void {
    const size = typeof frame === "string" ? (frame.length > limits.maxPubSubFrameBytes ? frame.length : utf8ByteLength(frame)) : frame.byteLength;
    if (size > limits.maxPubSubFrameBytes) return this.refuse(null, frameTooLarge(limits.maxPubSubFrameBytes));
    let text: string;
    try {
      text = typeof frame === "string" ? frame : new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(frame);
    } catch {
      return this.refuse(null, standardErrors.parse);
    }
    const body = parseRequestBody(text, limits.maxRpcBatch, limits.maxRpcJsonDepth);
    if (body.kind === "error") return this.refuse(null, body.error);
    // A batch is not ours to split into frames; no Solana client sends one on a socket.
    if (body.kind === "batch") return this.refuse(null, standardErrors.invalidRequest);
    const item = body.item;
    if (item.kind === "notification") return;
    if (item.kind === "invalid") return this.refuse(item.id, item.error);
    const isSubscribe = subscribeMethods.has(item.method);
    if (!isSubscribe && !unsubscribeMethods.has(item.method)) return this.refuse(item.id, standardErrors.methodNotFound);
    if (item.params !== undefined && !Array.isArray(item.params)) return this.refuse(item.id, { code: jsonRpcCodes.INVALID_PARAMS, message: "`params` should be an array" });
    if (isSubscribe && this.subscriptionCount >= limits.maxPubSubSubscriptionsPerSocket) {
      return this.refuse(item.id, tooManySubscriptions(limits.maxPubSubSubscriptionsPerSocket));
    }
    if (this.pending.size >= limits.maxPubSubInFlightRequests) return this.refuse(item.id, tooManyPendingRequests(limits.maxPubSubInFlightRequests));
    if (!this.upstreamReady && this.queued.length >= limits.maxPubSubQueuedFrames) return this.refuse(item.id, tooManyPendingRequests(limits.maxPubSubQueuedFrames));

    const upstreamId = this.nextUpstreamId++;
    const clientId = idText(item.id);
    if (isSubscribe) {
      this.pending.set(upstreamId, { clientId, kind: "subscribe" });
      this.pendingSubscribes++;
    } else {
      const first = (item.params as unknown[] | undefined)?.[0];
      this.pending.set(upstreamId, { clientId, kind: "unsubscribe", subscription: typeof first === "number" ? String(first) : undefined });
    }
    const request = upstreamRequestText(String(upstreamId), item.method, item.paramsText);
    if (this.upstreamReady) this.toUpstream(request);
    else this.queued.push(request);
  }

  fromUpstream(frame: string | ArrayBuffer): void {
    const text = typeof frame === "string" ? frame : new TextDecoder().decode(frame);
    // Answers (a subscription id, a boolean, a short error) and signature notifications are small; bigger frames are
    // account, program or logs notifications and pass unread.
    const members = text.length <= limits.maxPubSubFrameBytes ? objectMemberSpans(text, skipWhitespace(text, 0)) : undefined;
    if (members === undefined || members.has("method")) {
      if (members !== undefined) this.noteNotification(text, members);
      return this.toClient(text);
    }
    const idSpan = members.get("id");
    const upstreamId = idSpan === undefined ? NaN : Number(sliceSpan(text, idSpan));
    const request = this.pending.get(upstreamId);
    // Not an answer to anything we sent (the node's own error about a frame it could not read): nothing to match, dropped.
    if (request === undefined) return;
    this.pending.delete(upstreamId);
    const result = members.get("result");
    const error = members.get("error");
    if (request.kind === "subscribe") {
      this.pendingSubscribes--;
      if (result !== undefined) this.live.add(sliceSpan(text, result));
    } else if (result !== undefined && sliceSpan(text, result) === "true" && request.subscription !== undefined) {
      this.live.delete(request.subscription);
    }
    if (result !== undefined) this.toClient(resultResponseText(request.clientId, sliceSpan(text, result)));
    else if (error !== undefined) this.toClient(rawErrorResponseText(request.clientId, sliceSpan(text, error)));
  }

  /** A signature subscription ends with its notification (Agave removes it): it no longer counts. */
  private noteNotification(text: string, members: Map<string, { start: number; end: number }>): void {
    const method = members.get("method");
    const params = members.get("params");
    if (method === undefined || params === undefined || sliceSpan(text, method) !== '"signatureNotification"') return;
    const subscription = objectMemberSpans(text, params.start)?.get("subscription");
    if (subscription !== undefined) this.live.delete(sliceSpan(text, subscription));
  }

  /** `id`: whatever the envelope read as the caller's id. */
  private refuse(id: Parameters<typeof errorResponseText>[0], error: RpcErrorObject): void {
    this.toClient(errorResponseText(id, error));
  }
}


/** Opens a WebSocket to the first upstream that accepts one, each within `pubSubConnectTimeoutMs`. */
async function openUpstreamSocket(urls: readonly string[], requestId: string): Promise<WebSocket> {
  for (const url of urls) {
    try {
      const response = await fetch(url, { headers: { upgrade: "websocket", "x-request-id": requestId }, signal: AbortSignal.timeout(limits.pubSubConnectTimeoutMs) });
      if (response.webSocket) {
        response.webSocket.accept();
        return response.webSocket;
      }
      await response.body?.cancel();
    } catch {
      // refused, reset or timed out: the next upstream
    }
  }
  throw new Error("no upstream PubSub socket opened");
}

function closeQuietly(socket: WebSocket | undefined, code: number, reason: string): void {
  try {
    socket?.close(code, reason);
  } catch {
    // already closed
  }
}

/**
 * Accepts a client WebSocket and relays it to its own upstream socket, opened after the 101 is answered (requests
 * sent meanwhile wait in the session's bounded queue).
 */
export function acceptPubSubRelay(upstreamUrls: readonly string[], request: { requestId: string; waitUntil: (promise: Promise<unknown>) => void }): Response {
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  let upstream: WebSocket | undefined;
  let done = false;
  const finish = (clientCode: number, clientReason: string) => {
    if (done) return;
    done = true;
    closeQuietly(upstream, 1000, "relay closed");
    closeQuietly(server, clientCode, clientReason);
  };
  const session = new PubSubRelaySession(
    (text) => {
      if (done) return;
      try {
        server.send(text);
      } catch {
        finish(1000, "closed");
      }
    },
    (text) => {
      try {
        upstream?.send(text);
      } catch {
        finish(upstreamGoneCloseCode, "Upstream PubSub connection failed");
      }
    },
  );
  server.addEventListener("message", (event) => session.fromClient(event.data));
  server.addEventListener("close", () => finish(1000, "closed"));
  server.addEventListener("error", () => finish(1011, "error"));
  request.waitUntil(
    openUpstreamSocket(upstreamUrls, request.requestId).then(
      (socket) => {
        if (done) return closeQuietly(socket, 1000, "relay closed");
        upstream = socket;
        socket.addEventListener("message", (event) => session.fromUpstream(event.data));
        socket.addEventListener("close", () => finish(upstreamGoneCloseCode, "Upstream PubSub connection closed"));
        socket.addEventListener("error", () => finish(upstreamGoneCloseCode, "Upstream PubSub connection failed"));
        session.upstreamOpened();
      },
      () => finish(upstreamGoneCloseCode, "Upstream PubSub unavailable"),
    ),
  );
  return new Response(null, { status: 101, webSocket: client });
}
