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
    200: {
      description: "The worker is up",
      schema: z.object({ status: z.literal("ok"), instance: z.optional(z.string()) }),
      examples: { ok: { summary: "Up", value: { status: "ok" } } },
    },
  },
};

/**
 * Liveness: no key, no upstream call. Under `npm start` the answer carries the run's random nonce (`INSTANCE_NONCE`,
 * set by scripts/start.ts only), so the script never takes another server on its port for the worker it started.
 */
export const healthRoutes = new Hono<AppContext>().get(healthOperation.path, (c) =>
  c.json(c.env.INSTANCE_NONCE ? { status: "ok" as const, instance: c.env.INSTANCE_NONCE } : { status: "ok" as const }),
);
export const healthOperations = [healthOperation];
