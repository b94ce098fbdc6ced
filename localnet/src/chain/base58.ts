/**
 * Base58 (Bitcoin alphabet) for keys, hashes, signatures, instruction data and whole transactions.
 * Written out rather than taken from kit because kit's codec goes through BigInt, which is slow on the ~1 KiB
 * transactions of `base58` transaction encoding. Both directions are the schoolbook O(n²) conversion, but on wide limbs
 * (58^5 per limb when encoding, 2^16 per limb and five digits per step when decoding) so the inner loop runs 5-10x
 * fewer times; every intermediate stays below 2^53, so plain doubles are exact.
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT_OF[ALPHABET.charCodeAt(i)] = i;

const ENCODE_LIMB = 58 ** 5;
const DECODE_LIMB = 2 ** 16;

export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Little-endian limbs of 5 base58 digits each; 1.366 digits per byte.
  const limbs = new Float64Array(Math.ceil(((bytes.length - zeros) * 1.366) / 5) + 1);
  let used = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < used; j++) {
      const value = limbs[j]! * 256 + carry;
      carry = Math.floor(value / ENCODE_LIMB);
      limbs[j] = value - carry * ENCODE_LIMB;
    }
    while (carry > 0) {
      limbs[used++] = carry % ENCODE_LIMB;
      carry = Math.floor(carry / ENCODE_LIMB);
    }
  }
  let out = "";
  for (let j = used - 1; j >= 0; j--) {
    let limb = limbs[j]!;
    let chunk = "";
    for (let d = 0; d < 5; d++) {
      chunk = ALPHABET[limb % 58]! + chunk;
      limb = Math.floor(limb / 58);
    }
    out += chunk;
  }
  // The top limb's leading "1"s are padding, not value.
  let start = 0;
  while (start < out.length && out[start] === "1") start++;
  return "1".repeat(zeros) + out.slice(start);
}

/** Decoded bytes, or the index of the first character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | { invalidAt: number } {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* "1" */) zeros++;
  // Little-endian 16-bit limbs; 0.733 bytes per digit.
  const limbs = new Float64Array(Math.ceil(((text.length - zeros) * 0.733) / 2) + 2);
  let used = 0;
  for (let i = zeros; i < text.length; i += 5) {
    let chunk = 0;
    let scale = 1;
    for (let d = i; d < Math.min(i + 5, text.length); d++) {
      const code = text.charCodeAt(d);
      const digit = code < 128 ? DIGIT_OF[code]! : -1;
      if (digit < 0) return { invalidAt: d };
      chunk = chunk * 58 + digit;
      scale *= 58;
    }
    let carry = chunk;
    for (let j = 0; j < used; j++) {
      const value = limbs[j]! * scale + carry;
      carry = Math.floor(value / DECODE_LIMB);
      limbs[j] = value - carry * DECODE_LIMB;
    }
    while (carry > 0) {
      limbs[used++] = carry % DECODE_LIMB;
      carry = Math.floor(carry / DECODE_LIMB);
    }
  }
  const body: number[] = [];
  for (let j = used - 1; j >= 0; j--) body.push(limbs[j]! >>> 8, limbs[j]! & 0xff);
  let start = 0;
  while (start < body.length && body[start] === 0) start++;
  const out = new Uint8Array(zeros + body.length - start);
  out.set(body.slice(start), zeros);
  return out;
}

/**
 * Parses a 32- or 64-byte base58 value the way Agave's `FromStr` does, so errors read the same:
 * too long a string or the wrong decoded length is `WrongSize`, a bad character is `Invalid`.
 */
export function parseBase58Fixed(text: string, size: 32 | 64): Uint8Array | "WrongSize" | "Invalid" {
  const maxLength = size === 32 ? 44 : 88;
  if (text.length > maxLength) return "WrongSize";
  const decoded = decodeBase58(text);
  if (!(decoded instanceof Uint8Array)) return "Invalid";
  return decoded.length === size ? decoded : "WrongSize";
}

const keyCache = new Map<string, string>();
const KEY_CACHE_LIMIT = 100_000;

/**
 * base58 of a 32-byte key, memoised: parsed accounts and instructions name the same mints, owners and programs over and
 * over. The cache is dropped whole when full, which keeps it bounded without bookkeeping.
 */
export function encodeKey(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let text = keyCache.get(raw);
  if (text === undefined) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    keyCache.set(raw, (text = encodeBase58(bytes)));
  }
  return text;
}
