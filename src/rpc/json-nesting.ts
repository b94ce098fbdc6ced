/**
 * How deep a JSON text nests, counted on the raw text before anything walks the parsed value. Why: every
 * recursive walk of a client's value (serializers, canonical cache keys, schema checks) has a stack; a body of
 * 50 KiB can nest 25,000 deep, which `JSON.parse` (iterative in V8) accepts and a recursive walk does not survive.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Deepest nesting of objects and arrays in `text[start..end)` (a scalar is 0, `{}` is 1, `[{}]` is 2), counting
 * brackets outside strings only. One pass, no recursion. The text need not be valid JSON (`JSON.parse` judges that).
 */
export function nestingDepth(text: string, start = 0, end = text.length): number {
  let level = 0;
  let deepest = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: a backslash always takes the next character with it.
      for (i++; i < end; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++level > deepest) deepest = level;
    } else if (c === 0x7d || c === 0x5d) {
      level--;
    }
  }
  return deepest;
}
