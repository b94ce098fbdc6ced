/**
 * Property-based fuzz of the REST routes (audit issue 8): thousands of random requests per route — missing, empty and
 * duplicate `ca`, garbage, unicode, values up to and past the 8 KiB URL cap, comma lists of 0..150 items mixing world
 * mints, random valid addresses and invalid ones, `poolId`, unknown params, raw and broken percent-encoding, now and
 * then another method, a body or odd headers — always with a valid key in `x-api-key`.
 *
 * Properties (localnet is healthy, so no 5xx at all is expected):
 * - status < 500;
 * - every non-200 body is exactly `{status:"error", error:{code:<the HTTP status>, message:<non-empty string>}}`;
 * - every 200 body is JSON (HEAD: no body at all).
 *
 * Each fast-check run is one chunk of {@link CHUNK} requests sent concurrently; a failure names the request and the
 * answer, and fast-check prints the seed and path to replay it (`SEED` below, and `path` in fc.assert's options).
 *
 * The routes are shared out over the files test/integration/rest.fuzz.*.test.ts (each route is ~30 s of requests, too
 * much for one lane); this module holds the generators and the check.
 */
import { getAddressDecoder, getBase58Decoder } from "@solana/kit";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { limits } from "../../src/limits";
import { base } from "./http";
import { newApiKey } from "./keys";
import { world } from "./localnet";
import { callWorker } from "./worker";

/** Fixed so any failure replays; each route uses SEED + its index. */
const SEED = 20_260_408;
/** Requests per fast-check run, sent concurrently. */
const CHUNK = 50;
/** Runs per route: RUNS × CHUNK ≥ 5,000 requests per route. */
const RUNS = 100;

/** Every REST route the fuzz covers; a route's index fixes its seed, whichever file runs it. */
export const REST_FUZZ_ROUTES = ["/api/v1/price", "/api/v1/venue-a", "/api/v1/venue-b", "/api/v1/venue-c", "/api/v1/venue-d", "/api/v1/overview"] as const;

type FuzzRequest = { method: string; path: string; query: string; headers: Record<string, string>; body?: string };
type Verdict = { ok: true; status: number } | { ok: false; why: string; status: number; body: string };

let key = "";
let worldMints: string[] = [];
let worldPools: string[] = [];

// ---- arbitraries -------------------------------------------------------------------------------------------------

const addressDecoder = getAddressDecoder();
const base58 = getBase58Decoder();

/** Anything that looks like an address, or nearly: valid 32-byte, wrong length, non-base58 characters, unicode. */
function addressLike(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...worldMints, ...worldPools) },
    { weight: 2, arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => addressDecoder.decode(b)) },
    { weight: 2, arbitrary: fc.uint8Array({ minLength: 0, maxLength: 64 }).map((b) => base58.decode(b)) },
    { weight: 2, arbitrary: fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z0OIl]{30,46}$/) },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "So11111111111111111111111111111111111111112", "11111111111111111111111111111111", "null", "undefined", "[]", "0") },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 50 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 50 }) },
  );
}

/** A `ca` value: one address-ish item, or a comma list of 0..150 with stray spaces and empty items. */
function caValue(): fc.Arbitrary<string> {
  const item = fc.tuple(addressLike(), fc.constantFrom("", " ", "  ", "\t")).map(([a, pad]) => `${pad}${a}${pad}`);
  const valid = fc.oneof(fc.constantFrom(...worldMints), fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => addressDecoder.decode(b)));
  return fc.oneof(
    { weight: 40, arbitrary: addressLike() },
    { weight: 30, arbitrary: fc.array(item, { maxLength: 150 }).map((items) => items.join(",")) }, // mostly short
    { weight: 10, arbitrary: fc.array(item, { minLength: 90, maxLength: 150, size: "max" }).map((items) => items.join(",")) },
    // Only valid addresses, around the 100-mint cap: 101+ is refused before any upstream call, ≤100 is priced.
    { weight: 1, arbitrary: fc.array(valid, { minLength: 98, maxLength: 103, size: "max" }).map((items) => items.join(",")) },
    { weight: 3, arbitrary: fc.array(valid, { minLength: 2, maxLength: 5 }).map((items) => items.join(",")) },
    { weight: 5, arbitrary: fc.constantFrom(",", ",,,", " , ", "%2C") },
    { weight: 5, arbitrary: fc.integer({ min: 7_000, max: 12_000 }).map((n) => "A".repeat(n)) }, // around the URL cap
  );
}

/** How a value is written into the query string: encoded, raw, or with broken/extra percent escapes. */
function encoded(value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(value, fc.nat({ max: 9 }), fc.constantFrom("%", "%zz", "%2", "%00", "%C3%28", "%E2%82", "%25", "%2C", "%26", "%3D", "%ff", "+")).map(([v, how, junk]) => {
    if (how <= 4) return encodeURIComponent(v).replace(/%2C/g, () => (how % 2 === 0 ? "," : "%2C"));
    if (how <= 6) return v.replace(/[&#]/g, ""); // raw: the URL parser percent-encodes what it must
    if (how === 7) return `${encodeURIComponent(v)}${junk}`;
    if (how === 8) return `${junk}${encodeURIComponent(v)}`;
    return v.replace(/[&#]/g, "").split("").join(junk.length < 3 ? "" : junk).slice(0, 4_000);
  });
}

const paramName = fc.oneof(
  { weight: 6, arbitrary: fc.constant("ca") },
  { weight: 2, arbitrary: fc.constant("poolId") },
  { weight: 1, arbitrary: fc.constantFrom("CA", "ca[]", "ca ", "", "x-api-key", "pool", "poolid", "venue", "__proto__", "constructor") },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).map(encodeURIComponent) },
);

function queryString(): fc.Arbitrary<string> {
  // Built once (no .chain): building arbitraries per value costs more than the requests themselves.
  const pair = fc.tuple(paramName, encoded(caValue()), encoded(addressLike()), fc.nat({ max: 9 })).map(([name, ca, pool, shape]) => {
    if (shape === 0) return name; // no '='
    if (shape === 1) return `${name}=`;
    return `${name}=${name === "poolId" ? pool : ca}`;
  });
  return fc
    .tuple(fc.array(pair, { minLength: 0, maxLength: 5 }), fc.constantFrom("&", "&", "&&", ";"), fc.boolean())
    .map(([pairs, sep, trailing]) => `${pairs.join(sep)}${trailing ? "&" : ""}`);
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });

const headers: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constant("x-request-id"), printable),
      fc.tuple(fc.constant("authorization"), fc.oneof(printable, printable.map((v) => `Bearer ${v}`))),
      fc.tuple(fc.constantFrom("accept", "accept-encoding", "content-type", "range", "if-none-match", "origin", "cookie", "x-forwarded-for"), printable),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => Object.fromEntries(pairs));

