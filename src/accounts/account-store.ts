import { planIdSchema, type PlanId } from "./plans";
import type { PasswordHash } from "./password-hash";
import { generateReferralCode } from "./referral-code";
import { randomHex } from "./secret-tokens";

/**
 * Accounts in D1 (`accounts`, migrations/0003_accounts.sql). The referrer is written with the row and never
 * updated: one referrer per account, fixed at sign-up, and never the account itself (it does not exist yet when its
 * referrer is looked up).
 */
export interface Account {
  id: string;
  email: string;
  plan: PlanId;
  referralCode: string;
  referredBy: string | null;
  createdAt: number;
}

interface AccountRow {
  id: string;
  email: string;
  plan: string;
  referral_code: string;
  referred_by: string | null;
  created_at: number;
}

const accountColumns = "id, email, plan, referral_code, referred_by, created_at";

function accountOf(row: AccountRow): Account {
  // A plan id plans.ts no longer knows (a row written by a newer deployment) reads as free rather than failing the page.
  const plan = planIdSchema.safeParse(row.plan);
  return { id: row.id, email: row.email, plan: plan.success ? plan.data : "free", referralCode: row.referral_code, referredBy: row.referred_by, createdAt: row.created_at };
}

export type CreateAccountResult = { ok: true; account: Account } | { ok: false; reason: "email-taken" };

/** Inserts an account; a referral code collision (50 random bits) is retried with a fresh code. */
export async function createAccount(db: D1Database, input: { email: string; password: PasswordHash; referredBy: string | null }, now = Date.now()): Promise<CreateAccountResult> {
  const id = `acct_${randomHex(12)}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const referralCode = generateReferralCode();
    try {
      const row = await db
        .prepare(
          `INSERT INTO accounts (id, email, password_hash, password_salt, password_iterations, referral_code, referred_by, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (email) DO NOTHING RETURNING ${accountColumns}`,
        )
        .bind(id, input.email, input.password.hash, input.password.salt, input.password.iterations, referralCode, input.referredBy, now)
        .first<AccountRow>();
      return row ? { ok: true, account: accountOf(row) } : { ok: false, reason: "email-taken" };
    } catch (err) {
      if (!(err instanceof Error && /UNIQUE constraint failed: accounts\.referral_code/.test(err.message))) throw err;
    }
  }
  throw new Error("referral code collisions: 3 in a row");
}

export async function accountById(db: D1Database, id: string): Promise<Account | null> {
  const row = await db.prepare(`SELECT ${accountColumns} FROM accounts WHERE id = ?1`).bind(id).first<AccountRow>();
  return row ? accountOf(row) : null;
}

/** The account and its stored password hash, for a login. */
export async function credentialsByEmail(db: D1Database, email: string): Promise<{ account: Account; password: PasswordHash } | null> {
  const row = await db
    .prepare(`SELECT ${accountColumns}, password_hash, password_salt, password_iterations FROM accounts WHERE email = ?1`)
    .bind(email)
    .first<AccountRow & { password_hash: string; password_salt: string; password_iterations: number }>();
  return row ? { account: accountOf(row), password: { hash: row.password_hash, salt: row.password_salt, iterations: row.password_iterations } } : null;
}

export async function accountIdByReferralCode(db: D1Database, code: string): Promise<string | null> {
  return (await db.prepare("SELECT id FROM accounts WHERE referral_code = ?1").bind(code).first<string>("id")) ?? null;
}
