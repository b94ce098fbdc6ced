/**
 * Property-based fuzz of the account forms: random fields (names, values with markup, over-long, control characters),
 * content types, origins and cookies on every POST route and the GET pages. Every answer is one of the documented
 * ones, never a 5xx; refusals are HTML pages except the 403 / 413 envelopes; no injected markup comes back unescaped.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base } from "../helpers/http";
import { signUp } from "../helpers/account-web";
import { callWorker } from "../helpers/worker";

const SEED = 1325;
const RUNS = 120;
const marker = "<x-inj>";
let sent = 0;

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 10 }).map((s) => `${s}${marker}${s}`),
  fc.constantFrom("", " ", "a@b.co", "ada@example.com", "x".repeat(300), "\u0000\u0001", "é@ü.de", "%00", "ref=1&name=2"),
);
const fieldName = fc.constantFrom("email", "password", "ref", "name", "keyId", "confirm", "other", "");
const fields = fc.dictionary(fieldName, text, { maxKeys: 5 });
const contentType = fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json", "text/plain", "");
const origin = fc.oneof({ weight: 5, arbitrary: fc.constant(base) }, { weight: 1, arbitrary: fc.constantFrom("https://evil.example", "null", "") });

type Case = { path: string; fields: Record<string, string>; contentType: string; origin: string; signedIn: boolean };

const routes = ["/signup", "/login", "/logout", "/dashboard/keys", "/dashboard/keys/revoke"];
const allowed: Record<string, number[]> = {
  "/signup": [303, 400, 403, 409, 413, 429],
  "/login": [303, 400, 401, 403, 413, 429],
  "/logout": [303, 403, 413],
  "/dashboard/keys": [303, 400, 403, 409, 413],
  "/dashboard/keys/revoke": [200, 303, 403, 404, 413],
};

describe("account forms fuzz: documented answers only, never a 5xx, nothing injected comes back raw", () => {
  it.each(routes)(`POST %s: ${RUNS} random forms`, async (path) => {
    const { cookie } = await signUp(`fuzz-${path.replace(/\W/g, "")}@example.com`, "correct horse battery", { ip: "198.51.100.90" });
    await fc.assert(
      fc.asyncProperty(fc.record({ fields, contentType, origin, signedIn: fc.boolean() }), async (c) => {
        const req: Case = { path, ...c };
        const body = req.contentType.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(req.fields).toString() : JSON.stringify(req.fields);
        // a fresh client address per request: the throttles are tested elsewhere, here they would only hide the forms
        sent++;
        const headers: Record<string, string> = { "cf-connecting-ip": `10.9.${sent >> 8}.${sent & 255}` };
        if (req.contentType) headers["content-type"] = req.contentType;
        if (req.origin) headers.origin = req.origin;
        if (req.signedIn) headers.cookie = cookie;
        const res = await callWorker({ request: new Request(`${base}${path}`, { method: "POST", headers, body, redirect: "manual" }) });
        const answer = await res.text();
        const where = `${path} ${JSON.stringify(req)} → ${res.status} ${answer.slice(0, 200)}`;
        expect(allowed[path], where).toContain(res.status);
        if (res.status === 403 || res.status === 413) expect(JSON.parse(answer).error.code, where).toBe(res.status);
        else if (res.status !== 303) expect(res.headers.get("content-type"), where).toMatch(/^text\/html/);
        expect(answer, where).not.toContain(marker);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 60_000);

  it(`GET pages with random queries and cookies: ${RUNS} requests`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/signup", "/login", "/dashboard", "/dashboard/keys/revoke"), fc.dictionary(fc.constantFrom("ref", "signed-out", "keyId", "x"), text, { maxKeys: 2 }), text, async (path, query, cookie) => {
        const url = `${base}${path}?${new URLSearchParams(query).toString()}`;
        const res = await callWorker({ request: new Request(url, { headers: { cookie: `__Host-tmd_session=${encodeURIComponent(cookie)}` }, redirect: "manual" }) });
        const answer = await res.text();
        expect([200, 303], `${url} → ${res.status}`).toContain(res.status);
        expect(answer).not.toContain(marker);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
