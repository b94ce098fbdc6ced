/**
 * Reading a response body that someone else sized (an upstream node, a metadata host) with a byte cap: chunk by
 * chunk, abandoned the moment it passes `maxBytes`, never buffered whole first (`res.text()` would take a 64 MiB
 * answer in full; production isolates have 128 MB for every request they serve).
 */

/** The body's bytes (one buffer of our own, at offset 0), or null — and the stream cancelled — once over `maxBytes`. */
export async function readCappedBytes(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  // A declared length is only a hint (it can lie), but an honest oversized one lets us stop before reading.
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    discardBody(response);
    return null;
  }
  if (!response.body) return new Uint8Array(0);

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) throw new TypeError("response body yielded a non-byte chunk");
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Drops a body we will not read. Not awaited: a hostile server must not be able to stall us on cancellation. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}
