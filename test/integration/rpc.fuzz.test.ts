/**
 * Property-based fuzz of `POST /rpc` (audit issue 8): 10,000 random bodies — single requests and batches with
 * random depth, sizes, types and ids; methods from the allowlist and not; params that are valid, nearly valid,
 * junk, nested up to 4,000 deep, or strings up to and past the 51,200-byte body cap; bodies that are not JSON at
 * all. Most are refused before the upstream; about one in eight reaches localnet with a cheap method (getSlot,
 * getBalance, getHealth, getVersion, getEpochInfo, getBlockHeight), alone or in batches.
 *
 * Properties (localnet is healthy, so no 5xx at all is expected):
 * - status < 500;
 * - HTTP 200: the body is a JSON-RPC response object, or a non-empty array of them — `jsonrpc: "2.0"`, an `id`
 *   (string, number or null), exactly one of `result` / `error`, an error being `{code: integer, message: string,
 *   data?}` and nothing else;
 * - HTTP 204: no body; any other status: the body is one JSON-RPC error object.
 *
 * Each fast-check run is one chunk of {@link CHUNK} bodies sent concurrently; a failure names the body and the
 * answer (not shrunk), and fast-check prints the seed and path to replay it (`SEED` below, `path` in fc.assert's
 * options). Against the code before issue 8's fixes it fails within the first runs (HTTP 500: a config nested
 * thousands deep reached a recursive walk).
 * The worker's fetch is called directly (not SELF: vitest-pool-workers 0.15.1 overflows the stack after a few
 * thousand SELF calls), with an upstream URL of its own so its circuit state never touches other test files.
 */
import { env } from "cloudflare:workers";
import { getAddressDecoder, getBase58Decoder } from "@solana/kit";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { limits } from "../../src/limits";
import { methodParams } from "../../src/rpc/method-schemas";
import { newApiKey } from "../helpers/keys";
import { rpcUrl } from "../helpers/rpc";
import { callWorker } from "../helpers/worker";

/** Fixed so any failure replays. */
const SEED = 20_261_124;
/** Bodies per fast-check run, sent concurrently. */
const CHUNK = 50;
/** Runs: RUNS × CHUNK = 10,000 bodies. */
const RUNS = 200;

type FuzzBody = { text: string; contentType: string };
type Verdict = { ok: true; status: number; results: number; codes: number[] } | { ok: false; why: string; status: number; body: string };

let key = "";
let upstream = "";
beforeAll(async () => {
  key = await newApiKey({ plan: "dev" });
  upstream = `${env.LOCALNET_URL}/?fuzz=${SEED}`;
  console.log(`[rpc.fuzz] seed ${SEED}, ${RUNS} runs × ${CHUNK} bodies`);
});

/** Real addresses (fixed, so a seed replays the same bodies whatever the world holds). */
const knownKeys = [
  "So11111111111111111111111111111111111111112",
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "11111111111111111111111111111111",
  "SysvarC1ock11111111111111111111111111111111",
];

// ---- arbitraries: JSON text, built once (no .chain: building arbitraries per value costs more than the requests) ----

const allowed = Object.keys(methodParams);
const cheapMethods = ["getSlot", "getBalance", "getHealth", "getVersion", "getEpochInfo", "getBlockHeight"] as const;
const addressDecoder = getAddressDecoder();

/** Text of a JSON string holding `value`. */
const str = (value: string) => JSON.stringify(value);

/** An address-ish string: real keys, random valid ones, junk. */
const address = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...knownKeys) },
    { weight: 3, arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => addressDecoder.decode(b)) },
    { weight: 1, arbitrary: fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z0OIl]{0,50}$/) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  );

/** Nested arrays / objects, up to 4,000 deep (the body stays far under the cap). */
const deep = fc.tuple(fc.integer({ min: 1, max: 4_000 }), fc.constantFrom("[", "{", "mix"), fc.constantFrom("", "1", str("x"), "null")).map(([depth, kind, core]) => {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    const object = kind === "{" || (kind === "mix" && i % 2 === 1);
    open += object ? `{"k${i % 3}":` : "[";
    close = (object ? "}" : "]") + close;
  }
  // An object member needs a value: `core` may be empty only inside an array.
  return `${open}${core || (open.endsWith(":") ? "0" : "")}${close}`;
});

/** Strings from tiny to past the body cap, with escapes and non-ASCII now and then. */
const bigString = fc
  .tuple(fc.integer({ min: 0, max: limits.maxRpcBodyBytes + 2_000 }), fc.constantFrom("x", "é", "\\n", "\\u0000", "😀", "\\\\"))
  .map(([n, unit]) => `"${unit.repeat(Math.max(0, Math.floor(n / Math.max(1, new TextEncoder().encode(unit).length))))}"`);

