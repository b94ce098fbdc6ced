/**
 * Fixed-window attempt counters in D1 `auth_throttle` for sign-up and login (one row per bucket, reused window after
 * window). Each attempt is counted in one atomic upsert before any password work, so parallel guesses cannot slip
 * past the count and a throttled attempt costs no PBKDF2.
 */
export interface ThrottleRule {
  /** e.g. `login:email:<sha256 of the email>`, `login:ip:<address>`, `signup:ip:<address>` */
  bucket: string;
  windowMs: number;
  max: number;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one attempt against every rule (one D1 batch); refused when any rule's window is over its max. */
export async function countAttempt(db: D1Database, rules: readonly ThrottleRule[], now = Date.now()): Promise<ThrottleVerdict> {
  const statements = rules.map((rule) =>
    db
      .prepare(
        `INSERT INTO auth_throttle (bucket, window_start, count) VALUES (?1, ?2, 1)
         ON CONFLICT (bucket) DO UPDATE SET count = CASE WHEN window_start = ?2 THEN count + 1 ELSE 1 END, window_start = ?2
         RETURNING count`,
      )
      .bind(rule.bucket, windowStart(now, rule.windowMs)),
  );
  const results = await db.batch<{ count: number }>(statements);
  let retryAfterMs = 0;
  rules.forEach((rule, i) => {
    const count = results[i]?.results[0]?.count ?? 0;
    if (count > rule.max) retryAfterMs = Math.max(retryAfterMs, windowStart(now, rule.windowMs) + rule.windowMs - now);
  });
  return retryAfterMs > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) } : { allowed: true };
}

function windowStart(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

