import { batchTooLarge, standardErrors, type RpcErrorObject } from "../errors/rpc-errors";
import type { JsonRpcId } from "../solana/upstream";
import { arrayElementSpans, objectMemberSpans, skipWhitespace, sliceSpan } from "../solana/upstream-json-spans";
import { nestingDepth } from "./json-nesting";

/**
 * The JSON-RPC 2.0 envelope, as jsonrpc-core (Agave's HTTP server) reads it:
 * - a body that is not JSON → one -32700 error, id null;
 * - an array is a batch: empty → one -32600 error (not an array); each element is read on its own;
 * - an element that is not an object, has members other than jsonrpc/id/method/params, an id that is not a
 *   string, a non-negative integer or null, a non-string method, or params that are not an array/object/null
 *   → -32600 "Invalid request" (with its id when the id itself is readable);
 * - `jsonrpc` missing or not "2.0" → -32600 "Unsupported JSON-RPC protocol version";
 * - a valid element without an `id` member is a notification: never forwarded, never answered;
 * - an element nesting deeper than `maxDepth` (the request object is level 1) → -32600 "Invalid request" (with its
 *   id when readable), before anything walks it: our guard, so no recursive walk later can run out of stack.
 * Method lookup and params validation happen later (`methods.ts`): this module knows nothing of Solana.
 */

/** One element of the request, classified. */
export type RequestItem =
  | {
      kind: "call";
      id: JsonRpcId;
      method: string;
      /** Parsed params; undefined when absent or null. */
      params: unknown;
      /** The params exactly as the caller wrote them, to forward without re-encoding; undefined when absent or null. */
      paramsText: string | undefined;
    }
  | { kind: "notification" }
  | { kind: "invalid"; id: JsonRpcId; error: RpcErrorObject };

/** The whole body: one item, a batch, or an error that answers the body as a whole. */
export type RequestBody =
  | { kind: "single"; item: RequestItem }
  | { kind: "batch"; items: RequestItem[] }
  | { kind: "error"; error: RpcErrorObject };

const allowedMembers = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * Parses and classifies a request body. Batches larger than `maxBatch` are refused as a whole; elements nesting
 * deeper than `maxDepth` one by one (the other elements of a batch are still answered).
 */
export function parseRequestBody(text: string, maxBatch: number, maxDepth: number): RequestBody {
  let value: unknown;
  try {
    // V8's JSON.parse is iterative: any depth parses; the depth is checked next, before any walk.
    value = JSON.parse(text);
  } catch {
    return { kind: "error", error: standardErrors.parse };
  }
  const start = skipWhitespace(text, 0);
  if (!Array.isArray(value)) return { kind: "single", item: classify(value, text, start, nestingDepth(text) > maxDepth) };
  if (value.length === 0) return { kind: "error", error: standardErrors.invalidRequest };
  if (value.length > maxBatch) return { kind: "error", error: batchTooLarge(maxBatch) };
  // JSON.parse accepted the text, so the spans exist (and no control character is inside a string).
  const spans = arrayElementSpans(text, start, { controlFree: true })!;
  return { kind: "batch", items: value.map((element, i) => classify(element, text, spans[i]!.start, nestingDepth(text, spans[i]!.start, spans[i]!.end) > maxDepth)) };
}

function isValidId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id) && id >= 0);
}

function classify(value: unknown, text: string, start: number, tooDeep: boolean): RequestItem {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalid(null, standardErrors.invalidRequest);
  const request = value as Record<string, unknown>;
  const hasId = Object.hasOwn(request, "id");
  const id = hasId && isValidId(request.id) ? request.id : null;
  if (hasId && !isValidId(request.id)) return invalid(null, standardErrors.invalidRequest);
  if (tooDeep) return invalid(id, standardErrors.invalidRequest);
  for (const key of Object.keys(request)) if (!allowedMembers.has(key)) return invalid(id, standardErrors.invalidRequest);
  if (typeof request.method !== "string") return invalid(id, standardErrors.invalidRequest);
  const params = request.params;
  if (params !== undefined && params !== null && typeof params !== "object") return invalid(id, standardErrors.invalidRequest);
  if (request.jsonrpc !== "2.0") return invalid(id, standardErrors.invalidVersion);
  if (!hasId) return { kind: "notification" };
  const hasParams = params !== undefined && params !== null;
  const paramsSpan = hasParams ? objectMemberSpans(text, start, { controlFree: true })!.get("params") : undefined;
  return {
    kind: "call",
    id,
    method: request.method,
    params: hasParams ? params : undefined,
    paramsText: paramsSpan ? sliceSpan(text, paramsSpan) : undefined,
  };
}

function invalid(id: JsonRpcId, error: RpcErrorObject): RequestItem {
  return { kind: "invalid", id, error };
}

/** `JSON.stringify` of an id, once per item: every response and upstream request embeds it as text. */
export function idText(id: JsonRpcId): string {
  return JSON.stringify(id);
}

/** A success response around a result text taken verbatim from the upstream (or the cache). */
export function resultResponseText(idJson: string, resultText: string): string {
  return `{"jsonrpc":"2.0","result":${resultText},"id":${idJson}}`;
}

/** An error response around an error object text taken verbatim from the upstream. */
export function rawErrorResponseText(idJson: string, errorText: string): string {
  return `{"jsonrpc":"2.0","error":${errorText},"id":${idJson}}`;
}

/** An error response of ours. */
export function errorResponseText(id: JsonRpcId, error: RpcErrorObject): string {
  return rawErrorResponseText(idText(id), JSON.stringify(error));
}

/** One upstream request for a validated call; params travel as the caller's own text. */
export function upstreamRequestText(idJson: string, method: string, paramsText: string | undefined): string {
  const params = paramsText === undefined ? "" : `,"params":${paramsText}`;
  return `{"jsonrpc":"2.0","id":${idJson},"method":${JSON.stringify(method)}${params}}`;
}
