import { referralBonusCredits } from "./plans";

/**
 * The referral reward (docs/accounts.md#referral-rewards): when an account that signed up with a referral code makes
 * its first successful API call, it and its referrer each get `referralBonusCredits` as a `credit_grants` row. One D1
 * batch (a transaction): both grants are inserted only while `first_call_at` is still null, then it is set — so a
 * second call, a retry after a failure half-way, or two isolates racing grant nothing more, and the table's
 * UNIQUE (account_id, reason, related_account) stands behind it. An account is never its own referrer.
 * Returns the accounts whose balance changed (their meters reload it), empty when nothing was granted.
 */
export async function rewardFirstCall(db: D1Database, account: string, now: number): Promise<string[]> {
  const eligible = "FROM accounts WHERE id = ?1 AND first_call_at IS NULL AND referred_by IS NOT NULL AND referred_by <> id";
  const [, , marked] = await db.batch<{ referred_by: string | null }>([
    db
      .prepare(`INSERT OR IGNORE INTO credit_grants (account_id, credits, reason, related_account, created_at) SELECT id, ?2, 'referral:referred', referred_by, ?3 ${eligible}`)
      .bind(account, referralBonusCredits.referred, now),
    db
      .prepare(`INSERT OR IGNORE INTO credit_grants (account_id, credits, reason, related_account, created_at) SELECT referred_by, ?2, 'referral:referrer', id, ?3 ${eligible}`)
      .bind(account, referralBonusCredits.referrer, now),
    db.prepare("UPDATE accounts SET first_call_at = ?2 WHERE id = ?1 AND first_call_at IS NULL RETURNING referred_by").bind(account, now),
  ]);
  const referrer = marked!.results[0]?.referred_by ?? null;
  return referrer === null || referrer === account ? [] : [account, referrer];
}
