/**
 * The account surface against a patient attacker, through the worker (workerd, the real meters and D1): referral
 * credits cannot be farmed, strangers' wrong passwords never keep an owner out, a throttled address writes nothing,
 * and the sign-up and login windows slide (no clock-hour edge to double up on).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { countAttempt, type ThrottleRule } from "../../src/accounts/auth-throttle";
import { deviceCookieName, deviceTrusted, issueDeviceCookie } from "../../src/accounts/device-trust";
import { flushAccountUsage } from "../../src/accounts/meter-client";
import { referralBonusCredits } from "../../src/accounts/plans";
import { limits } from "../../src/limits";
import { cookiesOf, postForm, signUp } from "../helpers/account-web";
import { newApiKeyRecord } from "../helpers/keys";
import { world } from "../helpers/localnet";
import { callWorker } from "../helpers/worker";

const { signupsPerAddress, signupsPerIpv6Net48, signupWindowMs, loginWindowMs, loginAttemptsPerAddress, referralMinCredits, referralRewardsPerMonth } = limits.accountWeb;
const password = "correct horse battery";
let mint: string;

beforeAll(async () => {
  mint = (await world()).tokens[0]!.mint;
});

const count = async (sql: string, ...args: unknown[]) => (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())!.n;
const grantsOf = (account: string) => env.DB.prepare("SELECT account_id, credits, reason, related_account FROM credit_grants WHERE account_id = ?1 ORDER BY id").bind(account).all().then((r) => r.results);
const referralCodeOf = async (account: string) => (await env.DB.prepare("SELECT referral_code FROM accounts WHERE id = ?1").bind(account).first<string>("referral_code"))!;
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** One priced call (1 credit) with a fresh key of the account, then its meter writes to D1 (and decides its referral). */
async function pricedCall(account: string): Promise<void> {
  const { key } = await newApiKeyRecord({ account, plan: "free", limits: { requestsPerSecond: 100 } });
  const res = await callWorker({ path: `/api/v1/price?ca=${mint}` }, { key });
  expect(res.status).toBe(200);
  await flushAccountUsage(env, account);
}

/** Use the account made before today: `credits` spent yesterday (what the meter would have written then). */
async function spentYesterday(account: string, credits: number): Promise<void> {
  await env.DB.prepare("INSERT INTO usage_daily (key_id, account_id, day, requests, credits) VALUES (?1, ?2, ?3, ?4, ?4)").bind(`key_old_${account}`, account, yesterday(), credits).run();
}

