import { limits } from "../limits";

/**
 * The cron's cleanup of sign-in rows nothing reads any more: sessions past their expiry (a login only drops its own
 * account's) and throttle attempts older than the longest window. At most `authSweepBatchRows` of each per run, so a
 * table swollen by an attack drains over a few runs instead of one statement too long for D1.
 */
export async function sweepExpiredAuthRows(db: D1Database, now = Date.now()): Promise<void> {
  const { loginWindowMs, signupWindowMs, authSweepBatchRows } = limits.accountWeb;
  const longestWindowMs = Math.max(loginWindowMs, signupWindowMs);
  await db.batch([
    db.prepare("DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE expires_at <= ?1 LIMIT ?2)").bind(now, authSweepBatchRows),
    db.prepare("DELETE FROM auth_attempts WHERE rowid IN (SELECT rowid FROM auth_attempts WHERE at <= ?1 LIMIT ?2)").bind(now - longestWindowMs, authSweepBatchRows),
  ]);
}
