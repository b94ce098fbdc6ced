import { forgetApiKey } from "./api-key-auth";
import { limits } from "../limits";
import type { Account } from "./account-store";
import { createApiKey, kvKeyForHash, storeApiKey } from "./api-keys";
import { apiKeyRecordSchema } from "./api-key-record";
import { closeRevokedKeySockets } from "./meter-client";
import type { Env } from "../env";

/**
 * An account's API keys as the dashboard manages them: D1 `api_keys` holds what the dashboard lists (name, prefix,
 * hash, dates), KV holds the record the request path reads (api-keys.ts). Both are written on create and on revoke;
 * the plaintext exists only in the answer to the create.
 */
export interface AccountKey {
  keyId: string;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** All-time requests from usage_daily (written in batches by the meter, so a few seconds behind). */
  requests: number;
}

/** Characters of the key shown to tell keys apart: `tmd_` and 4 of its 32 random ones (24 of 192 bits). */
const prefixLength = 8;

export type CreateKeyResult = { ok: true; key: string; keyId: string } | { ok: false; message: string };

export async function createAccountKey(env: { DB: D1Database; API_KEYS: KVNamespace }, account: Account, name: string, now = Date.now()): Promise<CreateKeyResult> {
  const counts = await env.DB
    .prepare("SELECT count(*) AS total, count(*) FILTER (WHERE revoked_at IS NULL) AS active FROM api_keys WHERE account_id = ?1")
    .bind(account.id)
    .first<{ total: number; active: number }>();
  const { maxActiveKeysPerAccount, maxKeysPerAccount } = limits.accountWeb;
  if ((counts?.active ?? 0) >= maxActiveKeysPerAccount) return { ok: false, message: `An account has at most ${maxActiveKeysPerAccount} live keys: revoke one first` };
  if ((counts?.total ?? 0) >= maxKeysPerAccount) return { ok: false, message: `This account has created ${maxKeysPerAccount} keys, the most it may` };
  const { key, record } = await createApiKey({ name, account: account.id, plan: account.plan }, now);
  // D1 first: a key the dashboard does not list must never work (a failed KV write leaves a listed key to revoke).
  // The caps are checked again inside the insert (one statement: D1 runs it alone), so parallel creates cannot pass them.
  const inserted = await env.DB
    .prepare(
      `INSERT INTO api_keys (key_id, account_id, name, prefix, key_hash, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE (SELECT count(*) FROM api_keys WHERE account_id = ?2 AND revoked_at IS NULL) < ?7
         AND (SELECT count(*) FROM api_keys WHERE account_id = ?2) < ?8`,
    )
    .bind(record.keyId, account.id, name, key.slice(0, prefixLength), record.hash, now, maxActiveKeysPerAccount, maxKeysPerAccount)
    .run();
  if (inserted.meta.changes !== 1) return { ok: false, message: `An account has at most ${maxActiveKeysPerAccount} live keys: revoke one first` };
  await storeApiKey(env.API_KEYS, record);
  return { ok: true, key, keyId: record.keyId };
}

const keyColumns = `k.key_id, k.name, k.prefix, k.created_at, k.last_used_at, k.revoked_at,
  (SELECT coalesce(sum(u.requests), 0) FROM usage_daily u WHERE u.key_id = k.key_id) AS requests`;
type KeyRow = { key_id: string; name: string; prefix: string; created_at: number; last_used_at: number | null; revoked_at: number | null; requests: number };
const keyOf = (r: KeyRow): AccountKey => ({ keyId: r.key_id, name: r.name, prefix: r.prefix, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at, requests: r.requests });

/** Every key of the account, live ones first (newest first), then the revoked ones: they stay listed, marked revoked. */
export async function listAccountKeys(db: D1Database, accountId: string): Promise<AccountKey[]> {
  const { results } = await db.prepare(`SELECT ${keyColumns} FROM api_keys k WHERE k.account_id = ?1 ORDER BY k.revoked_at IS NOT NULL, k.created_at DESC`).bind(accountId).all<KeyRow>();
  return results.map(keyOf);
}

/** One live key of the account (for the revoke confirmation), or null: none with this id, another account's, or revoked. */
export async function liveAccountKey(db: D1Database, accountId: string, keyId: string): Promise<AccountKey | null> {
  const row = await db.prepare(`SELECT ${keyColumns} FROM api_keys k WHERE k.account_id = ?1 AND k.key_id = ?2 AND k.revoked_at IS NULL`).bind(accountId, keyId).first<KeyRow>();
  return row ? keyOf(row) : null;
}

/** The name of the account's live key with this hash, or null (the page showing a new key checks its one-time cookie so). */
export async function liveKeyName(db: D1Database, accountId: string, hash: string): Promise<string | null> {
  return (await db.prepare("SELECT name FROM api_keys WHERE account_id = ?1 AND key_hash = ?2 AND revoked_at IS NULL").bind(accountId, hash).first<string>("name")) ?? null;
}

/**
 * Revokes one of the account's keys: D1 `revoked_at`, the KV record's `revoked`, this isolate's auth cache, and the
 * key's open /ws and /rpc sockets (closed by the account's meter). False when the account has no such live key
 * (another account's key id included).
 */
export async function revokeAccountKey(env: Env, accountId: string, keyId: string, now = Date.now()): Promise<boolean> {
  const hash = await env.DB
    .prepare("UPDATE api_keys SET revoked_at = ?3 WHERE key_id = ?1 AND account_id = ?2 AND revoked_at IS NULL RETURNING key_hash")
    .bind(keyId, accountId, now)
    .first<string>("key_hash");
  if (!hash) return false;
  forgetApiKey(hash);
  const stored = apiKeyRecordSchema.safeParse(await env.API_KEYS.get(kvKeyForHash(hash), "json"));
  // A record that is missing or unreadable already authenticates nothing (lookupApiKey refuses it).
  if (stored.success) await storeApiKey(env.API_KEYS, { ...stored.data, revoked: true });
  await closeRevokedKeySockets(env, accountId, hash);
  return true;
}
