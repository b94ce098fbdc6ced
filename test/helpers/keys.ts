import { env } from "cloudflare:workers";
import { createApiKey, storeApiKey } from "../../src/accounts/api-keys";
import type { ApiKeyRecord, Plan } from "../../src/accounts/api-key-record";
import type { CustomLimits } from "../../src/accounts/plans";

/** Creates a key in the test KV the way `npm run key:create` does; returns the plaintext. */
export async function newApiKey(opts: { plan?: Plan; revoked?: boolean; name?: string; account?: string; limits?: CustomLimits } = {}): Promise<string> {
  return (await newApiKeyRecord(opts)).key;
}

/** The same, with the record stored (its keyId, account). */
export async function newApiKeyRecord(opts: { plan?: Plan; revoked?: boolean; name?: string; account?: string; limits?: CustomLimits } = {}): Promise<{ key: string; record: ApiKeyRecord }> {
  const { key, record } = await createApiKey({ name: opts.name ?? "test", account: opts.account ?? "acct_test", plan: opts.plan ?? "dev" });
  const stored: ApiKeyRecord = { ...record, revoked: opts.revoked ?? false, ...(opts.limits ? { limits: opts.limits } : {}) };
  await storeApiKey(env.API_KEYS, stored);
  return { key, record: stored };
}
