/** The cron's sweep of expired sessions deletes at most `limits.accountWeb.authSweepBatchRows` per run: N, then N+1. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sweepExpiredAuthRows } from "../../src/accounts/auth-sweep";
import { limits } from "../../src/limits";
import { newAccount } from "../helpers/ids";

const batch = limits.accountWeb.authSweepBatchRows;

/** `count` sessions of one account, all expired at `now`. */
async function expiredSessions(count: number, now: number): Promise<void> {
  const account = newAccount();
  await env.DB.prepare("INSERT INTO accounts (id, email, password_hash, password_salt, password_iterations, referral_code, created_at) VALUES (?1, ?2, 'h', 's', 1, ?1, 0)")
    .bind(account, `${account}@example.test`)
    .run();
  const tokens = Array.from({ length: count }, (_, i) => `${account}-${i}`);
  await env.DB.prepare("INSERT INTO sessions (token_hash, account_id, created_at, expires_at) SELECT value, ?2, 0, ?3 FROM json_each(?1)")
    .bind(JSON.stringify(tokens), account, now - 1)
    .run();
}
const sessionsLeft = async () => (await env.DB.prepare("SELECT count(*) AS n FROM sessions").first<number>("n"))!;

describe("auth sweep batch", () => {
  it(`N = ${batch} expired sessions: one run deletes them all`, async () => {
    const now = Date.now();
    await env.DB.prepare("DELETE FROM sessions").run();
    await expiredSessions(batch, now);
    await sweepExpiredAuthRows(env.DB, now);
    expect(await sessionsLeft()).toBe(0);
  });

  it(`N + 1: one run leaves one for the next`, async () => {
    const now = Date.now();
    await env.DB.prepare("DELETE FROM sessions").run();
    await expiredSessions(batch + 1, now);
    await sweepExpiredAuthRows(env.DB, now);
    expect(await sessionsLeft()).toBe(1);
    await sweepExpiredAuthRows(env.DB, now);
    expect(await sessionsLeft()).toBe(0);
  });
});
