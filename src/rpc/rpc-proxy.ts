import { upstreamFailureError } from "../errors/rpc-errors";
import { limits } from "../limits";
import { UpstreamError, type JsonRpcId, type JsonRpcResponse, type Upstream } from "../solana/upstream";
import { finalizedSlot } from "./finalized-slot";
import { cacheCandidate, cachedResult, storeIfFinal, type CacheCandidate } from "./immutable-cache";
import {
  errorResponseText,
  idText,
  parseRequestBody,
  rawErrorResponseText,
  resultResponseText,
  upstreamRequestText,
  type RequestItem,
} from "./json-rpc-envelope";
import { isIdempotent, validateCall, type ValidatedCall } from "./methods";
import { arrayElementSpans, objectMemberSpans, skipWhitespace, sliceSpan } from "./raw-json";

/**
 * Answers one JSON-RPC body: envelope → allowlist + params → cache → one upstream request for everything left
 * → responses in request order. Parses the body once; upstream answers are validated once and sliced, never
 * re-encoded (a single uncached call's answer goes back exactly as the node sent it).
 */

export interface RpcProxyDeps {
  upstream: Upstream;
  cache: Cache;
  /** Origin of the incoming request: cache keys live under it. */
  cacheOrigin: string;
  requestId: string | undefined;
  /** Work that may finish after the response (cache writes). */
  waitUntil(promise: Promise<unknown>): void;
}

/** One call going upstream, and where its answer goes. */
interface Forwarded {
  index: number;
  id: JsonRpcId;
  idJson: string;
  call: ValidatedCall;
  paramsText: string | undefined;
  candidate: CacheCandidate | undefined;
}

/** The response body for `bodyText`, or undefined when nothing is to be answered (only notifications: HTTP 204). */
export async function answerRpcBody(bodyText: string, deps: RpcProxyDeps): Promise<string | undefined> {
  const body = parseRequestBody(bodyText, limits.maxRpcBatch);
  if (body.kind === "error") return errorResponseText(null, body.error);
  const items = body.kind === "single" ? [body.item] : body.items;
  const answers: (string | undefined)[] = new Array(items.length);
  const pending: Forwarded[] = [];
  items.forEach((item, index) => {
    const outcome = prepare(item, index, deps);
    if (typeof outcome === "string") answers[index] = outcome;
    else if (outcome) pending.push(outcome);
  });
  const toForward: Forwarded[] = [];
  await Promise.all(
    pending.map(async (call) => {
      const hit = call.candidate ? await cachedResult(deps.cache, call.candidate) : undefined;
      if (hit === undefined) toForward.push(call);
      else answers[call.index] = resultResponseText(call.idJson, hit);
    }),
  );
  if (toForward.length > 0) {
    toForward.sort((a, b) => a.index - b.index);
    const forwarded = await forward(toForward, body.kind === "single", deps);
    toForward.forEach((call, k) => (answers[call.index] = forwarded[k]));
  }
  if (body.kind === "single") return answers[0];
  const parts = answers.filter((a): a is string => a !== undefined);
  return parts.length === 0 ? undefined : `[${parts.join(",")}]`;
}

/** An item's answer when it is settled here (string), nothing for a notification, or the call to forward. */
function prepare(item: RequestItem, index: number, deps: RpcProxyDeps): string | Forwarded | undefined {
  if (item.kind === "notification") return undefined;
  if (item.kind === "invalid") return errorResponseText(item.id, item.error);
  const validated = validateCall(item.method, item.params);
  if (!validated.ok) return errorResponseText(item.id, validated.error);
  return {
    index,
    id: item.id,
    idJson: idText(item.id),
    call: validated.call,
    paramsText: item.paramsText,
    candidate: cacheCandidate(validated.call, deps.cacheOrigin, deps.upstream.clusterKey),
  };
}

/**
 * One upstream request for all calls: a single call goes as a single request with the caller's id (so its
 * answer can go back verbatim), several go as one batch with ids 0..n-1 (callers' ids may repeat).
 * A batch is retried only if every call in it is idempotent.
 */
async function forward(calls: Forwarded[], singleRequest: boolean, deps: RpcProxyDeps): Promise<string[]> {
  const options = { idempotent: calls.every((c) => isIdempotent(c.call.method)), requestId: deps.requestId };
  try {
    if (singleRequest) {
      const call = calls[0]!;
      const answer = await deps.upstream.callRaw(upstreamRequestText(call.idJson, call.call.method, call.paramsText), { id: call.id }, options);
      return [call.candidate ? rewrap(answer.text, skipWhitespace(answer.text, 0), call, deps) : answer.text];
    }
    const body = `[${calls.map((c, k) => upstreamRequestText(String(k), c.call.method, c.paramsText)).join(",")}]`;
    const answer = await deps.upstream.callRaw(body, { batchSize: calls.length }, options);
    const elements = arrayElementSpans(answer.text, skipWhitespace(answer.text, 0));
    const out = new Array<string>(calls.length);
    (answer.json as JsonRpcResponse[]).forEach((response, e) => {
      const k = response.id as number;
      out[k] = rewrap(answer.text, elements[e]!.start, calls[k]!, deps);
    });
    return out;
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const error = JSON.stringify(upstreamFailureError(err));
    return calls.map((c) => rawErrorResponseText(c.idJson, error));
  }
}

/** Re-wraps one upstream response object (at `start` in `text`) with the caller's id; stores final results. */
function rewrap(text: string, start: number, call: Forwarded, deps: RpcProxyDeps): string {
  const members = objectMemberSpans(text, start);
  const result = members.get("result");
  if (!result) return rawErrorResponseText(call.idJson, sliceSpan(text, members.get("error")!));
  const resultText = sliceSpan(text, result);
  if (call.candidate) {
    deps.waitUntil(storeIfFinal(deps.cache, call.candidate, resultText, () => finalizedSlot(deps.upstream, deps.requestId)));
  }
  return resultResponseText(call.idJson, resultText);
}
