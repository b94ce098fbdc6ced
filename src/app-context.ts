import type { Env } from "./env";

/** The Hono context of this app: the bindings, and what middleware puts on `c.var` for the routes. */
export type AppContext = {
  Bindings: Env;
  Variables: {
    requestId: string;
    apiKey: import("./accounts/api-key-record").ApiKeyRecord;
    /** When this request must have answered (middleware/request-deadline.ts). */
    deadline: import("./isolate/deadline").Deadline;
    /** Stage durations for `Server-Timing` (middleware/server-timing.ts). */
    timings: import("./http/server-timing").StageTimings;
    /** Config and services of this deployment (middleware/init-services.ts). */
    services: import("./services").Services;
  };
};
