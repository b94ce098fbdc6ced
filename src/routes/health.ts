import { Hono } from "hono";
import type { AppContext } from "../env";

/** Liveness: no key, no upstream call. */
export const healthRoutes = new Hono<AppContext>().get("/health", (c) => c.json({ status: "ok" }));
