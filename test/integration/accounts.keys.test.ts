import { runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiKeyKvPrefix } from "../../src/accounts/api-key-record";
import { hashApiKey } from "../../src/accounts/api-keys";
import { limits } from "../../src/limits";
import { cookiesOf, getPage, postForm, rawKv, rawRows, signUp } from "../helpers/account-web";
import { until } from "../helpers/wait";
import { callWorker } from "../helpers/worker";

const { maxKeyNameChars, maxActiveKeysPerAccount, maxKeysPerAccount } = limits.accountWeb;
const password = "correct horse battery";
const unauthorized = { status: "error", error: { code: 401, message: "Missing or invalid API key" } };

/** Creates a key from the dashboard form and returns the plaintext as the next page view shows it. */
async function createKey(cookie: string, name: string): Promise<{ key: string; page: string }> {
  const res = await postForm("/dashboard/keys", { name }, { cookie });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/dashboard#keys");
  const handover = cookiesOf(res);
  expect(res.headers.getSetCookie().find((c) => c.startsWith("tmd_new_key="))).toMatch(new RegExp(`Max-Age=${limits.accountWeb.newKeyCookieSeconds}; Path=/dashboard; HttpOnly; Secure; SameSite=Strict`, "i"));
  const view = await getPage("/dashboard", { cookie: `${cookie}; ${handover}` });
  const page = await view.text();
  const key = /<code id="new-key-value">(tmd_[A-Za-z0-9_-]{32})<\/code>/.exec(page)?.[1];
  if (!key) throw new Error("the page after creating a key does not show it");
  // the view clears the one-time cookie
  expect(view.headers.getSetCookie().some((c) => c.startsWith("tmd_new_key=;") && /max-age=0/i.test(c))).toBe(true);
  return { key, page };
}

/** An authenticated call that needs no chain: /api/v1/overview without `ca` is a 400 once the key passes. */
async function callWithKey(key: string): Promise<Response> {
  return callWorker({ path: "/api/v1/overview" }, { key });
}

