import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256 } from "@noble/hashes/sha256";
import { countAttempt } from "../../src/accounts/auth-throttle";
import { sha256Hex } from "../../src/accounts/secret-tokens";
import { sessionAccountId } from "../../src/accounts/sessions";
import worker from "../../src/index";
import { limits } from "../../src/limits";
import { base } from "../helpers/http";
import { cookiesOf, getPage, postForm, rawKv, rawRows, signUp } from "../helpers/account-web";

const { loginFreeAttemptsPerEmail, loginAttemptsPerAddress, loginDelayMaxMs } = limits.accountWeb;
const password = "correct horse battery";

describe("passwords", () => {
  it("PBKDF2-SHA256 at 100,000 iterations derives under workerd (production's cap; the local runtime enforces none, so limits.ts pins it)", async () => {
    const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
    const params = { name: "PBKDF2", hash: "SHA-256", salt: new Uint8Array(16), iterations: limits.accountWeb.pbkdf2Iterations };
    expect(limits.accountWeb.pbkdf2Iterations).toBe(100_000);
    expect((await crypto.subtle.deriveBits(params, material, 256)).byteLength).toBe(32);
  });
});

describe("login", () => {
  it("the right password signs in (303 to the dashboard, a fresh session); D1 holds neither the password nor the token", async () => {
    // Given an account
    await signUp("lin@example.com", password, { ip: "198.51.100.30" });
    // When it logs in
    const res = await postForm("/login", { email: "LIN@example.com ", password }, { ip: "198.51.100.30" });
    // Then
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    const cookie = cookiesOf(res);
    const token = cookie.split("; ").find((c) => c.startsWith("__Host-tmd_session="))!.replace("__Host-tmd_session=", "");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await getPage("/dashboard", { cookie })).status).toBe(200);
    // And the raw tables hold only hashes: the token's SHA-256 is the session's key, the password is nowhere
    const sessions = await rawRows("sessions");
    const accounts = await rawRows("accounts");
    const all = sessions + accounts + (await rawRows("auth_attempts")) + (await rawKv());
    expect(all).not.toContain(token);
    expect(all).not.toContain(password);
    expect(sessions).toContain([...sha256(new TextEncoder().encode(token))].map((b) => b.toString(16).padStart(2, "0")).join(""));
  });

  it("an unknown email and a wrong password get the same answer (401, the same page but for the email typed)", async () => {
    await signUp("known@example.com", password, { ip: "198.51.100.31" });
    const wrong = await postForm("/login", { email: "known@example.com", password: "not the password" }, { ip: "198.51.100.31" });
    const unknown = await postForm("/login", { email: "nobody@example.com", password: "not the password" }, { ip: "198.51.100.31" });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const [a, b] = [await wrong.text(), await unknown.text()];
    expect(a).toContain("Wrong email or password");
    expect(a.replace("known@example.com", "EMAIL")).toBe(b.replace("nobody@example.com", "EMAIL"));
    expect(wrong.headers.getSetCookie()).toEqual([]);
    expect(unknown.headers.getSetCookie()).toEqual([]);
  });

  it.each([
    ["a malformed email", { email: "nope", password }, "That is not an email address"],
    ["an empty password", { email: "x@example.com", password: "" }, "Enter your password"],
    ["no fields at all", {}, "Enter your email address"],
  ])("%s → 400 with the form's message", async (_, fields, message) => {
    const res = await postForm("/login", fields as Record<string, string>, { ip: "198.51.100.32" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
  });

  it(`per email: past ${loginFreeAttemptsPerEmail} attempts a browser that never logged in waits (429, Retry-After ≤ ${loginDelayMaxMs / 1000} s), from any address; one that did is not slowed`, async () => {
    const signedUp = await postForm("/signup", { email: "target@example.com", password }, { ip: "198.51.100.33" });
    const device = cookiesOf(signedUp).split("; ").find((c) => c.startsWith("__Host-tmd_device="))!;
    for (let i = 0; i < loginFreeAttemptsPerEmail; i++) {
      const res = await postForm("/login", { email: "target@example.com", password: `guess ${i}!!` }, { ip: `10.1.0.${i}` });
      expect([res.status, await res.text()][0]).toBe(401);
    }
    const blocked = await postForm("/login", { email: "target@example.com", password }, { ip: "10.1.1.1" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(loginDelayMaxMs / 1000);
    expect(await blocked.text()).toContain("Too many attempts");
    expect(blocked.headers.getSetCookie()).toEqual([]);
    // The browser that signed up is not slowed by the strangers' guesses
    expect((await postForm("/login", { email: "target@example.com", password }, { ip: "10.1.1.1", cookie: device })).status).toBe(303);
    // Another email is not affected
    await signUp("bystander@example.com", password, { ip: "198.51.100.33" });
    expect((await postForm("/login", { email: "bystander@example.com", password }, { ip: "10.1.1.1" })).status).toBe(303);
  });

  it(`per address: ${loginAttemptsPerAddress} attempts in the window over any emails, the next is 429`, async () => {
    const ip = "203.0.113.50";
    await signUp("spray@example.com", password, { ip: "198.51.100.34" });
    for (let i = 0; i < loginAttemptsPerAddress; i++) {
      const res = await postForm("/login", { email: `spray-${i}@example.com`, password }, { ip });
      expect([res.status, await res.text()][0]).toBe(401);
    }
    expect((await postForm("/login", { email: "spray@example.com", password }, { ip })).status).toBe(429);
    expect((await postForm("/login", { email: "spray@example.com", password }, { ip: "203.0.113.51" })).status).toBe(303);
  }, 60_000);
});

describe("sessions", () => {
  it("logout ends the session: the replayed cookie opens nothing, and its POSTs create nothing", async () => {
    const { cookie, accountId } = await signUp("leaver@example.com", password, { ip: "198.51.100.40" });
    expect((await getPage("/dashboard", { cookie })).status).toBe(200);
    // When the user logs out
    const out = await postForm("/logout", {}, { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login?signed-out=1");
    expect(out.headers.getSetCookie().some((c) => c.startsWith("__Host-tmd_session=;") && /max-age=0/i.test(c))).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE account_id = ?1").bind(accountId).first<number>("n")).toBe(0);
    // Then the old cookie, replayed, is sent to the login page and cannot create a key
    const replay = await getPage("/dashboard", { cookie });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/login");
    const create = await postForm("/dashboard/keys", { name: "after logout" }, { cookie });
    expect(create.status).toBe(303);
    expect(create.headers.get("location")).toBe("/login");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE account_id = ?1").bind(accountId).first<number>("n")).toBe(0);
  });

  it("an expired session is refused (303 to /login) and a new login drops the account's expired rows", async () => {
    const { cookie, accountId } = await signUp("expired@example.com", password, { ip: "198.51.100.41" });
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE account_id = ?1").bind(accountId, Date.now() - 1).run();
    const res = await getPage("/dashboard", { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login");
    await postForm("/login", { email: "expired@example.com", password }, { ip: "198.51.100.41" });
    const rows = await env.DB.prepare("SELECT expires_at FROM sessions WHERE account_id = ?1").bind(accountId).all<{ expires_at: number }>();
    expect(rows.results.length).toBe(1);
    expect(rows.results[0]!.expires_at).toBeGreaterThan(Date.now());
  });

  it("the login page sends a signed-in browser to its dashboard", async () => {
    const { cookie } = await signUp("already@example.com", password, { ip: "198.51.100.42" });
    const res = await getPage("/login", { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect((await getPage("/login")).status).toBe(200);
  });

  it("a dead session cookie is cleared on the way to /login", async () => {
    const res = await getPage("/dashboard", { cookie: `__Host-tmd_session=${"B".repeat(43)}` });
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-tmd_session=;") && /max-age=0/i.test(c))).toBe(true);
  });

  it.each([
    ["no cookie", ""],
    ["a malformed token", "__Host-tmd_session=<script>"],
    ["a well-formed token never issued", `__Host-tmd_session=${"A".repeat(43)}`],
  ])("%s → /dashboard redirects to /login", async (_, cookie) => {
    const res = await getPage("/dashboard", { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login");
  });
});

describe("same-origin checks on every state-changing request", () => {
  const posts: [string, Record<string, string>][] = [
    ["/signup", { email: "csrf@example.com", password }],
    ["/login", { email: "csrf@example.com", password }],
    ["/logout", {}],
    ["/dashboard/keys", { name: "csrf" }],
    ["/dashboard/keys/revoke", { keyId: "key_0123456789abcdef" }],
  ];
  const refused: [string, { origin: string | null; headers?: Record<string, string> }][] = [
    ["Origin of another site", { origin: "https://evil.example" }],
    ["Origin null (a sandboxed frame, a data: page)", { origin: "null" }],
    ["Origin of our host on another scheme", { origin: base.replace("https:", "http:") }],
    ["no Origin, Sec-Fetch-Site cross-site", { origin: null, headers: { "sec-fetch-site": "cross-site" } }],
    ["no Origin, Sec-Fetch-Site same-site (a sibling subdomain)", { origin: null, headers: { "sec-fetch-site": "same-site" } }],
    ["no Origin nor Sec-Fetch-Site, Referer of another site", { origin: null, headers: { referer: "https://evil.example/page" } }],
    ["no evidence at all", { origin: null }],
  ];

  it.each(refused)("%s → 403 envelope on every POST, nothing stored", async (_, call) => {
    const { cookie, accountId } = await signUp(`victim-${crypto.randomUUID()}@example.com`, password, { ip: "198.51.100.50" });
    const before = (await rawRows("accounts")) + (await rawRows("api_keys")) + (await rawRows("sessions"));
    for (const [path, fields] of posts) {
      const res = await postForm(path, fields, { ...call, cookie });
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toEqual({ status: "error", error: { code: 403, message: "Cross-origin form submission refused" } });
    }
    expect((await rawRows("accounts")) + (await rawRows("api_keys")) + (await rawRows("sessions"))).toBe(before);
    expect((await getPage("/dashboard", { cookie })).status).toBe(200); // the refused logout ended nothing
    expect(accountId).toBeTruthy();
  });

  it("Sec-Fetch-Site: same-origin, or a same-origin Referer, is accepted when a browser sends no Origin", async () => {
    const { cookie } = await signUp("fallbacks@example.com", password, { ip: "198.51.100.51" });
    expect((await postForm("/dashboard/keys", { name: "by fetch metadata" }, { origin: null, cookie, headers: { "sec-fetch-site": "same-origin" } })).status).toBe(303);
    expect((await postForm("/dashboard/keys", { name: "by referer" }, { origin: null, cookie, headers: { referer: `${base}/dashboard` } })).status).toBe(303);
  });
});

describe("security headers", () => {
  it("pages: a CSP with no script and only the page's own stylesheet (by hash), no framing, no-store", async () => {
    const { cookie } = await signUp("headers@example.com", password, { ip: "198.51.100.60" });
    for (const res of [await getPage("/login"), await getPage("/signup"), await getPage("/dashboard", { cookie })]) {
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      // the one inline stylesheet is the one the CSP names
      const page = await res.text();
      const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
      const digest = btoa(String.fromCharCode(...sha256(new TextEncoder().encode(style))));
      expect(csp).toContain(`style-src 'sha256-${digest}'`);
      expect(page).not.toMatch(/<script|\son[a-z]+=/i);
    }
  });

  it("the API keeps its own headers: /health and /api/* get no page CSP", async () => {
    const res = await getPage("/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});

describe("the cron's sweep of sign-in rows", () => {
  it("drops expired sessions and throttle attempts older than the longest window, keeps live ones", async () => {
    // Given one live and one expired session, one live and one long-past throttle attempt
    const now = Date.now();
    const { accountId } = await signUp("sweep@example.com", password, { ip: "198.51.100.80" });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES ('expired-hash', ?1, ?2, ?3)").bind(accountId, now - 10, now - 1),
      env.DB.prepare("INSERT INTO auth_attempts (bucket, at) VALUES ('login:ip:ended', ?1)").bind(now - 3_600_000 - 1),
    ]);
    // When the scheduled handler runs (the trade index beside it finds nothing new to read)
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // Then only the dead rows are gone
    const sessions = (await env.DB.prepare("SELECT token_hash FROM sessions WHERE account_id = ?1").bind(accountId).all<{ token_hash: string }>()).results;
    expect(sessions.map((s) => s.token_hash)).not.toContain("expired-hash");
    expect(sessions.length).toBe(1);
    const buckets = (await env.DB.prepare("SELECT bucket FROM auth_attempts").all<{ bucket: string }>()).results.map((r) => r.bucket);
    expect(buckets).not.toContain("login:ip:ended");
    expect(buckets).toContain("signup:ip:198.51.100.80");
  });
});

describe("the limits at their edges", () => {
  it(`a session lives ${limits.accountWeb.sessionTtlMs / 86_400_000} days: live 1 ms before its expiry, dead at it; the cookie's Max-Age says the same`, async () => {
    const res = await postForm("/signup", { email: "ttl@example.com", password }, { ip: "198.51.100.81" });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-tmd_session="))!;
    expect(setCookie).toMatch(new RegExp(`Max-Age=${limits.accountWeb.sessionTtlMs / 1000}\\b`));
    const token = setCookie.split(";")[0]!.split("=")[1]!;
    const row = (await env.DB.prepare("SELECT account_id, created_at, expires_at FROM sessions WHERE token_hash = ?1").bind(sha256Hex(token)).first<{ account_id: string; created_at: number; expires_at: number }>())!;
    expect(row.expires_at - row.created_at).toBe(limits.accountWeb.sessionTtlMs);
    expect(await sessionAccountId(env.DB, token, row.expires_at - 1)).toBe(row.account_id);
    expect(await sessionAccountId(env.DB, token, row.expires_at)).toBeNull();
  });

  it("a throttle window admits its max in any span of its length, refuses the next, and admits one more as the oldest leaves it", async () => {
    const rule = { bucket: "test:edges", windowMs: 60_000, max: 3 };
    const start = 1_700_000_040_000;
    for (let i = 0; i < rule.max; i++) expect(await countAttempt(env.DB, [rule], start + i)).toEqual({ allowed: true });
    expect(await countAttempt(env.DB, [rule], start + 59_000)).toEqual({ allowed: false, retryAfterSeconds: 1, bucket: "test:edges" });
    expect(await countAttempt(env.DB, [rule], start + 59_999)).toMatchObject({ allowed: false });
    expect(await countAttempt(env.DB, [rule], start + 60_000)).toEqual({ allowed: true });
    expect(await countAttempt(env.DB, [rule], start + 60_000)).toMatchObject({ allowed: false });
  });

  it(`a form body of exactly ${limits.accountWeb.maxFormBodyBytes} bytes is read; one byte more is the 413 envelope`, async () => {
    const fieldsOf = (bytes: number) => {
      const base = new URLSearchParams({ email: "edge@example.com", password: "wrong password", filler: "" }).toString();
      return { email: "edge@example.com", password: "wrong password", filler: "x".repeat(bytes - base.length) };
    };
    expect(new URLSearchParams(fieldsOf(limits.accountWeb.maxFormBodyBytes)).toString().length).toBe(limits.accountWeb.maxFormBodyBytes);
    expect((await postForm("/login", fieldsOf(limits.accountWeb.maxFormBodyBytes), { ip: "198.51.100.82" })).status).toBe(401);
    expect((await postForm("/login", fieldsOf(limits.accountWeb.maxFormBodyBytes + 1), { ip: "198.51.100.82" })).status).toBe(413);
  });
});