function fuzzRequest(path: string): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.oneof({ weight: 30, arbitrary: fc.constant("GET") }, { weight: 3, arbitrary: fc.constantFrom("HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PURGE") }),
    path: fc.oneof({ weight: 30, arbitrary: fc.constant(path) }, { weight: 1, arbitrary: fc.constantFrom(`${path}/`, path.toUpperCase(), `${path}.json`) }),
    query: queryString(),
    headers: fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: headers }),
    body: fc.option(fc.nat({ max: 2 * limits.maxRestBodyBytes }).map((n) => "x".repeat(n)), { freq: 10 }).map((b) => b ?? undefined),
  });
}

// ---- the check ---------------------------------------------------------------------------------------------------

async function send(req: FuzzRequest): Promise<Verdict> {
  const url = `${base}${req.path}${req.query ? `?${req.query}` : ""}`;
  const withBody = req.body !== undefined && req.method !== "GET" && req.method !== "HEAD";
  // callWorker, not SELF: SELF overflows the stack after a few thousand requests (test/helpers/worker.ts).
  const request = new Request(url, { method: req.method, headers: { ...req.headers, "x-api-key": key }, body: withBody ? req.body : undefined });
  const res = await callWorker({ request });
  const text = await res.text();
  const fail = (why: string): Verdict => ({ ok: false, why, status: res.status, body: text.slice(0, 500) });
  if (res.status >= 500) return fail("5xx");
  const pass: Verdict = { ok: true, status: res.status };
  if (req.method === "HEAD") return text === "" ? pass : fail("HEAD with a body");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail("body is not JSON");
  }
  if (res.status === 200) return pass;
  const envelope = json as { status?: unknown; error?: { code?: unknown; message?: unknown } };
  const exact =
    typeof json === "object" && json !== null && !Array.isArray(json) &&
    Object.keys(json).sort().join() === "error,status" && envelope.status === "error" &&
    typeof envelope.error === "object" && envelope.error !== null && Object.keys(envelope.error).sort().join() === "code,message" &&
    envelope.error.code === res.status && typeof envelope.error.message === "string" && envelope.error.message.length > 0;
  return exact ? pass : fail("not exactly the error envelope");
}

function describeFailure(req: FuzzRequest, verdict: Extract<Verdict, { ok: false }>): string {
  const query = req.query.length > 300 ? `${req.query.slice(0, 300)}… (${req.query.length} chars)` : req.query;
  return [
    `${verdict.why}: ${req.method} ${req.path}?${query}`,
    `headers ${JSON.stringify(req.headers)}${req.body !== undefined ? `, body ${req.body.length} bytes` : ""}`,
    `→ ${verdict.status} ${verdict.body}`,
  ].join("\n");
}

/**
 * The fuzz of `routes` (some of {@link REST_FUZZ_ROUTES}): the routes are split over several files so the worker lanes
 * can share them out (each route is ~30 s of requests); each route keeps its own seed.
 */
export function describeRestFuzz(routes: readonly (typeof REST_FUZZ_ROUTES)[number][]): void {
  describe("REST fuzz: no 5xx, exact envelopes, JSON 200s", () => {
    beforeAll(async () => {
      key = await newApiKey({ plan: "dev" });
      const manifest = await world();
      worldMints = manifest.tokens.map((t) => t.mint);
      worldPools = manifest.tokens.flatMap((t) => t.pools.map((p) => p.address));
      console.log(`[rest.fuzz] seed ${SEED} (route i uses seed ${SEED}+i), ${RUNS} runs × ${CHUNK} requests per route`);
    });
    it.each(routes.map((route) => [route, REST_FUZZ_ROUTES.indexOf(route)] as const))(`%s: ${RUNS * CHUNK} random requests`, async (route, i) => {
      const seed = SEED + i;
      const statuses: Record<number, number> = {};
      const started = Date.now();
      let inRequests = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fuzzRequest(route), { minLength: CHUNK, maxLength: CHUNK }), async (chunk) => {
          const t0 = Date.now();
          const verdicts = await Promise.all(chunk.map(send));
          inRequests += Date.now() - t0;
          for (const v of verdicts) statuses[v.status] = (statuses[v.status] ?? 0) + 1;
          const index = verdicts.findIndex((v) => !v.ok);
          if (index >= 0) throw new Error(describeFailure(chunk[index]!, verdicts[index] as Extract<Verdict, { ok: false }>));
        }),
        { seed, numRuns: RUNS },
      );
      console.log(`[rest.fuzz] ${route} (seed ${seed}): ${Date.now() - started} ms (${inRequests} in requests), statuses ${JSON.stringify(statuses)}`);
      expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5_000);
    }, 120_000);
  });
}
