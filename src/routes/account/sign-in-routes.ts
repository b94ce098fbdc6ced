import { Hono, type Context } from "hono";
import type { AppContext } from "../../app-context";
import { firstMessage, loginForm, signupForm } from "../../accounts/account-input";
import { accountIdByReferralCode, createAccount, credentialsByEmail } from "../../accounts/account-store";
import { countAttempt, type ThrottleVerdict } from "../../accounts/auth-throttle";
import { passwordHasherFor } from "../../accounts/password-hasher-shard";
import { normalizedReferralCode } from "../../accounts/referral-code";
import { sha256Hex } from "../../accounts/secret-tokens";
import { endSession } from "../../accounts/sessions";
import { clientAddressBucket } from "../../http/client-address";
import { limits } from "../../limits";
import { loginPage, signupPage } from "../../pages/auth-pages";
import { clearSessionCookies, currentAccount, sessionToken, signIn } from "./session-cookie";
import { formFields } from "./form-body";

/**
 * Sign-up, login and logout: plain forms, Post/Redirect/Get. Refusals re-render the form with a message and the
 * status that says why (400 bad input, 401 wrong credentials, 409 taken email, 429 throttled); nothing is stored for
 * any of them. Throttles count before any password work.
 */
const { signupWindowMs, signupsPerAddress, loginWindowMs, loginAttemptsPerEmail, loginAttemptsPerAddress } = limits.accountWeb;

const wrongCredentials = "Wrong email or password";

function addressOf(c: Context<AppContext>): string {
  return clientAddressBucket(c.req.header("cf-connecting-ip"));
}

function throttledFor(verdict: ThrottleVerdict & { allowed: false }): { message: string; headers: Record<string, string> } {
  const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
  return { message: `Too many attempts: try again in ${minutes} minute${minutes === 1 ? "" : "s"}`, headers: { "retry-after": String(verdict.retryAfterSeconds) } };
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
    const verdict = await countAttempt(c.env.DB, [{ bucket: `signup:ip:${addressOf(c)}`, windowMs: signupWindowMs, max: signupsPerAddress }]);
    if (!verdict.allowed) {
      const { message, headers } = throttledFor(verdict);
      return again(429, `${message} (at most ${signupsPerAddress} sign-ups an hour from one address)`, headers);
    }
    const taken = "An account with this email already exists: log in instead";
    if (await credentialsByEmail(c.env.DB, parsed.data.email)) return again(409, taken);
    // An unknown code (a typo, an old link, a forged field) does not stop the sign-up: the account has no referrer.
    const { referrer } = await referrerOf(c.env.DB, parsed.data.ref);
    const created = await createAccount(c.env.DB, { email: parsed.data.email, password: await passwordHasherFor(c.env, parsed.data.email).hash(parsed.data.password), referredBy: referrer });
    if (!created.ok) return again(409, taken);
    await signIn(c, created.account.id);
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
    const verdict = await countAttempt(c.env.DB, [
      { bucket: `login:email:${sha256Hex(parsed.data.email)}`, windowMs: loginWindowMs, max: loginAttemptsPerEmail },
      { bucket: `login:ip:${addressOf(c)}`, windowMs: loginWindowMs, max: loginAttemptsPerAddress },
    ]);
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
    await signIn(c, stored.account.id);
    return c.redirect("/dashboard", 303);
  })
  .post("/logout", async (c) => {
    await endSession(c.env.DB, sessionToken(c));
    clearSessionCookies(c);
    return c.redirect("/login?signed-out=1", 303);
  });
