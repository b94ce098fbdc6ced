import { Hono } from "hono";
import { z } from "zod/mini";
import type { AppContext } from "../app-context";
import type { Operation } from "./openapi/operation";

const healthOperation: Operation = {
  method: "get",
  path: "/health",
  operationId: "health",
  summary: "Liveness: no key, no upstream call",
  tags: ["meta"],
  authenticated: false,
  responses: {
    200: { description: "The worker is up", schema: z.object({ status: z.literal("ok") }), examples: { ok: { summary: "Up", value: { status: "ok" } } } },
  },
};

/** Liveness: no key, no upstream call. */
export const healthRoutes = new Hono<AppContext>().get(healthOperation.path, (c) => c.json({ status: "ok" }));
export const healthOperations = [healthOperation];
