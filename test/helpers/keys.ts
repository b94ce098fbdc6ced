import { env } from "cloudflare:workers";
import { createApiKey, storeApiKey } from "../../src/accounts/api-keys";
import type { Plan } from "../../src/accounts/api-key-record";

/** Creates a key in the test KV the way `npm run key:create` does; returns the plaintext. */
export async function newApiKey(opts: { plan?: Plan; revoked?: boolean; name?: string } = {}): Promise<string> {
  const { key, record } = await createApiKey({ name: opts.name ?? "test", account: "acct_test", plan: opts.plan ?? "dev" });
  await storeApiKey(env.API_KEYS, { ...record, revoked: opts.revoked ?? false });
  return key;
}
