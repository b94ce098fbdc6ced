/**
 * Credits, the plan's mints per request, usage batched to D1 and the referral reward, through the worker (workerd,
 * the real AccountMeter and D1). Each test has its own account, so its own meter.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callWorker } from "../helpers/worker";
import { newApiKeyRecord } from "../helpers/keys";
import { world } from "../helpers/localnet";
import { referralBonusCredits, type CustomLimits } from "../../src/accounts/plans";
import type { AccountMeter } from "../../src/accounts/meter";
import { flushAccountUsage } from "../../src/accounts/meter-client";
import { limits } from "../../src/limits";
import type { Plan } from "../../src/accounts/api-key-record";
import { newAccount } from "../helpers/ids";

let mints: string[] = [];

beforeAll(async () => {
  mints = (await world()).tokens.slice(0, 11).map((t) => t.mint);
});

interface Usage {
  account: string;
  plan: { id: string; mintsPerRequest: number; monthlyCredits: number };
  month: string;
  credits: { monthly: number; bonus: number; used: number; remaining: number };
  days: { day: string; keyId: string; requests: number; credits: number }[];
}

async function usageOf(key: string): Promise<Usage> {
  const res = await callWorker({ path: "/api/v1/usage" }, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as Usage;
}

async function keyOf(account: string, plan: Plan, limits?: CustomLimits) {
  return newApiKeyRecord({ account, plan, limits });
}

/** An account row in D1 (what sign-up writes), for the tests that need one. */
async function insertAccount(id: string, referredBy: string | null = null): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO accounts (id, email, password_hash, password_salt, password_iterations, plan, referral_code, referred_by, created_at) VALUES (?1, ?2, 'x', 'x', 1, 'free', ?3, ?4, ?5)",
  )
    .bind(id, `${id}@example.test`, `ref_${id}`, referredBy, Date.now())
    .run();
}

describe("credits", () => {
  it("a list of N mints costs N; out of credits → 402 envelope; /usage still answers and shows the month", async () => {
    // Given an account with 5 credits this month
    const account = newAccount();
    const { key, record } = await keyOf(account, "pro", { monthlyCredits: 5 });
    // When 3 mints are priced / Then 200, 3 credits spent
    const three = await callWorker({ path: `/api/v1/price?ca=${mints.slice(0, 3).join(",")}` }, { key });
    expect(three.status).toBe(200);
    expect(((await three.json()) as unknown[]).length).toBe(3);
    // When 3 more are asked with 2 left / Then 402, nothing spent
    const refused = await callWorker({ path: `/api/v1/price?ca=${mints.slice(3, 6).join(",")}` }, { key });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({ status: "error", error: { code: 402, message: "Out of credits: this request costs 3, 2 left this month on the PRO plan" } });
    // When 2 are asked / Then they fit exactly
    expect((await callWorker({ path: `/api/v1/price?ca=${mints.slice(3, 5).join(",")}` }, { key })).status).toBe(200);
    expect((await callWorker({ path: `/api/v1/overview?ca=${mints[0]}` }, { key })).status).toBe(402);
    // Then the usage route (free of credits) shows 5 used, 0 left, one row for this key today: 3 accepted requests
    // (the 402s cost nothing and are not usage) plus this usage call itself
    const usage = await usageOf(key);
    expect(usage.credits).toEqual({ monthly: 5, bonus: 0, used: 5, remaining: 0 });
    expect(usage.plan).toMatchObject({ id: "pro", mintsPerRequest: 10, monthlyCredits: 5 });
    expect(usage.days).toEqual([{ day: new Date().toISOString().slice(0, 10), keyId: record.keyId, requests: 3, credits: 5 }]);
  });

  it("a JSON-RPC batch of N costs N; a batch over what is left → 402 with a JSON-RPC error body", async () => {
    // Given an account with 6 credits
    const { key } = await keyOf(newAccount(), "pro", { monthlyCredits: 6 });
    const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "getSlot" }));
    // When a batch of 4 is sent / Then it is answered and costs 4
    const four = await callWorker({ rpcBody: batch(4) }, { key });
    expect(four.status).toBe(200);
    expect(((await four.json()) as unknown[]).length).toBe(4);
    expect((await usageOf(key)).credits.used).toBe(4);
    // When a batch of 3 comes with 2 left / Then 402 and a JSON-RPC error naming the cost
    const refused = await callWorker({ rpcBody: batch(3) }, { key });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32065, message: "Out of credits: this request costs 3, 2 left this month on the PRO plan", data: { creditsRemaining: 2 } },
    });
    // and a single call costs 1
    expect((await callWorker({ rpcBody: { jsonrpc: "2.0", id: 1, method: "getSlot" } }, { key })).status).toBe(200);
    expect((await usageOf(key)).credits).toMatchObject({ used: 5, remaining: 1 });
  });

  it("a JSON-RPC batch costs only the calls it forwards: notifications (no id) and refused items are free", async () => {
    // Given an account with 10 credits
    const { key } = await keyOf(newAccount(), "pro", { monthlyCredits: 10 });
    const note = { jsonrpc: "2.0", method: "getSlot" };
    // When a batch of 5 notifications is sent / Then nothing is answered (204) and nothing is spent
    const quiet = await callWorker({ rpcBody: [note, note, note, note, note] }, { key });
    expect(quiet.status).toBe(204);
    expect((await usageOf(key)).credits.used).toBe(0);
    // When 3 notifications, 1 unknown method and 2 calls come in one batch / Then 2 answers with data plus the error, 2 credits
    const mixed = await callWorker(
      { rpcBody: [note, { jsonrpc: "2.0", id: 1, method: "getSlot" }, note, { jsonrpc: "2.0", id: 2, method: "noSuchMethod" }, note, { jsonrpc: "2.0", id: 3, method: "getSlot" }] },
      { key },
    );
    expect(mixed.status).toBe(200);
    const answers = (await mixed.json()) as { id: number; result?: unknown; error?: unknown }[];
    expect(answers.map((a) => [a.id, a.result !== undefined])).toEqual([[1, true], [2, false], [3, true]]);
    expect((await usageOf(key)).credits.used).toBe(2);
  });
});

