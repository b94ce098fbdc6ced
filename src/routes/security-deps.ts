import type { Context } from "hono";

import type { AppContext } from "../app-context";
import { securityCaches, type SecurityDeps } from "../security/security-service";

/** The security service's dependencies for one request: GET /api/v1/security, /api/v1/holders, and the overview's `risk=true`. */
export function securityDepsOf(c: Context<AppContext>): SecurityDeps {
  const { config, upstream, prices } = c.get("services");
  return {
    upstream,
    prices,
    db: c.env.DB,
    allowHolderScan: config.holdersFullScan,
    caches: securityCaches,
    waitUntil: (p) => c.executionCtx.waitUntil(p),
    requestId: c.get("requestId"),
    deadline: c.get("deadline"),
  };
}

