import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import type { AppContext } from "../app-context";
import { ApiError } from "../errors/api-error";
import { creditsExhausted, jsonRpcCodes, proxyErrors, rateLimited, requestTooLarge, type RpcErrorObject } from "../errors/rpc-errors";
import { DeadlineExceeded, deadlineIn, within } from "../isolate/deadline";
import { limits } from "../limits";
import { authenticate } from "../accounts/api-key-auth";
import { presentedApiKey } from "../middleware/auth";
import { errorResponseText } from "../rpc/json-rpc-envelope";
import { clusterKeyOf } from "../config";
import { hubNameOf, hubShardOfAccount, rpcSocketIdOf } from "../socket-shards";
import { hubHandoff } from "../pubsub/pubsub-hub-handoff";
import { answerParsedRpcBody, callsIn, parseRpcBody } from "../rpc/rpc-proxy";
import { admitRpcConnection, firstCallSucceeded, meterRequest, releaseConnection, termsOf } from "../accounts/meter-client";
import { outOfCreditsMessage, rateLimitedMessage } from "../accounts/meter-refusals";

/**
 * `POST /rpc`: the JSON-RPC endpoint (the spec's `{rpc_url}`). Its own auth and body cap, because every answer
 * here — including 401, 405, 413, 415 and 500 — is a JSON-RPC error body, never the REST envelope.
 * Order: method → key → Content-Type → body size → the proxy. JSON-RPC errors themselves travel with HTTP 200.
 * `GET /rpc` with `Upgrade: websocket`: Solana PubSub, handed to the cluster's hub (pubsub/pubsub-hub.ts) after the same key check.
 */

const jsonContentType = /^application\/json\s*(;|$)/i;

function rpcError(c: Context<AppContext>, status: 401 | 402 | 405 | 413 | 415 | 429 | 500 | 503 | 504, error: RpcErrorObject, headers: Record<string, string> = {}) {
  return c.body(errorResponseText(null, error), status, { "content-type": "application/json; charset=utf-8", ...headers });
}

const requireRpcApiKey = createMiddleware<AppContext>(async (c, next) => {
  try {
    c.set("apiKey", await authenticate(c.env.API_KEYS, presentedApiKey(c.req)));
  } catch (err) {
    if (err instanceof ApiError) return rpcError(c, 401, proxyErrors.unauthorized);
    throw err;
  }
  await next();
});

const requireJsonContentType = createMiddleware<AppContext>(async (c, next) => {
  if (!jsonContentType.test(c.req.header("content-type") ?? "")) return rpcError(c, 415, proxyErrors.unsupportedMediaType);
  await next();
});

const requireWebSocketUpgrade = createMiddleware<AppContext>(async (c, next) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") return rpcError(c, 405, proxyErrors.httpMethodNotAllowed, { allow: "POST" });
  await next();
});

const rpcBodyLimit = bodyLimit({ maxSize: limits.maxRpcBodyBytes, onError: (c) => rpcError(c, 413, requestTooLarge(limits.maxRpcBodyBytes)) });

/** The JSON-RPC route, mounted by the app before the REST middleware (it has its own key check and body cap). */
export const rpcRoutes = new Hono<AppContext>()
  .post("/rpc", requireRpcApiKey, requireJsonContentType, rpcBodyLimit, async (c) => {
    // The same overall deadline as REST: past it, a JSON-RPC timeout error (id null: the answer is for the whole body).
    const deadline = deadlineIn(limits.requestDeadlineMs);
    const body = parseRpcBody(await c.req.text());
    // The plan: credits are the body's calls (a batch costs its length), the rate windows count the HTTP request.
    const record = c.get("apiKey");
    const cost = callsIn(body);
    const meterDeps = { env: c.env, waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p) };
    const decision = await meterRequest(meterDeps, record, cost);
    if (decision.kind === "rate-limited") {
      const message = rateLimitedMessage(termsOf(record).terms, decision.window, decision.retryAfterSeconds);
      return rpcError(c, 429, rateLimited(message, decision.retryAfterSeconds), { ...decision.headers, "retry-after": String(decision.retryAfterSeconds) });
    }
    if (decision.kind === "out-of-credits") {
      return rpcError(c, 402, creditsExhausted(outOfCreditsMessage(termsOf(record).terms, cost, decision.creditsRemaining), decision.creditsRemaining), decision.headers);
    }
    const rateHeaders = decision.kind === "accepted" ? decision.headers : {};
    let answer: string | undefined;
    try {
      answer = await within(
        answerParsedRpcBody(body, {
          upstream: c.get("services").upstream,
          cache: caches.default,
          cacheOrigin: new URL(c.req.url).origin,
          requestId: c.get("requestId"),
          waitUntil: (promise) => c.executionCtx.waitUntil(promise),
        }),
        deadline,
      );
    } catch (err) {
      if (err instanceof DeadlineExceeded) return rpcError(c, 504, proxyErrors.upstreamTimeout);
      throw err;
    }
    if (decision.kind === "accepted" && decision.firstCallPending) firstCallSucceeded(meterDeps, record.account);
    if (answer === undefined) return c.body(null, 204, rateHeaders);
    return c.body(answer, 200, { "content-type": "application/json; charset=utf-8", ...rateHeaders });
  })
  .get("/rpc", requireWebSocketUpgrade, requireRpcApiKey, async (c) => {
    const urls = c.get("services").config.pubSubUrls;
    // A deployment without UPSTREAM_WS_URL serves JSON-RPC over HTTP only.
    if (urls.length === 0) return rpcError(c, 503, { ...proxyErrors.upstreamUnavailable, message: "No upstream PubSub is configured" });
    // The account's hub shard holds its sockets and shares their subscriptions (pubsub/pubsub-hub.ts); the account's
    // meter admits the socket under the plan's /rpc connections, counted across every shard.
    const record = c.get("apiKey");
    const shard = hubShardOfAccount(record.account, limits.pubSubHub.shards);
    const socketId = rpcSocketIdOf(shard);
    const admission = await admitRpcConnection(c.env, record, socketId);
    if (!admission.ok) return rpcError(c, 429, rateLimited(admission.message, 1), { "retry-after": "1" });
    const hub = c.env.PUBSUB_HUB.get(c.env.PUBSUB_HUB.idFromName(hubNameOf(clusterKeyOf(urls), shard)));
    // A fresh request: nothing the client sent reaches the hub but the upgrade itself.
    const headers = new Headers({ upgrade: "websocket", [hubHandoff.record]: JSON.stringify(record), [hubHandoff.socketId]: socketId });
    for (const name of ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol"]) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const upgraded = await hub.fetch(new Request("https://pubsub-hub/rpc", { headers }));
    if (upgraded.status !== 101) c.executionCtx.waitUntil(releaseConnection(c.env, record.account, socketId));
    // A stub's response has immutable headers; the app's middleware adds its own (request id, security headers).
    return new Response(upgraded.webSocket ? null : upgraded.body, { status: upgraded.status, headers: new Headers(upgraded.headers), webSocket: upgraded.webSocket });
  })
  .all("/rpc", (c) => rpcError(c, 405, proxyErrors.httpMethodNotAllowed, { allow: "POST" }))
  .onError((err, c) => {
    // Our bug (or KV down), not the caller's: log for operators (id only), answer like jsonrpc-core does.
    console.error(JSON.stringify({ level: "error", requestId: c.get("requestId"), error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
    return rpcError(c, 500, { code: jsonRpcCodes.INTERNAL_ERROR, message: "Internal error" });
  });
