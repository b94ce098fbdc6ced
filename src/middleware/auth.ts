import { createMiddleware } from "hono/factory";
import { authenticate } from "../accounts/api-key-auth";
import type { AppContext } from "../app-context";
import { noTimings } from "../http/server-timing";

/**
 * API key from, in this order: header `x-api-key`, header `Authorization: Bearer <key>`, query `x-api-key`.
 * The first one present is the one judged (a bad header key is not rescued by a good query key); accounts/api-key-auth.ts
 * judges it. The query form exists for clients that cannot set headers (a `{rpc_url}` pasted into a wallet or SDK),
 * but URLs end up in request logs (Workers observability included), so the docs steer callers to a header.
 */
export function presentedApiKey(req: { header(name: string): string | undefined; query(name: string): string | undefined }): string | undefined {
  return req.header("x-api-key") ?? bearerToken(req.header("authorization")) ?? req.query("x-api-key");
}

/** The credential of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 9110 §11.1); other schemes are not ours. */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^bearer(?:[ \t]+|$)(.*)$/is.exec(authorization.trim());
  return match ? (match[1] ?? "").trim() : undefined;
}

export const requireApiKey = createMiddleware<AppContext>(async (c, next) => {
  const presented = presentedApiKey(c.req);
  const timings = c.get("timings") ?? noTimings;
  c.set("apiKey", await timings.time("auth", () => authenticate(c.env.API_KEYS, presented)));
  await next();
});
