/**
 * Where values sit inside a JSON text, found without building them.
 *
 * Why: upstream results must travel exactly as the node wrote them — `JSON.parse` + `JSON.stringify` would round
 * u64 values above 2^53 (e.g. `rentEpoch: 18446744073709551615`) — and building a multi-megabyte getBlock answer
 * just to look at its `id` costs ~10x the CPU of scanning it (4.7 MB: ~54 ms for `JSON.parse`, ~7 ms here).
 *
 * What is checked: the top-level structure fully (objects, arrays, keys, separators, string and number/literal
 * tokens); inside a member's value only that strings close and brackets balance, which is what a cut-short
 * (truncated) or non-JSON (HTML, binary) answer breaks. Malformed text gives -1 / undefined, never an exception.
 */

/** Half-open character range `[start, end)` of one JSON value in a text. */
export interface Span {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A number, true, false or null, starting exactly at `lastIndex`. */
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Index of the first non-whitespace character at or after `i`. */
export function skipWhitespace(text: string, i: number): number {
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** `i` is at an opening quote; the index just past the closing one, or -1 when the string never closes. */
function skipString(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    let backslashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return j + 1;
  }
}

/** Index just past the JSON value that starts at `i`, or -1 when there is none (cut short, unbalanced, not JSON). */
export function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    const closers: number[] = [];
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        const end = skipString(text, j);
        if (end < 0) return -1;
        j = end - 1;
      } else if (c === OPEN_BRACE) closers.push(CLOSE_BRACE);
      else if (c === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (closers.pop() !== c) return -1;
        if (closers.length === 0) return j + 1;
      }
    }
    return -1;
  }
  SCALAR.lastIndex = i;
  return SCALAR.test(text) ? SCALAR.lastIndex : -1;
}

/** Spans of the members of the object starting at `start` (a later duplicate key wins, as in `JSON.parse`). */
export function objectMemberSpans(text: string, start: number): Map<string, Span> | undefined {
  if (text.charCodeAt(start) !== OPEN_BRACE) return undefined;
  const members = new Map<string, Span>();
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return members;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const rawKey = text.slice(i, keyEnd);
    let key: string;
    try {
      key = rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    } catch {
      return undefined;
    }
    i = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const valueStart = skipWhitespace(text, i + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd < 0) return undefined;
    members.set(key, { start: valueStart, end: valueEnd });
    i = skipWhitespace(text, valueEnd);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACE) return members;
    if (next !== COMMA) return undefined;
    i = skipWhitespace(text, i + 1);
  }
}

/** Spans of the elements of the array starting at `start`. */
export function arrayElementSpans(text: string, start: number): Span[] | undefined {
  if (text.charCodeAt(start) !== OPEN_BRACKET) return undefined;
  const elements: Span[] = [];
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return elements;
  for (;;) {
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    elements.push({ start: i, end });
    i = skipWhitespace(text, end);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACKET) return elements;
    if (next !== COMMA) return undefined;
    i = skipWhitespace(text, i + 1);
  }
}

/** The text of a span. */
export function sliceSpan(text: string, span: Span): string {
  return text.slice(span.start, span.end);
}
