/**
 * The validation hook of described routes (src/routes/openapi/operation.ts): a query that does not match the route's
 * schema never reaches the handler and is the spec's 400 envelope naming the parameter.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { ApiError, errorResponse } from "../../../src/errors/api-error";
import { validQuery } from "../../../src/routes/openapi/operation";

const query = z.object({ ca: z.string(), hour: z.optional(z.string().check(z.regex(/^\d+$/))) });
const app = new Hono()
  .get("/q", validQuery(query), (c) => c.json(c.req.valid("query")))
  .onError((err) => errorResponse(err instanceof ApiError ? err : new ApiError("INTERNAL")));

async function get(path: string) {
  const res = await app.request(path);
  return { status: res.status, body: await res.json() };
}

describe("validQuery", () => {
  it("passes the declared parameters to the handler, typed, and reads no other", async () => {
    expect(await get("/q?ca=abc&hour=6&x-api-key=secret")).toEqual({ status: 200, body: { ca: "abc", hour: "6" } });
  });

  it("answers a missing required parameter with the 400 envelope naming it", async () => {
    expect(await get("/q?hour=6")).toEqual({ status: 400, body: { status: "error", error: { code: 400, message: "Missing required query parameter: ca" } } });
  });

  it("answers a malformed parameter with the 400 envelope naming it", async () => {
    // zod/mini has no locale loaded: the hook says what was expected rather than zod's bare "Invalid input"
    expect(await get("/q?ca=abc&hour=six")).toEqual({
      status: 400,
      body: { status: "error", error: { code: 400, message: "Invalid query parameter hour: must match /^\\d+$/" } },
    });
  });

  it("takes the first of repeated parameters, as c.req.query(name) always did", async () => {
    expect(await get("/q?ca=first&ca=second")).toEqual({ status: 200, body: { ca: "first" } });
  });
});
