import { createMiddleware } from "hono/factory";
import { lookupApiKey, isWellFormedApiKey, hashApiKey } from "../accounts/api-keys";
import type { ApiKeyRecord } from "../accounts/api-key-record";
import { ApiError } from "../errors/api-error";
import { BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import type { AppContext } from "../app-context";
import { noTimings } from "../http/server-timing";

/**
 * API key from, in this order: header `x-api-key`, header `Authorization: Bearer <key>`, query `x-api-key`.
 * The first one present is the one judged (a bad header key is not rescued by a good query key). Missing,
 * malformed, unknown and revoked keys all get the same 401, decided before any upstream call. Valid keys are
 * remembered per isolate for `authCacheMs` (keyed by hash, never by plaintext) so the warm path skips KV.
 * The query form exists for clients that cannot set headers (the spec's `{rpc_url}`), but URLs end up in request
 * logs (Workers observability included), so the docs steer callers to a header.
 */
const recent = new BoundedCache<string, { record: ApiKeyRecord; until: number }>("api-keys", limits.isolateCacheBudgets.apiKeys, () => 512);

export function presentedApiKey(req: { header(name: string): string | undefined; query(name: string): string | undefined }): string | undefined {
  return req.header("x-api-key") ?? bearerToken(req.header("authorization")) ?? req.query("x-api-key");
}

/** The credential of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 9110 §11.1); other schemes are not ours. */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^bearer(?:[ \t]+|$)(.*)$/is.exec(authorization.trim());
  return match ? (match[1] ?? "").trim() : undefined;
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

export const requireApiKey = createMiddleware<AppContext>(async (c, next) => {
  const presented = presentedApiKey(c.req);
  const timings = c.get("timings") ?? noTimings;
  c.set("apiKey", await timings.time("auth", () => authenticate(c.env.API_KEYS, presented)));
  await next();
});
