import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppContext } from "../../app-context";
import { accountById, type Account } from "../../accounts/account-store";
import { deviceCookieName, issueDeviceCookie } from "../../accounts/device-trust";
import { sessionAccountId, sessionCookieName, startSession } from "../../accounts/sessions";
import { limits } from "../../limits";

/**
 * The cookies of the account pages. The session cookie is `__Host-` prefixed, `HttpOnly; Secure; SameSite=Lax;
 * Path=/`: no script reads it, it never travels over plain http (browsers treat 127.0.0.1 and localhost as secure for
 * this), other sites' POSTs do not carry it, and no sibling subdomain can set one in its place. The new-key cookie
 * carries a key just created from the POST that made it to the one page view that shows it (Post/Redirect/Get; D1 and
 * KV only ever hold its hash), scoped to /dashboard, gone after that view.
 */
const newKeyCookieName = "tmd_new_key";

export async function signIn(c: Context<AppContext>, accountId: string): Promise<void> {
  const { token } = await startSession(c.env.DB, accountId);
  setCookie(c, sessionCookieName, token, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", maxAge: Math.floor(limits.accountWeb.sessionTtlMs / 1000) });
}

/**
 * Marks this browser as one that logged in to `email` (device-trust.ts): same attributes as the session cookie, but it
 * outlives logout — it opens nothing, it only exempts this browser from the per-email login slowdown.
 */
export function trustDevice(c: Context<AppContext>, email: string): void {
  const value = issueDeviceCookie(c.env.DEVICE_COOKIE_SECRET, email);
  if (value !== null) setCookie(c, deviceCookieName, value, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", maxAge: Math.floor(limits.accountWeb.deviceCookieTtlMs / 1000) });
}

export function sessionToken(c: Context<AppContext>): string | undefined {
  return getCookie(c, sessionCookieName);
}

export function clearSessionCookies(c: Context<AppContext>): void {
  deleteCookie(c, sessionCookieName, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
  deleteCookie(c, newKeyCookieName, { path: "/dashboard", secure: true, httpOnly: true, sameSite: "Strict" });
}

/** The signed-in account, or null (no cookie, or a session that ended, expired or never existed). */
export async function currentAccount(c: Context<AppContext>): Promise<Account | null> {
  const id = await sessionAccountId(c.env.DB, sessionToken(c));
  return id ? accountById(c.env.DB, id) : null;
}

export function handOverNewKey(c: Context<AppContext>, key: string): void {
  setCookie(c, newKeyCookieName, key, { httpOnly: true, secure: true, sameSite: "Strict", path: "/dashboard", maxAge: limits.accountWeb.newKeyCookieSeconds });
}

/** The key handed over by the last create, if any; the cookie is cleared in the same answer, so a reload shows nothing. */
export function takeNewKey(c: Context<AppContext>): string | undefined {
  const key = getCookie(c, newKeyCookieName);
  if (key !== undefined) deleteCookie(c, newKeyCookieName, { path: "/dashboard", secure: true, httpOnly: true, sameSite: "Strict" });
  return key;
}
