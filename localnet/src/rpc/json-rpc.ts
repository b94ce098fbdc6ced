/**
 * JSON-RPC 2.0 over one HTTP body, as jsonrpc-core (Agave's HTTP RPC) handles it:
 * - a body that is not JSON, or JSON that is neither an object nor an array, is a Parse error (-32700) with id null;
 * - an object that is not a valid call (no method, unknown fields, bad id) is an Invalid request (-32600);
 * - a call without `id` is a notification and gets no answer; a batch answers each call in order, and a batch (or single
 *   call) that produces no answer at all produces no body;
 * - unknown methods are -32601; method errors keep their own code, message and data.
 */
import { parseJsonExact } from "./exact-json.js";
import { stringifyJson, u64 } from "./json-serialize.js";
import { internalError, invalidRequest, methodNotFound, parseError, RpcError } from "./rpc-error.js";

export type MethodTable = Record<string, (params: unknown) => unknown>;

/** jsonrpc-core's Id: a u64 (a bigint above 2^53, echoed exactly), a string or null. */
type Id = number | bigint | string | null;

interface Call {
  kind: "call";
  /** undefined = notification. */
  id: Id | undefined;
  method: string;
  params: unknown;
  /** Echoed back: jsonrpc-core omits `jsonrpc` in the answer when the request omitted it. */
  hasVersion: boolean;
}

interface InvalidCall {
  kind: "invalid";
  id: Id;
  message?: string;
}

export interface ParsedBody {
  batch: boolean;
  items: (Call | InvalidCall)[];
}

const CALL_FIELDS = new Set(["jsonrpc", "id", "method", "params"]);

/** jsonrpc-core's `Id`: Null, Num(u64) or Str — a negative or fractional id is an invalid request, as on Agave. */
function isId(value: unknown): value is Id {
  return (
    value === null ||
    typeof value === "string" ||
    (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) ||
    (typeof value === "bigint" && value >= 0n)
  );
}

function readCall(value: unknown): Call | InvalidCall {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "invalid", id: null };
  const obj = value as Record<string, unknown>;
  const id = isId(obj.id) ? obj.id : null;
  if ("jsonrpc" in obj && obj.jsonrpc !== "2.0") return { kind: "invalid", id, message: "Unsupported JSON-RPC protocol version" };
  const paramsOk = obj.params === undefined || obj.params === null || typeof obj.params === "object";
  if (typeof obj.method !== "string" || !paramsOk || ("id" in obj && !isId(obj.id)) || Object.keys(obj).some((k) => !CALL_FIELDS.has(k))) {
    return { kind: "invalid", id };
  }
  return { kind: "call", id: "id" in obj ? (obj.id as Id) : undefined, method: obj.method, params: obj.params, hasVersion: "jsonrpc" in obj };
}

/** Parses a body; a Parse error comes back as `undefined`. */
export function parseRpcBody(body: string): ParsedBody | undefined {
  let json: unknown;
  try {
    json = parseJsonExact(body);
  } catch {
    return undefined;
  }
  if (Array.isArray(json)) return { batch: true, items: json.map(readCall) };
  if (typeof json === "object" && json !== null) return { batch: false, items: [readCall(json)] };
  return undefined;
}

/** Method names of the valid calls (for request stats and fault matching). */
export function methodsOf(parsed: ParsedBody | undefined): string[] {
  return parsed ? parsed.items.flatMap((item) => (item.kind === "call" ? [item.method] : [])) : [];
}

/** Accounts a body asks for by address (getMultipleAccounts keys, getAccountInfo's one), for request accounting. */
export function accountsRequestedBy(parsed: ParsedBody | undefined): number {
  if (!parsed) return 0;
  let n = 0;
  for (const item of parsed.items) {
    if (item.kind !== "call" || !Array.isArray(item.params)) continue;
    if (item.method === "getAccountInfo") n += 1;
    if (item.method === "getMultipleAccounts" && Array.isArray(item.params[0])) n += item.params[0].length;
  }
  return n;
}

function envelope(hasVersion: boolean, id: Id, outcome: { result: unknown } | { error: RpcError }): Record<string, unknown> {
  const out: Record<string, unknown> = hasVersion ? { jsonrpc: "2.0" } : {};
  if ("result" in outcome) out.result = outcome.result;
  else {
    const { code, message, data } = outcome.error;
    out.error = data === undefined ? { code, message } : { code, message, data };
  }
  out.id = typeof id === "bigint" ? u64(id) : id;
  return out;
}

function run(item: Call | InvalidCall, methods: MethodTable): Record<string, unknown> | undefined {
  if (item.kind === "invalid") return envelope(true, item.id, { error: invalidRequest(item.message) });
  const handler = Object.hasOwn(methods, item.method) ? methods[item.method] : undefined;
  let outcome: { result: unknown } | { error: RpcError };
  if (!handler) outcome = { error: methodNotFound() };
  else {
    try {
      outcome = { result: handler(item.params) };
    } catch (err) {
      if (!(err instanceof RpcError)) console.error(`[localnet] ${item.method} failed:`, err);
      outcome = { error: err instanceof RpcError ? err : internalError() };
    }
  }
  return item.id === undefined ? undefined : envelope(item.hasVersion, item.id, outcome);
}

/** The answer body for a parsed request, or undefined when nothing is to be answered (notifications only). */
export function executeRpc(parsed: ParsedBody | undefined, methods: MethodTable): string | undefined {
  if (!parsed) return stringifyJson(envelope(true, null, { error: parseError() }));
  const outputs = parsed.items.map((item) => run(item, methods)).filter((out) => out !== undefined);
  if (outputs.length === 0) return undefined;
  return stringifyJson(parsed.batch ? outputs : outputs[0]);
}
