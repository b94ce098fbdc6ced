import type { RpcErrorObject } from "../json/json-rpc";
import { arrayElementSpans, objectMemberSpans, skipWhitespace, sliceSpan, type ScanOptions, type Span } from "../json/json-spans";

/**
 * Reading an upstream answer without building its results: is it a JSON-RPC 2.0 response (or batch) to the request
 * that was sent, and where does each result or error sit in the text. Only ids and error objects — both small —
 * are parsed. Anything else — HTML, binary, a cut-short body, a wrong or repeated id, a result and an error
 * together — is not an answer (undefined).
 */

/** JSON-RPC request ids as the protocol allows them. */
export type JsonRpcId = string | number | null;

/** The ids a request must be answered with: one id, or a batch sent with ids 0..batchSize-1. */
export type ExpectedAnswer = { id: JsonRpcId } | { batchSize: number };

/** One response object of an answer: its id, and where its result sits, or its error (raw span and parsed). */
export interface ResponseView {
  id: JsonRpcId;
  result?: Span;
  error?: { span: Span; value: RpcErrorObject };
}

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function isErrorObject(value: unknown): value is RpcErrorObject {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return Number.isInteger(code) && typeof message === "string";
}

function parseSmall(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readResponse(text: string, members: Map<string, Span> | undefined): ResponseView | undefined {
  if (!members) return undefined;
  const version = members.get("jsonrpc");
  const idSpan = members.get("id");
  if (!version || sliceSpan(text, version) !== '"2.0"' || !idSpan) return undefined;
  const id = parseSmall(sliceSpan(text, idSpan));
  if (!isId(id)) return undefined;
  const result = members.get("result");
  const errorSpan = members.get("error");
  if ((result === undefined) === (errorSpan === undefined)) return undefined;
  if (result) return { id, result };
  const error = parseSmall(sliceSpan(text, errorSpan!));
  return isErrorObject(error) ? { id, error: { span: errorSpan!, value: error } } : undefined;
}

/** Index just past the object or array at `start` whose (already validated) member or element spans are `spans`. */
function endOf(text: string, start: number, spans: Iterable<Span>): number {
  let last = start + 1;
  for (const span of spans) last = Math.max(last, span.end);
  return skipWhitespace(text, last) + 1;
}

/**
 * The responses of `text` in the order they appear, if it answers `expected`; undefined when it does not (which
 * includes any text that is not JSON: the scan checks the whole grammar).
 */
export function readAnswer(text: string, expected: ExpectedAnswer, options?: ScanOptions): ResponseView[] | undefined {
  const start = skipWhitespace(text, 0);
  if ("id" in expected) {
    const members = objectMemberSpans(text, start, options);
    const response = readResponse(text, members);
    if (!response || response.id !== expected.id || skipWhitespace(text, endOf(text, start, members!.values())) !== text.length) return undefined;
    return [response];
  }
  const elements = arrayElementSpans(text, start, options);
  if (!elements || elements.length !== expected.batchSize || skipWhitespace(text, endOf(text, start, elements)) !== text.length) return undefined;
  const seen = new Set<number>();
  const responses: ResponseView[] = [];
  for (const element of elements) {
    // The elements were just scanned in full: no control character is inside their strings.
    const response = readResponse(text, objectMemberSpans(text, element.start, { controlFree: true }));
    if (!response || typeof response.id !== "number" || !Number.isInteger(response.id)) return undefined;
    if (response.id < 0 || response.id >= expected.batchSize || seen.has(response.id)) return undefined;
    seen.add(response.id);
    responses.push(response);
  }
  return responses;
}
