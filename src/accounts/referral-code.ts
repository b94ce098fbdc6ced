/**
 * Referral codes: 10 characters of Crockford's base32 (no I, L, O, U: nothing to misread in a link), 50 random bits.
 * Codes are public (they sit in links), so they are stored as they are; what they buy is bounded by the reward rules.
 */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const length = 10;
const pattern = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{10}$/;

export function generateReferralCode(): string {
  // 32 symbols = 5 bits: each random byte's low 5 bits are uniform.
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => alphabet[b & 31]).join("");
}

/** A code as a link may carry it (any case, surrounding spaces); null when it cannot be one of ours. */
export function normalizedReferralCode(raw: string | undefined): string | null {
  const code = (raw ?? "").trim().toUpperCase();
  return pattern.test(code) ? code : null;
}
