/**
 * Base58 (Bitcoin alphabet) for keys, hashes, signatures and instruction data.
 * Written out rather than taken from kit because kit's codec goes through BigInt, which is slow on the ~1 KiB
 * transactions that `base58` transaction encoding and instruction data need; this byte-wise form is O(n²) with small constants.
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT_OF[ALPHABET.charCodeAt(i)] = i;

export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // log(256)/log(58) ≈ 1.366 digits per byte.
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.366) + 1);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    let j = 0;
    for (; j < length || carry !== 0; j++) {
      carry += (digits[j] ?? 0) * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    length = j;
  }
  let out = "1".repeat(zeros);
  for (let i = length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}

/** Decoded bytes, or the index of the first character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | { invalidAt: number } {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* "1" */) zeros++;
  const bytes = new Uint8Array(Math.ceil((text.length - zeros) * 0.733) + 1);
  let length = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? DIGIT_OF[code]! : -1;
    if (digit < 0) return { invalidAt: i };
    let carry = digit;
    let j = 0;
    for (; j < length || carry !== 0; j++) {
      carry += (bytes[j] ?? 0) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    length = j;
  }
  const out = new Uint8Array(zeros + length);
  for (let i = 0; i < length; i++) out[zeros + i] = bytes[length - 1 - i]!;
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
