import { limits } from "../limits";
import { arrayElementSpans, objectMemberSpans, sliceSpan, type Span } from "../json/json-spans";

/**
 * The params text that goes upstream for a validated call: the caller's own text, minus every object member
 * validation did not keep (unknown config keys, which Agave ignores). Values are copied as the caller wrote them —
 * never re-encoded — so a u64 above 2^53 reaches the node digit for digit. Without this, a client could pad a
 * config with a 25 KB unknown key and, through a call that becomes two upstream calls (getTokenAccountsByDelegate
 * form (a)), make us send the node a body over its own cap.
 */

/**
 * `text` is the caller's params text (valid JSON: the envelope parsed it), `kept` the validated params (objects
 * hold only the keys to forward). The walk follows the validated value, at most `maxRpcJsonDepth` deep (the
 * envelope refuses deeper bodies; past it, text is copied as is rather than recursing further).
 */
export function forwardedParamsText(text: string, kept: unknown): string {
  return keptText(text, { start: 0, end: text.length }, kept, 1);
}

function keptText(text: string, span: Span, kept: unknown, depth: number): string {
  if (depth > limits.maxRpcJsonDepth || typeof kept !== "object" || kept === null) return sliceSpan(text, span);
  if (Array.isArray(kept)) {
    const elements = arrayElementSpans(text, span.start, { controlFree: true });
    if (!elements) return sliceSpan(text, span);
    return `[${elements.map((element, i) => keptText(text, element, kept[i], depth + 1)).join(",")}]`;
  }
  const members = objectMemberSpans(text, span.start, { controlFree: true });
  if (!members) return sliceSpan(text, span);
  const out: string[] = [];
  for (const [key, value] of members) {
    if (Object.hasOwn(kept, key)) out.push(`${JSON.stringify(key)}:${keptText(text, value, (kept as Record<string, unknown>)[key], depth + 1)}`);
  }
  return `{${out.join(",")}}`;
}
