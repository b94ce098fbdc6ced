/**
 * UTF-8 length of a string in bytes, without encoding it. The upstream caps are in bytes and bodies are held as
 * text; non-ASCII is rare in JSON-RPC bodies but counts two to three bytes a character (four a surrogate pair).
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // U+0080..U+07FF: 2 bytes; U+0800..U+FFFF: 3; a surrogate half: 2 (its pair makes 4). A lone surrogate is
    // encoded as U+FFFD (3 bytes): counted 2 — it cannot come from a parsed UTF-8 body.
    if (c >= 0x80) bytes += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
