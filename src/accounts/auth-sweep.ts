import { limits } from "../limits";

/**
 * The cron's cleanup of sign-in rows nothing reads any more: sessions past their expiry (a login only drops its own
 * account's) and throttle rows whose window ended (the longest window bounds every bucket's). At most
 * `limits.accountWeb.authSweepBatchRows` of each per run, so a table swollen by an attack drains over a few runs instead
 * of one statement too long for D1.
 */

export async function sweepExpiredAuthRows(db: D1Database, now = Date.now()): Promise<void> {
  const batchRows = limits.accountWeb.authSweepBatchRows;
  const longestWindowMs = Math.max(limits.accountWeb.loginWindowMs, limits.accountWeb.signupWindowMs);
  await db.batch([
    db.prepare("DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE expires_at <= ?1 LIMIT ?2)").bind(now, batchRows),
    db.prepare("DELETE FROM auth_throttle WHERE rowid IN (SELECT rowid FROM auth_throttle WHERE window_start + ?2 <= ?1 LIMIT ?3)").bind(now, longestWindowMs, batchRows),
  ]);
}
