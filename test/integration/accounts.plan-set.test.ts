/**
 * `npm run plan:set`'s function (src/accounts/plan-change.ts) against the worker's own D1 and KV, and the meter taking
 * the new plan from the rewritten records.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callWorker } from "../helpers/worker";
import { newApiKeyRecord } from "../helpers/keys";
import { setAccountPlan } from "../../src/accounts/plan-change";
import { kvKeyForHash } from "../../src/accounts/api-keys";

describe("plan:set", () => {
  it("sets accounts.plan and rewrites every key record of the account; the meter applies the new plan's limits", async () => {
    // Given a FREE account in D1 with two keys, the first one already used (its FREE record cached by this isolate)
    const account = `acct_p${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    const email = `${account}@example.test`;
    await env.DB.prepare("INSERT INTO accounts (id, email, password_hash, password_salt, password_iterations, plan, referral_code, created_at) VALUES (?1, ?2, 'x', 'x', 1, 'free', ?3, ?4)")
      .bind(account, email, `ref_${account}`, Date.now())
      .run();
    const keys = [await newApiKeyRecord({ account, plan: "free" }), await newApiKeyRecord({ account, plan: "free" })];
    for (const k of keys) {
      await env.DB.prepare("INSERT INTO api_keys (key_id, account_id, name, prefix, key_hash, created_at) VALUES (?1, ?2, 'k', 'tmd_', ?3, ?4)").bind(k.record.keyId, account, k.record.hash, Date.now()).run();
    }
    const before = await callWorker({ path: "/api/v1/usage" }, { key: keys[0]!.key });
    expect(before.headers.get("ratelimit-policy")).toBe('"second";q=1;w=1, "minute";q=30;w=60');

    // When the operator sets PRO (the email as typed, case and spaces aside)
    const change = await setAccountPlan(env.DB, env.API_KEYS, `  ${email.toUpperCase()} `, "pro");

    // Then D1 and both KV records say PRO
    expect(change).toEqual({ ok: true, account, previous: "free", keysRewritten: 2 });
    expect((await env.DB.prepare("SELECT plan FROM accounts WHERE id = ?").bind(account).first<{ plan: string }>())!.plan).toBe("pro");
    for (const k of keys) expect(((await env.API_KEYS.get(kvKeyForHash(k.record.hash), "json")) as { plan: string }).plan).toBe("pro");
    // and a request with the record read afresh is metered on PRO terms by the same meter (its second request this second: FREE would 429)
    const after = await callWorker({ path: "/api/v1/usage" }, { key: keys[1]!.key });
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit-policy")).toBe('"second";q=20;w=1, "minute";q=500;w=60');
    expect(after.headers.get("ratelimit")).toMatch(/^"second";r=18;t=1, "minute";r=498;t=(59|60)$/);
    expect(((await after.json()) as { plan: { id: string; mintsPerRequest: number } }).plan).toMatchObject({ id: "pro", mintsPerRequest: 10 });
  });

  it("an unknown email changes nothing", async () => {
    expect(await setAccountPlan(env.DB, env.API_KEYS, "nobody@example.test", "pro")).toEqual({ ok: false, reason: "no-such-account" });
  });
});
