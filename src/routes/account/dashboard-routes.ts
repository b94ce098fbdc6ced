import { Hono, type Context } from "hono";
import type { AppContext } from "../../app-context";
import { createKeyForm, firstMessage, revokeKeyForm, revokeKeyQuery } from "../../accounts/account-input";
import { createAccountKey, listAccountKeys, liveAccountKey, liveKeyName, revokeAccountKey } from "../../accounts/account-keys";
import type { Account } from "../../accounts/account-store";
import { accountSummary } from "../../accounts/account-summary";
import { flushAccountUsage, settleLease } from "../../accounts/meter-client";
import { hashApiKey, isWellFormedApiKey } from "../../accounts/api-keys";
import { dashboardPage, revokeConfirmPage, type DashboardView } from "../../pages/dashboard-page";
import { clearSessionCookies, currentAccount, handOverNewKey, takeNewKey } from "./session-cookie";
import { formFields } from "./form-body";

/**
 * The dashboard and its key forms. Without a live session every path redirects to /login. A created key travels to
 * the next page view in a one-time cookie (session-cookie.ts) and is shown there once; refusals re-render the
 * dashboard with the message (400 bad name, 404 unknown key, 409 at the key cap). A revoke takes two steps, with no
 * script: the dashboard's Revoke button GETs a confirmation page, whose button POSTs the revoke with `confirm=yes`; a
 * POST without it only shows that page.
 */
async function renderDashboard(c: Context<AppContext>, account: Account, extra: Pick<DashboardView, "newKey" | "error">, status: 200 | 400 | 404 | 409 = 200) {
  // The meter writes its counts to D1 every few seconds; asked first, the page shows usage up to this moment (this
  // isolate's lease handed back too). A failing meter is logged, and the page shows what D1 has.
  await settleLease({ env: c.env, waitUntil: (p) => c.executionCtx.waitUntil(p) }, account.id);
  await flushAccountUsage(c.env, account.id);
  const [keys, summary] = await Promise.all([listAccountKeys(c.env.DB, account.id), accountSummary(c.env.DB, account)]);
  return c.html(dashboardPage({ account, keys, summary, origin: new URL(c.req.url).origin, ...extra }), status);
}

/** No live session: to the login page, dropping a dead session cookie the browser would keep sending. */
function signedOut(c: Context<AppContext>) {
  clearSessionCookies(c);
  return c.redirect("/login", 303);
}

export const dashboardRoutes = new Hono<AppContext>()
  .get("/dashboard", async (c) => {
    const account = await currentAccount(c);
    if (!account) return signedOut(c);
    const handed = takeNewKey(c);
    let newKey: DashboardView["newKey"] = null;
    if (handed !== undefined && isWellFormedApiKey(handed)) {
      // Only a live key of this account is shown: the cookie cannot make the page display anything else.
      const name = await liveKeyName(c.env.DB, account.id, hashApiKey(handed));
      if (name !== null) newKey = { key: handed, name };
    }
    return renderDashboard(c, account, { newKey });
  })
  .post("/dashboard/keys", async (c) => {
    const account = await currentAccount(c);
    if (!account) return signedOut(c);
    const parsed = createKeyForm.safeParse(await formFields(c));
    if (!parsed.success) return renderDashboard(c, account, { error: firstMessage(parsed.error) }, 400);
    const created = await createAccountKey(c.env, account, parsed.data.name);
    if (!created.ok) return renderDashboard(c, account, { error: created.message }, 409);
    handOverNewKey(c, created.key);
    return c.redirect("/dashboard#keys", 303);
  })
  .get("/dashboard/keys/revoke", async (c) => {
    const account = await currentAccount(c);
    if (!account) return signedOut(c);
    return confirmRevoke(c, account, c.req.query("keyId"));
  })
  .post("/dashboard/keys/revoke", async (c) => {
    const account = await currentAccount(c);
    if (!account) return signedOut(c);
    const fields = await formFields(c);
    const parsed = revokeKeyForm.safeParse(fields);
    if (parsed.success && parsed.data.confirm !== "yes") return confirmRevoke(c, account, parsed.data.keyId);
    const revoked = parsed.success && (await revokeAccountKey(c.env, account.id, parsed.data.keyId));
    if (!revoked) return renderDashboard(c, account, { error: noSuchKey }, 404);
    return c.redirect("/dashboard#keys", 303);
  });

const noSuchKey = "No such live key in this account";

/** The confirmation page of a live key of the account; the dashboard with a 404 message for anything else. */
async function confirmRevoke(c: Context<AppContext>, account: Account, keyId: string | undefined) {
  const parsed = revokeKeyQuery.safeParse({ keyId });
  const key = parsed.success ? await liveAccountKey(c.env.DB, account.id, parsed.data.keyId) : null;
  if (key === null) return renderDashboard(c, account, { error: noSuchKey }, 404);
  return c.html(revokeConfirmPage(key));
}
