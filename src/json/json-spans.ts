/**
 * Where values sit inside a JSON text, found without building them.
 *
 * Why: upstream results must travel exactly as the node wrote them — `JSON.parse` + `JSON.stringify` would round
 * u64 values above 2^53 (e.g. `rentEpoch: 18446744073709551615`) — and building a multi-megabyte getBlock answer
 * just to look at its `id` costs several times the CPU of scanning it.
 *
 * What is checked: the whole JSON grammar (RFC 8259) — structure, separators, number and literal forms, string
 * escapes, raw control characters in strings — so text whose brackets balance but which is not JSON
 * (`[1,,2,{oops}]`) is refused like a cut-short or HTML answer. One pass, nothing built: outside strings a
 * table-driven state machine reads each character once; strings (most of an answer's bytes: keys, base58, base64,
 * log lines) are jumped over with `indexOf('"')` and read character by character only when a backslash or a
 * control character lies inside them. Nesting is an explicit stack, never recursion: any depth scans.
 * Malformed text gives -1 / undefined, never an exception.
 */

/** Half-open character range `[start, end)` of one JSON value in a text. */
export interface Span {
  start: number;
  end: number;
}

/** What the caller already knows about the text. */
export interface ScanOptions {
  /**
   * The text holds no control character (U+0000..U+001F) anywhere — the upstream client learns this from the
   * bytes as it reads them — so strings need no search for one.
   */
  controlFree?: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const LOWER_U = 0x75;

/** Characters allowed after a backslash, besides `u` (RFC 8259 §7). */
const SIMPLE_ESCAPES: ReadonlySet<number> = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));

