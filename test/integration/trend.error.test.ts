/**
 * GET /api/v1/trend refusals and the empty index: `hour` (1..24) and `limit` (1..100) are required integers, each
 * refused by name at N+1 and accepted at N; before the cron's first ingest the answer is 200 with no ranks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});

async function trend(query: string): Promise<{ status: number; body: any }> {
  const res = await callWorker({ path: `/api/v1/trend${query}` }, { key });
  return { status: res.status, body: await res.json() };
}
const badRequest = (message: string) => ({ status: "error", error: { code: 400, message } });

describe("GET /api/v1/trend: parameters", () => {
  it.each([
    ["no parameters", "", "Missing required query parameter: hour"],
    ["no hour", "?limit=10", "Missing required query parameter: hour"],
    ["no limit", "?hour=1", "Missing required query parameter: limit"],
  ])("%s → 400 naming the parameter", async (_, query, message) => {
    expect(await trend(query)).toEqual({ status: 400, body: badRequest(message) });
  });

  it("hour: 0 and 25 refused, 1 and 24 accepted", async () => {
    expect(await trend("?hour=0&limit=10")).toEqual({ status: 400, body: badRequest("Invalid query parameter hour: must be at least 1") });
    expect(await trend(`?hour=${limits.trendMaxHour + 1}&limit=10`)).toEqual({ status: 400, body: badRequest("Invalid query parameter hour: must be at most 24") });
    expect((await trend("?hour=1&limit=10")).status).toBe(200);
    expect((await trend(`?hour=${limits.trendMaxHour}&limit=10`)).status).toBe(200);
  });

  it("limit: 0 and 101 refused, 1 and 100 accepted", async () => {
    expect(await trend("?hour=1&limit=0")).toEqual({ status: 400, body: badRequest("Invalid query parameter limit: must be at least 1") });
    expect(await trend(`?hour=1&limit=${limits.trendMaxLimit + 1}`)).toEqual({ status: 400, body: badRequest("Invalid query parameter limit: must be at most 100") });
    expect((await trend("?hour=1&limit=1")).status).toBe(200);
    expect((await trend(`?hour=1&limit=${limits.trendMaxLimit}`)).status).toBe(200);
  });

  it.each(["", "1.5", "-1", "+1", "1e1", "0x1", " 1", "six", "99999999999999999999"])("hour=%j is not an integer in range → 400 naming hour", async (hour) => {
    const res = await trend(`?hour=${encodeURIComponent(hour)}&limit=10`);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe("error");
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid query parameter hour: /);
  });

  it.each(["", "2.0", "ten", "-5"])("limit=%j → 400 naming limit", async (limit) => {
    const res = await trend(`?hour=6&limit=${encodeURIComponent(limit)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid query parameter limit: /);
  });
});

describe("GET /api/v1/trend before the first ingest", () => {
  it("answers 200 with no ranks, the request echoed, slot and updatedAt null", async () => {
    // Given an empty trend_windows table (this file's D1 is fresh) / When a window is asked
    const res = await trend("?hour=12&limit=5");
    // Then
    expect(res).toEqual({ status: 200, body: { hour: 12, limit: 5, updatedAt: null, slot: null } });
  });
});
