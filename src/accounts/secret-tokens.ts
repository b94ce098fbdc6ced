import { sha256 } from "@noble/hashes/sha256";
import { bytesToHex } from "@noble/hashes/utils";

/**
 * The random secrets handed to users (API keys, session tokens) and the one way they are stored: SHA-256 hex. The
 * secrets carry ≥ 192 random bits, so a fast unsalted hash is enough (nothing to brute-force); passwords, which people
 * choose, get PBKDF2 instead (password-hash.ts).
 */
export function base64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function randomBase64Url(byteCount: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(byteCount)));
}

export function randomHex(byteCount: number): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(byteCount)));
}

/** SHA-256 hex of a secret. Synchronous (noble): on the warm path an async WebCrypto digest costs more than the hash. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

/** Constant-time equality of two equal-length strings (no early exit on the first difference). */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
