/**
 * JSON-RPC error objects of `POST /rpc`.
 *
 * Three sources, never mixed up:
 * - the JSON-RPC 2.0 standard codes, with the messages jsonrpc-core (Agave's HTTP RPC server) uses;
 * - Agave's own invalid-param messages (code -32602, texts in `method-limits.ts` / `param-schemas.ts`);
 * - our band, -32050..-32069, for what only a proxy can go wrong on: the upstream node and our own caps.
 *
 * Errors the upstream node returns (-32001..-32019, -32602 from the node, ...) are passed through unchanged
 * and never built here.
 */

import { clampRetryAfterSeconds } from "../http/retry-after";

/** One JSON-RPC error object, as it travels in a response. */
import type { RpcErrorObject } from "../json/json-rpc";
export type { RpcErrorObject } from "../json/json-rpc";

/** JSON-RPC 2.0 standard codes (jsonrpc-core's messages). */
export const jsonRpcCodes = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/**
 * Our band. Append-only: a code, once published, keeps its meaning and is never reused or reordered.
 *
 * | code   | name                      | HTTP | when                                                                         |
 * |--------|---------------------------|------|------------------------------------------------------------------------------|
 * | -32050 | UPSTREAM_TIMEOUT          | 200  | every attempt timed out (per-attempt timeout `upstreamAttemptTimeoutMs`)     |
 * | -32051 | UPSTREAM_UNAVAILABLE      | 200  | connection refused/reset, 5xx/unexpected non-4xx status, every circuit open  |
 * | -32052 | UPSTREAM_RATE_LIMITED     | 200  | upstream answered 429 and no other upstream could; `data.retryAfterSeconds`  |
 * | -32053 | UPSTREAM_BAD_RESPONSE     | 200  | answer not UTF-8, not JSON, truncated, HTML, not JSON-RPC, or wrong id       |
 * | -32054 | REQUEST_TOO_LARGE         | 413  | request body over `maxRpcBodyBytes` (50 KiB, Agave's own cap)                |
 * | -32055 | BATCH_TOO_LARGE           | 200  | batch of more than `maxRpcBatch` (100) requests                              |
 * | -32056 | UNAUTHORIZED              | 401  | missing, malformed, unknown or revoked API key                               |
 * | -32057 | HTTP_METHOD_NOT_ALLOWED   | 405  | anything but POST on /rpc                                                    |
 * | -32058 | UNSUPPORTED_MEDIA_TYPE    | 415  | Content-Type other than application/json                                     |
 * | -32059 | UPSTREAM_ANSWER_TOO_LARGE | 200  | answer over `upstreamAnswerCapBytes` (per method); `data.maxBytes`           |
 * | -32060 | UPSTREAM_REQUEST_REFUSED  | 200  | upstream answered 4xx other than 429 (`data.httpStatus`), or the body to     |
 * |        |                           |      | send is over its cap `upstreamMaxRequestBytes` (not sent; `data.maxBytes`)   |
 * | -32061 | FRAME_TOO_LARGE           | —    | WebSocket (PubSub) frame over `maxPubSubFrameBytes` (64 KiB); `data.maxBytes` |
 * | -32062 | TOO_MANY_SUBSCRIPTIONS    | —    | subscribe past `maxPubSubSubscriptionsPerSocket` on one socket; `data.max`   |
 * | -32063 | TOO_MANY_PENDING_REQUESTS | —    | PubSub pass-through requests waiting for the socket to open (`maxPubSubQueuedFrames`) |
 * |        |                           |      | or for its answer (`maxPubSubInFlightRequests`) at their cap; `data.max`     |
 * | -32064 | RATE_LIMITED              | 429  | the account's plan rate limit (docs/accounts.md); `data.retryAfterSeconds`    |
 * | -32065 | CREDITS_EXHAUSTED         | 402  | the account's credits for the month are used up; `data.creditsRemaining`     |
 * The band was -32050..-32059 until -32060 was needed; it is now -32050..-32069. "—": sent as a WebSocket frame.
 */
