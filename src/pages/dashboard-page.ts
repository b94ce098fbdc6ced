import type { AccountKey } from "../accounts/account-keys";
import type { Account } from "../accounts/account-store";
import type { AccountSummary } from "../accounts/account-summary";
import { referralBonusCredits } from "../accounts/plans";
import { limits } from "../limits";
import { html } from "./html";
import { pageDocument } from "./page-layout";
import { usageChart } from "./usage-chart";

/**
 * The dashboard: API keys (live and revoked, with when), plan and usage, referrals, docs. Every value that came from a
 * user goes through `html`. Revoking goes through a confirmation page first (a GET form: no script needed).
 */
export interface DashboardView {
  account: Account;
  keys: AccountKey[];
  summary: AccountSummary;
  /** The site's origin, for the referral link. */
  origin: string;
  /** A key just created: shown this once. */
  newKey?: { key: string; name: string } | null;
  error?: string;
}

/** A mint every deployment prices (wrapped SOL), for the example call shown with a new key. */
const wsolMint = "So11111111111111111111111111111111111111112";
const number = (n: number) => n.toLocaleString("en-US");
const when = (ms: number | null) => (ms === null ? "never" : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`);

export function dashboardPage(view: DashboardView): string {
  const { account, keys, summary } = view;
  const live = keys.filter((k) => k.revokedAt === null).length;
  const [year, month] = summary.month.split("-").map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const remaining = Math.max(0, summary.plan.monthlyCredits + summary.bonusCredits - summary.creditsUsedThisMonth);
  const referralLink = `${view.origin}/signup?ref=${account.referralCode}`;
  return pageDocument(
    "Dashboard",
    html`<h1>Dashboard <span class="muted">· ${account.email}</span></h1>
${view.error && html`<p class="error" role="alert">${view.error}</p>`}
<section id="keys">
<h2>API Keys</h2>
${view.newKey &&
  html`<div class="secret" id="new-key"><p>Your new key <b>${view.newKey.name}</b>. Copy it now: it is shown this once and cannot be shown again.</p><p><code id="new-key-value">${view.newKey.key}</code></p><p class="muted">Send it in the <code>x-api-key</code> header, for example:</p><p><code>curl -s -H 'x-api-key: ${view.newKey.key}' '${view.origin}/api/v1/price?ca=${wsolMint}'</code></p></div>`}
<form method="post" action="/dashboard/keys" class="inline">
<label for="key-name" class="muted">New key name</label>
<input id="key-name" name="name" type="text" required maxlength="${limits.accountWeb.maxKeyNameChars}" placeholder="e.g. trading bot">
<button type="submit">Create key</button>
</form>
<p class="muted">${live} of ${limits.accountWeb.maxActiveKeysPerAccount} live keys.</p>
${
  keys.length === 0
    ? html`<p>No keys yet.</p>`
    : html`<table class="cards">
<thead><tr><th>Name</th><th>Key</th><th>Status</th><th>Created</th><th>Last used</th><th class="num">Requests</th><th></th></tr></thead>
<tbody>
${keys.map(
  (k) => html`<tr data-key-id="${k.keyId}"${k.revokedAt === null ? "" : html` class="revoked"`}>
<td data-label="Name">${k.name}</td><td data-label="Key"><code>${k.prefix}…</code></td>
<td data-label="Status" class="status">${k.revokedAt === null ? "live" : html`revoked ${when(k.revokedAt)}`}</td>
<td data-label="Created">${when(k.createdAt)}</td><td data-label="Last used">${when(k.lastUsedAt)}</td><td data-label="Requests" class="num">${number(k.requests)}</td>
<td class="action">${
    k.revokedAt === null
      ? html`<form method="get" action="/dashboard/keys/revoke"><input type="hidden" name="keyId" value="${k.keyId}"><button class="danger" type="submit">Revoke…</button></form>`
      : ""
  }</td>
</tr>`,
)}
</tbody>
</table>`
}
</section>
<section id="usage">
<h2>Plan &amp; usage</h2>
<div class="stats">
<div><span class="muted">Plan</span><b id="plan">${summary.plan.label}</b></div>
<div><span class="muted">Credits used in ${summary.month}</span><b id="credits-used">${number(summary.creditsUsedThisMonth)}</b></div>
<div><span class="muted">Monthly credits</span><b id="monthly-credits">${number(summary.plan.monthlyCredits)}</b></div>
<div><span class="muted">Bonus credits</span><b id="bonus-credits">${number(summary.bonusCredits)}</b></div>
<div><span class="muted">Credits left</span><b id="credits-left">${number(remaining)}</b></div>
</div>
<p class="muted">${number(summary.plan.requestsPerSecond)} requests/s, ${number(summary.plan.requestsPerMinute)} requests/min, ${number(summary.plan.mintsPerRequest)} mint${summary.plan.mintsPerRequest === 1 ? "" : "s"} per price request. Requests this month: <b id="requests-month">${number(summary.requestsThisMonth)}</b>. Usage is recorded in batches, so the last few seconds may not show yet.</p>
${usageChart(summary.dailyRequests, daysInMonth)}
</section>
<section id="referrals">
<h2>Referrals</h2>
<p>Share your link: <code id="referral-link">${referralLink}</code> (code <code>${account.referralCode}</code>).</p>
<p class="muted">When an account signed up through it has used the API for real — ${number(limits.accountWeb.referralMinCredits)} credits spent over at least ${limits.accountWeb.referralMinDays} different days (UTC), or a paid plan — it gets ${number(referralBonusCredits.referred)} bonus credits and you get ${number(referralBonusCredits.referrer)}, for up to ${limits.accountWeb.referralRewardsPerMonth} accounts a month.</p>
<div class="stats">
<div><span class="muted">Accounts referred</span><b id="referred-count">${number(summary.referredAccounts)}</b></div>
<div><span class="muted">Waiting for real use</span><b id="referred-waiting">${number(summary.referralsWaiting)}</b></div>
<div><span class="muted">Rewards earned</span><b id="referral-credits">${number(summary.referralRewards.reduce((s, r) => s + r.credits, 0))}</b></div>
</div>
${
  summary.referralRewards.length > 0 &&
  html`<table class="cards"><thead><tr><th>When</th><th>Why</th><th class="num">Credits</th></tr></thead><tbody>
${summary.referralRewards.map((r) => html`<tr><td data-label="When">${when(r.createdAt)}</td><td data-label="Why">${r.reason === "referral:referred" ? "you used the API after signing up through a referral" : "an account you referred used the API"}</td><td data-label="Credits" class="num">${number(r.credits)}</td></tr>`)}
</tbody></table>`
}
</section>
<section id="docs">
<h2>Docs</h2>
<p><a href="/docs">API reference</a> (interactive, every route) · <a href="/openapi.json">OpenAPI document</a></p>
</section>`,
    { signedIn: true },
  );
}

/** The confirmation step before a revoke: what the key is, what revoking does, a button that does it and a way back. */
export function revokeConfirmPage(key: AccountKey): string {
  return pageDocument(
    "Revoke key",
    html`<section id="revoke" class="narrow-section">
<h1>Revoke the key <b>${key.name}</b>?</h1>
<p><code>${key.prefix}…</code> · created ${when(key.createdAt)} · last used ${when(key.lastUsedAt)} · ${number(key.requests)} requests</p>
<p>Every request with this key is refused (401) at once, and its open streams close within seconds. This cannot be undone: the key stays listed as revoked, and a new key must be created to replace it.</p>
<form method="post" action="/dashboard/keys/revoke" class="inline">
<input type="hidden" name="keyId" value="${key.keyId}">
<input type="hidden" name="confirm" value="yes">
<button class="danger" type="submit">Revoke key</button>
<a href="/dashboard#keys">Cancel</a>
</form>
</section>`,
    { signedIn: true },
  );
}
