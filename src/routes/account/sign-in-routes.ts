import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppContext } from "../../app-context";
import { firstMessage, loginForm, signupForm } from "../../accounts/account-input";
import { accountIdByReferralCode, createAccount, credentialsByEmail } from "../../accounts/account-store";
import { clearBucket, countAttempt, type ThrottleRule, type ThrottleVerdict } from "../../accounts/auth-throttle";
import { deviceCookieName, deviceTrusted } from "../../accounts/device-trust";
import { passwordHasherFor } from "../../accounts/password-hasher-shard";
import { normalizedReferralCode } from "../../accounts/referral-code";
import { sha256Hex } from "../../accounts/secret-tokens";
import { endSession } from "../../accounts/sessions";
import { clientAddressBucket, clientIpv6Net48 } from "../../http/client-address";
import { limits } from "../../limits";
import { loginPage, signupPage } from "../../pages/auth-pages";
import { clearSessionCookies, currentAccount, sessionToken, signIn, trustDevice } from "./session-cookie";
import { formFields } from "./form-body";

/**
 * Sign-up, login and logout: plain forms, Post/Redirect/Get. Refusals re-render the form with a message and the
 * status that says why (400 bad input, 401 wrong credentials, 409 taken email, 429 throttled); nothing is stored for
 * any of them. Throttles (sliding windows, auth-throttle.ts) count before any password work; the client address's
 * rule is judged with the others in one read, and a refused attempt writes nothing.
 */
const { signupWindowMs, signupsPerAddress, signupsPerIpv6Net48, loginWindowMs, loginAttemptsPerAddress, loginFreeAttemptsPerEmailAddress, loginFreeAttemptsPerEmail, loginDelayBaseMs, loginDelayMaxMs } =
  limits.accountWeb;

const wrongCredentials = "Wrong email or password";

function addressOf(c: Context<AppContext>): string {
  return clientAddressBucket(c.req.header("cf-connecting-ip"));
}

function throttledFor(verdict: ThrottleVerdict & { allowed: false }): { message: string; headers: Record<string, string> } {
  const seconds = verdict.retryAfterSeconds;
  const minutes = Math.ceil(seconds / 60);
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return { message: `Too many attempts: try again in ${wait}`, headers: { "retry-after": String(seconds) } };
}

/** Sign-ups: per address (an IPv6 client by its /64) and, for IPv6, per /48 too. */
function signupRules(header: string | undefined): ThrottleRule[] {
  const rules: ThrottleRule[] = [{ bucket: `signup:ip:${clientAddressBucket(header)}`, windowMs: signupWindowMs, max: signupsPerAddress }];
  const net48 = clientIpv6Net48(header);
  if (net48 !== null) rules.push({ bucket: `signup:net48:${net48}`, windowMs: signupWindowMs, max: signupsPerIpv6Net48 });
  return rules;
}

/**
 * Logins (docs/accounts.md#login-throttling): the address's hard cap first; then slowdowns per (email, address) and
 * per email, the latter skipped for a browser whose device cookie vouches for this email.
 */
function loginRules(address: string, emailHash: string, trusted: boolean): { rules: ThrottleRule[]; pair: string } {
  const delay = (free: number) => ({ free, baseMs: loginDelayBaseMs, maxMs: loginDelayMaxMs });
  const pair = `login:pair:${sha256Hex(`${emailHash}|${address}`)}`;
  const rules: ThrottleRule[] = [
    { bucket: `login:ip:${address}`, windowMs: loginWindowMs, max: loginAttemptsPerAddress },
    { bucket: pair, windowMs: loginWindowMs, max: loginAttemptsPerAddress, delay: delay(loginFreeAttemptsPerEmailAddress) },
  ];
  if (!trusted) rules.push({ bucket: `login:email:${emailHash}`, windowMs: loginWindowMs, max: Number.POSITIVE_INFINITY, delay: delay(loginFreeAttemptsPerEmail) });
  return { rules, pair };
}

/** A link's referral code: the known account id it names, or whether a code was given that names no account. */
async function referrerOf(db: D1Database, raw: string | undefined): Promise<{ code: string | null; referrer: string | null; unknown: boolean }> {
  if (raw === undefined || raw.trim() === "") return { code: null, referrer: null, unknown: false };
  const code = normalizedReferralCode(raw);
  const referrer = code ? await accountIdByReferralCode(db, code) : null;
  return referrer ? { code, referrer, unknown: false } : { code: null, referrer: null, unknown: true };
}