/** Numbers JSON allows, including ones JS cannot hold exactly, and negative / fractional ones. */
const number = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom("0", "-1", "1.5", "1e3", "-0", "18446744073709551615", "18446744073709551616", "1e400", "500000", "500001", "100", "101", "1000", "1001"),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

/** Any JSON value as text: fast-check's random JSON, deep nesting, big strings, numbers. */
const anyJson = fc.oneof(
  { weight: 6, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: bigString },
  { weight: 2, arbitrary: number },
);

const commitment = fc.constantFrom(`"processed"`, `"confirmed"`, `"finalized"`, `"max"`, `null`, `5`);
const encoding = fc.constantFrom(`"base64"`, `"base58"`, `"jsonParsed"`, `"json"`, `"base64+zstd"`, `"binary"`, `"hex"`, `null`);
const memcmp = fc
  .tuple(fc.constantFrom("0", "32", "64", "-1", "1.5"), fc.oneof(address().map(str), fc.constantFrom(`""`, `"AAAA"`, `"0OIl"`), bigString), fc.constantFrom("", `,"encoding":"base64"`, `,"encoding":"base58"`))
  .map(([offset, bytes, enc]) => `{"memcmp":{"offset":${offset},"bytes":${bytes}${enc}}}`);
const filter = fc.oneof(fc.constantFrom(`{"dataSize":165}`, `"tokenAccountState"`, `{"size":1}`, `{}`), memcmp);

/** A config object: known fields (valid or not), unknown ones (deep or huge now and then). */
const config = fc
  .record(
    {
      commitment,
      encoding,
      minContextSlot: number,
      dataSlice: fc.constantFrom(`{"offset":0,"length":8}`, `{"offset":-1}`, `null`, `"x"`),
      filters: fc.array(filter, { maxLength: 6 }).map((f) => `[${f.join(",")}]`),
      limit: number,
      transactionDetails: fc.constantFrom(`"full"`, `"none"`, `"some"`),
      maxSupportedTransactionVersion: fc.constantFrom("0", "1", "256"),
      unknown: anyJson,
    },
    { requiredKeys: [] },
  )
  .map((fields) => `{${Object.entries(fields).map(([name, value]) => `${str(name === "unknown" ? "padding" : name)}:${value}`).join(",")}}`);

/** Params: absent or null, positional lists of plausible and junk values, an object, junk. */
const params = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant("null") },
  { weight: 6, arbitrary: fc.array(fc.oneof(address().map(str), number, config, anyJson), { maxLength: 4 }).map((items) => `[${items.join(",")}]`) },
  { weight: 2, arbitrary: fc.tuple(address(), config).map(([a, c]) => `[${str(a)},${c}]`) },
  { weight: 1, arbitrary: config },
  { weight: 1, arbitrary: anyJson },
);

const id = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map(String) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).map(str) },
  { weight: 1, arbitrary: fc.constantFrom("null", "-1", "1.5", "true", "{}", "[]", "9007199254740993", `"${"i".repeat(3000)}"`) },
  { weight: 1, arbitrary: fc.constant(undefined) }, // a notification
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...allowed).map(str) },
  { weight: 2, arbitrary: fc.constantFrom("getFoo", "requestAirdrop", "__proto__", "constructor", "toString", "GETSLOT", "", "getSlot ").map(str) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(str) },
  { weight: 1, arbitrary: fc.constantFrom("5", "null", "[]", "{}", "true") },
);

const jsonrpc = fc.oneof({ weight: 12, arbitrary: fc.constant(`"2.0"`) }, { weight: 1, arbitrary: fc.constantFrom(`"1.0"`, `2`, `"2"`, `null`, undefined) });

/** A request object as text: members in random order, some missing, an extra one now and then. */
const request = fc
  .tuple(jsonrpc, id, method, params, fc.oneof({ weight: 14, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: anyJson }), fc.nat())
  .map(([v, i, m, p, extra, order]) => {
    const members = [
      v === undefined ? undefined : `"jsonrpc":${v}`,
      i === undefined ? undefined : `"id":${i}`,
      `"method":${m}`,
      p === undefined ? undefined : `"params":${p}`,
      extra === null ? undefined : `"extra":${extra}`,
    ].filter((x): x is string => x !== undefined);
    const shift = order % members.length;
    return `{${[...members.slice(shift), ...members.slice(0, shift)].join(",")}}`;
  });

