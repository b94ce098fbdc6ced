import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { base } from "../helpers/http";
import { newApiKey } from "../helpers/keys";

/**
 * The six bad-key cases on every keyed route: missing, malformed, unknown (header and query) and revoked (header and
 * query) keys get byte-identical 401 bodies — the REST envelope on /api/v1, a JSON-RPC error on /rpc — decided before
 * parameters are looked at. The route list comes from the app itself, so a new route is covered the day it lands.
 */
const wsol = "So11111111111111111111111111111111111111112";
const restUnauthorized = { status: "error", error: { code: 401, message: "Missing or invalid API key" } };
const rpcUnauthorized = { jsonrpc: "2.0", id: null, error: { code: -32056, message: "Missing or invalid API key" } };

const keyedRestRoutes = [...new Set(buildApp().routes.filter((r) => r.method === "GET" && r.path.startsWith("/api/v1/")).map((r) => r.path))];

async function badKeyCases(): Promise<[string, (path: string) => [string, Record<string, string>]][]> {
  const revoked = await newApiKey({ revoked: true });
  const unknown = "tmd_" + "A".repeat(32);
  const query = (path: string, key: string) => `${path}${path.includes("?") ? "&" : "?"}x-api-key=${key}`;
  return [
    ["missing", (path) => [path, {}]],
    ["malformed", (path) => [path, { "x-api-key": "not-a-key" }]],
    ["unknown in the header", (path) => [path, { "x-api-key": unknown }]],
    ["unknown in the query", (path) => [query(path, unknown), {}]],
    ["revoked in the header", (path) => [path, { "x-api-key": revoked }]],
    ["revoked in the query", (path) => [query(path, revoked), {}]],
  ];
}

describe("every keyed route refuses bad keys the same way", () => {
  it("the app serves the routes the spec names (the list below is not empty by accident)", () => {
    for (const path of ["/api/v1/price", "/api/v1/venue-a", "/api/v1/venue-b", "/api/v1/venue-c", "/api/v1/venue-d", "/api/v1/overview", "/api/v1/trend", "/api/v1/trades", "/api/v1/ohlcv"]) {
      expect(keyedRestRoutes).toContain(path);
    }
  });

  it("REST: 401 envelope, byte-identical, on every /api/v1 route, with and without parameters", async () => {
    const cases = await badKeyCases();
    const bodies = new Set<string>();
    for (const route of keyedRestRoutes) {
      // With parameters the route would accept (the trade-index routes read D1 only: a good key would get a 200)
      for (const path of [route, `${route}?ca=${wsol}`, `${route}?ca=${wsol}&hour=1&limit=1&interval=1m`]) {
        for (const [name, make] of cases) {
          const [url, headers] = make(path);
          const res = await SELF.fetch(`${base}${url}`, { headers });
          expect(res.status, `${name} ${url}`).toBe(401);
          bodies.add(await res.text());
        }
      }
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!)).toEqual(restUnauthorized);
  });

  it("/rpc: the JSON-RPC 401 body, byte-identical, for every case", async () => {
    const cases = await badKeyCases();
    const bodies = new Set<string>();
    for (const [name, make] of cases) {
      const [url, headers] = make("/rpc");
      const res = await SELF.fetch(`${base}${url}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}' });
      expect(res.status, name).toBe(401);
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!)).toEqual(rpcUnauthorized);
  });

  it("a good key passes on every route (the next check answers, not auth)", async () => {
    const key = await newApiKey();
    for (const route of keyedRestRoutes) {
      const res = await SELF.fetch(`${base}${route}`, { headers: { "x-api-key": key } });
      expect(res.status, route).not.toBe(401);
    }
  });
});
