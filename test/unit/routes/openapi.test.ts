/**
 * GET /openapi.json: a valid OpenAPI 3.1 document that lists every route the app serves, every query parameter,
 * the three ways to present a key and every error each route answers — with examples that match their own schemas.
 * The app runs in Node here (the document needs no binding); test/e2e/docs.page.test.ts reads it from the bundled worker.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp, operations } from "../../../src/app";

type Json = Record<string, any>;
let doc: Json;

beforeAll(async () => {
  // The app reads its config from the env on every request: the document itself needs no binding.
  const res = await buildApp().request("/openapi.json", {}, { UPSTREAM_RPC_URL: "http://127.0.0.1:8899" });
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});

/** Every /api/v1 route answers these; the chain-reading ones (price, overview) also 404 and 503, the trade-index ones read D1 only. */
const restErrorStatuses = ["400", "401", "413", "414", "500", "504"];
const chainErrorStatuses = ["404", "503"];
const tradeIndexPaths = ["/api/v1/trend", "/api/v1/stats", "/api/v1/trades", "/api/v1/ohlcv", "/api/v1/price/history"];
/** The account's own figures (docs/accounts.md): no parameters, no chain, no 400. */
const accountPaths = ["/api/v1/usage"];
/** Routes read from the chain like the overview (no venue, no pool parameter): token safety and holders. */
const securityPaths = ["/api/v1/security", "/api/v1/holders"];
/** The plan's refusals, on every metered (/api/v1) route; price lists also 403 over the plan's mints per request. */
const meteredStatuses = ["402", "429"];

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    // Given the document the worker serves / When an OpenAPI 3.1 schema validator reads it
    const validator = new Validator();
    const result = await validator.validate(doc);
    // Then it is valid, as 3.1
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("lists every route the app registers, and nothing it does not serve", () => {
    // Given every (method, path) the Hono app routes (middleware and catch-alls are registered as ALL)
    const served = new Set(
      buildApp()
        .routes.filter((r) => r.method !== "ALL")
        .map((r) => `${r.method.toLowerCase()} ${r.path}`),
    );
    const documented = new Set(Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)));
    // Then each is documented, and the document's only extra is /docs (a static asset, served before the worker)
    expect([...served].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !served.has(route))).toEqual(["get /docs"]);
    expect([...documented]).toEqual(
      expect.arrayContaining([
        "get /health",
        "get /api/v1/price",
        ...["venue-a", "venue-b", "venue-c", "venue-d", "pumpfun", "raydium", "meteora", "pumpswap"].map((v) => `get /api/v1/${v}`),
        "get /api/v1/overview",
        ...tradeIndexPaths.map((p) => `get ${p}`),
        ...accountPaths.map((p) => `get ${p}`),
        ...securityPaths.map((p) => `get ${p}`),
        "post /rpc",
        "get /rpc",
        "get /openapi.json",
      ]),
    );
  });

  it("documents the query parameters of every REST route", () => {
    const params = (path: string): Json => Object.fromEntries((doc.paths[path].get.parameters as Json[]).map((p) => [p.name, p]));
    const pricePaths = Object.keys(doc.paths).filter(
      (p) => p.startsWith("/api/v1/") && p !== "/api/v1/overview" && !tradeIndexPaths.includes(p) && !accountPaths.includes(p) && !securityPaths.includes(p),
    );
    for (const path of pricePaths) {
      expect(params(path).ca, path).toMatchObject({ in: "query", required: true, schema: { type: "string" } });
      expect(params(path).poolId, path).toMatchObject({ in: "query", required: false, schema: { type: "string" } });
    }
    // Receipts on the price, venue and quote routes; changes on the price and venue routes
    for (const path of pricePaths) {
      expect(params(path).receipt, path).toMatchObject({ in: "query", required: false, schema: { type: "string", enum: ["true", "false"] } });
      if (path !== "/api/v1/quote") expect(params(path).changes, path).toMatchObject({ in: "query", required: false, schema: { type: "string", enum: ["true", "false"] } });
    }
    expect(Object.keys(params("/api/v1/overview"))).toEqual(["ca", "risk", "receipt"]);
    expect(params("/api/v1/overview").risk).toMatchObject({ in: "query", required: false, schema: { type: "string", enum: ["true", "false"] } });
    expect(Object.fromEntries(Object.entries(params("/api/v1/security")).map(([name, p]) => [name, p.required]))).toEqual({ ca: true });
    expect(Object.fromEntries(Object.entries(params("/api/v1/holders")).map(([name, p]) => [name, p.required]))).toEqual({ ca: true, limit: false, cursor: false });
    expect(doc.paths["/api/v1/usage"].get.parameters ?? []).toEqual([]);
    // Price history: one mint and one of time or slot (the route refuses neither and both)
    expect(Object.fromEntries(Object.entries(params("/api/v1/price/history")).map(([name, p]) => [name, p.required]))).toEqual({ ca: true, time: false, slot: false });
    // The trade-index routes: integers are digit strings in the query, required where the route cannot do without them
    const integer = { type: "string", pattern: "^[0-9]{1,15}$" };
    expect(params("/api/v1/trend")).toEqual({
      hour: expect.objectContaining({ in: "query", required: true, schema: integer }),
      limit: expect.objectContaining({ in: "query", required: true, schema: integer }),
    });
    expect(Object.fromEntries(Object.entries(params("/api/v1/trades")).map(([name, p]) => [name, p.required]))).toEqual({ ca: false, wallet: false, limit: false, cursor: false });
    expect(Object.fromEntries(Object.entries(params("/api/v1/ohlcv")).map(([name, p]) => [name, p.required]))).toEqual({
      ca: true,
      interval: true,
      from: false,
      to: false,
      limit: false,
      currency: false,
      fillEmpty: false,
    });
    expect(params("/api/v1/ohlcv").interval.schema).toMatchObject({ type: "string", enum: ["1s", "1m", "5m", "15m", "1h", "4h", "1d"] });
    expect(params("/api/v1/ohlcv").currency.schema).toMatchObject({ type: "string", enum: ["usd", "sol"] });
  });

  it("documents the key: header x-api-key, Authorization Bearer and query x-api-key, required on /api/*, /rpc and /mcp only", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKeyHeader: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
      bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
      apiKeyQuery: expect.objectContaining({ type: "apiKey", in: "query", name: "x-api-key" }),
    });
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const op of Object.values(item as Json)) {
        const keyed = path.startsWith("/api/") || path === "/rpc" || path === "/mcp";
        expect(op.security, path).toEqual(keyed ? [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }] : []);
      }
    }
  });

  it("documents every error each route answers, with the spec's envelope on REST and JSON-RPC bodies on /rpc", () => {
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith("/api/v1/"))) {
      const responses = doc.paths[path].get.responses as Json;
      if (accountPaths.includes(path)) {
        expect(Object.keys(responses), path).toEqual(expect.arrayContaining(["200", "401", "413", "414", "500", ...meteredStatuses]));
        continue;
      }
      const priced = !tradeIndexPaths.includes(path) && path !== "/api/v1/overview" && !securityPaths.includes(path) && path !== "/api/v1/quote";
      const statuses = [...(tradeIndexPaths.includes(path) ? restErrorStatuses : [...restErrorStatuses, ...chainErrorStatuses]), ...meteredStatuses, ...(priced ? ["403"] : [])];
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(["200", ...statuses]));
      for (const status of statuses) {
        expect(responses[status].content["application/json"].schema, `${path} ${status}`).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
        for (const example of Object.values(responses[status].content["application/json"].examples as Json)) {
          expect(example.value.error.code, `${path} ${status}`).toBe(Number(status));
        }
      }
      // The validation hook's message for a missing required parameter is the one params.ts always gave for ca
      const messages = Object.values(responses["400"].content["application/json"].examples as Json).map((e) => e.value.error.message);
      const required = (doc.paths[path].get.parameters as Json[]).filter((p) => p.required).map((p) => p.name as string);
      expect(messages, path).toContain(`Missing required query parameter: ${required.includes("ca") ? "ca" : (required[0] ?? "ca or wallet")}`);
    }
    expect(Object.keys(doc.paths["/rpc"].post.responses)).toEqual(expect.arrayContaining(["200", "204", "401", "402", "405", "413", "415", "429", "500", "504"]));
    expect(Object.keys(doc.paths["/rpc"].get.responses)).toEqual(expect.arrayContaining(["101", "401", "405", "503"]));
  });

  it("has an example for every answer with a body, each valid against the schema it documents", () => {
    // Given the operations as the routes declare them (zod schemas, not their JSON Schema rendering)
    for (const op of operations) {
      const where = `${op.method} ${op.path}`;
      if (op.requestBody) {
        expect(Object.keys(op.requestBody.examples).length, where).toBeGreaterThan(0);
        for (const example of Object.values(op.requestBody.examples)) expect(parse(op.requestBody.schema, example.value), where).toEqual([]);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.schema && !response.contentType) continue; // 101, 204: no body
        // Then every answer with a body has at least one example, and each example parses with the answer's schema
        expect(Object.keys(response.examples).length, `${where} ${status}`).toBeGreaterThan(0);
        if (!response.schema) continue;
        for (const [name, example] of Object.entries(response.examples)) expect(parse(response.schema, example.value), `${where} ${status} ${name}`).toEqual([]);
      }
    }
  });
});

function parse(schema: { "~standard": { validate(value: unknown): unknown } }, value: unknown): unknown[] {
  const result = schema["~standard"].validate(value) as { issues?: unknown[] };
  return result.issues ?? [];
}
