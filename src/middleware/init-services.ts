import { createMiddleware } from "hono/factory";
import type { AppContext } from "../app-context";
import { servicesOf } from "../services";

/** Puts the config and services on `c.var.services` (parsed and built once per env object: a map lookup after that). */
export const initServices = createMiddleware<AppContext>(async (c, next) => {
  c.set("services", servicesOf(c.env));
  await next();
});
