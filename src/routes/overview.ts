import { Hono } from "hono";
import type { AppContext } from "../env";
import { parseSingleMint } from "./params";
import { ApiError } from "../errors/api-error";

export const overviewRoutes = new Hono<AppContext>().get("/overview", (c) => {
  parseSingleMint(c.req.query("ca"));
  throw new ApiError("UPSTREAM_UNAVAILABLE");
});
