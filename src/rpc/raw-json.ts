/**
 * Where values sit inside a JSON text, without re-serializing them.
 *
 * Why: the proxy must hand results over exactly as the node wrote them. `JSON.parse` + `JSON.stringify`
 * would round u64 values above 2^53 (e.g. `rentEpoch: 18446744073709551615`) and reorder nothing but still
 * cost a full re-encode. So we parse once to validate, then slice the original text with these spans.
 *
 * Every function here assumes the text is valid JSON (the caller has `JSON.parse`d it already); on invalid
 * input the spans are meaningless, never an exception or an endless loop.
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

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Index of the first non-whitespace character at or after `i`. */
export function skipWhitespace(text: string, i: number): number {
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** `i` is at an opening quote; returns the index just past the closing one. Long strings (base64 data) go by indexOf. */
function skipString(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return text.length;
    let backslashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return j + 1;
  }
}

/** Index just past the JSON value that starts at `i` (no leading whitespace). */
export function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) j = skipString(text, j) - 1;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  // number, true, false, null: runs to the next delimiter
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isWhitespace(c)) break;
    j++;
  }
  return j;
}

/** Spans of the members of the object starting at `start` (a later duplicate key wins, as in `JSON.parse`). */
export function objectMemberSpans(text: string, start: number): Map<string, Span> {
  const members = new Map<string, Span>();
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return members;
  while (i < text.length) {
    const keyEnd = skipString(text, i);
    const rawKey = text.slice(i, keyEnd);
    const key = rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    i = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) break;
    const valueStart = skipWhitespace(text, i + 1);
    const valueEnd = skipValue(text, valueStart);
    members.set(key, { start: valueStart, end: valueEnd });
    i = skipWhitespace(text, valueEnd);
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipWhitespace(text, i + 1);
  }
  return members;
}

/** Spans of the elements of the array starting at `start`. */
export function arrayElementSpans(text: string, start: number): Span[] {
  const elements: Span[] = [];
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return elements;
  while (i < text.length) {
    const end = skipValue(text, i);
    elements.push({ start: i, end });
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipWhitespace(text, i + 1);
  }
  return elements;
}

/** The text of a span. */
export function sliceSpan(text: string, span: Span): string {
  return text.slice(span.start, span.end);
}
