const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE58_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE58_ALPHABET.length; i++) BASE58_DIGIT[BASE58_ALPHABET.charCodeAt(i)] = i;

/**
 * How many bytes a base58 string decodes to, or where its first character outside the alphabet is.
 * Hand-rolled because this runs for every key of every request (100 per getMultipleAccounts): kit's codec goes
 * through BigInt and throws on bad input, ~35 µs per key against ~1 µs here. Schoolbook base conversion on
 * little-endian bytes; only the length is kept.
 */
export function base58DecodedLength(value: string): number | { invalidAt: number } {
  let zeros = 0;
  while (zeros < value.length && value.charCodeAt(zeros) === 49 /* "1" */) zeros++;
  const bytes = new Uint8Array(Math.ceil((value.length - zeros) * 0.733) + 1);
  let used = 0;
  for (let i = zeros; i < value.length; i++) {
    const code = value.charCodeAt(i);
    let carry = code < 128 ? BASE58_DIGIT[code]! : -1;
    if (carry < 0) return { invalidAt: i };
    for (let j = 0; j < used; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes[used++] = carry & 0xff;
      carry >>= 8;
    }
  }
  return zeros + used;
}

/** Whether `value` is a base58 public key (32 bytes), without kit's BigInt decoder. */
export function isBase58Address(value: string): boolean {
  return value.length >= 32 && value.length <= 44 && base58DecodedLength(value) === 32;
}
