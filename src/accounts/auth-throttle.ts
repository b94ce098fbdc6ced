/**
 * Sliding-window throttles for sign-up and login over D1 `auth_attempts` (one row per counted attempt: its bucket and
 * time). "At most `max` in any `windowMs` span" holds exactly, wherever the clock hour falls, like the plan limiter's
 * sliding-window-log.ts. Two steps:
 * - judge: one read batch of every rule's window (count, oldest, newest). A refused attempt stops here and writes
 *   nothing — so an address over its cap cannot make D1 grow, whatever emails it names;
 * - record: one statement inserts a row per rule only if every window still holds exactly what was judged (and the
 *   caps still have room): parallel attempts cannot slip past a count; one that loses such a race is refused too.
 * Attempts are counted before any password work, so a throttled guess costs no PBKDF2.
 */
export interface ThrottleRule {
  /** e.g. `login:ip:<address>`, `login:email:<sha256 of the email>`, `signup:ip:<address>` */
  bucket: string;
  windowMs: number;
  /** Hard cap: at most this many attempts in any `windowMs` span. */
  max: number;
  /**
   * A slowdown instead of a cap: past `free` attempts in the window, each next attempt waits `baseMs` × 2^(attempts −
   * free), at most `maxMs`, after the newest one.
   */
  delay?: { free: number; baseMs: number; maxMs: number };
}

export interface WindowState {
  count: number;
  oldest: number | null;
  newest: number | null;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; bucket: string };

/** How long (ms) until the rule admits one more attempt, given its window now; 0 = now. Pure, for the unit tests too. */
export function waitMs(rule: ThrottleRule, state: WindowState, now: number): number {
  let wait = 0;
  if (state.count >= rule.max && state.oldest !== null) wait = state.oldest + rule.windowMs - now;
  if (rule.delay && state.count >= rule.delay.free && state.newest !== null) {
    const gap = Math.min(rule.delay.maxMs, rule.delay.baseMs * 2 ** Math.min(30, state.count - rule.delay.free));
    wait = Math.max(wait, state.newest + gap - now);
  }
  return Math.max(0, wait);
}

const windowQuery = "SELECT COUNT(*) AS count, MIN(at) AS oldest, MAX(at) AS newest FROM auth_attempts WHERE bucket = ?1 AND at > ?2";

/** Reads the rules' windows (one batch) and judges them; writes nothing. */
export async function judge(db: D1Database, rules: readonly ThrottleRule[], now: number): Promise<{ verdict: ThrottleVerdict; states: WindowState[] }> {
  const results = await db.batch<WindowState>(rules.map((rule) => db.prepare(windowQuery).bind(rule.bucket, now - rule.windowMs)));
  const states = results.map((r) => r.results[0] ?? { count: 0, oldest: null, newest: null });
  let worst: { wait: number; bucket: string } | undefined;
  rules.forEach((rule, i) => {
    const wait = waitMs(rule, states[i]!, now);
    if (wait > 0 && (worst === undefined || wait > worst.wait)) worst = { wait, bucket: rule.bucket };
  });
  return { verdict: worst ? refusal(worst.wait, worst.bucket) : { allowed: true }, states };
}

/**
 * Judges the rules and, when they allow it, counts the attempt against each (one row per rule). The first rule is
 * meant to be the client address's: a request it refuses has touched nothing.
 */
export async function countAttempt(db: D1Database, rules: readonly ThrottleRule[], now = Date.now()): Promise<ThrottleVerdict> {
  const { verdict, states } = await judge(db, rules, now);
  if (!verdict.allowed) return verdict;
  const guards = rules.map((_, i) => `(SELECT COUNT(*) FROM auth_attempts WHERE bucket = ?${3 + 3 * i} AND at > ?${4 + 3 * i}) = ?${5 + 3 * i}`).join(" AND ");
  const args = rules.flatMap((rule, i) => [rule.bucket, now - rule.windowMs, states[i]!.count]);
  const inserted = await db
    .prepare(`INSERT INTO auth_attempts (bucket, at) SELECT value, ?1 FROM json_each(?2) WHERE ${guards} RETURNING bucket`)
    .bind(now, JSON.stringify(rules.map((r) => r.bucket)), ...args)
    .all();
  // Another attempt was counted between the read and this write: refused, to come back in a second.
  return inserted.results.length === rules.length ? { allowed: true } : refusal(1000, rules[0]!.bucket);
}

/** Forgets a bucket's attempts (a successful login clears its own (email, address) pair). */
export async function clearBucket(db: D1Database, bucket: string): Promise<void> {
  await db.prepare("DELETE FROM auth_attempts WHERE bucket = ?1").bind(bucket).run();
}

function refusal(waitMs: number, bucket: string): ThrottleVerdict {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), bucket };
}
