import { Hono } from "hono";
import type { AppContext } from "../env";
import { parseMintList } from "./params";
import { ApiError } from "../errors/api-error";

export const priceRoutes = new Hono<AppContext>().get("/price", (c) => {
  parseMintList(c.req.query("ca"));
  throw new ApiError("UPSTREAM_UNAVAILABLE");
});