describe("referral rewards pay for real use only", () => {
  it(`farming: accounts signed up from many /64s of one /48, one call each, earn the referrer nothing; the /48 admits ${signupsPerIpv6Net48} sign-ups an hour`, async () => {
    // Given a referrer and a farmer with a /48, rotating /64s
    const referrer = await signUp("farm-referrer@example.com", password, { ip: "198.51.100.200" });
    const ref = await referralCodeOf(referrer.accountId);
    const statuses: number[] = [];
    const farmed: string[] = [];
    for (let i = 0; i < signupsPerIpv6Net48 + 10; i++) {
      const email = `farm${i}@example.com`;
      const res = await postForm("/signup", { email, password, ref }, { ip: `2001:db8:77:${(i + 1).toString(16)}::1` });
      statuses.push(res.status);
      if (res.status === 303) farmed.push((await env.DB.prepare("SELECT id FROM accounts WHERE email = ?1").bind(email).first<string>("id"))!);
    }
    // Then the /48 stops them at its count, each /64 far under its own
    expect(statuses.slice(0, signupsPerIpv6Net48)).toEqual(Array(signupsPerIpv6Net48).fill(303));
    expect(statuses.slice(signupsPerIpv6Net48).every((s) => s === 429)).toBe(true);
    const refused = await postForm("/signup", { email: "farm-late@example.com", password, ref }, { ip: "2001:db8:77:ffff::1" });
    expect(await refused.text()).toContain(`at most ${signupsPerIpv6Net48} sign-ups an hour from one network`);
    // When each farmed account makes one successful priced call (and a free one)
    for (const account of farmed) {
      await pricedCall(account);
      const { key } = await newApiKeyRecord({ account, plan: "free", limits: { requestsPerSecond: 100 } });
      expect((await callWorker({ path: "/api/v1/usage" }, { key })).status).toBe(200);
      await flushAccountUsage(env, account);
    }
    // Then nobody earned anything
    expect(await grantsOf(referrer.accountId)).toEqual([]);
    expect(await count(`SELECT COUNT(*) AS n FROM credit_grants WHERE related_account = ?1 OR account_id IN (SELECT id FROM accounts WHERE referred_by = ?1)`, referrer.accountId)).toBe(0);
  }, 120_000);

  it(`real use (≥ ${referralMinCredits} credits over ≥ 2 UTC days) earns both accounts the bonus, once; ${referralMinCredits} on one day alone earns nothing`, async () => {
    const referrer = await signUp("real-referrer@example.com", password, { ip: "198.51.100.201" });
    const ref = await referralCodeOf(referrer.accountId);
    const oneDay = await signUp("one-day@example.com", password, { ip: "198.51.100.202", ref });
    const real = await signUp("real-user@example.com", password, { ip: "198.51.100.203", ref });
    // Given one account that spent all its credits today, and one that spent all but one yesterday
    await env.DB.prepare("INSERT INTO usage_daily (key_id, account_id, day, requests, credits) VALUES ('key_one_day', ?1, ?2, 1, ?3)").bind(oneDay.accountId, new Date().toISOString().slice(0, 10), referralMinCredits).run();
    await spentYesterday(real.accountId, referralMinCredits - 1);
    // When each makes a priced call today
    await pricedCall(oneDay.accountId);
    await pricedCall(real.accountId);
    // Then only the one whose use spans two days is rewarded, with its referrer
    expect(await grantsOf(oneDay.accountId)).toEqual([]);
    expect(await grantsOf(real.accountId)).toEqual([{ account_id: real.accountId, credits: referralBonusCredits.referred, reason: "referral:referred", related_account: referrer.accountId }]);
    expect(await grantsOf(referrer.accountId)).toEqual([{ account_id: referrer.accountId, credits: referralBonusCredits.referrer, reason: "referral:referrer", related_account: real.accountId }]);
    // And more use grants nothing more; both meters count the bonus
    await pricedCall(real.accountId);
    expect((await grantsOf(real.accountId)).length).toBe(1);
    expect((await grantsOf(referrer.accountId)).length).toBe(1);
    const { key } = await newApiKeyRecord({ account: referrer.accountId, plan: "free" });
    const usage = (await (await callWorker({ path: "/api/v1/usage" }, { key })).json()) as { credits: { bonus: number } };
    expect(usage.credits.bonus).toBe(referralBonusCredits.referrer);
  }, 60_000);

  it("an account moved to a paid plan earns the reward with its next priced call", async () => {
    const referrer = await signUp("paid-referrer@example.com", password, { ip: "198.51.100.204" });
    const paid = await signUp("paid-user@example.com", password, { ip: "198.51.100.205", ref: await referralCodeOf(referrer.accountId) });
    await env.DB.prepare("UPDATE accounts SET plan = 'pro' WHERE id = ?1").bind(paid.accountId).run();
    await pricedCall(paid.accountId);
    expect((await grantsOf(referrer.accountId)).map((g) => g.reason)).toEqual(["referral:referrer"]);
    expect((await grantsOf(paid.accountId)).map((g) => g.reason)).toEqual(["referral:referred"]);
  });

  it(`a referrer earns at most ${referralRewardsPerMonth} rewards a month; the accounts past it still get theirs`, async () => {
    const referrer = await signUp("cap-referrer@example.com", password, { ip: "198.51.100.206" });
    const ref = await referralCodeOf(referrer.accountId);
    const referred: string[] = [];
    for (let i = 0; i < referralRewardsPerMonth + 2; i++) {
      // Sign-ups from many addresses (one address admits only its hourly count)
      referred.push((await signUp(`cap${i}@example.com`, password, { ip: `192.0.2.${10 + i}`, ref })).accountId);
    }
    for (const account of referred) {
      await spentYesterday(account, referralMinCredits);
      await pricedCall(account);
    }
    expect((await grantsOf(referrer.accountId)).length).toBe(referralRewardsPerMonth);
    for (const account of referred) expect((await grantsOf(account)).map((g) => g.reason), account).toEqual(["referral:referred"]);
  }, 60_000);
});

