import { createMiddleware } from "hono/factory";
import type { AppContext } from "../app-context";

/** A caller's own id is kept (never forwarded upstream) when it is short and plain. */
const clientIdPattern = /^[\w\-=.:]{1,128}$/;

/**
 * Every request gets an id of ours (`x-request-id` on the answer, forwarded upstream, in our logs). A caller's
 * `x-request-id` is not trusted as ours — it could collide with another caller's or forge a trace — but echoed back
 * as `x-client-request-id` so the caller can still match answers to requests.
 */
export const assignRequestId = createMiddleware<AppContext>(async (c, next) => {
  const id = crypto.randomUUID();
  c.set("requestId", id);
  c.header("x-request-id", id);
  const client = c.req.header("x-request-id");
  if (client !== undefined && clientIdPattern.test(client)) c.header("x-client-request-id", client);
  await next();
});
