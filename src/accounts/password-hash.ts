import { limits } from "../limits";
import { base64Url, digestsEqual } from "./secret-tokens";

/**
 * Passwords as PBKDF2-SHA256 through WebCrypto, with a random 16-byte salt per account. The iteration count is stored
 * with each hash, so a later change of the count still verifies older hashes. Production Workers refuse more than
 * 100,000 iterations (`limits.accountWeb.pbkdf2Iterations`: the local runtime has no cap, so that constant is the
 * guard), so that is what every hash spends: ~13–15 ms of CPU in workerd here, over the Free plan's 10 ms per request —
 * which is why the routes run these in the PasswordHasher Durable Object (password-hasher.ts), on its own CPU budget.
 */
export interface PasswordHash {
  /** base64url of the 32-byte derived key */
  hash: string;
  /** base64url of the salt */
  salt: string;
  iterations: number;
}

const derivedBits = 256;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<string> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, derivedBits);
  return base64Url(new Uint8Array(bits));
}

function bytesOfBase64Url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

export async function hashPassword(password: string, iterations: number = limits.accountWeb.pbkdf2Iterations): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { hash: await derive(password, salt, iterations), salt: base64Url(salt), iterations };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  return digestsEqual(await derive(password, bytesOfBase64Url(stored.salt), stored.iterations), stored.hash);
}

/**
 * A login for an email with no account spends the same PBKDF2 work against a throwaway salt, so the answer's timing
 * does not tell unknown emails from wrong passwords (the body already does not).
 */
export async function spendPasswordCheck(password: string): Promise<false> {
  await derive(password, crypto.getRandomValues(new Uint8Array(16)), limits.accountWeb.pbkdf2Iterations);
  return false;
}