describe("login: strangers never keep the owner out", () => {
  it("an owner who logged in before still logs in after 15 wrong passwords from 15 other addresses (from any address)", async () => {
    // Given an owner who logged in from this browser before (its device cookie)
    await signUp("owner@example.com", password, { ip: "198.51.100.210" });
    const first = await postForm("/login", { email: "owner@example.com", password }, { ip: "198.51.100.210" });
    expect(first.status).toBe(303);
    const device = cookiesOf(first).split("; ").find((c) => c.startsWith(`${deviceCookieName}=`))!;
    expect(device).toBeDefined();
    // When 15 addresses guess wrong
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await postForm("/login", { email: "owner@example.com", password: `guess ${i}!!` }, { ip: `10.9.0.${i}` })).status);
    // (the owner's own first login counted as one of the email's free attempts)
    const free = limits.accountWeb.loginFreeAttemptsPerEmail - 1;
    expect(statuses.slice(0, free)).toEqual(Array(free).fill(401));
    // (past the free attempts the guesses are slowed down: a 429 that says how long to wait)
    expect(statuses.slice(free)).toContain(429);
    // Then the owner's browser signs in, from its usual address and from a new one
    expect((await postForm("/login", { email: "owner@example.com", password }, { ip: "198.51.100.210", cookie: device })).status).toBe(303);
    expect((await postForm("/login", { email: "owner@example.com", password }, { ip: "198.51.100.211", cookie: device })).status).toBe(303);
    // And a browser that never logged in waits at most the longest delay, not a lockout
    const stranger = await postForm("/login", { email: "owner@example.com", password }, { ip: "198.51.100.212" });
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("retry-after"))).toBeLessThanOrEqual(limits.accountWeb.loginDelayMaxMs / 1000);
  }, 60_000);

  it("a device cookie vouches only for the email it was issued for, only when signed with this deployment's secret, only for its lifetime", () => {
    const secret = env.DEVICE_COOKIE_SECRET;
    const now = Date.now();
    const cookie = issueDeviceCookie(secret, "a@example.com", now)!;
    expect(deviceTrusted(secret, cookie, "a@example.com", now)).toBe(true);
    expect(deviceTrusted(secret, cookie, "b@example.com", now)).toBe(false);
    expect(deviceTrusted("another secret", cookie, "a@example.com", now)).toBe(false);
    expect(deviceTrusted(secret, cookie.slice(0, -1) + (cookie.endsWith("A") ? "B" : "A"), "a@example.com", now)).toBe(false);
    expect(deviceTrusted(secret, cookie, "a@example.com", now + limits.accountWeb.deviceCookieTtlMs)).toBe(false);
    expect(deviceTrusted(undefined, cookie, "a@example.com", now)).toBe(false);
    expect(issueDeviceCookie(undefined, "a@example.com", now)).toBeNull();
  });

  it("per email: delays double past the free attempts, up to the longest, and an attempt after the wait is let through (never a lock)", async () => {
    const { loginFreeAttemptsPerEmail: free, loginDelayBaseMs: base, loginDelayMaxMs: max } = limits.accountWeb;
    const rule: ThrottleRule = { bucket: `test:delay:${crypto.randomUUID()}`, windowMs: loginWindowMs, max: Number.POSITIVE_INFINITY, delay: { free, baseMs: base, maxMs: max } };
    let t = 1_800_000_000_000;
    for (let i = 0; i < free; i++) expect(await countAttempt(env.DB, [rule], t++)).toEqual({ allowed: true });
    const waits: number[] = [];
    for (let k = 0; k < 10; k++) {
      const gap = Math.min(max, base * 2 ** k);
      waits.push(gap);
      // 1 ms early: refused, nothing counted; on time: admitted
      expect(await countAttempt(env.DB, [rule], t - 1 + gap - 1)).toMatchObject({ allowed: false });
      t = t - 1 + gap;
      expect(await countAttempt(env.DB, [rule], t)).toEqual({ allowed: true });
      t++;
    }
    expect(waits.at(-1)).toBe(max);
  });

  it(`2,000 logins with random emails from an address over its ${loginAttemptsPerAddress} attempts write no row; rows per address stay bounded`, async () => {
    const ip = "203.0.113.90";
    const before = await count("SELECT COUNT(*) AS n FROM auth_attempts");
    for (let i = 0; i < loginAttemptsPerAddress; i++) {
      const res = await postForm("/login", { email: `spray-${crypto.randomUUID()}@example.com`, password }, { ip });
      expect([res.status, await res.text()][0]).toBe(401);
    }
    // Each counted attempt wrote one row per rule (address, email and address, email): the address's rows are bounded
    const rows = await count("SELECT COUNT(*) AS n FROM auth_attempts");
    expect(rows - before).toBe(3 * loginAttemptsPerAddress);
    for (let i = 0; i < 2000; i++) {
      const res = await postForm("/login", { email: `spray-${crypto.randomUUID()}@example.com`, password }, { ip });
      expect([res.status, await res.text()][0]).toBe(429);
    }
    expect(await count("SELECT COUNT(*) AS n FROM auth_attempts")).toBe(rows);
  }, 180_000);
});

