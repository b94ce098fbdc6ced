import type { MonthLedger } from "./meter-state";
import { monthStart, utcDay, utcMonth, type UsageEntry } from "./meter-protocol";
import { referralPendingColumn } from "./referral-rewards";

/**
 * The meter's D1 reads and writes (migrations/0003: usage_daily, credit_grants, api_keys.last_used_at,
 * accounts.first_call_at, accounts.referral_rewarded_at). Writes come in one batch per flush: one upsert per (key, day) and one update per key used,
 * whatever the number of requests behind them.
 */

/**
 * The month's ledger of an account: credits used (written so far), its bonus credits (every grant: a reward raises each
 * month's allowance, as the dashboard shows it), whether its first call is still to come, whether its referral reward
 * is still to be decided.
 */
export async function readMonthLedger(db: D1Database, account: string, now: number): Promise<MonthLedger> {
  const from = utcDay(monthStart(now));
  const [used, bonus, acct] = await db.batch<{ n: number | null; first_call_at?: number | null; referral_pending?: number }>([
    db.prepare("SELECT SUM(credits) AS n FROM usage_daily WHERE account_id = ?1 AND day >= ?2").bind(account, from),
    db.prepare("SELECT SUM(credits) AS n FROM credit_grants WHERE account_id = ?1").bind(account),
    db.prepare(`SELECT first_call_at, ${referralPendingColumn} AS referral_pending FROM accounts WHERE id = ?1`).bind(account),
  ]);
  const row = acct!.results[0];
  return {
    month: utcMonth(now),
    creditsUsed: used!.results[0]?.n ?? 0,
    bonusCredits: bonus!.results[0]?.n ?? 0,
    // Keys of no D1 account (`npm start`'s, the tests') have no referral to trigger.
    firstCallPending: row !== undefined && (row.first_call_at ?? null) === null,
    referralPending: row?.referral_pending === 1,
  };
}

/** The account's bonus credits (after a referral reward). */
export async function readBonusCredits(db: D1Database, account: string): Promise<number> {
  const row = await db.prepare("SELECT SUM(credits) AS n FROM credit_grants WHERE account_id = ?1").bind(account).first<{ n: number | null }>();
  return row?.n ?? 0;
}

/** Writes accumulated usage in one batch; returns the number of statements (one per row and per key). */
export async function writeUsage(db: D1Database, account: string, usage: UsageEntry[], lastUsed: [string, number][]): Promise<number> {
  const statements = [
    ...usage.map((u) =>
      db
        .prepare(
          `INSERT INTO usage_daily (key_id, account_id, day, requests, credits) VALUES (?1, ?2, ?3, ?4, ?5)
           ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + excluded.requests, credits = credits + excluded.credits`,
        )
        .bind(u.keyId, account, u.day, u.requests, u.credits),
    ),
    ...lastUsed.map(([keyId, at]) => db.prepare("UPDATE api_keys SET last_used_at = MAX(COALESCE(last_used_at, 0), ?2) WHERE key_id = ?1").bind(keyId, at)),
  ];
  if (statements.length > 0) await db.batch(statements);
  return statements.length;
}

export interface UsageRow {
  keyId: string;
  day: string;
  requests: number;
  credits: number;
}

/** The account's per-key, per-day rows of the month of `now`, oldest day first. */
export async function readMonthUsage(db: D1Database, account: string, now: number): Promise<UsageRow[]> {
  const { results } = await db
    .prepare("SELECT key_id, day, requests, credits FROM usage_daily WHERE account_id = ?1 AND day >= ?2 ORDER BY day, key_id")
    .bind(account, utcDay(monthStart(now)))
    .all<{ key_id: string; day: string; requests: number; credits: number }>();
  return results.map((r) => ({ keyId: r.key_id, day: r.day, requests: r.requests, credits: r.credits }));
}
