import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { ApiError, errorResponse } from "./errors/api-error";
import { limits } from "./limits";
import { requireApiKey } from "./middleware/auth";
import { requestDeadline } from "./middleware/request-deadline";
import { assignRequestId } from "./middleware/request-id";
import { serverTiming } from "./middleware/server-timing";
import { initServices } from "./middleware/init-services";
import { healthOperations, healthRoutes } from "./routes/health";
import { apiV1Operations, apiV1Routes, pricePaths } from "./routes/api-v1";
import { meteredRest } from "./middleware/metering";
import { openApiOperations, openApiRoutes } from "./routes/openapi/openapi-route";
import { rpcOperations } from "./routes/openapi/rpc-operations";
import { rpcRoutes } from "./routes/rpc";
import { streamsOperations, streamsRoutes } from "./routes/streams";
import { accountWebOperations, accountWebRoutes } from "./routes/account/account-web";
import type { AppContext } from "./app-context";
import { mcpOperation, mcpRoutes } from "./mcp/mcp-route";

/** Every route the app serves, as `GET /openapi.json` documents it (test/unit/routes/openapi.test.ts checks none is missing). */
export const operations = [...healthOperations, ...apiV1Operations, ...rpcOperations, ...streamsOperations, ...openApiOperations, ...accountWebOperations, mcpOperation];

/**
 * The Hono app: request id → Server-Timing → URL/body caps → deadline → auth (per sub-app) → routes; one error path
 * renders the envelope.
 */
export function buildApp() {
  const app = new Hono<AppContext>();

  app.use("*", assignRequestId);
  app.use("*", serverTiming);
  app.use("*", initServices);
  app.use("*", async (c, next) => {
    if (c.req.url.length > limits.maxUrlLength) throw new ApiError("URI_TOO_LONG", `Request URL longer than ${limits.maxUrlLength} characters`);
    await next();
  });

  app.route("/", healthRoutes);
  app.route("/", openApiRoutes(operations));
  app.route("/", rpcRoutes);
  app.route("/", streamsRoutes);
  // The account web app: pages behind a session cookie, not the API-key middleware below.
  app.route("/", accountWebRoutes);

  app.use(
    "/api/*",
    bodyLimit({
      maxSize: limits.maxRestBodyBytes,
      onError: () => {
        throw new ApiError("PAYLOAD_TOO_LARGE", `Request body larger than ${limits.maxRestBodyBytes} bytes`);
      },
    }),
  );
  app.use("/api/*", requestDeadline(limits.requestDeadlineMs));
  // MCP: each tool call is answered by this app as the REST request it stands for (metered there, not here).
  app.use(
    "/mcp",
    bodyLimit({
      maxSize: limits.maxMcpBodyBytes,
      onError: () => {
        throw new ApiError("PAYLOAD_TOO_LARGE", `Request body larger than ${limits.maxMcpBodyBytes} bytes`);
      },
    }),
  );
  app.route("/", mcpRoutes(operations, (request, env, ctx) => app.fetch(request, env, ctx)));
  app.use("/api/*", requireApiKey);
  app.use("/api/*", meteredRest(pricePaths));
  app.route("/", apiV1Routes);

  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      return errorResponse(new ApiError("METHOD_NOT_ALLOWED", `Method ${c.req.method} not allowed on ${c.req.path}`, { allow: allowed.join(", ") }), c.get("requestId"));
    }
    return errorResponse(new ApiError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), c.get("requestId"));
  });

  app.onError((err, c) => {
    const id = c.get("requestId");
    if (err instanceof ApiError) return errorResponse(err, id);
    if (err instanceof HTTPException && err.status < 500) return errorResponse(new ApiError(statusToCode(err.status), err.message || undefined), id);
    // Unexpected: log for operators (no request data beyond the id), answer generically.
    console.error(JSON.stringify({ level: "error", requestId: id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
    return errorResponse(new ApiError("INTERNAL"), id);
  });

  return app;

  function allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const route of app.routes) {
      if (route.method === "ALL") continue;
      if (matches(route.path, path)) methods.add(route.method);
    }
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  }
}

function matches(pattern: string, path: string): boolean {
  if (pattern === path) return true;
  if (!pattern.includes(":") && !pattern.includes("*")) return false;
  const re = new RegExp(`^${pattern.replace(/\*/g, ".*").replace(/:[^/]+/g, "[^/]+")}$`);
  return re.test(path);
}

function statusToCode(status: number) {
  switch (status) {
    case 401: return "UNAUTHORIZED" as const;
    case 404: return "NOT_FOUND" as const;
    case 405: return "METHOD_NOT_ALLOWED" as const;
    case 413: return "PAYLOAD_TOO_LARGE" as const;
    case 414: return "URI_TOO_LONG" as const;
    case 429: return "TOO_MANY_REQUESTS" as const;
    default: return "BAD_REQUEST" as const;
  }
}