describe("sliding windows", () => {
  it(`sign-ups: ${signupsPerAddress} just before an hour boundary, then none just after (no ${2 * signupsPerAddress} across it)`, async () => {
    const rules: ThrottleRule[] = [{ bucket: `signup:ip:test-${crypto.randomUUID()}`, windowMs: signupWindowMs, max: signupsPerAddress }];
    const hour = 1_800_000_000_000 - (1_800_000_000_000 % 3_600_000) + 3_600_000; // a clock-hour boundary
    for (let i = 0; i < signupsPerAddress; i++) expect(await countAttempt(env.DB, rules, hour - 60_000 + i)).toEqual({ allowed: true });
    let admittedAfter = 0;
    for (let i = 0; i < signupsPerAddress; i++) if ((await countAttempt(env.DB, rules, hour + 1_000 + i)).allowed) admittedAfter++;
    expect(admittedAfter).toBe(0);
    // An hour after the first one, it has left the window: one more fits
    expect(await countAttempt(env.DB, rules, hour - 60_000 + signupWindowMs + 1)).toEqual({ allowed: true });
  });

  it("login: an address's attempts are capped in any 15-minute span, across a quarter-hour boundary too", async () => {
    const rules: ThrottleRule[] = [{ bucket: `login:ip:test-${crypto.randomUUID()}`, windowMs: loginWindowMs, max: loginAttemptsPerAddress }];
    const quarter = 1_800_000_000_000 - (1_800_000_000_000 % loginWindowMs) + loginWindowMs;
    for (let i = 0; i < loginAttemptsPerAddress; i++) expect((await countAttempt(env.DB, rules, quarter - 5_000 + i)).allowed).toBe(true);
    const after = await countAttempt(env.DB, rules, quarter + 5_000);
    expect(after).toMatchObject({ allowed: false });
    expect(after.allowed === false && after.retryAfterSeconds).toBe(loginWindowMs / 1000 - 10);
  });
});