export const proxyCodes = {
  UPSTREAM_TIMEOUT: -32050,
  UPSTREAM_UNAVAILABLE: -32051,
  UPSTREAM_RATE_LIMITED: -32052,
  UPSTREAM_BAD_RESPONSE: -32053,
  REQUEST_TOO_LARGE: -32054,
  BATCH_TOO_LARGE: -32055,
  UNAUTHORIZED: -32056,
  HTTP_METHOD_NOT_ALLOWED: -32057,
  UNSUPPORTED_MEDIA_TYPE: -32058,
  UPSTREAM_ANSWER_TOO_LARGE: -32059,
  UPSTREAM_REQUEST_REFUSED: -32060,
  FRAME_TOO_LARGE: -32061,
  TOO_MANY_SUBSCRIPTIONS: -32062,
  TOO_MANY_PENDING_REQUESTS: -32063,
  RATE_LIMITED: -32064,
  CREDITS_EXHAUSTED: -32065,
} as const;

/** The standard errors with jsonrpc-core's exact texts. */
export const standardErrors = {
  parse: { code: jsonRpcCodes.PARSE_ERROR, message: "Parse error" },
  invalidRequest: { code: jsonRpcCodes.INVALID_REQUEST, message: "Invalid request" },
  invalidVersion: { code: jsonRpcCodes.INVALID_REQUEST, message: "Unsupported JSON-RPC protocol version" },
  methodNotFound: { code: jsonRpcCodes.METHOD_NOT_FOUND, message: "Method not found" },
} as const satisfies Record<string, RpcErrorObject>;

/** Builds a -32602 error with the given (Agave or serde-style) message. */
export function invalidParams(message: string, data?: unknown): RpcErrorObject {
  return data === undefined ? { code: jsonRpcCodes.INVALID_PARAMS, message } : { code: jsonRpcCodes.INVALID_PARAMS, message, data };
}

/** Errors of our band, with fixed texts (the only variable part is `data`). */
export const proxyErrors = {
  upstreamTimeout: { code: proxyCodes.UPSTREAM_TIMEOUT, message: "Upstream node did not answer in time" },
  upstreamUnavailable: { code: proxyCodes.UPSTREAM_UNAVAILABLE, message: "Upstream node unavailable" },
  upstreamBadResponse: { code: proxyCodes.UPSTREAM_BAD_RESPONSE, message: "Upstream node returned a malformed response" },
  unauthorized: { code: proxyCodes.UNAUTHORIZED, message: "Missing or invalid API key" },
  httpMethodNotAllowed: { code: proxyCodes.HTTP_METHOD_NOT_ALLOWED, message: "HTTP method not allowed; use POST" },
  unsupportedMediaType: { code: proxyCodes.UNSUPPORTED_MEDIA_TYPE, message: "Content-Type must be application/json" },
} as const satisfies Record<string, RpcErrorObject>;

/** -32052, telling the caller when the upstream said it would accept requests again (clamped to our range). */
export function upstreamRateLimited(retryAfterSeconds: number | undefined): RpcErrorObject {
  const message = "Upstream node is rate limiting requests";
  return retryAfterSeconds === undefined
    ? { code: proxyCodes.UPSTREAM_RATE_LIMITED, message }
    : { code: proxyCodes.UPSTREAM_RATE_LIMITED, message, data: { retryAfterSeconds: clampRetryAfterSeconds(retryAfterSeconds) } };
}

/** -32059: the answer to this request is bigger than we read; the caller should ask for less (filters, dataSlice, fewer details). */
export function upstreamAnswerTooLarge(maxBytes: number | undefined): RpcErrorObject {
  const message = "Upstream answer too large; narrow the request";
  return maxBytes === undefined ? { code: proxyCodes.UPSTREAM_ANSWER_TOO_LARGE, message } : { code: proxyCodes.UPSTREAM_ANSWER_TOO_LARGE, message, data: { maxBytes } };
}

