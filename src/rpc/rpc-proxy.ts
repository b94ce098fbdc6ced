import { upstreamFailureError, upstreamRequestRefused } from "../errors/rpc-errors";
import { limits } from "../limits";
import { answerCapFor, UpstreamError, type ExpectedAnswer, type RawAnswer, type ResponseView, type Upstream } from "../solana/upstream";
import { finalizedSlot } from "./finalized-slot";
import { cacheCandidate, cachedResult, storeIfFinal, type CacheCandidate } from "./immutable-cache";
import {
  errorResponseText,
  idText,
  parseRequestBody,
  rawErrorResponseText,
  resultResponseText,
  upstreamRequestText,
  type ClientId,
  type RequestBody,
  type RequestItem,
} from "./json-rpc-envelope";
import { forwardedParamsText } from "./forwarded-params";
import { isIdempotent, validateCall, type ValidatedCall } from "./methods";
import { sliceSpan } from "../json/json-spans";
import { utf8ByteLength } from "../json/utf8-length";
import { upstreamPlan, type UpstreamPlan } from "./upstream-plan";

/**
 * Answers one JSON-RPC body: envelope → allowlist + params → cache → one upstream request for everything left
 * → responses in request order. Parses the body once; upstream answers are validated once and sliced, never
 * re-encoded (a single uncached call's answer goes back exactly as the node sent it).
 */

/** What answering a body needs from the request and the environment. */
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
  id: ClientId;
  idJson: string;
  call: ValidatedCall;
  plan: UpstreamPlan;
  candidate: CacheCandidate | undefined;
}

/** One upstream response object, as raw text: its result, or its error object. */
type PartOutcome = { result: string } | { error: string };

/** The body read once, with the service's caps: the route counts its calls (credits) before it is answered. */
export function parseRpcBody(bodyText: string): RequestBody {
  return parseRequestBody(bodyText, limits.maxRpcBatch, limits.maxRpcJsonDepth);
}

/**
 * Credits a body costs: its calls that are answered with the node's data (forwarded, or from the immutable cache).
 * A notification (no `id`) is never answered nor forwarded, and an item refused here (bad envelope, method or params)
 * never reaches the node: neither costs a credit. A body refused whole costs 0 (the rate windows still count the request).
 */
export function callsIn(body: RequestBody): number {
  if (body.kind === "error") return 0;
  const items = body.kind === "single" ? [body.item] : body.items;
  let calls = 0;
  for (const item of items) if (item.kind === "call" && validateCall(item.method, item.params).ok) calls++;
  return calls;
}

export async function answerParsedRpcBody(body: RequestBody, deps: RpcProxyDeps): Promise<string | undefined> {
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
    plan: upstreamPlan(validated.call, item.paramsText === undefined ? undefined : forwardedParamsText(item.paramsText, validated.call.params)),
    candidate: cacheCandidate(validated.call, deps.cacheOrigin, deps.upstream.clusterKey),
  };
}

/**
 * One upstream request for all calls: a lone single call goes as a single request with the caller's id (so its
 * answer can go back verbatim); anything else goes as one batch with ids 0..n-1 (callers' ids may repeat, and a
 * call may need several upstream parts). A batch is retried only if every call in it is idempotent. The answer is
 * read with the largest byte cap among the methods sent.
 */
async function forward(calls: Forwarded[], singleRequest: boolean, deps: RpcProxyDeps): Promise<string[]> {
  try {
    const only = calls[0]!;
    // An id above 2^53 goes the batch way (ids 0..n-1, the caller's id put back as text): JSON numbers would lose it.
    if (singleRequest && only.plan.parts.length === 1 && typeof only.id !== "bigint") {
      const part = only.plan.parts[0]!;
      const expected = { id: only.id };
      const options = { idempotent: isIdempotent(only.call.method), requestId: deps.requestId, maxAnswerBytes: answerCapFor([part.method]) };
      const answer = await deps.upstream.callRaw(upstreamRequestText(only.idJson, part.method, part.paramsText), expected, options);
      if (!only.candidate) return [answer.text];
      const [response] = responsesOf(answer, expected);
      return [respond(only, [partOutcome(answer.text, response!)], deps)];
    }
    return await forwardBatch(calls, deps);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const error = JSON.stringify(upstreamFailureError(err));
    return calls.map((c) => rawErrorResponseText(c.idJson, error));
  }
}

/**
 * The batch form of `forward`. Calls are packed in request order while the upstream body stays within the node's
 * own cap (`upstreamMaxRequestBytes`): a call that would take it over is answered -32060 and not sent, so one
 * oversized call does not sink the others (the node would refuse the whole body with 413).
 */
async function forwardBatch(calls: Forwarded[], deps: RpcProxyDeps): Promise<string[]> {
  const answers: string[] = new Array(calls.length);
  const sent: { call: Forwarded; at: number }[] = [];
  const requests: string[] = [];
  let bytes = 2; // the brackets
  calls.forEach((call, at) => {
    const texts = call.plan.parts.map((p, k) => upstreamRequestText(String(requests.length + k), p.method, p.paramsText));
    const size = texts.reduce((sum, text) => sum + utf8ByteLength(text) + 1, 0); // each with its comma (one too many: a bound)
    if (bytes + size > limits.upstreamMaxRequestBytes) {
      answers[at] = errorResponseText(call.id, upstreamRequestRefused({ maxBytes: limits.upstreamMaxRequestBytes }));
      return;
    }
    bytes += size;
    requests.push(...texts);
    sent.push({ call, at });
  });
  if (sent.length === 0) return answers;
  const expected = { batchSize: requests.length };
  const options = {
    idempotent: sent.every(({ call }) => isIdempotent(call.call.method)),
    requestId: deps.requestId,
    maxAnswerBytes: answerCapFor(sent.flatMap(({ call }) => call.plan.parts.map((p) => p.method))),
  };
  try {
    const answer = await deps.upstream.callRaw(`[${requests.join(",")}]`, expected, options);
    const outcomes = new Array<PartOutcome>(requests.length);
    for (const response of responsesOf(answer, expected)) outcomes[response.id as number] = partOutcome(answer.text, response);
    let next = 0;
    for (const { call, at } of sent) answers[at] = respond(call, outcomes.slice(next, (next += call.plan.parts.length)), deps);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const error = JSON.stringify(upstreamFailureError(err));
    for (const { call, at } of sent) answers[at] = rawErrorResponseText(call.idJson, error);
  }
  return answers;
}

/** Where the responses sit in a checked answer (the client validated them against `expected`). */
function responsesOf(answer: RawAnswer, _expected: ExpectedAnswer): ResponseView[] {
  return answer.responses;
}

/** The raw result or error text of one response. */
function partOutcome(text: string, response: ResponseView): PartOutcome {
  return response.result ? { result: sliceSpan(text, response.result) } : { error: sliceSpan(text, response.error!.span) };
}

/** The caller's response from its parts' outcomes (the first error wins); final results go to the cache. */
function respond(call: Forwarded, outcomes: PartOutcome[], deps: RpcProxyDeps): string {
  const results: string[] = [];
  for (const outcome of outcomes) {
    if ("error" in outcome) return rawErrorResponseText(call.idJson, outcome.error);
    results.push(outcome.result);
  }
  const resultText = call.plan.combine ? call.plan.combine(results) : results[0]!;
  if (call.candidate) {
    deps.waitUntil(storeIfFinal(deps.cache, call.candidate, resultText, () => finalizedSlot(deps.upstream, deps.requestId)));
  }
  return resultResponseText(call.idJson, resultText);
}
