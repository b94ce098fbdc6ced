import { Hono } from "hono";
import type { AppContext } from "../env";
import { priceRoutes } from "./price";
import { overviewRoutes } from "./overview";

/** Everything under /api/v1 (the key is already checked by the app). */
export const apiV1Routes = new Hono<AppContext>().route("/", priceRoutes).route("/", overviewRoutes);
