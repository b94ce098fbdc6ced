import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { get } from "../helpers/http";
import { apiKeyKvPrefix } from "../../src/accounts/api-key-record";

const wsol = "So11111111111111111111111111111111111111112";
const unauthorized = { status: "error", error: { code: 401, message: "Missing or invalid API key" } };

describe("API keys", () => {
  it("stores only the SHA-256 hash: no KV key or value contains the plaintext", async () => {
    // Given a freshly created key
    const key = await newApiKey({ name: "my bot" });
    // When we list everything in KV
    const listed = await env.API_KEYS.list();
    const names = listed.keys.map((k) => k.name);
    const values = await Promise.all(names.map((n) => env.API_KEYS.get(n)));
    // Then the plaintext (or its random part) appears nowhere, and the record is keyed by its hash
    const secret = key.slice(4);
    for (const n of names) expect(n.includes(secret)).toBe(false);
    for (const v of values) expect(v?.includes(secret)).toBe(false);
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)))].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(names).toContain(`${apiKeyKvPrefix}${digest}`);
  });

  it("missing, malformed, unknown and revoked keys get byte-identical 401 bodies", async () => {
    const revoked = await newApiKey({ revoked: true });
    const unknown = "tmd_" + "A".repeat(32);
    const cases: [string, RequestInit][] = [
      [`/api/v1/price?ca=${wsol}`, {}],
      [`/api/v1/price?ca=${wsol}`, { headers: { "x-api-key": "not-a-key" } }],
      [`/api/v1/price?ca=${wsol}`, { headers: { "x-api-key": unknown } }],
      [`/api/v1/price?ca=${wsol}&x-api-key=${unknown}`, {}],
      [`/api/v1/price?ca=${wsol}`, { headers: { "x-api-key": revoked } }],
      [`/api/v1/price?ca=${wsol}&x-api-key=${revoked}`, {}],
    ];
    const bodies: string[] = [];
    for (const [path, init] of cases) {
      const res = await get(path, init);
      expect(res.status).toBe(401);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      bodies.push(await res.text());
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toEqual(unauthorized);
  });

  it("accepts a valid key in the header or in the query", async () => {
    const key = await newApiKey();
    const viaHeader = await get(`/api/v1/overview`, { headers: { "x-api-key": key } });
    const viaQuery = await get(`/api/v1/overview?x-api-key=${key}`);
    // Authenticated: the next check (missing ca) answers, not auth.
    expect(viaHeader.status).toBe(400);
    expect(viaQuery.status).toBe(400);
  });

  it("checks the key before the parameters (no information for unauthenticated callers)", async () => {
    const res = await get(`/api/v1/price`);
    expect(res.status).toBe(401);
  });
});
