import { Hono } from "hono";
import { z } from "zod/mini";
import type { AppContext } from "../app-context";
import { ApiError, errorEnvelope, errorEnvelopeSchema } from "../errors/api-error";
import { limits } from "../limits";
import { authenticate } from "../accounts/api-key-auth";
import { presentedApiKey } from "../middleware/auth";
import { admitConnection, releaseConnection } from "../accounts/meter-client";
import { hashApiKey } from "../accounts/api-keys";
import { connectionIdPattern, roomHandoff, roomOfConnection, socketIdOf } from "../socket-shards";
import { errorResponse as documentedError, restErrors, type Operation } from "./openapi/operation";

/**
 * `GET /ws` with `Upgrade: websocket`: the stream rooms (docs/streams.md). A key in the header `x-api-key`,
 * `Authorization: Bearer` or the query `x-api-key` is checked before the upgrade (401 envelope, as REST: the same
 * order and the same constant-time hashed lookup, middleware/auth.ts); with none of them the socket is upgraded and its
 * first message must be `{"apiKey":"..."}` within `limits.streams.authTimeoutMs` (CoinVera's form), else 1008.
 * The socket goes to the room shard of its connection id: the client's `connectionId` (to come back to the same
 * room, whose subscriptions it can `resume`), else a fresh one.
 */

const upgradeRequiredMessage = "Expected a WebSocket upgrade (Upgrade: websocket)";
const badConnectionIdMessage = "Invalid query parameter connectionId: 8 to 64 characters of A-Z a-z 0-9 _ -";

export const streamsRoutes = new Hono<AppContext>().get("/ws", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json(errorEnvelope(426, upgradeRequiredMessage), 426, { upgrade: "websocket" });
  }
  const presented = presentedApiKey(c.req);
  // Throws the 401 ApiError, rendered by app.onError as the envelope.
  const record = presented === undefined ? null : await authenticate(c.env.API_KEYS, presented);
  const account = record?.account ?? null;
  const asked = c.req.query("connectionId");
  if (asked !== undefined && !connectionIdPattern.test(asked)) throw new ApiError("BAD_REQUEST", badConnectionIdMessage);
  const connectionId = asked ?? crypto.randomUUID();
  // The plan's connections per account, counted by the account's meter across every shard (a first-message key is
  // admitted the same way by the room).
  const socketId = socketIdOf(connectionId);
  const admission = record === null ? null : await admitConnection(c.env, record, socketId);
  if (admission !== null && !admission.ok) throw new ApiError("TOO_MANY_REQUESTS", admission.message);
  const room = roomOfConnection(connectionId, limits.streams.shards);
  // A fresh request: nothing the client sent reaches the room but the upgrade itself.
  const headers = new Headers({ upgrade: "websocket", [roomHandoff.room]: room, [roomHandoff.connectionId]: connectionId, [roomHandoff.socketId]: socketId });
  if (account !== null && presented !== undefined) {
    headers.set(roomHandoff.account, account);
    // the key's digest (never the key), so the room recognises it when the client repeats it in its messages
    headers.set(roomHandoff.keyDigest, hashApiKey(presented));
  }
  if (admission?.ok) headers.set(roomHandoff.tokensCap, String(admission.tokensCap));
  for (const name of ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions"]) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  const stub = c.env.STREAM_ROOM.get(c.env.STREAM_ROOM.idFromName(room));
  const answer = await stub.fetch(new Request("https://stream-room/ws", { headers }));
  // The room refused (its per-shard cap): the meter's count goes back.
  if (record !== null && answer.status !== 101) c.executionCtx.waitUntil(releaseConnection(c.env, record.account, socketId));
  // A Durable Object's answer has immutable headers; the app's middleware adds its own (request id, Server-Timing).
  return new Response(answer.body, { status: answer.status, headers: new Headers(answer.headers), webSocket: answer.webSocket });
});

const wsOperation: Operation = {
  method: "get",
  path: "/ws",
  operationId: "streams",
  summary: "Live prices, trades, wallet activity and new pairs over WebSocket (`Upgrade: websocket`)",
  description:
    "CoinVera-compatible stream protocol with per-subscription `seq` and `resume` ([streams guide](/guide/streams.md)). The key (header `x-api-key`, " +
    "`Authorization: Bearer`, or query `x-api-key`) is checked before the upgrade when it is given there; without one, " +
    'the first message must be `{"apiKey":"..."}` within ' +
    `${limits.streams.authTimeoutMs / 1000} s (else close 1008). Frames at most ${limits.streams.maxFrameBytes} bytes. ` +
    '`subscribePrice` may ask `"commitment":"processed"`: prices read from processed state, within about a slot of the change; a processed block ' +
    "can still be dropped by the cluster, and then a `correction` event retracts its price events and the confirmed record follows.",
  tags: ["streams"],
  // Not required at the HTTP level: a socket may be upgraded without a key and present it in its first message. A key
  // in a header or the query (any of the three forms) is checked before the upgrade: a bad one is the 401 below.
  authenticated: false,
  query: z.object({
    connectionId: z.optional(z.string().check(z.regex(connectionIdPattern))).register(z.globalRegistry, {
      description: "Optional: reconnect with the connection id of a previous socket (its `connected` frame) to reach the same room and `resume` its subscriptions.",
    }),
  }),
  responses: {
    101: { description: "Switched to WebSocket: stream frames follow ([streams guide](/guide/streams.md))", examples: {} },
    400: documentedError("BAD_REQUEST", "A malformed connectionId", { badConnectionId: badConnectionIdMessage }),
    401: restErrors[401],
    414: restErrors[414],
    426: { description: "A request without `Upgrade: websocket`", schema: errorEnvelopeSchema, examples: { upgradeRequired: { summary: upgradeRequiredMessage, value: errorEnvelope(426, upgradeRequiredMessage) } } },
    429: documentedError("TOO_MANY_REQUESTS", "The account already holds its plan's connections (all its keys, every shard), or the key its connections in this room shard", {
      tooManyForPlan: "Too many connections for this account; max 1 on the FREE plan",
      tooManyConnections: `Too many connections for this key; max ${limits.streams.connectionsPerKeyPerShard} per shard`,
    }),
    500: restErrors[500],
  },
};

export const streamsOperations = [wsOperation];
