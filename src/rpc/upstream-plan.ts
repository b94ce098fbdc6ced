import { UpstreamError } from "../solana/upstream";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../solana/well-known";
import { isOptionsNotFilter } from "./method-schemas";
import type { ValidatedCall } from "./methods";
import { arrayElementSpans, objectMemberSpans, sliceSpan } from "../json/json-spans";

/**
 * What goes upstream for one validated call. Almost always the call itself, params as the caller wrote them.
 * The exception: the spec's form (a) of getTokenAccountsByDelegate, `[delegate, options?]`, which Agave does not
 * know. It means "all token accounts whose delegate is the key", so it becomes two form (b) calls — one per token
 * program — whose account lists are joined (context of the first; both travel in one upstream batch).
 */

/** One upstream call: method and params text. */
export interface UpstreamPart {
  method: string;
  paramsText: string | undefined;
}

/** The upstream calls for one caller call, and how their results become its result. */
export interface UpstreamPlan {
  parts: UpstreamPart[];
  /** Joins the parts' result texts into the caller's result text; absent for one-part plans. */
  combine?: (resultTexts: string[]) => string;
}

/** The upstream calls that answer `call`; `paramsText` is the caller's own params text. */
export function upstreamPlan(call: ValidatedCall, paramsText: string | undefined): UpstreamPlan {
  if (call.method === "getTokenAccountsByDelegate") {
    const [delegate, filterOrOptions] = call.params;
    if (!filterOrOptions || isOptionsNotFilter(filterOrOptions)) {
      const options = { ...filterOrOptions, encoding: filterOrOptions?.encoding ?? "jsonParsed" };
      const parts = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS].map((programId) => ({
        method: call.method,
        paramsText: JSON.stringify([delegate, { programId }, options]),
      }));
      return { parts, combine: joinAccountLists };
    }
  }
  return { parts: [{ method: call.method, paramsText }] };
}

/** `{context, value: [...]}` results → one, with the first context and every value element, as raw text. */
function joinAccountLists(resultTexts: string[]): string {
  let context: string | undefined;
  const elements: string[] = [];
  for (const text of resultTexts) {
    // Slices of an answer the upstream client scanned in full: no control character is inside their strings.
    const members = objectMemberSpans(text, 0, { controlFree: true });
    const value = members?.get("value");
    const spans = value && arrayElementSpans(text, value.start, { controlFree: true });
    const contextSpan = members?.get("context");
    if (!spans || !contextSpan) throw new UpstreamError("bad-response", "getTokenAccountsByDelegate answer is not {context, value: [...]}");
    context ??= sliceSpan(text, contextSpan);
    for (const span of spans) elements.push(sliceSpan(text, span));
  }
  return `{"context":${context},"value":[${elements.join(",")}]}`;
}