export const signInRoutes = new Hono<AppContext>()
  .get("/signup", async (c) => {
    const ref = await referrerOf(c.env.DB, c.req.query("ref")?.slice(0, 32));
    return c.html(signupPage({ ref: ref.code, unknownRef: ref.unknown }));
  })
  .post("/signup", async (c) => {
    const fields = await formFields(c);
    const parsed = signupForm.safeParse(fields);
    // The form again keeps the code of its hidden field (checked against D1 only past the throttle, below).
    const again = (status: 400 | 409 | 429, error: string, headers: Record<string, string> = {}) =>
      c.html(signupPage({ email: fields.email?.slice(0, limits.accountWeb.maxEmailChars), ref: normalizedReferralCode(fields.ref), error }), status, headers);
    if (!parsed.success) return again(400, firstMessage(parsed.error));
    const verdict = await countAttempt(c.env.DB, signupRules(c.req.header("cf-connecting-ip")));
    if (!verdict.allowed) {
      const { message, headers } = throttledFor(verdict);
      const why = verdict.bucket.startsWith("signup:net48:") ? `at most ${signupsPerIpv6Net48} sign-ups an hour from one network (an IPv6 /48)` : `at most ${signupsPerAddress} sign-ups an hour from one address`;
      return again(429, `${message} (${why})`, headers);
    }
    const taken = "An account with this email already exists: log in instead";
    if (await credentialsByEmail(c.env.DB, parsed.data.email)) return again(409, taken);
    // An unknown code (a typo, an old link, a forged field) does not stop the sign-up: the account has no referrer.
    const { referrer } = await referrerOf(c.env.DB, parsed.data.ref);
    const created = await createAccount(c.env.DB, { email: parsed.data.email, password: await passwordHasherFor(c.env, parsed.data.email).hash(parsed.data.password), referredBy: referrer });
    if (!created.ok) return again(409, taken);
    await signIn(c, created.account.id);
    trustDevice(c, created.account.email);
    return c.redirect("/dashboard", 303);
  })
  .get("/login", async (c) => {
    // Already signed in: the dashboard, not a second login.
    if (await currentAccount(c)) return c.redirect("/dashboard", 303);
    return c.html(loginPage({ notice: c.req.query("signed-out") === "1" ? "You are logged out." : undefined }));
  })
  .post("/login", async (c) => {
    const fields = await formFields(c);
    const parsed = loginForm.safeParse(fields);
    const again = (status: 400 | 401 | 429, error: string, headers: Record<string, string> = {}) =>
      c.html(loginPage({ email: fields.email?.slice(0, limits.accountWeb.maxEmailChars), error }), status, headers);
    if (!parsed.success) return again(400, firstMessage(parsed.error));
    const trusted = deviceTrusted(c.env.DEVICE_COOKIE_SECRET, getCookie(c, deviceCookieName), parsed.data.email);
    const { rules, pair } = loginRules(addressOf(c), sha256Hex(parsed.data.email), trusted);
    const verdict = await countAttempt(c.env.DB, rules);
    if (!verdict.allowed) {
      const { message, headers } = throttledFor(verdict);
      return again(429, message, headers);
    }
    const stored = await credentialsByEmail(c.env.DB, parsed.data.email);
    // Unknown email and wrong password: the same work, the same answer.
    // The PBKDF2 work runs in a Durable Object, on its CPU budget rather than this request's (password-hasher.ts).
    const hasher = passwordHasherFor(c.env, parsed.data.email);
    const ok = stored ? await hasher.verify(parsed.data.password, stored.password) : await hasher.spend(parsed.data.password);
    if (!stored || !ok) return again(401, wrongCredentials);
    // The owner's own typos from this address are forgiven; the per-email count (strangers' guesses) stays.
    await clearBucket(c.env.DB, pair);
    await signIn(c, stored.account.id);
    trustDevice(c, parsed.data.email);
    return c.redirect("/dashboard", 303);
  })
  .post("/logout", async (c) => {
    await endSession(c.env.DB, sessionToken(c));
    clearSessionCookies(c);
    return c.redirect("/login?signed-out=1", 303);
  });
