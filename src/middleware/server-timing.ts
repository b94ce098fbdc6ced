import { createMiddleware } from "hono/factory";
import type { AppContext } from "../app-context";
import { StageTimings } from "../http/server-timing";

/** Every answer carries `Server-Timing` with the stages the request went through (src/http/server-timing.ts). */
export const serverTiming = createMiddleware<AppContext>(async (c, next) => {
  const timings = new StageTimings();
  c.set("timings", timings);
  await next();
  c.res.headers.set("server-timing", timings.header());
});
