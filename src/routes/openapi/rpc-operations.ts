/**
 * `/rpc` in the OpenAPI document. The route itself (routes/rpc.ts) answers every refusal with a JSON-RPC error body
 * and has its own key check and body cap; its answers are described here, with the error objects it really sends
 * (errors/rpc-errors.ts) as examples. Method params are the node's (docs/rpc.md), so `params` stays open here.
 */
import { z } from "zod/mini";
import { creditsExhausted, jsonRpcCodes, proxyErrors, rateLimited, requestTooLarge, standardErrors, batchTooLarge, type RpcErrorObject } from "../../errors/rpc-errors";
import { limits } from "../../limits";
import { named, type Example, type Operation, type ResponseSpec } from "./operation";

const id = z.union([z.number(), z.string(), z.null()]);

const jsonRpcRequestSchema = named(
  "JsonRpcRequest",
  z.object({
    jsonrpc: z.literal("2.0"),
    /** Absent: a notification, neither forwarded nor answered. */
    id: z.optional(id),
    method: z.string().register(z.globalRegistry, { description: "An allow-listed Solana node method ([list](/guide/rpc.md#allowlist)); anything else is -32601." }),
    params: z.optional(z.array(z.unknown())),
  }),
);

const jsonRpcErrorSchema = named("JsonRpcError", z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) }));

const jsonRpcResponseSchema = named(
  "JsonRpcResponse",
  z.union([
    z.object({ jsonrpc: z.literal("2.0"), id, result: z.unknown() }),
    z.object({ jsonrpc: z.literal("2.0"), id, error: jsonRpcErrorSchema }),
  ]),
);

const errorBody = (error: RpcErrorObject, requestId: number | null = null) => ({ jsonrpc: "2.0", error, id: requestId });

function rpcErrorResponse(description: string, examples: Record<string, Example>, headers?: ResponseSpec["headers"]): ResponseSpec {
  return { description, schema: jsonRpcResponseSchema, examples, ...(headers ? { headers } : {}) };
}

const unauthorized = rpcErrorResponse("Missing, malformed, unknown or revoked key (checked before anything else is read)", {
  unauthorized: { summary: proxyErrors.unauthorized.message, value: errorBody(proxyErrors.unauthorized) },
});

const wrongMethod = rpcErrorResponse(
  "Any other HTTP method (a GET without `Upgrade: websocket` included)",
  { wrongMethod: { summary: proxyErrors.httpMethodNotAllowed.message, value: errorBody(proxyErrors.httpMethodNotAllowed) } },
  { allow: { description: "`POST`", schema: { type: "string" } } },
);

const internal = rpcErrorResponse("A bug of ours (the body never says more)", {
  internal: { summary: "Internal error", value: errorBody({ code: jsonRpcCodes.INTERNAL_ERROR, message: "Internal error" }) },
});