/** A number, alone (a member's value or an element that is not a container). */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A control character (U+0000..U+001F): never allowed raw inside a string. */
const CONTROL = /[\u0000-\u001f]/g;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Index of the first non-whitespace character at or after `i`. */
export function skipWhitespace(text: string, i: number): number {
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

// The state machine for the text between strings inside a container. A state is what may come next; an entry of
// the table is the next state (< ACTION) or an action the loop carries out. Numbers and literals are read
// character by character (`N_*`, `T*`, `F*`, `U*` states), so `01`, `1.`, `-`, `tru` or `truex` are refused.
let nextState = 0;
const VALUE = nextState++;
const VALUE_OR_CLOSE = nextState++; // just after `[`
const KEY = nextState++; // after `,` in an object
const KEY_OR_CLOSE = nextState++; // just after `{`
const COLON_NEXT = nextState++; // after a key
const AFTER_VALUE = nextState++;
const N_MINUS = nextState++;
const N_ZERO = nextState++;
const N_INT = nextState++;
const N_DOT = nextState++;
const N_FRAC = nextState++;
const N_E = nextState++;
const N_E_SIGN = nextState++;
const N_EXP = nextState++;
const T1 = nextState++;
const T2 = nextState++;
const T3 = nextState++;
const F1 = nextState++;
const F2 = nextState++;
const F3 = nextState++;
const F4 = nextState++;
const U1 = nextState++;
const U2 = nextState++;
const U3 = nextState++;
const STATES = nextState;

const ACTION = 64;
const FAIL = ACTION;
const STRING_VALUE = ACTION + 1;
const STRING_KEY = ACTION + 2;
const OPEN_OBJECT = ACTION + 3;
const OPEN_ARRAY = ACTION + 4;
const CLOSE = ACTION + 5;
const NEXT_ITEM = ACTION + 6;

/** `TABLE[state * 128 + c]`: what ASCII character `c` does in `state`. Anything else outside strings fails. */
const TABLE = buildTable();

function buildTable(): Uint8Array {
  const table = new Uint8Array(STATES * 128).fill(FAIL);
  const on = (state: number, chars: string, to: number) => {
    for (const ch of chars) table[state * 128 + ch.charCodeAt(0)] = to;
  };
  const whitespace = " \t\n\r";
  const digits = "0123456789";
  for (const state of [VALUE, VALUE_OR_CLOSE, KEY, KEY_OR_CLOSE, COLON_NEXT, AFTER_VALUE]) on(state, whitespace, state);
  for (const state of [VALUE, VALUE_OR_CLOSE]) {
    on(state, '"', STRING_VALUE);
    on(state, "{", OPEN_OBJECT);
    on(state, "[", OPEN_ARRAY);
    on(state, "-", N_MINUS);
    on(state, "0", N_ZERO);
    on(state, "123456789", N_INT);
    on(state, "t", T1);
    on(state, "f", F1);
    on(state, "n", U1);
  }
  on(VALUE_OR_CLOSE, "]", CLOSE);
  on(KEY, '"', STRING_KEY);
  on(KEY_OR_CLOSE, '"', STRING_KEY);
  on(KEY_OR_CLOSE, "}", CLOSE);
  on(COLON_NEXT, ":", VALUE);
  // Where a value may end: whitespace, a separator or a closer (which one is allowed is the stack's to say).
  const endsValue = (state: number) => {
    on(state, whitespace, AFTER_VALUE);
    on(state, ",", NEXT_ITEM);
    on(state, "]}", CLOSE);
  };
  endsValue(AFTER_VALUE);
  on(N_MINUS, "0", N_ZERO);
  on(N_MINUS, "123456789", N_INT);
  on(N_INT, digits, N_INT);
  for (const state of [N_ZERO, N_INT]) {
    on(state, ".", N_DOT);
    on(state, "eE", N_E);
    endsValue(state);
  }
  on(N_DOT, digits, N_FRAC);
  on(N_FRAC, digits, N_FRAC);
  on(N_FRAC, "eE", N_E);
  endsValue(N_FRAC);
  on(N_E, "+-", N_E_SIGN);
  on(N_E, digits, N_EXP);
  on(N_E_SIGN, digits, N_EXP);
  on(N_EXP, digits, N_EXP);
  endsValue(N_EXP);
  on(T1, "r", T2);
  on(T2, "u", T3);
  on(T3, "e", AFTER_VALUE);
  on(F1, "a", F2);
  on(F2, "l", F3);
  on(F3, "s", F4);
  on(F4, "e", AFTER_VALUE);
  on(U1, "u", U2);
  on(U2, "l", U3);
  on(U3, "l", AFTER_VALUE);
  return table;
}

/** One scan of one text: remembers where the next backslash and control character are, so each is searched for once. */
class JsonScanner {
  /** Index of the next backslash at or after the last position searched from (Infinity: none). */
  private backslash = -1;
  /** Index of the next control character at or after the last position searched from (Infinity: none). */
  private control: number;

  constructor(
    readonly text: string,
    options: ScanOptions = {},
  ) {
    this.control = options.controlFree ? Infinity : -1;
  }

  /** `i` is at an opening quote; the index just past the closing one, or -1 (never closes, bad escape, raw control character). */
  skipString(i: number): number {
    const { text } = this;
    const end = text.indexOf('"', i + 1);
    if (end < 0) return -1;
    if (this.backslash <= i) {
      const at = text.indexOf("\\", i + 1);
      this.backslash = at < 0 ? Infinity : at;
    }
    if (this.control <= i) {
      CONTROL.lastIndex = i + 1;
      this.control = CONTROL.test(text) ? CONTROL.lastIndex - 1 : Infinity;
    }
    return this.backslash > end && this.control > end ? end + 1 : this.skipStringSlowly(i);
  }

  private skipStringSlowly(i: number): number {
    const { text } = this;
    const n = text.length;
    let j = i + 1;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) return j + 1;
      if (c === BACKSLASH) {
        const escaped = text.charCodeAt(j + 1);
        if (escaped === LOWER_U) {
          for (let k = j + 2; k < j + 6; k++) if (!isHexDigit(text.charCodeAt(k))) return -1;
          j += 6;
        } else if (SIMPLE_ESCAPES.has(escaped)) j += 2;
        else return -1;
      } else if (c < 0x20) return -1;
      else j++;
    }
    return -1;
  }

  /** Index just past the value at `i`, or -1. */
  skipValue(i: number): number {
    const { text } = this;
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return this.skipContainer(i);
    if (c === QUOTE) return this.skipString(i);
    for (const literal of LITERALS) if (text.startsWith(literal, i)) return i + literal.length;
    NUMBER.lastIndex = i;
    return NUMBER.test(text) ? NUMBER.lastIndex : -1;
  }

  /** `i` is at `{` or `[`: the state machine above, with a stack of the closers the open containers wait for. */
  private skipContainer(i: number): number {
    const { text } = this;
    const n = text.length;
    const open: number[] = [];
    // The string fast path of skipString, inlined with the look-aheads in locals: this loop is the hot one.
    let { backslash, control } = this;
    let state = VALUE;
    for (let j = i; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c >= 128) return -1;
      const action = TABLE[state * 128 + c]!;
      if (action < ACTION) {
        state = action;
        continue;
      }
      switch (action) {
        case STRING_VALUE:
        case STRING_KEY: {
          let end = text.indexOf('"', j + 1);
          if (end < 0) return -1;
          if (backslash <= j) {
            const at = text.indexOf("\\", j + 1);
            backslash = at < 0 ? Infinity : at;
          }
          if (control <= j) {
            CONTROL.lastIndex = j + 1;
            control = CONTROL.test(text) ? CONTROL.lastIndex - 1 : Infinity;
          }
          if (backslash < end || control < end) {
            end = this.skipStringSlowly(j) - 1;
            if (end < 0) return -1;
          }
          j = end;
          state = action === STRING_KEY ? COLON_NEXT : AFTER_VALUE;
          break;
        }
        case OPEN_OBJECT:
          open.push(CLOSE_BRACE);
          state = KEY_OR_CLOSE;
          break;
        case OPEN_ARRAY:
          open.push(CLOSE_BRACKET);
          state = VALUE_OR_CLOSE;
          break;
        case CLOSE:
          if (open.pop() !== c) return -1;
          if (open.length === 0) {
            this.backslash = backslash;
            this.control = control;
            return j + 1;
          }
          state = AFTER_VALUE;
          break;
        case NEXT_ITEM:
          state = open[open.length - 1] === CLOSE_BRACE ? KEY : VALUE;
          break;
        default:
          return -1;
      }
    }
    return -1;
  }
}