/** What each allowed method takes first, so plausible calls get past arity and types to the deeper checks. */
const firstParam: Record<string, "slot" | "address" | "addresses" | "signature" | "transaction" | "config" | "none"> = {
  getAccountInfo: "address", getBalance: "address", getBlock: "slot", getBlockCommitment: "slot", getBlockHeight: "config",
  getBlockProduction: "config", getBlocks: "slot", getBlocksWithLimit: "slot", getBlockTime: "slot", getClusterNodes: "none",
  getEpochInfo: "config", getHealth: "none", getLatestBlockhash: "config", getMinimumBalanceForRentExemption: "slot",
  getMultipleAccounts: "addresses", getProgramAccounts: "address", getSignaturesForAddress: "address", getSlot: "config",
  getTokenAccountsByDelegate: "address", getTokenAccountsByOwner: "address", getTokenAccountBalance: "address",
  getTokenLargestAccounts: "address", getTokenSupply: "address", getTransaction: "signature", getVersion: "none",
  sendTransaction: "transaction", simulateTransaction: "transaction",
};
const signature = fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => getBase58Decoder().decode(b));

/**
 * A call of an allowed method with params of the right shape — a first param of its kind, then numbers, filters or
 * configs — whose configs carry unknown members now and then (deep, huge): the inputs that reach the schema
 * checks, the cache key, the delegate rewrite and the upstream.
 */
const plausibleCall = fc
  .tuple(
    fc.constantFrom(...allowed),
    fc.oneof(address(), fc.constant(knownKeys[1]!)),
    fc.array(address(), { maxLength: 101 }),
    signature,
    fc.oneof(fc.constantFrom("0", "1", "5", "100", "500000", "500001"), number),
    fc.array(fc.oneof({ weight: 3, arbitrary: config }, { weight: 1, arbitrary: number }, { weight: 1, arbitrary: fc.constantFrom(`{"programId":"${knownKeys[1]}"}`, `{"mint":"${knownKeys[3]}"}`, `"json"`, `null`) }), { maxLength: 3 }),
    fc.nat(),
  )
  .map(([m, addr, addrs, sig, n, rest, idNo]) => {
    const kind = firstParam[m] ?? "none";
    const first =
      kind === "slot" ? n : kind === "address" ? str(addr) : kind === "addresses" ? `[${addrs.map(str).join(",")}]` : kind === "signature" ? str(sig) : kind === "transaction" ? str(btoa(sig)) : undefined;
    const list = first === undefined ? rest : [first, ...rest];
    return `{"jsonrpc":"2.0","id":${idNo},"method":"${m}","params":[${list.join(",")}]}`;
  });

/** A request that localnet answers cheaply (so a fraction of the fuzz goes the whole way). */
const cheapRequest = fc.tuple(fc.constantFrom(...cheapMethods), fc.nat(), fc.constantFrom(`"confirmed"`, `"finalized"`, `"processed"`)).map(([m, n, c]) => {
  const p = m === "getBalance" ? `["${knownKeys[n % knownKeys.length]}",{"commitment":${c}}]` : m === "getHealth" || m === "getVersion" ? "[]" : `[{"commitment":${c}}]`;
  return `{"jsonrpc":"2.0","id":${n},"method":"${m}","params":${p}}`;
});

const batch = fc
  .oneof(
    { weight: 8, arbitrary: fc.array(fc.oneof({ weight: 3, arbitrary: request }, { weight: 3, arbitrary: plausibleCall }, { weight: 2, arbitrary: cheapRequest }, { weight: 1, arbitrary: anyJson }), { maxLength: 8 }) },
    { weight: 1, arbitrary: fc.array(cheapRequest, { minLength: 95, maxLength: 105 }) },
  )
  .map((items) => `[${items.join(",")}]`);

/** Text that is not one JSON value: random characters, truncated bodies, unbalanced nesting, whitespace. */
const notJson = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  request.map((r) => r.slice(0, Math.floor(r.length / 2))),
  fc.integer({ min: 1, max: 20_000 }).map((n) => "[".repeat(n)),
  fc.constantFrom("", " ", "\n", "{", "[", "]", "null", "NaN", "[1,]", `{"jsonrpc":"2.0",}`),
);

const body: fc.Arbitrary<FuzzBody> = fc.record({
  text: fc.oneof(
    { weight: 30, arbitrary: request },
    { weight: 20, arbitrary: plausibleCall },
    { weight: 15, arbitrary: cheapRequest },
    { weight: 20, arbitrary: batch },
    { weight: 10, arbitrary: notJson },
    { weight: 5, arbitrary: fc.tuple(request, bigString).map(([r, s]) => `${r.slice(0, -1)},"pad":${s}}`) },
  ),
  contentType: fc.oneof({ weight: 30, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: fc.constantFrom("application/json; charset=utf-8", "APPLICATION/JSON", "text/plain", "") }),
});

