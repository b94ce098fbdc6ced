import { planLimits, type PlanLimits } from "./plans";
import type { Account } from "./account-store";

/**
 * What the dashboard shows besides keys, read from D1 in one batch: this UTC month's usage (usage_daily, written in
 * batches by the meter), bonus credits (credit_grants, written by the referral rewards), and referrals.
 */
export interface AccountSummary {
  plan: PlanLimits;
  /** YYYY-MM of the UTC month shown. */
  month: string;
  creditsUsedThisMonth: number;
  requestsThisMonth: number;
  /** Requests of each day of the month so far, day 1 first (days without usage are 0). */
  dailyRequests: { day: string; requests: number }[];
  /** Sum of every credit grant of the account (referral bonuses). */
  bonusCredits: number;
  referredAccounts: number;
  /** Referred accounts whose reward is not decided yet (they have not used the API enough). */
  referralsWaiting: number;
  /** Grants earned through referrals, newest first. */
  referralRewards: { credits: number; reason: string; createdAt: number }[];
}

export async function accountSummary(db: D1Database, account: Account, now = Date.now()): Promise<AccountSummary> {
  const today = new Date(now).toISOString().slice(0, 10);
  const month = today.slice(0, 7);
  const [daily, grants, referred, rewards] = await db.batch([
    db.prepare("SELECT day, sum(requests) AS requests, sum(credits) AS credits FROM usage_daily WHERE account_id = ?1 AND day >= ?2 AND day <= ?3 GROUP BY day").bind(account.id, `${month}-01`, `${month}-31`),
    db.prepare("SELECT coalesce(sum(credits), 0) AS credits FROM credit_grants WHERE account_id = ?1").bind(account.id),
    db.prepare("SELECT count(*) AS n, count(*) FILTER (WHERE referral_rewarded_at IS NULL) AS waiting FROM accounts WHERE referred_by = ?1 AND id <> ?1").bind(account.id),
    db.prepare("SELECT credits, reason, created_at FROM credit_grants WHERE account_id = ?1 AND reason LIKE 'referral:%' ORDER BY created_at DESC LIMIT 50").bind(account.id),
  ]);
  const byDay = new Map((daily!.results as { day: string; requests: number; credits: number }[]).map((r) => [r.day, r]));
  const daysSoFar = Number(today.slice(8, 10));
  const dailyRequests = Array.from({ length: daysSoFar }, (_, i) => {
    const day = `${month}-${String(i + 1).padStart(2, "0")}`;
    return { day, requests: byDay.get(day)?.requests ?? 0 };
  });
  let creditsUsedThisMonth = 0;
  for (const r of byDay.values()) creditsUsedThisMonth += r.credits;
  return {
    plan: planLimits(account.plan),
    month,
    creditsUsedThisMonth,
    requestsThisMonth: dailyRequests.reduce((sum, d) => sum + d.requests, 0),
    dailyRequests,
    bonusCredits: (grants!.results[0] as { credits: number } | undefined)?.credits ?? 0,
    referredAccounts: (referred!.results[0] as { n: number } | undefined)?.n ?? 0,
    referralsWaiting: (referred!.results[0] as { waiting: number } | undefined)?.waiting ?? 0,
    referralRewards: (rewards!.results as { credits: number; reason: string; created_at: number }[]).map((r) => ({ credits: r.credits, reason: r.reason, createdAt: r.created_at })),
  };
}
