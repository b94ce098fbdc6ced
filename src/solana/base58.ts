const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE58_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE58_ALPHABET.length; i++) BASE58_DIGIT[BASE58_ALPHABET.charCodeAt(i)] = i;

/**
 * The schoolbook base conversion both decoders share: `value`'s digits into little-endian bytes (`digits[0..used)`),
 * after `zeros` leading "1"s (zero bytes), or where its first character outside the alphabet is. Hand-rolled because
 * it runs for every key of every request (100 per getMultipleAccounts) and every venue instruction of a block: kit's
 * codec goes through BigInt and throws on bad input, ~35 µs per key against ~1 µs here.
 */
function decodeBase58Digits(value: string): { zeros: number; digits: Uint8Array; used: number } | { invalidAt: number } {
  let zeros = 0;
  while (zeros < value.length && value.charCodeAt(zeros) === 49 /* "1" */) zeros++;
  const digits = new Uint8Array(Math.ceil((value.length - zeros) * 0.733) + 1);
  let used = 0;
  for (let i = zeros; i < value.length; i++) {
    const code = value.charCodeAt(i);
    let carry = code < 128 ? BASE58_DIGIT[code]! : -1;
    if (carry < 0) return { invalidAt: i };
    for (let j = 0; j < used; j++) {
      carry += digits[j]! * 58;
      digits[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      digits[used++] = carry & 0xff;
      carry >>= 8;
    }
  }
  return { zeros, digits, used };
}

/** How many bytes a base58 string decodes to, or where its first character outside the alphabet is. */
export function base58DecodedLength(value: string): number | { invalidAt: number } {
  const decoded = decodeBase58Digits(value);
  return "invalidAt" in decoded ? decoded : decoded.zeros + decoded.used;
}

/** Instruction data is at most a packet (1232 B), i.e. < 1700 base58 characters; anything longer is not a real instruction. */
const MAX_BASE58_BYTES_LENGTH = 1700;

/**
 * The bytes of base58 text (instruction data), or undefined when it is not a string, has a character outside the
 * alphabet or is longer than any instruction. ~0.5 µs per swap instruction's data where kit's
 * `getBase58Encoder().encode` takes ~6 µs (node 20, measured 2026-11) and throws on bad input; the test checks both agree.
 */
export function base58Bytes(text: string): Uint8Array | undefined {
  if (typeof text !== "string" || text.length > MAX_BASE58_BYTES_LENGTH) return undefined;
  const decoded = decodeBase58Digits(text);
  if ("invalidAt" in decoded) return undefined;
  const { zeros, digits, used } = decoded;
  const out = new Uint8Array(zeros + used);
  for (let j = 0; j < used; j++) out[zeros + j] = digits[used - 1 - j]!;
  return out;
}

/** Whether `value` is a base58 public key (32 bytes), without kit's BigInt decoder. */
export function isBase58Address(value: string): boolean {
  return value.length >= 32 && value.length <= 44 && base58DecodedLength(value) === 32;
}

/**
 * Base58 text of raw bytes (an address: 32 bytes). Schoolbook conversion in base 58^5 limbs held in doubles (58^5 ·
 * 256 < 2^53, exact), into reused scratch arrays (no string built a character at a time): ~0.5 µs for 32 bytes,
 * where kit's BigInt encoder costs ~13 µs — it runs once per derived PDA.
 */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const maxLimbs = Math.ceil(((bytes.length - zeros) * 8) / LIMB_BITS) + 1;
  const limbs = maxLimbs <= SCRATCH_LIMBS.length ? SCRATCH_LIMBS : new Float64Array(maxLimbs); // little-endian, base 58^5
  let used = 0;
  // Two bytes a step (a limb · 2^16 + carry < 2^46: exact); an odd count starts with one byte. Quotients by the
  // limb are taken as a product by its inverse, corrected by one where rounding lands on the wrong side.
  for (let i = zeros, odd = (bytes.length - zeros) & 1; i < bytes.length; odd = 0) {
    const base = odd === 1 ? 256 : 65536;
    let carry = odd === 1 ? bytes[i++]! : (bytes[i++]! << 8) | bytes[i++]!;
    for (let j = 0; j < used; j++) {
      const v = limbs[j]! * base + carry;
      carry = Math.floor(v * INVERSE_LIMB);
      let rest = v - carry * LIMB;
      if (rest < 0) {
        carry--;
        rest += LIMB;
      } else if (rest >= LIMB) {
        carry++;
        rest -= LIMB;
      }
      limbs[j] = rest;
    }
    while (carry > 0) {
      const high = Math.floor(carry / LIMB);
      limbs[used++] = carry - high * LIMB;
      carry = high;
    }
  }
  const maxChars = zeros + used * 5;
  const chars = maxChars <= SCRATCH_CHARS.length ? SCRATCH_CHARS : new Uint8Array(maxChars);
  let n = maxChars; // filled from the end, least significant digit first
  for (let j = 0; j < used; j++) {
    let v = limbs[j]!;
    const last = j === used - 1;
    for (let k = 0; k < 5 && (!last || v > 0); k++) {
      let high = Math.floor(v * INVERSE_58);
      let digit = v - high * 58;
      if (digit >= 58) {
        high++;
        digit -= 58;
      } else if (digit < 0) {
        high--;
        digit += 58;
      }
      chars[--n] = ALPHABET_CODES[digit]!;
      v = high;
    }
  }
  for (let k = 0; k < zeros; k++) chars[--n] = 49; // "1"
  return String.fromCharCode.apply(null, chars.subarray(n, maxChars) as unknown as number[]);
}
const INVERSE_58 = 1 / 58;
const LIMB = 58 ** 5;
const INVERSE_LIMB = 1 / LIMB;
/** log2(58^5) rounded down: a limb holds at least this many bits. */
const LIMB_BITS = 29;
const ALPHABET_CODES = Uint8Array.from(BASE58_ALPHABET, (c) => c.charCodeAt(0));
/** Scratch for keys and signatures (64 bytes); longer input allocates. */
const SCRATCH_LIMBS = new Float64Array(20);
const SCRATCH_CHARS = new Uint8Array(100);
