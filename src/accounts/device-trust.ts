import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha256";
import { limits } from "../limits";
import { base64Url, digestsEqual, randomBase64Url } from "./secret-tokens";

/**
 * The device cookie: proof that this browser logged in to an email before, so the per-email login limit (which
 * strangers' wrong guesses fill) does not apply to it (docs/accounts.md#login-throttling). Its value is
 * `v1.<issued ms>.<random id>.<mac>`, the MAC an HMAC-SHA-256 under the `DEVICE_COOKIE_SECRET` binding over the
 * version, the issue time, the id and the SHA-256 of the email: it names no email, nothing about it is stored, and it
 * vouches only for the email it was issued for, until `deviceCookieTtlMs` after issue. Without the secret no cookie
 * is issued or accepted (the per-email limit then applies to every browser).
 */
export const deviceCookieName = "__Host-tmd_device";

const valuePattern = /^v1\.(\d{13})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function mac(secret: string, issuedAt: string, id: string, emailHash: Uint8Array): string {
  const message = new TextEncoder().encode(`tmd-device|v1|${issuedAt}|${id}|`);
  const data = new Uint8Array(message.length + emailHash.length);
  data.set(message);
  data.set(emailHash, message.length);
  return base64Url(hmac(sha256, new TextEncoder().encode(secret), data));
}

const emailDigest = (email: string) => sha256(new TextEncoder().encode(email));

/** A fresh cookie value for a browser that just logged in to (or signed up with) `email`; null without a secret. */
export function issueDeviceCookie(secret: string | undefined, email: string, now = Date.now()): string | null {
  if (!secret) return null;
  const issuedAt = String(now).padStart(13, "0");
  const id = randomBase64Url(16);
  return `v1.${issuedAt}.${id}.${mac(secret, issuedAt, id, emailDigest(email))}`;
}

/** Whether `value` is a cookie this deployment issued for `email` (normalised), still within its lifetime. */
export function deviceTrusted(secret: string | undefined, value: string | undefined, email: string, now = Date.now()): boolean {
  if (!secret || value === undefined) return false;
  const m = valuePattern.exec(value);
  if (!m) return false;
  const [, issuedAt, id, given] = m as unknown as [string, string, string, string];
  const issued = Number(issuedAt);
  if (issued > now + 60_000 || now - issued >= limits.accountWeb.deviceCookieTtlMs) return false;
  return digestsEqual(mac(secret, issuedAt, id, emailDigest(email)), given);
}
