import { ApiError } from "../errors/api-error";
import { BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import type { ApiKeyRecord } from "./api-key-record";
import { hashApiKey, isWellFormedApiKey, lookupApiKey } from "./api-keys";

/**
 * Judging a presented API key, for every door that takes one (the REST middleware, the /rpc and /ws upgrades, a /ws
 * message carrying a key). Missing, malformed, unknown and revoked keys all get the same 401, decided before any
 * upstream call. Valid keys are remembered per isolate for `authCacheMs` (keyed by hash, never by plaintext) so the
 * warm path skips KV.
 */
const recent = new BoundedCache<string, { record: ApiKeyRecord; until: number }>("api-keys", limits.isolateCacheBudgets.apiKeys, () => 512);

export async function authenticate(kv: KVNamespace, presented: string | undefined, now = Date.now()): Promise<ApiKeyRecord> {
  if (!presented || !isWellFormedApiKey(presented)) throw new ApiError("UNAUTHORIZED");
  const hash = hashApiKey(presented);
  const hit = recent.get(hash);
  if (hit && hit.until > now) return hit.record;
  const record = await lookupApiKey(kv, presented);
  if (!record || record.revoked) {
    recent.delete(hash);
    throw new ApiError("UNAUTHORIZED");
  }
  recent.set(hash, { record, until: now + limits.authCacheMs });
  return record;
}

/**
 * Drops a key from this isolate's cache (the dashboard's revoke), so it is refused here at once; other isolates keep
 * trusting it for at most `limits.authCacheMs`.
 */
export function forgetApiKey(hash: string): void {
  recent.delete(hash);
}
