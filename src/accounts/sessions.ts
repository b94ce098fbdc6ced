import { limits } from "../limits";
import { randomBase64Url, sha256Hex } from "./secret-tokens";

/**
 * Login sessions: a random 256-bit token in the browser's cookie, its SHA-256 in D1 `sessions` with an expiry. A token
 * read from D1 (a leaked backup) opens nothing; a logged-out or expired token finds no row.
 */
export const sessionCookieName = "__Host-tmd_session";

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export async function startSession(db: D1Database, accountId: string, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
  const token = randomBase64Url(32);
  const expiresAt = now + limits.accountWeb.sessionTtlMs;
  // The account's expired sessions go with each login, so the table holds about one row per live browser.
  await db.batch([
    db.prepare("DELETE FROM sessions WHERE account_id = ?1 AND expires_at <= ?2").bind(accountId, now),
    db.prepare("INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)").bind(sha256Hex(token), accountId, now, expiresAt),
  ]);
  return { token, expiresAt };
}

/** The account id of a live session; null for a missing, malformed, unknown, ended or expired token. */
export async function sessionAccountId(db: D1Database, token: string | undefined, now = Date.now()): Promise<string | null> {
  if (!token || !tokenPattern.test(token)) return null;
  const id = await db.prepare("SELECT account_id FROM sessions WHERE token_hash = ?1 AND expires_at > ?2").bind(sha256Hex(token), now).first<string>("account_id");
  return id ?? null;
}

export async function endSession(db: D1Database, token: string | undefined): Promise<void> {
  if (!token || !tokenPattern.test(token)) return;
  await db.prepare("DELETE FROM sessions WHERE token_hash = ?1").bind(sha256Hex(token)).run();
}