describe("mints per request (the plan's cap: 403; the service's own cap of 100: 400)", () => {
  it("FREE: 1 mint accepted, 2 refused with 403 naming the limit", async () => {
    const { key } = await keyOf(newAccount(), "free");
    expect((await callWorker({ path: `/api/v1/price?ca=${mints[0]}` }, { key })).status).toBe(200);
    const two = await callWorker({ path: `/api/v1/venue-d?ca=${mints.slice(0, 2).join(",")}` }, { key });
    expect(two.status).toBe(403);
    expect(await two.json()).toEqual({ status: "error", error: { code: 403, message: "Too many mints in ca: 2 (the FREE plan allows 1 per request)" } });
  });

  it("PRO: 10 accepted, 11 refused; a refusal costs nothing", async () => {
    const { key } = await keyOf(newAccount(), "pro");
    expect((await callWorker({ path: `/api/v1/price?ca=${mints.slice(0, 10).join(",")}` }, { key })).status).toBe(200);
    const eleven = await callWorker({ path: `/api/v1/price?ca=${mints.slice(0, 11).join(",")}` }, { key });
    expect(eleven.status).toBe(403);
    expect(((await eleven.json()) as { error: { message: string } }).error.message).toBe("Too many mints in ca: 11 (the PRO plan allows 10 per request)");
    expect((await usageOf(key)).credits.used).toBe(10);
  });
});

describe("over the service's own cap of 100 mints", () => {
  it("400 whatever the plan and the credits left (not 403, not 402), costing 1", async () => {
    // Given a DEV-plan account (100 mints per request) with 5 credits
    const { key } = await keyOf(newAccount(), "dev", { monthlyCredits: 5 });
    const list = Array.from({ length: 101 }, (_, i) => mints[i % mints.length]).join(",");
    // When 101 mints are asked / Then the route's 400, and one credit spent
    const res = await callWorker({ path: `/api/v1/price?ca=${list}` }, { key });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: "error", error: { code: 400, message: "Too many mints in ca: 101 (at most 100)" } });
    expect((await usageOf(key)).credits).toMatchObject({ used: 1, remaining: 4 });
  });
});