const post: Operation = {
  method: "post",
  path: "/rpc",
  operationId: "rpc",
  summary: "Solana JSON-RPC 2.0 (allow-listed node methods), single or batch",
  description:
    "Answers like a healthy Agave node: the node's results and errors pass through byte for byte. JSON-RPC errors travel with HTTP 200; " +
    "only the HTTP-level refusals below use other statuses, always with a JSON-RPC error body (never the REST envelope). See the [JSON-RPC guide](/guide/rpc.md).",
  tags: ["rpc"],
  authenticated: true,
  requestBody: {
    description: `One request object or a batch of at most ${limits.maxRpcBatch}; at most ${limits.maxRpcBodyBytes} bytes.`,
    contentType: "application/json",
    schema: named("JsonRpcBody", z.union([jsonRpcRequestSchema, z.array(jsonRpcRequestSchema)])),
    examples: {
      single: { summary: "One call", value: { jsonrpc: "2.0", id: 1, method: "getBalance", params: ["9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"] } },
      batch: {
        summary: "A batch",
        value: [
          { jsonrpc: "2.0", id: 1, method: "getSlot" },
          { jsonrpc: "2.0", id: 2, method: "getLatestBlockhash", params: [{ commitment: "confirmed" }] },
        ],
      },
    },
  },
  responses: {
    200: {
      description: "Every JSON-RPC answer, errors included: one response object, or an array in request order for a batch",
      schema: named("JsonRpcAnswer", z.union([jsonRpcResponseSchema, z.array(jsonRpcResponseSchema)])),
      examples: {
        result: { summary: "A result", value: { jsonrpc: "2.0", result: { context: { apiVersion: "2.2.0", slot: 381204117 }, value: 1461600 }, id: 1 } },
        batch: {
          summary: "A batch",
          value: [
            { jsonrpc: "2.0", result: 381204117, id: 1 },
            { jsonrpc: "2.0", result: { context: { slot: 381204117 }, value: { blockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N", lastValidBlockHeight: 359466532 } }, id: 2 },
          ],
        },
        parseError: { summary: standardErrors.parse.message, value: errorBody(standardErrors.parse) },
        methodNotFound: { summary: standardErrors.methodNotFound.message, value: errorBody(standardErrors.methodNotFound, 1) },
        batchTooLarge: { summary: "Batch over the cap", value: errorBody(batchTooLarge(limits.maxRpcBatch)) },
        upstream: { summary: proxyErrors.upstreamUnavailable.message, value: errorBody(proxyErrors.upstreamUnavailable, 1) },
      },
    },
    204: { description: "Nothing to answer: a notification, or a batch of notifications only", examples: {} },
    401: unauthorized,
    405: wrongMethod,
    413: rpcErrorResponse(`Body over ${limits.maxRpcBodyBytes} bytes (Agave's own cap)`, {
      tooLarge: { summary: "Body too large", value: errorBody(requestTooLarge(limits.maxRpcBodyBytes)) },
    }),
    415: rpcErrorResponse("Content-Type is not application/json", {
      mediaType: { summary: proxyErrors.unsupportedMediaType.message, value: errorBody(proxyErrors.unsupportedMediaType) },
    }),
    402: rpcErrorResponse("The account's credits for the month are used up: a body costs one credit per call (a batch its length); see [credits](/guide/accounts.md#credits)", {
      outOfCredits: {
        summary: "Out of credits",
        value: errorBody(creditsExhausted("Out of credits: this request costs 5, 2 left this month on the FREE plan", 2)),
      },
    }),
    429: rpcErrorResponse(
      "Over the plan's requests per second or per minute (all of the account's keys together; a body is one request)",
      { rateLimited: { summary: "Rate limited", value: errorBody(rateLimited("Rate limit exceeded: 1 requests per second on the FREE plan; retry in 1 s", 1)) } },
      {
        "Retry-After": { description: "Seconds to wait (also `data.retryAfterSeconds`)", schema: { type: "integer" } },
        RateLimit: { description: 'draft-ietf-httpapi-ratelimit-headers: `"second";r=0;t=1, "minute";r=29;t=60`', schema: { type: "string" } },
        "RateLimit-Policy": { description: '`"second";q=1;w=1, "minute";q=30;w=60`', schema: { type: "string" } },
      },
    ),
    500: internal,
    504: rpcErrorResponse(`The whole body was not answered within the ${limits.requestDeadlineMs / 1000} s request deadline`, {
      timeout: { summary: proxyErrors.upstreamTimeout.message, value: errorBody(proxyErrors.upstreamTimeout) },
    }),
  },
};

const get: Operation = {
  method: "get",
  path: "/rpc",
  operationId: "rpcPubSub",
  summary: "Solana PubSub over WebSocket (`Upgrade: websocket`), identical subscriptions shared upstream",
  description:
    "The stable subscriptions (accountSubscribe, signatureSubscribe, slotSubscribe, …) through one hub per upstream (`UPSTREAM_WS_URL`) that makes each distinct subscription once upstream and gives every client its own ids, so web3.js and kit " +
    "send-and-confirm work through `/rpc`. Frames are JSON-RPC; see the [guide](/guide/rpc.md#websocket-pubsub-on-rpc) for caps and close codes.",
  tags: ["rpc"],
  authenticated: true,
  responses: {
    101: { description: "Switched to WebSocket: JSON-RPC PubSub frames follow", examples: {} },
    401: unauthorized,
    405: wrongMethod,
    500: internal,
    503: rpcErrorResponse("The deployment has no upstream PubSub (`UPSTREAM_WS_URL` empty)", {
      noPubSub: { summary: "No upstream PubSub", value: errorBody({ ...proxyErrors.upstreamUnavailable, message: "No upstream PubSub is configured" }) },
    }),
  },
};

export const rpcOperations: Operation[] = [post, get];
