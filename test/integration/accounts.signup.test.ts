import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { cookiesOf, getPage, postForm, rawRows, signUp } from "../helpers/account-web";

const { maxEmailChars, minPasswordChars, maxPasswordChars, signupsPerAddress } = limits.accountWeb;
const password = "correct horse battery";

async function accountCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM accounts").first<number>("n")) ?? 0;
}

/** An email of exactly `length` characters. */
function emailOfLength(length: number): string {
  const domain = "@example.com";
  return "a".repeat(length - domain.length) + domain;
}

describe("sign-up", () => {
  it("creates the account, signs it in with a HttpOnly; Secure; SameSite=Lax cookie and redirects to the dashboard", async () => {
    // When a visitor signs up
    const res = await postForm("/signup", { email: "  Ada@Example.COM ", password }, { ip: "198.51.100.1" });
    // Then it is a Post/Redirect/Get to the dashboard, with the session cookie
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-tmd_session="))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//);
    // And the email is stored normalised, the password only as a PBKDF2 hash with its salt and iteration count
    const row = await env.DB.prepare("SELECT * FROM accounts WHERE email = 'ada@example.com'").first<Record<string, unknown>>();
    expect(row).toMatchObject({ plan: "free", password_iterations: 100_000, referred_by: null });
    expect(row!.password_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row!.password_salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(row!.referral_code).toMatch(/^[0-9A-Z]{10}$/);
    // And the dashboard opens with it
    const page = await getPage("/dashboard", { cookie: cookiesOf(res) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("ada@example.com");
  });

  it.each([
    ["no @", "ada.example.com"],
    ["two @", "ada@@example.com"],
    ["no dot in the domain", "ada@localhost"],
    ["a space", "ada lovelace@example.com"],
    ["markup", "<script>@example.com"],
    ["empty", ""],
  ])("a malformed email (%s) → 400, the form again with a message, nothing stored", async (_, email) => {
    const before = await accountCount();
    const res = await postForm("/signup", { email, password }, { ip: "198.51.100.2" });
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(body).toMatch(/class="error"[^>]*>(That is not an email address|Enter your email address)</);
    expect(body).not.toContain("<script>@");
    expect(await accountCount()).toBe(before);
  });

  it(`an email of ${maxEmailChars} characters is accepted, ${maxEmailChars + 1} is a 400`, async () => {
    expect((await postForm("/signup", { email: emailOfLength(maxEmailChars), password }, { ip: "198.51.100.3" })).status).toBe(303);
    const before = await accountCount();
    const res = await postForm("/signup", { email: emailOfLength(maxEmailChars + 1), password }, { ip: "198.51.100.3" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`Email addresses are at most ${maxEmailChars} characters`);
    expect(await accountCount()).toBe(before);
  });

  it(`passwords of ${minPasswordChars} and ${maxPasswordChars} characters are accepted, ${minPasswordChars - 1} and ${maxPasswordChars + 1} are 400s`, async () => {
    const ip = "198.51.100.4";
    expect((await postForm("/signup", { email: "min@example.com", password: "x".repeat(minPasswordChars) }, { ip })).status).toBe(303);
    expect((await postForm("/signup", { email: "max@example.com", password: "x".repeat(maxPasswordChars) }, { ip })).status).toBe(303);
    const before = await accountCount();
    const short = await postForm("/signup", { email: "short@example.com", password: "x".repeat(minPasswordChars - 1) }, { ip });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain(`Passwords are at least ${minPasswordChars} characters`);
    const long = await postForm("/signup", { email: "long@example.com", password: "x".repeat(maxPasswordChars + 1) }, { ip });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain(`Passwords are at most ${maxPasswordChars} characters`);
    expect(await accountCount()).toBe(before);
  });

  it(`a form body over ${limits.accountWeb.maxFormBodyBytes} bytes → 413 envelope, nothing stored`, async () => {
    const before = await accountCount();
    const res = await postForm("/signup", { email: "big@example.com", password, filler: "x".repeat(limits.accountWeb.maxFormBodyBytes) }, { ip: "198.51.100.5" });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ status: "error", error: { code: 413, message: `Form body larger than ${limits.accountWeb.maxFormBodyBytes} bytes` } });
    expect(await accountCount()).toBe(before);
  });

  it("a body that is not a form (JSON) → 400 with the form's message, nothing stored", async () => {
    const before = await accountCount();
    const res = await postForm("/signup", {}, { headers: { "content-type": "application/json" }, ip: "198.51.100.6" });
    expect(res.status).toBe(400);
    expect(await accountCount()).toBe(before);
  });

  it("a duplicate sign-up (any case) → 409, the first account untouched, no second row", async () => {
    await signUp("grace@example.com", password, { ip: "198.51.100.7" });
    const first = await rawRows("accounts");
    const res = await postForm("/signup", { email: "GRACE@example.com", password: "another password" }, { ip: "198.51.100.7" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("An account with this email already exists");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await rawRows("accounts")).toBe(first);
  });

  it(`1,000 sign-ups from one address: ${signupsPerAddress} accounts, then 429 with Retry-After; another address is not affected`, async () => {
    // Given one client address hammering the form
    const ip = "203.0.113.77";
    const before = await accountCount();
    const statuses: number[] = [];
    let throttled: { retryAfter: string | null; body: string } | undefined;
    for (let i = 0; i < 1000; i++) {
      const res = await postForm("/signup", { email: `bulk${i}@example.com`, password }, { ip });
      statuses.push(res.status);
      const body = await res.text();
      if (res.status === 429) throttled ??= { retryAfter: res.headers.get("retry-after"), body };
    }
    // Then the first ones get accounts and every later one is refused with a clear message
    expect(statuses.slice(0, signupsPerAddress)).toEqual(Array(signupsPerAddress).fill(303));
    expect(statuses.slice(signupsPerAddress).every((s) => s === 429)).toBe(true);
    expect(Number(throttled!.retryAfter)).toBeGreaterThan(0);
    expect(throttled!.body).toContain(`at most ${signupsPerAddress} sign-ups an hour from one address`);
    expect(await accountCount()).toBe(before + signupsPerAddress);
    // And an IPv6 neighbour in the same /64 shares one window (attempts at a taken email count too, and cost no hashing)
    expect((await postForm("/signup", { email: "v6@example.com", password }, { ip: "2001:db8:1:2::1" })).status).toBe(303);
    for (let i = 1; i < signupsPerAddress; i++) {
      const res = await postForm("/signup", { email: "v6@example.com", password }, { ip: `2001:db8:1:2::${i + 1}` });
      expect([res.status, await res.text()][0]).toBe(409);
    }
    expect((await postForm("/signup", { email: "v6-next@example.com", password }, { ip: "2001:db8:1:2:ffff::9" })).status).toBe(429);
    expect((await postForm("/signup", { email: "other@example.com", password }, { ip: "203.0.113.78" })).status).toBe(303);
  }, 60_000);
});

describe("referral links (sign-up side)", () => {
  it("/signup?ref=CODE carries a known code in a hidden field; the account records its referrer", async () => {
    // Given a referrer
    const referrer = await signUp("referrer@example.com", password, { ip: "198.51.100.20" });
    const code = await env.DB.prepare("SELECT referral_code FROM accounts WHERE id = ?1").bind(referrer.accountId).first<string>("referral_code");
    // When a visitor opens the link (lower-cased, as people retype codes)
    const page = await (await getPage(`/signup?ref=${code!.toLowerCase()}`)).text();
    // Then the form carries the code
    expect(page).toContain(`<input type="hidden" name="ref" value="${code}">`);
    // And a refused attempt (a short password) keeps it in the form shown again
    const refused = await postForm("/signup", { email: "referred@example.com", password: "short", ref: code! }, { ip: "198.51.100.21" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`<input type="hidden" name="ref" value="${code}">`);
    // And signing up with it records the referrer
    const referred = await signUp("referred@example.com", password, { ip: "198.51.100.21", ref: code! });
    const row = await env.DB.prepare("SELECT referred_by FROM accounts WHERE id = ?1").bind(referred.accountId).first<string>("referred_by");
    expect(row).toBe(referrer.accountId);
  });

  it("an unknown or malformed code: the page says so and the sign-up still works, without a referrer", async () => {
    for (const ref of ["ZZZZZZZZZZ", "<b>x</b>", "x".repeat(500)]) {
      const page = await (await getPage(`/signup?ref=${encodeURIComponent(ref)}`)).text();
      expect(page).toContain("This referral link's code is not known");
      expect(page).not.toContain('name="ref"');
      expect(page).not.toContain("<b>x</b>");
    }
    const forged = await signUp("forged-ref@example.com", password, { ip: "198.51.100.22", ref: "ZZZZZZZZZZ" });
    const row = await env.DB.prepare("SELECT referred_by FROM accounts WHERE id = ?1").bind(forged.accountId).first<string | null>("referred_by");
    expect(row).toBeNull();
  });

  it("an account never refers itself, and the referrer is never changed after sign-up", async () => {
    // Given an account signed up through a referral
    const a = await signUp("first-referrer@example.com", password, { ip: "198.51.100.23" });
    const codeA = await env.DB.prepare("SELECT referral_code FROM accounts WHERE id = ?1").bind(a.accountId).first<string>("referral_code");
    const b = await signUp("first-referred@example.com", password, { ip: "198.51.100.23", ref: codeA! });
    const codeB = await env.DB.prepare("SELECT referral_code FROM accounts WHERE id = ?1").bind(b.accountId).first<string>("referral_code");
    // When it tries to sign up again with its own code, or with another referrer's, while signed in
    const again = await postForm("/signup", { email: "first-referred@example.com", password, ref: codeB! }, { cookie: b.cookie, ip: "198.51.100.23" });
    // Then nothing changes: a sign-up of an existing email is refused, and no route writes referred_by
    expect(again.status).toBe(409);
    const rows = (await env.DB.prepare("SELECT id, referred_by FROM accounts").all<{ id: string; referred_by: string | null }>()).results;
    expect(rows.filter((r) => r.referred_by === r.id)).toEqual([]);
    expect(rows.find((r) => r.id === b.accountId)!.referred_by).toBe(a.accountId);
  });
});
