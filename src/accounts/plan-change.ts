import { apiKeyRecordSchema } from "./api-key-record";
import { kvKeyForHash } from "./api-keys";
import type { PlanId } from "./plans";

export type PlanChange = { ok: true; account: string; previous: PlanId | string; keysRewritten: number } | { ok: false; reason: "no-such-account" };

/**
 * An operator sets an account's plan (`npm run plan:set`; no payment provider): `accounts.plan` in D1, then the KV
 * record of each of the account's keys, since the request path reads the plan from the record it authenticates with.
 * Isolates that cached a record keep its old plan for at most `limits.authCacheMs`; the account's meter takes the
 * new terms with the first request that carries them (meter-protocol.ts). Custom limits on a record stay.
 * Emails are matched as sign-up stores them (trimmed, lower-cased).
 */
export async function setAccountPlan(db: D1Database, kv: KVNamespace, email: string, plan: PlanId): Promise<PlanChange> {
  const normalized = email.trim().toLowerCase();
  const before = await db.prepare("SELECT id, plan FROM accounts WHERE email = ?1").bind(normalized).first<{ id: string; plan: string }>();
  if (before === null) return { ok: false, reason: "no-such-account" };
  await db.prepare("UPDATE accounts SET plan = ?2 WHERE id = ?1").bind(before.id, plan).run();
  const { results } = await db.prepare("SELECT key_hash FROM api_keys WHERE account_id = ?1").bind(before.id).all<{ key_hash: string }>();
  let keysRewritten = 0;
  for (const { key_hash } of results) {
    const parsed = apiKeyRecordSchema.safeParse(await kv.get(kvKeyForHash(key_hash), "json"));
    if (!parsed.success) continue;
    await kv.put(kvKeyForHash(key_hash), JSON.stringify({ ...parsed.data, plan }));
    keysRewritten++;
  }
  return { ok: true, account: before.id, previous: before.plan, keysRewritten };
}
