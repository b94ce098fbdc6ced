import { frameTooLarge, invalidParams, jsonRpcCodes, standardErrors, type RpcErrorObject } from "../errors/rpc-errors";
import { validateCall } from "../rpc/methods";
import { pubkeyProblem } from "../rpc/param-schemas";
import { limits } from "../limits";
import { utf8ByteLength } from "../json/utf8-length";
import { errorResponseText, idText, parseRequestBody } from "../rpc/json-rpc-envelope";

/**
 * The one reading of a client's PubSub frame on `/rpc` (used by the hub, pubsub/pubsub-hub.ts): byte cap, UTF-8, the
 * JSON-RPC envelope of HTTP, one request object a frame, the stable PubSub methods only, params an array. What it
 * refuses is answered with the error frame it returns and never reaches the upstream.
 */

/** Stable Solana PubSub methods. blockSubscribe, slotsUpdatesSubscribe and voteSubscribe are left out: Agave marks them unstable and disables them by default. */
export const subscribeMethods: ReadonlySet<string> = new Set(["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe", "slotSubscribe", "rootSubscribe"]);
const unsubscribeMethods: ReadonlySet<string> = new Set([...subscribeMethods].map(unsubscribeMethodOf));

/** `accountSubscribe` → `accountUnsubscribe`. */
export function unsubscribeMethodOf(subscribeMethod: string): string {
  return subscribeMethod.replace(/Subscribe$/, "Unsubscribe");
}

/** A frame read: a PubSub call to act on, an error frame to answer with, or nothing (a JSON-RPC notification such as the clients' `ping`). */
export type PubSubFrame =
  | {
      kind: "call";
      /** The caller's id as JSON text, for the answer. */
      idJson: string;
      method: string;
      subscribe: boolean;
      /** Parsed params (an array), undefined when absent or null. */
      params: unknown[] | undefined;
      /** The params exactly as the caller wrote them; undefined when absent or null. */
      paramsText: string | undefined;
    }
  | { kind: "refused"; answer: string }
  | { kind: "ignored" };

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Reads one client frame (text or binary). Never throws. */
export function readPubSubFrame(frame: string | ArrayBuffer): PubSubFrame {
  const size = typeof frame === "string" ? (frame.length > limits.maxPubSubFrameBytes ? frame.length : utf8ByteLength(frame)) : frame.byteLength;
  if (size > limits.maxPubSubFrameBytes) return refused(null, frameTooLarge(limits.maxPubSubFrameBytes));
  let text: string;
  try {
    text = typeof frame === "string" ? frame : fatalUtf8.decode(frame);
  } catch {
    return refused(null, standardErrors.parse);
  }
  const body = parseRequestBody(text, limits.maxRpcBatch, limits.maxRpcJsonDepth);
  if (body.kind === "error") return refused(null, body.error);
  // A batch is not ours to split into frames; no Solana client sends one on a socket.
  if (body.kind === "batch") return refused(null, standardErrors.invalidRequest);
  const item = body.item;
  if (item.kind === "notification") return { kind: "ignored" };
  if (item.kind === "invalid") return refused(item.id, item.error);
  const subscribe = subscribeMethods.has(item.method);
  if (!subscribe && !unsubscribeMethods.has(item.method)) return refused(item.id, standardErrors.methodNotFound);
  if (item.params !== undefined && !Array.isArray(item.params)) return refused(item.id, { code: jsonRpcCodes.INVALID_PARAMS, message: "`params` should be an array" });
  const problem = subscribe ? selectivityProblem(item.method, item.params as unknown[] | undefined) : undefined;
  if (problem) return refused(item.id, problem);
  return { kind: "call", idJson: idText(item.id), method: item.method, subscribe, params: item.params as unknown[] | undefined, paramsText: item.paramsText };
}

/** What `logsSubscribe` takes on this endpoint: the logs of transactions that mention one address. */
export const logsMentionsRequired = "logsSubscribe on this endpoint requires {\"mentions\": [<one address>]}; \"all\" and \"allWithVotes\" are not served";

/**
 * Subscriptions that would stream a large share of the chain are refused before they reach the node, as HTTP
 * `getProgramAccounts` is (program-accounts-policy.ts): `programSubscribe` takes the same params and passes the same
 * checks (filters required; on token programs a 32-byte memcmp at the mint or owner offset), and `logsSubscribe` only
 * `{"mentions": [one address]}` (`all` is every transaction of the chain).
 */
export function selectivityProblem(method: string, params: unknown[] | undefined): RpcErrorObject | undefined {
  if (method === "programSubscribe") {
    const checked = validateCall("getProgramAccounts", params);
    if (checked.ok) return undefined;
    return { ...checked.error, message: checked.error.message.replaceAll("getProgramAccounts", "programSubscribe") };
  }
  if (method === "logsSubscribe") {
    const filter = params?.[0];
    const mentions = typeof filter === "object" && filter !== null && !Array.isArray(filter) ? (filter as Record<string, unknown>).mentions : undefined;
    if (!Array.isArray(mentions) || mentions.length !== 1 || typeof mentions[0] !== "string") return invalidParams(logsMentionsRequired);
    if (pubkeyProblem(mentions[0]) !== undefined) return invalidParams("Invalid Request: Invalid pubkey provided");
  }
  return undefined;
}

function refused(id: Parameters<typeof errorResponseText>[0], error: Parameters<typeof errorResponseText>[1]): PubSubFrame {
  return { kind: "refused", answer: errorResponseText(id, error) };
}
