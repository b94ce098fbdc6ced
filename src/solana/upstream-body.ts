import { readCappedBytes } from "../http/capped-body";

/**
 * Reading an upstream answer with a cap (http/capped-body.ts): a node, or whatever answers at its URL, decides how
 * much it sends.
 *
 * While the bytes are at hand it also learns, cheaply (four bytes a step), whether the answer holds any control
 * byte: the JSON scan then need not search its strings for one (`ScanOptions.controlFree`).
 */

/** The body as text, or why it could not be read. */
export type CappedBody = { ok: true; text: string; controlFree: boolean } | { ok: false; reason: "too-large" | "not-utf8" };

/**
 * Reads `res`'s body, at most `maxBytes` of it. A declared Content-Length over the cap is refused before reading;
 * a body that grows past it is cancelled there. The text is strict UTF-8: invalid bytes are not an answer.
 */
export async function readCappedBody(res: Response, maxBytes: number): Promise<CappedBody> {
  const bytes = await readCappedBytes(res, maxBytes);
  if (!bytes) return { ok: false, reason: "too-large" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, reason: "not-utf8" };
  }
  // The buffer is our own, at offset 0: the control-byte check reads it four bytes at a time.
  return { ok: true, text, controlFree: !hasControlByte(bytes, withoutTrailingWhitespace(bytes)) };
}

/** Length of `bytes` without the whitespace at its end (a trailing newline is common and harmless). */
function withoutTrailingWhitespace(bytes: Uint8Array): number {
  let end = bytes.length;
  for (;;) {
    const b = bytes[end - 1];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return end;
    end--;
  }
}

/**
 * Whether `bytes[0..end)` holds a byte below 0x20. In UTF-8 such a byte is always a control character itself
 * (bytes of multi-byte sequences are all ≥ 0x80), so "no such byte" means "no control character in the text".
 * Four bytes a step: `(x - 0x20202020) & ~x & 0x80808080` is non-zero exactly when some byte of `x` is < 0x20
 * (the "has less than" bit trick; exact for thresholds ≤ 0x80). The per-word values are OR-ed and masked once,
 * four words an iteration with no branch (~0.7 ms for 4.7 MB; an early exit per word costs twice that, and a
 * control byte is the rare case). Bytes not aligned for words are read one by one.
 */
export function hasControlByte(bytes: Uint8Array, end: number): boolean {
  const words = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, end >>> 2) : new Uint32Array(0);
  const K = 0x20202020;
  let flags = 0;
  let k = 0;
  for (const unrolled = words.length & ~3; k < unrolled; k += 4) {
    const a = words[k]!;
    const b = words[k + 1]!;
    const c = words[k + 2]!;
    const d = words[k + 3]!;
    flags |= ((a - K) & ~a) | ((b - K) & ~b) | ((c - K) & ~c) | ((d - K) & ~d);
  }
  for (; k < words.length; k++) flags |= (words[k]! - K) & ~words[k]!;
  if ((flags & 0x80808080) !== 0) return true;
  for (let i = words.length * 4; i < end; i++) if (bytes[i]! < 0x20) return true;
  return false;
}
