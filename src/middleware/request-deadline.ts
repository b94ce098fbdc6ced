import { createMiddleware } from "hono/factory";
import type { AppContext } from "../app-context";
import { deadlineIn, within } from "../isolate/deadline";

/**
 * Every request answers by its deadline: past it, `DeadlineExceeded` reaches the error handler (504 in the route's
 * own error format) while the unfinished work is dropped. Nothing shared is lost with it: work other requests wait
 * for runs as tasks owned by no request (isolate/shared-tasks.ts), and their waits end by the same deadline.
 */
export function requestDeadline(ms: number) {
  return createMiddleware<AppContext>(async (c, next) => {
    const deadline = deadlineIn(ms);
    c.set("deadline", deadline);
    await within(next(), deadline);
  });
}