const LITERALS = ["true", "false", "null"] as const;

/**
 * Index just past the JSON value that starts at `i`, or -1 when there is none (cut short, malformed, not JSON).
 * What follows the value is the caller's to check (a separator, a closer, or the end of the text).
 */
export function skipValue(text: string, i: number, options?: ScanOptions): number {
  return new JsonScanner(text, options).skipValue(i);
}

/** Spans of the members of the object starting at `start` (a later duplicate key wins, as in `JSON.parse`). */
export function objectMemberSpans(text: string, start: number, options?: ScanOptions): Map<string, Span> | undefined {
  if (text.charCodeAt(start) !== OPEN_BRACE) return undefined;
  const scanner = new JsonScanner(text, options);
  const members = new Map<string, Span>();
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return members;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = scanner.skipString(i);
    if (keyEnd < 0) return undefined;
    const rawKey = text.slice(i, keyEnd);
    // skipString checked the escapes: JSON.parse cannot fail here.
    const key = rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    i = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const valueStart = skipWhitespace(text, i + 1);
    const valueEnd = scanner.skipValue(valueStart);
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
export function arrayElementSpans(text: string, start: number, options?: ScanOptions): Span[] | undefined {
  if (text.charCodeAt(start) !== OPEN_BRACKET) return undefined;
  const scanner = new JsonScanner(text, options);
  const elements: Span[] = [];
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return elements;
  for (;;) {
    const end = scanner.skipValue(i);
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
