import { createMiddleware } from "hono/factory";
import type { AppContext } from "../app-context";
import { ApiError } from "../errors/api-error";

/**
 * CSRF guard of the account pages' forms: a state-changing request must show it comes from our own pages. Browsers
 * send `Origin` on every POST (Chromium, Firefox, Safari); `Sec-Fetch-Site` is the fallback for one that did not, and
 * `Referer` (our pages send it same-origin only) the last. No evidence at all is refused too: a real form always has
 * some. `SameSite=Lax` on the session cookie is the second wall.
 */
export function isSameOriginRequest(requestUrl: string, header: (name: string) => string | undefined): boolean {
  const own = new URL(requestUrl).origin;
  const origin = header("origin");
  if (origin !== undefined) return origin === own;
  const site = header("sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  const referer = header("referer");
  if (referer !== undefined) return URL.canParse(referer) && new URL(referer).origin === own;
  return false;
}

export const requireSameOrigin = createMiddleware<AppContext>(async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !isSameOriginRequest(c.req.url, (name) => c.req.header(name))) {
    throw new ApiError("FORBIDDEN", "Cross-origin form submission refused");
  }
  await next();
});
