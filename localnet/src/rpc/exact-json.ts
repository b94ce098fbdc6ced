/**
 * JSON.parse with exact integers: serde_json (Agave) reads an integer literal as u64/i64 exactly, while JSON.parse rounds
 * anything beyond 2^53 (9223372036854775807 becomes 9223372036854776000, and errors would echo the wrong digits). Integer
 * literals outside the safe range and within i64/u64 come back as bigint; larger ones stay doubles (serde_json reads them
 * as f64 too). Validity is decided by JSON.parse on the original text, so the scanner only runs on well-formed JSON.
 */
const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

export function parseJsonExact(text: string): unknown {
  const plain = JSON.parse(text) as unknown;
  if (!/\d{16}/.test(text)) return plain;
  // Rewrite each unsafe integer literal (outside strings) as a string tagged with a nonce no request can guess.
  const tag = `\u0000${Math.random().toString(36).slice(2)}:`;
  const tagJson = JSON.stringify(tag).slice(1, -1);
  let out = "";
  let last = 0;
  let replaced = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip a string literal (escapes included).
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
    let j = i + (c === 0x2d ? 1 : 0);
    while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
    const next = text[j];
    const integer = next !== "." && next !== "e" && next !== "E";
    const literal = text.slice(i, j);
    if (integer && literal.replace("-", "").length >= 16) {
      const value = BigInt(literal);
      if ((value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) && value >= I64_MIN && value <= U64_MAX) {
        out += `${text.slice(last, i)}"${tagJson}${literal}"`;
        last = j;
        replaced = true;
      }
    }
    // Skip the rest of the number (fraction, exponent).
    while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
    i = j - 1;
  }
  if (!replaced) return plain;
  out += text.slice(last);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(tag) ? BigInt(value.slice(tag.length)) : value,
  ) as unknown;
}