describe("API keys from the dashboard", () => {
  it("create → shown once (a reload does not show it) → it authenticates; D1 and KV hold its hash, prefix and the account's plan", async () => {
    // Given a signed-in account
    const { cookie, accountId } = await signUp("keys@example.com", password, { ip: "198.51.100.70" });
    // When it creates a key
    const { key, page } = await createKey(cookie, "trading bot");
    // Then the page shows it once, named
    expect(page).toContain("Your new key <b>trading bot</b>");
    expect(page).toContain(`curl -s -H 'x-api-key: ${key}' 'https://api.test/api/v1/price?ca=So11111111111111111111111111111111111111112'`);
    const reload = await (await getPage("/dashboard", { cookie })).text();
    expect(reload).not.toContain(key);
    expect(reload).not.toContain('id="new-key"');
    // (the view that showed it cleared the one-time cookie; the list shows the key by its prefix only)
    expect(reload).toContain(`<code>${key.slice(0, 8)}…</code>`);
    // And it authenticates
    const ok = await callWithKey(key);
    expect(ok.status).toBe(400);
    expect(await ok.json()).toMatchObject({ error: { message: "Missing required query parameter: ca" } });
    // And D1 has the row, KV the record the request path reads
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE account_id = ?1").bind(accountId).first<Record<string, unknown>>();
    expect(row).toMatchObject({ name: "trading bot", prefix: key.slice(0, 8), key_hash: hashApiKey(key), revoked_at: null });
    const record = await env.API_KEYS.get(`${apiKeyKvPrefix}${hashApiKey(key)}`, "json");
    expect(record).toEqual({ keyId: row!.key_id, hash: hashApiKey(key), name: "trading bot", account: accountId, plan: "free", createdAt: row!.created_at, revoked: false });
    // And the plaintext (its random part) is nowhere in D1 or KV
    const secret = key.slice(8);
    for (const table of ["accounts", "sessions", "api_keys", "usage_daily", "credit_grants", "auth_attempts"]) expect(await rawRows(table), table).not.toContain(secret);
    expect(await rawKv()).not.toContain(secret);
  });

  it("revoke → the key gets 401 at once in this isolate (its cached validation is dropped); D1 revoked_at, KV revoked: true", async () => {
    const { cookie, accountId } = await signUp("revoker@example.com", password, { ip: "198.51.100.71" });
    const { key } = await createKey(cookie, "to revoke");
    // Given the key validated (and so cached by this isolate for limits.authCacheMs)
    expect((await callWithKey(key)).status).toBe(400);
    const keyId = (await env.DB.prepare("SELECT key_id FROM api_keys WHERE account_id = ?1").bind(accountId).first<string>("key_id"))!;
    // When it is revoked from the dashboard
    const res = await postForm("/dashboard/keys/revoke", { keyId, confirm: "yes" }, { cookie });
    expect(res.status).toBe(303);
    // Then the very next call is refused, well within the auth cache's lifetime
    const refused = await callWithKey(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(unauthorized);
    expect(await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE key_id = ?1").bind(keyId).first<number>("revoked_at")).toBeGreaterThan(0);
    expect(await env.API_KEYS.get(`${apiKeyKvPrefix}${hashApiKey(key)}`, "json")).toMatchObject({ revoked: true });
    const page = await (await getPage("/dashboard", { cookie })).text();
    expect(page).toMatch(/revoked \d{4}-\d\d-\d\d/);
    // And revoking it again is a 404 (no such live key)
    expect((await postForm("/dashboard/keys/revoke", { keyId, confirm: "yes" }, { cookie })).status).toBe(404);
  });

  it("revoke asks first: the dashboard's button GETs a confirmation page; a POST without confirm=yes shows it and revokes nothing", async () => {
    const { cookie, accountId } = await signUp("careful@example.com", password, { ip: "198.51.100.73" });
    const { key } = await createKey(cookie, "keep me");
    const keyId = (await env.DB.prepare("SELECT key_id FROM api_keys WHERE account_id = ?1").bind(accountId).first<string>("key_id"))!;
    // The dashboard's Revoke is a GET form to the confirmation page (no script involved)
    const dashboard = await (await getPage("/dashboard", { cookie })).text();
    expect(dashboard).toContain(`<form method="get" action="/dashboard/keys/revoke"><input type="hidden" name="keyId" value="${keyId}">`);
    const confirm = await getPage(`/dashboard/keys/revoke?keyId=${keyId}`, { cookie });
    expect(confirm.status).toBe(200);
    const page = await confirm.text();
    expect(page).toContain("Revoke the key <b>keep me</b>?");
    expect(page).toContain('<input type="hidden" name="confirm" value="yes">');
    expect(page).toContain('<a href="/dashboard#keys">Cancel</a>');
    // A POST without the confirmation shows the same page; the key still works
    const unconfirmed = await postForm("/dashboard/keys/revoke", { keyId }, { cookie });
    expect(unconfirmed.status).toBe(200);
    expect(await unconfirmed.text()).toContain("Revoke the key <b>keep me</b>?");
    expect(await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE key_id = ?1").bind(keyId).first<number | null>("revoked_at")).toBeNull();
    expect((await callWithKey(key)).status).toBe(400);
    // Another account, an unknown id, a malformed one, or no session: no confirmation page
    const other = await signUp("nosy@example.com", password, { ip: "198.51.100.73" });
    for (const query of [`keyId=${keyId}`, "keyId=key_0123456789abcdef", "keyId=%3Cscript%3E", ""]) expect((await getPage(`/dashboard/keys/revoke?${query}`, { cookie: other.cookie })).status, query).toBe(404);
    expect((await getPage(`/dashboard/keys/revoke?keyId=${keyId}`)).status).toBe(303);
    // Confirmed: revoked, and listed as revoked with when
    expect((await postForm("/dashboard/keys/revoke", { keyId, confirm: "yes" }, { cookie })).status).toBe(303);
    expect(await (await getPage("/dashboard", { cookie })).text()).toMatch(new RegExp(`<tr data-key-id="${keyId}" class="revoked">[\\s\\S]*?<td data-label="Status" class="status">revoked \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC</td>`));
    expect((await getPage(`/dashboard/keys/revoke?keyId=${keyId}`, { cookie })).status).toBe(404);
  });

  it("another account's key cannot be revoked (404), nor shown through a forged one-time cookie", async () => {
    const owner = await signUp("owner@example.com", password, { ip: "198.51.100.72" });
    const { key } = await createKey(owner.cookie, "owner's");
    const keyId = (await env.DB.prepare("SELECT key_id FROM api_keys WHERE account_id = ?1").bind(owner.accountId).first<string>("key_id"))!;
    const intruder = await signUp("intruder@example.com", password, { ip: "198.51.100.72" });
    const res = await postForm("/dashboard/keys/revoke", { keyId, confirm: "yes" }, { cookie: intruder.cookie });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("No such live key in this account");
    expect((await callWithKey(key)).status).toBe(400);
    for (const bad of ["key_nothex", "", "<script>"]) expect((await postForm("/dashboard/keys/revoke", { keyId: bad, confirm: "yes" }, { cookie: intruder.cookie })).status).toBe(404);
    const forged = await (await getPage("/dashboard", { cookie: `${intruder.cookie}; tmd_new_key=${key}` })).text();
    expect(forged).not.toContain(key);
  });

  it("a key name with markup is escaped everywhere it is shown", async () => {
    const { cookie } = await signUp("markup@example.com", password, { ip: "198.51.100.73" });
    const name = `<img src=x onerror="alert(1)">&'bot'`;
    const { page } = await createKey(cookie, name);
    const escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;bot&#39;";
    expect(page).toContain(`Your new key <b>${escaped}</b>`);
    expect(page).toContain(`<td data-label="Name">${escaped}</td>`);
    expect(page).not.toContain("<img");
  });

  it(`key names: ${maxKeyNameChars} characters accepted, ${maxKeyNameChars + 1} or blank → 400 with the message, nothing stored`, async () => {
    const { cookie, accountId } = await signUp("names@example.com", password, { ip: "198.51.100.74" });
    await createKey(cookie, "n".repeat(maxKeyNameChars));
    for (const [name, message] of [["n".repeat(maxKeyNameChars + 1), `Key names are at most ${maxKeyNameChars} characters`], ["   ", "Give the key a name"], ["", "Give the key a name"]] as const) {
      const res = await postForm("/dashboard/keys", { name }, { cookie });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
      expect(res.headers.getSetCookie().filter((c) => c.startsWith("tmd_new_key="))).toEqual([]);
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE account_id = ?1").bind(accountId).first<number>("n")).toBe(1);
    expect((await env.API_KEYS.list()).keys.length).toBeGreaterThan(0);
  });

  it(`${maxActiveKeysPerAccount} live keys per account: the next is a 409 until one is revoked; ${maxKeysPerAccount} created in all, then 409`, async () => {
    const { cookie, accountId } = await signUp("many@example.com", password, { ip: "198.51.100.75" });
    const create = (name: string) => postForm("/dashboard/keys", { name }, { cookie });
    const liveIds = async () => (await env.DB.prepare("SELECT key_id FROM api_keys WHERE account_id = ?1 AND revoked_at IS NULL").bind(accountId).all<{ key_id: string }>()).results.map((r) => r.key_id);
    for (let i = 0; i < maxActiveKeysPerAccount; i++) expect((await create(`k${i}`)).status).toBe(303);
    const over = await create("one too many");
    expect(over.status).toBe(409);
    expect(await over.text()).toContain(`at most ${maxActiveKeysPerAccount} live keys`);
    // revoking one frees a place
    expect((await postForm("/dashboard/keys/revoke", { keyId: (await liveIds())[0]!, confirm: "yes" }, { cookie })).status).toBe(303);
    expect((await create("replacement")).status).toBe(303);
    // churn up to the lifetime cap: revoke everything live, create again, until maxKeysPerAccount rows exist
    let total = maxActiveKeysPerAccount + 1;
    while (total < maxKeysPerAccount) {
      for (const keyId of await liveIds()) await postForm("/dashboard/keys/revoke", { keyId, confirm: "yes" }, { cookie });
      const batch = Math.min(maxActiveKeysPerAccount, maxKeysPerAccount - total);
      for (let i = 0; i < batch; i++) expect((await create(`churn${total + i}`)).status).toBe(303);
      total += batch;
    }
    for (const keyId of await liveIds()) await postForm("/dashboard/keys/revoke", { keyId, confirm: "yes" }, { cookie });
    const capped = await create("past the lifetime cap");
    expect(capped.status).toBe(409);
    expect(await capped.text()).toContain(`created ${maxKeysPerAccount} keys`);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE account_id = ?1").bind(accountId).first<number>("n")).toBe(maxKeysPerAccount);
  }, 60_000);
});

describe("the dashboard's figures", () => {
  it("requests per key, this UTC month's credits and daily chart from usage_daily; bonus credits and referral rewards from credit_grants; referred accounts", async () => {
    // Given an account with a key, usage rows as the meter writes them (this month, and last month's that must not count)
    const { cookie, accountId } = await signUp("figures@example.com", password, { ip: "198.51.100.76" });
    await createKey(cookie, "metered");
    const keyId = (await env.DB.prepare("SELECT key_id FROM api_keys WHERE account_id = ?1").bind(accountId).first<string>("key_id"))!;
    const today = new Date().toISOString().slice(0, 10);
    const firstOfMonth = `${today.slice(0, 7)}-01`;
    const lastMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 15)).toISOString().slice(0, 10);
    const usage = env.DB.prepare("INSERT INTO usage_daily (key_id, account_id, day, requests, credits) VALUES (?1, ?2, ?3, ?4, ?5)");
    await env.DB.batch([
      usage.bind(keyId, accountId, today, 7, 12),
      ...(firstOfMonth === today ? [] : [usage.bind(keyId, accountId, firstOfMonth, 3, 3)]),
      usage.bind(keyId, accountId, lastMonth, 1000, 1000),
    ]);
    // And a referral: an account signed up through its link, and the grants the reward code writes
    const code = (await env.DB.prepare("SELECT referral_code FROM accounts WHERE id = ?1").bind(accountId).first<string>("referral_code"))!;
    const referred = await signUp("figures-friend@example.com", password, { ip: "198.51.100.76", ref: code });
    await env.DB.prepare("INSERT INTO credit_grants (account_id, credits, reason, related_account, created_at) VALUES (?1, 5000, 'referral:referrer', ?2, ?3)").bind(accountId, referred.accountId, Date.now()).run();
    // When the dashboard is shown
    const page = await (await getPage("/dashboard", { cookie })).text();
    // Then
    const sameDay = firstOfMonth === today;
    const figure = (id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(page)?.[1];
    expect(figure("plan")).toBe("FREE");
    expect(figure("credits-used")).toBe(sameDay ? "12" : "15");
    expect(figure("requests-month")).toBe(sameDay ? "7" : "10");
    expect(figure("monthly-credits")).toBe("10,000");
    expect(figure("bonus-credits")).toBe("5,000");
    expect(figure("credits-left")).toBe(sameDay ? "14,988" : "14,985");
    expect(figure("referred-count")).toBe("1");
    expect(figure("referred-waiting")).toBe("1"); // its reward not decided (the grant above was written by hand)
    expect(figure("referral-credits")).toBe("5,000");
    expect(figure("referral-link")).toBe(`https://api.test/signup?ref=${code}`);
    expect(page).toContain(`<td data-label="Requests" class="num">${(1000 + (sameDay ? 7 : 10)).toLocaleString("en-US")}</td>`); // the key's all-time requests
    expect(page).toContain(`<title>${today}: 7 requests</title>`);
    expect(page).toContain('<a href="/docs">');
  });
});

describe("a key revoked from the dashboard loses its open sockets at once", () => {
  /** A socket upgraded through the worker, recording whether it was closed and with what reason. */
  async function openSocket(path: string): Promise<{ ws: WebSocket; closed: () => { code: number; reason: string } | undefined; messages: string[] }> {
    const res = await SELF.fetch(`https://api.test${path}`, { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    let closed: { code: number; reason: string } | undefined;
    const messages: string[] = [];
    ws.addEventListener("message", (m) => messages.push(String(m.data)));
    ws.addEventListener("close", (e) => (closed = { code: e.code, reason: e.reason }));
    return { ws, closed: () => closed, messages };
  }

  it("the revoke closes the key's /ws and /rpc sockets before it answers (no wait for the meter's periodic key check)", async () => {
    // Given a key with an open /ws socket and an open /rpc PubSub socket, both counted by the account's meter
    const { cookie, accountId } = await signUp("socket-revoker@example.com", password, { ip: "198.51.100.73" });
    const { key } = await createKey(cookie, "streaming bot");
    const stream = await openSocket(`/ws?x-api-key=${key}&connectionId=revoke-push-conn-1`);
    stream.ws.send(JSON.stringify({ method: "subscribeNewpair" }));
    await until("the /ws ack", () => stream.messages.find((m) => m.includes("subscribeNewpair")));
    const pubsub = await openSocket(`/rpc?x-api-key=${key}`);
    const meter = env.ACCOUNT_METER.get(env.ACCOUNT_METER.idFromName(accountId));
    const counted = () => runInDurableObject(meter, (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM connections").one().n);
    expect(await counted()).toBe(2);
    const keyId = /name="keyId" value="(key_[A-Za-z0-9_-]+)"/.exec(await (await getPage("/dashboard", { cookie })).text())?.[1];
    // When it is revoked from the dashboard
    const started = Date.now();
    expect((await postForm("/dashboard/keys/revoke", { keyId: keyId!, confirm: "yes" }, { cookie })).status).toBe(303);
    // Then, when the revoke has answered, the meter counts none of its sockets (the periodic check would drop them only
    // at its next alarm, `keyCheckMs` later), and both sockets are told why and closed with 1008
    expect(await counted()).toBe(0);
    const ws = await until("the /ws close", () => stream.closed(), 2_000);
    const rpc = await until("the /rpc close", () => pubsub.closed(), 2_000);
    expect(Date.now() - started).toBeLessThan(limits.meter.keyCheckMs);
    expect(ws).toMatchObject({ code: 1008 });
    expect(rpc).toMatchObject({ code: 1008 });
    expect(stream.messages.some((m) => m.includes("API key revoked"))).toBe(true);
    expect(pubsub.messages.some((m) => m.includes("API key revoked"))).toBe(true);
  });
});
