import { beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { get, getJson } from "../helpers/http";
import { limits } from "../../src/limits";

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});
const auth = () => ({ headers: { "x-api-key": key } });

function expectEnvelope(body: unknown, code: number) {
  expect(body).toMatchObject({ status: "error", error: { code } });
  expect(typeof (body as { error: { message: unknown } }).error.message).toBe("string");
}

describe("error envelope", () => {
  it("GET /health answers without a key and carries x-request-id", async () => {
    const res = await getJson("/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
  });

  it("never adopts a caller-supplied x-request-id: ours is answered, the caller's echoed as x-client-request-id", async () => {
    const res = await get("/health", { headers: { "x-request-id": "abc-123" } });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-client-request-id")).toBe("abc-123");
  });

  it("unknown route → 404 envelope", async () => {
    const res = await getJson("/api/v1/nope", auth());
    expect(res.status).toBe(404);
    expectEnvelope(res.body, 404);
    const root = await getJson("/nope");
    expect(root.status).toBe(404);
    expectEnvelope(root.body, 404);
  });

  it("wrong method → 405 envelope with Allow", async () => {
    const res = await get("/api/v1/price?ca=So11111111111111111111111111111111111111112", { ...auth(), method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expectEnvelope(await res.json(), 405);
  });

  it("missing ca → 400 naming ca", async () => {
    for (const path of ["/api/v1/price", "/api/v1/price?ca=", "/api/v1/price?ca=%20,%20", "/api/v1/overview"]) {
      const res = await getJson<{ error: { message: string } }>(path, auth());
      expect(res.status).toBe(400);
      expectEnvelope(res.body, 400);
      expect(res.body.error.message).toContain("ca");
    }
  });

  it("malformed base58 → 400 naming the bad value", async () => {
    for (const bad of ["0OIl", "So1111111111111111111111111111111111111111", "abc!", "x".repeat(100)]) {
      const res = await getJson<{ error: { message: string } }>(`/api/v1/price?ca=${encodeURIComponent(bad)}`, auth());
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(bad.slice(0, 20));
    }
  });

  it("URL at the cap is served; one char longer → 414", async () => {
    const prefix = "https://api.test/health?pad=";
    const atCap = await get(`/health?pad=${"a".repeat(limits.maxUrlLength - prefix.length)}`);
    expect(atCap.status).toBe(200);
    const over = await get(`/health?pad=${"a".repeat(limits.maxUrlLength - prefix.length + 1)}`);
    expect(over.status).toBe(414);
    expectEnvelope(await over.json(), 414);
  });

  it("REST body at the cap passes the body check (then 405); one byte more → 413", async () => {
    const at = await get("/api/v1/overview", { method: "POST", headers: auth().headers, body: "x".repeat(limits.maxRestBodyBytes) });
    expect(at.status).toBe(405);
    const over = await get("/api/v1/overview", { method: "POST", headers: auth().headers, body: "x".repeat(limits.maxRestBodyBytes + 1) });
    expect(over.status).toBe(413);
    expectEnvelope(await over.json(), 413);
  });
});