describe("usage in D1", () => {
  it("written in batches: 60 requests of two keys → 2 usage rows and a handful of statements, last_used_at set", async () => {
    // Given an account in D1 with two keys (rows in api_keys, as the dashboard creates them)
    const account = newAccount();
    await insertAccount(account);
    const a = await keyOf(account, "pro", { requestsPerSecond: 1000, requestsPerMinute: 1000 });
    const b = await keyOf(account, "pro", { requestsPerSecond: 1000, requestsPerMinute: 1000 });
    for (const k of [a, b]) {
      await env.DB.prepare("INSERT INTO api_keys (key_id, account_id, name, prefix, key_hash, created_at) VALUES (?1, ?2, 'k', 'tmd_', ?3, ?4)").bind(k.record.keyId, account, k.record.hash, Date.now()).run();
    }
    // When 60 requests come (30 per key), and the meter has not flushed yet
    for (let i = 0; i < 30; i++) {
      // (limits this large are served from leases: the lease's report waits for the usage call, not for each request)
      for (const k of [a, b]) expect((await callWorker({ path: "/api/v1/price" }, { key: k.key, awaitBackground: false })).status).toBe(400);
    }
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM usage_daily WHERE account_id = ?").bind(account).first<{ n: number }>();
    expect(before!.n).toBe(0);
    // When the usage route asks the meter to flush
    await usageOf(a.key);
    // Then D1 holds one row per key for today, with every request counted
    const { results } = await env.DB.prepare("SELECT key_id, requests, credits FROM usage_daily WHERE account_id = ? ORDER BY requests DESC").bind(account).all<{ key_id: string; requests: number; credits: number }>();
    expect(results).toEqual([
      { key_id: a.record.keyId, requests: 31, credits: 30 },
      { key_id: b.record.keyId, requests: 30, credits: 30 },
    ]);
    // and it took one flush of 4 statements (2 usage upserts, 2 last_used_at updates) for 61 requests
    const stats = await runInDurableObject(env.ACCOUNT_METER.get(env.ACCOUNT_METER.idFromName(account)), (instance) => ({ ...(instance as AccountMeter).flushStats }));
    expect(stats).toEqual({ flushes: 1, statements: 4, usageRows: 2, requests: 61 });
    const used = await env.DB.prepare("SELECT key_id, last_used_at FROM api_keys WHERE account_id = ?").bind(account).all<{ key_id: string; last_used_at: number | null }>();
    for (const row of used.results) expect(row.last_used_at, row.key_id).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe("usage of a lease whose account went quiet", () => {
  it("is reported by the isolate's next request of any account, and reaches D1 with every request counted", async () => {
    // Given an account with limits large enough for leases, whose 20 requests were all served here
    const quiet = newAccount();
    await insertAccount(quiet);
    const q = await keyOf(quiet, "pro", { requestsPerSecond: 1000, requestsPerMinute: 1000 });
    for (let i = 0; i < 20; i++) expect((await callWorker({ path: "/api/v1/price" }, { key: q.key, awaitBackground: false })).status).toBe(400);
    // When the lease has ended and another account makes a request (the quiet one sends nothing more)
    await new Promise((r) => setTimeout(r, limits.meter.leaseMs + limits.meter.reportEveryMs + 50));
    const other = await keyOf(newAccount(), "pro");
    expect((await callWorker({ path: "/api/v1/price" }, { key: other.key, awaitBackground: true })).status).toBe(400);
    // Then the quiet account's meter has every one of its requests, written to D1 at its flush
    await flushAccountUsage(env, quiet);
    const row = await env.DB.prepare("SELECT requests, credits FROM usage_daily WHERE account_id = ?").bind(quiet).first<{ requests: number; credits: number }>();
    expect(row).toEqual({ requests: 20, credits: 20 });
  });
});

describe("usage flushed by the meter's alarm", () => {
  it("requests counted in memory reach D1 when the alarm fires, in one batch; nothing before", async () => {
    // Given an account at 100 per second (no leases: every request asks the meter)
    const account = newAccount();
    const { key, record } = await keyOf(account, "pro", { requestsPerSecond: 100, requestsPerMinute: 1000 });
    // When 12 requests are accepted
    for (let i = 0; i < 12; i++) expect((await callWorker({ path: "/api/v1/price" }, { key })).status).toBe(400);
    const stub = env.ACCOUNT_METER.get(env.ACCOUNT_METER.idFromName(account));
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM usage_daily WHERE account_id = ?").bind(account).first<{ n: number }>())!.n).toBe(0);
    // and the meter's alarm (set for flushMs after the first request) fires
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // Then one row holds all 12, written by one flush of 2 statements (usage row, last_used_at)
    const rows = await env.DB.prepare("SELECT key_id, requests, credits FROM usage_daily WHERE account_id = ?").bind(account).all();
    expect(rows.results).toEqual([{ key_id: record.keyId, requests: 12, credits: 12 }]);
    expect(await runInDurableObject(stub, (instance) => ({ ...(instance as AccountMeter).flushStats }))).toEqual({ flushes: 1, statements: 2, usageRows: 1, requests: 12 });
    // and with nothing pending, no alarm is left set
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });
});

describe("referral reward", () => {
  it("the referred account's first successful call is recorded and earns nothing; real use then grants both accounts the bonus, once; both meters learn it", async () => {
    // Given a referrer whose meter is already running (it has made a call) and an account it referred
    const referrer = newAccount();
    const referred = newAccount();
    await insertAccount(referrer);
    await insertAccount(referred, referrer);
    const referrerKey = await keyOf(referrer, "free", { requestsPerSecond: 100 });
    const referredKey = await keyOf(referred, "free", { requestsPerSecond: 100 });
    expect((await usageOf(referrerKey.key)).credits.bonus).toBe(0);
    const grantCount = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM credit_grants WHERE related_account IN (?1, ?2)").bind(referrer, referred).first<{ n: number }>())!.n;
    // When the referred account's first call fails (400), then succeeds, and its usage is written
    expect((await callWorker({ path: "/api/v1/price" }, { key: referredKey.key })).status).toBe(400);
    expect((await callWorker({ path: `/api/v1/price?ca=${mints[0]}` }, { key: referredKey.key })).status).toBe(200);
    await flushAccountUsage(env, referred);
    // Then the first call is recorded, and nothing is granted for it
    await expect.poll(async () => (await env.DB.prepare("SELECT first_call_at FROM accounts WHERE id = ?").bind(referred).first<{ first_call_at: number | null }>())!.first_call_at).toBeGreaterThan(0);
    expect(await grantCount()).toBe(0);
    // When it has used the service for real: credits spent yesterday, and one more priced call today
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await env.DB.prepare("INSERT INTO usage_daily (key_id, account_id, day, requests, credits) VALUES ('key_yesterday', ?1, ?2, ?3, ?3)").bind(referred, yesterday, limits.accountWeb.referralMinCredits).run();
    expect((await callWorker({ path: `/api/v1/price?ca=${mints[1]}` }, { key: referredKey.key })).status).toBe(200);
    await flushAccountUsage(env, referred);
    expect((await callWorker({ path: `/api/v1/price?ca=${mints[2]}` }, { key: referredKey.key })).status).toBe(200);
    await flushAccountUsage(env, referred);
    // Then one grant each
    const grants = await env.DB.prepare("SELECT account_id, credits, reason, related_account FROM credit_grants WHERE account_id IN (?1, ?2) ORDER BY reason").bind(referrer, referred).all();
    expect(grants.results).toEqual([
      { account_id: referred, credits: referralBonusCredits.referred, reason: "referral:referred", related_account: referrer },
      { account_id: referrer, credits: referralBonusCredits.referrer, reason: "referral:referrer", related_account: referred },
    ]);
    // and both meters count the bonus (the referrer's had read its month before the grant)
    expect((await usageOf(referrerKey.key)).credits).toMatchObject({ bonus: referralBonusCredits.referrer, remaining: 10_000 + referralBonusCredits.referrer });
    expect((await usageOf(referredKey.key)).credits.bonus).toBe(referralBonusCredits.referred);
  });

  it("no reward without a referrer, nor for an account naming itself", async () => {
    const plain = newAccount();
    const self = newAccount();
    await insertAccount(plain);
    await insertAccount(self);
    await env.DB.prepare("UPDATE accounts SET referred_by = id WHERE id = ?").bind(self).run();
    for (const account of [plain, self]) {
      const { key } = await keyOf(account, "free");
      expect((await callWorker({ path: `/api/v1/price?ca=${mints[0]}` }, { key })).status).toBe(200);
      const row = await env.DB.prepare("SELECT first_call_at FROM accounts WHERE id = ?").bind(account).first<{ first_call_at: number | null }>();
      expect(row!.first_call_at, account).toBeGreaterThan(0);
    }
    const grants = await env.DB.prepare("SELECT COUNT(*) AS n FROM credit_grants WHERE account_id IN (?1, ?2)").bind(plain, self).first<{ n: number }>();
    expect(grants!.n).toBe(0);
  });
});
