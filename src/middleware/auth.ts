import { createMiddleware } from "hono/factory";
import { lookupApiKey, isWellFormedApiKey, hashApiKey } from "../accounts/api-keys";
import type { ApiKeyRecord } from "../accounts/api-key-record";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import type { AppContext } from "../env";

/**
 * API key from header `x-api-key` or query `x-api-key`. Missing, malformed, unknown and revoked keys all get
 * the same 401, decided before any upstream call. Valid keys are remembered per isolate for `authCacheMs`
 * (keyed by hash, never by plaintext) so the warm path skips KV.
 */
const recent = new Map<string, { record: ApiKeyRecord; until: number }>();

export function presentedApiKey(req: { header(name: string): string | undefined; query(name: string): string | undefined }): string | undefined {
  return req.header("x-api-key") ?? req.query("x-api-key");
}

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
  if (recent.size > 10_000) recent.clear();
  recent.set(hash, { record, until: now + limits.authCacheMs });
  return record;
}

export const requireApiKey = createMiddleware<AppContext>(async (c, next) => {
  c.set("apiKey", await authenticate(c.env.API_KEYS, presentedApiKey(c.req)));
  await next();
});
