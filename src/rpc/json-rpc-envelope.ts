import { batchTooLarge, standardErrors, type RpcErrorObject } from "../errors/rpc-errors";
import type { JsonRpcId } from "../solana/upstream";
import { arrayElementSpans, objectMemberSpans, skipWhitespace, sliceSpan } from "../json/json-spans";
import { nestingDepth } from "./json-nesting";

/**
 * The JSON-RPC 2.0 envelope, as jsonrpc-core (Agave's HTTP server) reads it:
 * - a body that is not JSON → one -32700 error, id null;
 * - an array is a batch: empty → one -32600 error (not an array); each element is read on its own;
 * - an element that is not an object, has members other than jsonrpc/id/method/params, an id that is not a
 *   string, an integer in u64's range written as digits, or null (serde's `Id`: Num(u64) | Str | Null — so
 *   no fraction, no exponent, no sign), a non-string method, or params that are not an array/object/null
 *   → -32600 "Invalid request" (with its id when the id itself is readable);
 * - `jsonrpc` missing or not "2.0" → -32600 "Unsupported JSON-RPC protocol version";
 * - a valid element without an `id` member is a notification: never forwarded, never answered;
 * - an element nesting deeper than `maxDepth` (the request object is level 1) → -32600 "Invalid request" (with its
 *   id when readable), before anything walks it: our guard, so no recursive walk later can run out of stack.
 * Method lookup and params validation happen later (`methods.ts`): this module knows nothing of Solana.
 */

/** A caller's id: ids above 2^53 are kept exactly as bigints (JSON numbers would lose digits). */
export type ClientId = JsonRpcId | bigint;

/** One element of the request, classified. */
export type RequestItem =
  | {
      kind: "call";
      id: ClientId;
      method: string;
      /** Parsed params; undefined when absent or null. */
      params: unknown;
      /** The params exactly as the caller wrote them, to forward without re-encoding; undefined when absent or null. */
      paramsText: string | undefined;
    }
  | { kind: "notification" }
  | { kind: "invalid"; id: ClientId; error: RpcErrorObject };

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

const U64_MAX = 18446744073709551615n;
const UNSIGNED_DIGITS = /^(?:0|[1-9][0-9]*)$/;

/**
 * The caller's id, or undefined when it is not a valid one. Numbers are read from their text: `1e3`, `1.0`, `-5` are
 * not u64s to serde (Agave answers them -32600), and 9007199254740993 must come back with every digit.
 */
function readId(id: unknown, idText: () => string | undefined): ClientId | undefined {
  if (id === null || typeof id === "string") return id;
  if (typeof id !== "number") return undefined;
  const text = idText();
  if (text === undefined || !UNSIGNED_DIGITS.test(text)) return undefined;
  if (Number.isSafeInteger(id)) return id;
  const exact = BigInt(text);
  return exact <= U64_MAX ? exact : undefined;
}

function classify(value: unknown, text: string, start: number, tooDeep: boolean): RequestItem {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalid(null, standardErrors.invalidRequest);
  const request = value as Record<string, unknown>;
  const hasId = Object.hasOwn(request, "id");
  let members: ReturnType<typeof objectMemberSpans> | undefined;
  const memberText = (name: string) => {
    members ??= objectMemberSpans(text, start, { controlFree: true });
    const span = members?.get(name);
    return span ? sliceSpan(text, span) : undefined;
  };
  const readable = hasId ? readId(request.id, () => memberText("id")) : null;
  if (readable === undefined) return invalid(null, standardErrors.invalidRequest);
  const id = readable;
  if (tooDeep) return invalid(id, standardErrors.invalidRequest);
  for (const key of Object.keys(request)) if (!allowedMembers.has(key)) return invalid(id, standardErrors.invalidRequest);
  if (typeof request.method !== "string") return invalid(id, standardErrors.invalidRequest);
  const params = request.params;
  if (params !== undefined && params !== null && typeof params !== "object") return invalid(id, standardErrors.invalidRequest);
  if (request.jsonrpc !== "2.0") return invalid(id, standardErrors.invalidVersion);
  if (!hasId) return { kind: "notification" };
  const hasParams = params !== undefined && params !== null;
  return {
    kind: "call",
    id,
    method: request.method,
    params: hasParams ? params : undefined,
    paramsText: hasParams ? memberText("params") : undefined,
  };
}

function invalid(id: ClientId, error: RpcErrorObject): RequestItem {
  return { kind: "invalid", id, error };
}

/** `JSON.stringify` of an id, once per item: every response and upstream request embeds it as text. */
export function idText(id: ClientId): string {
  return typeof id === "bigint" ? id.toString() : JSON.stringify(id);
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
export function errorResponseText(id: ClientId, error: RpcErrorObject): string {
  return rawErrorResponseText(idText(id), JSON.stringify(error));
}

/** One upstream request for a validated call; params travel as the caller's own text. */
export function upstreamRequestText(idJson: string, method: string, paramsText: string | undefined): string {
  const params = paramsText === undefined ? "" : `,"params":${paramsText}`;
  return `{"jsonrpc":"2.0","id":${idJson},"method":${JSON.stringify(method)}${params}}`;
}
