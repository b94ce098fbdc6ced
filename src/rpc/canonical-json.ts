import { limits } from "../limits";

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One text per meaning of a JSON-RPC value, for the keys that share work between callers (the immutable result cache,
 * PubSub subscriptions): compact, object keys sorted, null members and trailing null elements dropped (the node reads
 * an absent optional as null: `{"commitment":null}` is `{}`, `[5, null]` is `[5]`).
 * Undefined when a number is not a safe integer: `JSON.parse` may already have merged it with another (`1.0` and `1`,
 * digits past 2^53), so the caller's own text is its only exact form — such a value shares nothing.
 * Recursive, so capped: the envelope refuses anything nesting deeper than `maxRpcJsonDepth`, so deeper input here is a
 * bug, reported as one (RangeError), never a stack overflow.
 */
export function canonicalJson(value: unknown, depth = 0): string | undefined {
  if (depth > limits.maxRpcJsonDepth) throw new RangeError(`canonicalJson: nesting over ${limits.maxRpcJsonDepth}`);
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : undefined;
  if (Array.isArray(value)) {
    let end = value.length;
    while (end > 0 && (value[end - 1] === null || value[end - 1] === undefined)) end--;
    const parts: string[] = [];
    for (const element of value.slice(0, end)) {
      const part = element === undefined ? "null" : canonicalJson(element, depth + 1);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return `[${parts.join(",")}]`;
  }
  if (isPlainObject(value)) {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      if (value[key] === null || value[key] === undefined) continue;
      const part = canonicalJson(value[key], depth + 1);
      if (part === undefined) return undefined;
      parts.push(`${JSON.stringify(key)}:${part}`);
    }
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(value);
}
