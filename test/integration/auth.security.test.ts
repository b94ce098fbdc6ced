import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { base, get } from "../helpers/http";
import { world } from "../helpers/localnet";
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

describe("API keys: Authorization: Bearer (audit issue 8)", () => {
  const rpcUnauthorized = { jsonrpc: "2.0", id: null, error: { code: -32056, message: "Missing or invalid API key" } };
  const getSlot = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" });
  const postRpc = (path: string, headers: Record<string, string>) =>
    SELF.fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: getSlot });
  const tradableMint = async () => {
    const manifest = await world();
    return manifest.tokens.find((t) => t.venues.includes("pumpswap") && !t.tags.includes("complete"))!.mint;
  };

  it("REST: a valid key as a Bearer token answers 200 on price and overview", async () => {
    // Given a valid key and a token the local chain prices
    const key = await newApiKey();
    const mint = await tradableMint();
    for (const path of [`/api/v1/price?ca=${mint}`, `/api/v1/venue-d?ca=${mint}`, `/api/v1/overview?ca=${mint}`]) {
      // When it is presented only as `Authorization: Bearer <key>`
      const res = await get(path, { headers: { authorization: `Bearer ${key}` } });
      // Then the route answers
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      await res.body?.cancel();
    }
  });

  it("REST: the scheme is case-insensitive and surrounding spaces are ignored", async () => {
    const key = await newApiKey();
    for (const authorization of [`bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}  `]) {
      const res = await get(`/api/v1/overview`, { headers: { authorization } });
      expect(res.status, authorization).toBe(400); // past auth: the missing `ca` answers
    }
  });

  it("REST: a bad Bearer token gets the same 401 envelope as any bad key", async () => {
    const revoked = await newApiKey({ revoked: true });
    for (const authorization of ["Bearer not-a-key", `Bearer tmd_${"A".repeat(32)}`, `Bearer ${revoked}`, "Bearer", "Bearer "]) {
      const res = await get(`/api/v1/price?ca=${wsol}`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual(unauthorized);
    }
  });

  it("REST: other schemes (Basic, Token, a bare key) are ignored: 401 when no other key is given", async () => {
    const key = await newApiKey();
    for (const authorization of [`Basic ${btoa(`user:${key}`)}`, `Basic ${key}`, `Token ${key}`, key, `Bearer${key}`]) {
      const res = await get(`/api/v1/price?ca=${wsol}`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual(unauthorized);
    }
    // …and do not hide a valid key given elsewhere
    const viaQuery = await get(`/api/v1/overview?x-api-key=${key}`, { headers: { authorization: "Basic dXNlcjpwdw==" } });
    expect(viaQuery.status).toBe(400);
  });

  it("REST: precedence is x-api-key header, then Bearer, then query", async () => {
    const key = await newApiKey();
    const bad = `tmd_${"B".repeat(32)}`;
    // header wins over Bearer and query
    expect((await get(`/api/v1/overview?x-api-key=${bad}`, { headers: { "x-api-key": key, authorization: `Bearer ${bad}` } })).status).toBe(400);
    expect((await get(`/api/v1/overview?x-api-key=${key}`, { headers: { "x-api-key": bad, authorization: `Bearer ${key}` } })).status).toBe(401);
    // Bearer wins over query
    expect((await get(`/api/v1/overview?x-api-key=${bad}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(400);
    expect((await get(`/api/v1/overview?x-api-key=${key}`, { headers: { authorization: `Bearer ${bad}` } })).status).toBe(401);
  });

  it("/rpc: a valid Bearer token answers 200; a bad one or a Basic credential alone gets the JSON-RPC 401", async () => {
    const key = await newApiKey();
    const ok = await postRpc("/rpc", { authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: expect.any(Number) });

    for (const authorization of ["Bearer not-a-key", `Bearer tmd_${"A".repeat(32)}`, `Basic ${btoa(`user:${key}`)}`]) {
      const res = await postRpc("/rpc", { authorization });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual(rpcUnauthorized);
    }
    // The x-api-key header still wins over a bad Bearer, and a Bearer over a bad query key.
    expect((await postRpc("/rpc", { "x-api-key": key, authorization: "Bearer nope" })).status).toBe(200);
    expect((await postRpc(`/rpc?x-api-key=tmd_${"C".repeat(32)}`, { authorization: `Bearer ${key}` })).status).toBe(200);
  });
});