// ---- the check ---------------------------------------------------------------------------------------------------

/** A JSON-RPC 2.0 response object: jsonrpc "2.0", an id, exactly one of result / error, nothing else. */
function responseProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const response = value as Record<string, unknown>;
  const extra = Object.keys(response).filter((k) => !["jsonrpc", "id", "result", "error"].includes(k));
  if (extra.length > 0) return `extra members ${extra.join(",")}`;
  if (response.jsonrpc !== "2.0") return "jsonrpc is not 2.0";
  if (!Object.hasOwn(response, "id")) return "no id";
  const { id } = response;
  if (id !== null && typeof id !== "string" && typeof id !== "number") return "id is not a string, number or null";
  if (Object.hasOwn(response, "result") === Object.hasOwn(response, "error")) return "not exactly one of result / error";
  if (Object.hasOwn(response, "error")) {
    const error = response.error as Record<string, unknown> | null;
    if (typeof error !== "object" || error === null || Array.isArray(error)) return "error is not an object";
    if (!Number.isInteger(error.code) || typeof error.message !== "string") return "error without an integer code and a string message";
    if (Object.keys(error).some((k) => !["code", "message", "data"].includes(k))) return "error with extra members";
  }
  return undefined;
}

async function send(req: FuzzBody): Promise<Verdict> {
  const headers: Record<string, string> = req.contentType ? { "content-type": req.contentType } : {};
  const res = await callWorker({ request: new Request(rpcUrl(key), { method: "POST", headers, body: req.text }) }, { env: { UPSTREAM_RPC_URL: upstream } });
  const text = await res.text();
  const fail = (why: string): Verdict => ({ ok: false, why, status: res.status, body: text.slice(0, 500) });
  if (res.status >= 500) return fail("5xx");
  if (res.status === 204) return text === "" ? { ok: true, status: 204, results: 0, codes: [] } : fail("204 with a body");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail("body is not JSON");
  }
  if (res.status !== 200) {
    const problem = responseProblem(json) ?? (Object.hasOwn(json as object, "error") ? undefined : "not an error");
    return problem ? fail(`HTTP ${res.status}: ${problem}`) : { ok: true, status: res.status, results: 0, codes: [(json as { error: { code: number } }).error.code] };
  }
  const responses = Array.isArray(json) ? json : [json];
  if (responses.length === 0) return fail("empty array");
  for (const response of responses) {
    const problem = responseProblem(response);
    if (problem) return fail(problem);
  }
  const typed = responses as { result?: unknown; error?: { code: number } }[];
  return { ok: true, status: 200, results: typed.filter((r) => Object.hasOwn(r, "result")).length, codes: typed.flatMap((r) => (r.error ? [r.error.code] : [])) };
}

function describeFailure(req: FuzzBody, verdict: Extract<Verdict, { ok: false }>): string {
  const shown = req.text.length > 600 ? `${req.text.slice(0, 600)}… (${req.text.length} chars)` : req.text;
  return [`${verdict.why}: POST /rpc (content-type ${JSON.stringify(req.contentType)}) ${shown}`, `→ ${verdict.status} ${verdict.body}`].join("\n");
}

describe("JSON-RPC fuzz: no 5xx, every answer JSON-RPC", () => {
  it(`${RUNS * CHUNK} random bodies (seed ${SEED})`, async () => {
    const statuses: Record<number, number> = {};
    const codes: Record<number, number> = {};
    let results = 0;
    let bodies = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(body, { minLength: CHUNK, maxLength: CHUNK }), async (chunk) => {
        const verdicts = await Promise.all(chunk.map(send));
        const index = verdicts.findIndex((v) => !v.ok);
        if (index >= 0) throw new Error(describeFailure(chunk[index]!, verdicts[index] as Extract<Verdict, { ok: false }>));
        for (const v of verdicts as Extract<Verdict, { ok: true }>[]) {
          bodies++;
          statuses[v.status] = (statuses[v.status] ?? 0) + 1;
          results += v.results;
          for (const code of v.codes) codes[code] = (codes[code] ?? 0) + 1;
        }
      }),
      // No shrinking: a chunk of 50 bodies up to 50 KB shrinks for minutes; the failing body is named in full instead.
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(`[rpc.fuzz] seed ${SEED}: ${bodies} bodies in ${Date.now() - started} ms; statuses ${JSON.stringify(statuses)}; results ${results}; error codes ${JSON.stringify(codes)}`);
    expect(bodies).toBeGreaterThanOrEqual(10_000);
    // Some of it went the whole way to localnet and back
    expect(results).toBeGreaterThan(500);
  }, 180_000);
});