/** -32060: the upstream node refused this request (its HTTP status), or would have (too big to send: the cap). */
export function upstreamRequestRefused(failure: { httpStatus?: number; maxBytes?: number }): RpcErrorObject {
  if (failure.httpStatus !== undefined) {
    return { code: proxyCodes.UPSTREAM_REQUEST_REFUSED, message: "Upstream node refused the request", data: { httpStatus: failure.httpStatus } };
  }
  const message = "Upstream request too large";
  return failure.maxBytes === undefined ? { code: proxyCodes.UPSTREAM_REQUEST_REFUSED, message } : { code: proxyCodes.UPSTREAM_REQUEST_REFUSED, message, data: { maxBytes: failure.maxBytes } };
}

/** -32054 with the cap in the message, so the caller knows what to split. */
export function requestTooLarge(maxBytes: number): RpcErrorObject {
  return { code: proxyCodes.REQUEST_TOO_LARGE, message: `Request body too large; max ${maxBytes} bytes` };
}

/** -32055 with the cap in the message. */
export function batchTooLarge(maxItems: number): RpcErrorObject {
  return { code: proxyCodes.BATCH_TOO_LARGE, message: `Batch too large; max ${maxItems} requests` };
}

/**
 * The error a caller sees when the upstream could not answer. `rpc-error` carries the node's own error,
 * passed through unchanged.
 */
export function upstreamFailureError(failure: { kind: string; rpcError?: RpcErrorObject; retryAfterSeconds?: number; httpStatus?: number; maxBytes?: number }): RpcErrorObject {
  switch (failure.kind) {
    case "answer-too-large":
      return upstreamAnswerTooLarge(failure.maxBytes);
    case "request-refused":
      return upstreamRequestRefused(failure);
    case "timeout":
      return proxyErrors.upstreamTimeout;
    case "rate-limited":
      return upstreamRateLimited(failure.retryAfterSeconds);
    case "bad-response":
      return proxyErrors.upstreamBadResponse;
    case "rpc-error":
      if (failure.rpcError) return failure.rpcError;
      return proxyErrors.upstreamBadResponse;
    default:
      return proxyErrors.upstreamUnavailable;
  }
}

/** -32061: a PubSub frame over the cap (not read, so the answer's id is null). */
export function frameTooLarge(maxBytes: number): RpcErrorObject {
  return { code: proxyCodes.FRAME_TOO_LARGE, message: `WebSocket frame too large; max ${maxBytes} bytes`, data: { maxBytes } };
}

/** -32062: one more subscription than a socket may hold; unsubscribe or open another socket. */
export function tooManySubscriptions(max: number): RpcErrorObject {
  return { code: proxyCodes.TOO_MANY_SUBSCRIPTIONS, message: `Too many subscriptions on this connection; max ${max}`, data: { max } };
}

/** -32062: one more subscription than the account's plan allows over all its /rpc sockets. */
export function tooManyAccountSubscriptions(max: number): RpcErrorObject {
  return { code: proxyCodes.TOO_MANY_SUBSCRIPTIONS, message: `Too many subscriptions for this account; max ${max} on its plan`, data: { max } };
}

/** -32063: the socket already has `max` requests waiting (for the upstream socket to open, or for its answers). */
export function tooManyPendingRequests(max: number): RpcErrorObject {
  return { code: proxyCodes.TOO_MANY_PENDING_REQUESTS, message: `Too many requests waiting for the upstream node; max ${max}`, data: { max } };
}

/** -32064: the account's plan rate limit; `retryAfterSeconds` as in the `Retry-After` header. */
export function rateLimited(message: string, retryAfterSeconds: number): RpcErrorObject {
  return { code: proxyCodes.RATE_LIMITED, message, data: { retryAfterSeconds } };
}

/** -32065: the calls of this body cost more credits than the account has left this month. */
export function creditsExhausted(message: string, creditsRemaining: number): RpcErrorObject {
  return { code: proxyCodes.CREDITS_EXHAUSTED, message, data: { creditsRemaining } };
}
