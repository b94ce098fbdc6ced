import { apiKeyKvPrefix, apiKeyRecordSchema, type ApiKeyRecord, type Plan } from "./api-key-record";
import { digestsEqual, randomBase64Url, randomHex, sha256Hex } from "./secret-tokens";

/**
 * API keys: `tmd_` + 32 base64url chars (192 random bits). Only the SHA-256 hash is stored.
 * Web Crypto for randomness and a synchronous SHA-256 (@noble/hashes), so the same code runs in the worker and in the
 * Node scripts that create keys.
 */
const keyPattern = /^tmd_[A-Za-z0-9_-]{32}$/;

export function isWellFormedApiKey(key: string): boolean {
  return keyPattern.test(key);
}

export function generateApiKey(): string {
  return `tmd_${randomBase64Url(24)}`;
}

/** SHA-256 hex of a key (secret-tokens.ts: synchronous, for the warm path). */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export interface NewKey {
  name: string;
  account: string;
  plan: Plan;
}

/** Builds a fresh key and the record to store for it. The plaintext is returned once and never persisted. */
export async function createApiKey(input: NewKey, now = Date.now()): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    keyId: `key_${randomHex(8)}`,
    hash: hashApiKey(key),
    name: input.name,
    account: input.account,
    plan: input.plan,
    createdAt: now,
    revoked: false,
  };
  return { key, record };
}

export function kvKeyForHash(hash: string): string {
  return `${apiKeyKvPrefix}${hash}`;
}

/** Reads and validates the record of a presented key; null when unknown, malformed record, or hash mismatch. */
export async function lookupApiKey(kv: KVNamespace, presented: string): Promise<ApiKeyRecord | null> {
  const hash = hashApiKey(presented);
  const raw = await kv.get(kvKeyForHash(hash), "json");
  const parsed = apiKeyRecordSchema.safeParse(raw);
  if (!parsed.success) return null;
  return digestsEqual(parsed.data.hash, hash) ? parsed.data : null;
}

export async function storeApiKey(kv: KVNamespace, record: ApiKeyRecord): Promise<void> {
  await kv.put(kvKeyForHash(record.hash), JSON.stringify(record));
}
