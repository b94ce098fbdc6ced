import { limits } from "../limits";
import { monthStart } from "./meter-protocol";
import { plans, referralBonusCredits } from "./plans";

/**
 * The referral reward (docs/accounts.md#referral-rewards), paid for real use only, so accounts made to be referred
 * earn nothing: an account that signed up through a referral code, once it has spent `referralMinCredits` credits
 * (calls that cost credits; free ones such as the usage route count nothing) spread over at least `referralMinDays`
 * distinct UTC days — or is on a paid plan — gets `referralBonusCredits.referred`, and its referrer
 * `referralBonusCredits.referrer` unless the referrer already earned `referralRewardsPerMonth` this UTC month (that
 * referral then pays the referrer nothing, ever). Decided once per referred account.
 * One D1 batch (a transaction): the grants are inserted only while `referral_rewarded_at` is still null and the use
 * is there, then it is set — so a retry, or two meters racing, grant nothing more, and the table's UNIQUE (account_id,
 * reason, related_account) stands behind it. An account is never its own referrer.
 * The meter runs this after a flush that wrote credits, while the account's reward is pending (meter.ts).
 */
export type ReferralOutcome = { decided: false } | { decided: true; credited: string[] };

const paidPlans = JSON.stringify(Object.values(plans).filter((p) => p.priceUsdPerMonth > 0).map((p) => p.id));

export async function rewardReferral(db: D1Database, account: string, now: number): Promise<ReferralOutcome> {
  const { referralMinCredits, referralMinDays, referralRewardsPerMonth } = limits.accountWeb;
  // ?1 account, ?2 min credits, ?3 min days, ?4 paid plans (JSON), then per statement.
  const eligible = `FROM accounts a WHERE a.id = ?1 AND a.referral_rewarded_at IS NULL AND a.referred_by IS NOT NULL AND a.referred_by <> a.id
    AND (a.plan IN (SELECT value FROM json_each(?4))
      OR ((SELECT COALESCE(SUM(credits), 0) FROM usage_daily WHERE account_id = ?1) >= ?2
        AND (SELECT COUNT(*) FROM (SELECT day FROM usage_daily WHERE account_id = ?1 GROUP BY day HAVING SUM(credits) > 0)) >= ?3))`;
  const common = [account, referralMinCredits, referralMinDays, paidPlans] as const;
  const [, referrerGrant, marked] = await db.batch<{ account_id?: string; referred_by?: string }>([
    db
      .prepare(`INSERT OR IGNORE INTO credit_grants (account_id, credits, reason, related_account, created_at) SELECT a.id, ?5, 'referral:referred', a.referred_by, ?6 ${eligible}`)
      .bind(...common, referralBonusCredits.referred, now),
    db
      .prepare(
        `INSERT OR IGNORE INTO credit_grants (account_id, credits, reason, related_account, created_at) SELECT a.referred_by, ?5, 'referral:referrer', a.id, ?6 ${eligible}
           AND (SELECT COUNT(*) FROM credit_grants g WHERE g.account_id = a.referred_by AND g.reason = 'referral:referrer' AND g.created_at >= ?7) < ?8
         RETURNING account_id`,
      )
      .bind(...common, referralBonusCredits.referrer, now, monthStart(now), referralRewardsPerMonth),
    db.prepare(`UPDATE accounts SET referral_rewarded_at = ?5 WHERE id IN (SELECT a.id ${eligible}) RETURNING referred_by`).bind(...common, now),
  ]);
  const referrer = marked!.results[0]?.referred_by;
  if (referrer === undefined) return { decided: false };
  return { decided: true, credited: referrerGrant!.results.length > 0 ? [account, referrer] : [account] };
}

/** Whether the account still waits for its referral decision (read with its month's ledger). */
export const referralPendingColumn = "(referred_by IS NOT NULL AND referred_by <> id AND referral_rewarded_at IS NULL)";
