import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { constants as zlibConstants, createGzip, gzipSync } from "node:zlib";

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { fetchMetadataJson, type FetchLike } from "../../../src/metadata/guarded-fetch";
import type { MetadataUriPolicy } from "../../../src/metadata/uri-policy";

const policy: MetadataUriPolicy = { ipfsGateway: "https://ipfs.io/ipfs/", arweaveGateway: "https://arweave.net/", allowedDevHosts: [] };
const CID = "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG";
const URI = "https://meta.example.com/token.json";

/** A scripted fetch that records every outbound attempt (url + init). */
function recorder(respond: (url: string, init: RequestInit, attempt: number) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return respond(url, init, calls.length);
  };
  return { calls, fetchImpl };
}
const jsonResponse = (body: unknown) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });
const bytesResponse = (bytes: Uint8Array<ArrayBuffer>) => new Response(bytes, { headers: { "content-type": "application/json" } });
/** A JSON document of exactly `size` bytes. */
const jsonOfSize = (size: number) => new TextEncoder().encode(`{"name":"${"a".repeat(size - 11)}"}`) as Uint8Array<ArrayBuffer>;

afterEach(() => {
  vi.useRealTimers();
});

describe("fetchMetadataJson: what it fetches", () => {
  it("fetches, validates and normalises nested socials", async () => {
    // Given a metadata document with socials in three different places
    const { calls, fetchImpl } = recorder(() =>
      jsonResponse({
        name: "Dog",
        symbol: "DOG",
        image: `ipfs://${CID}`,
        extensions: { website: "https://dog.example.com" },
        properties: { links: { twitter: "@dog" } },
        links: { telegram: "https://t.me/dog" },
      }),
    );
    // When
    const result = await fetchMetadataJson(URI, policy, { fetchImpl });
    // Then
    expect(result).toEqual({
      ok: true,
      fetches: 1,
      value: {
        name: "Dog",
        symbol: "DOG",
        image: `https://ipfs.io/ipfs/${CID}`,
        description: null,
        socials: { website: "https://dog.example.com/", twitter: "https://x.com/dog", telegram: "https://t.me/dog" },
      },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(URI);
    expect(calls[0]?.init).toMatchObject({ method: "GET", redirect: "manual" });
    expect(calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it("fetches ipfs:// and ar:// through the gateways", async () => {
    const { calls, fetchImpl } = recorder(() => jsonResponse({ name: "x" }));
    await fetchMetadataJson(`ipfs://${CID}/m.json`, policy, { fetchImpl });
    await fetchMetadataJson("ar://QPC6FYdUn-3V8ytFNuoCS85S2tHAuiDblh6u3CIZLsw", policy, { fetchImpl });
    expect(calls.map((c) => c.url)).toEqual([
      `https://ipfs.io/ipfs/${CID}/m.json`,
      "https://arweave.net/QPC6FYdUn-3V8ytFNuoCS85S2tHAuiDblh6u3CIZLsw",
    ]);
  });

  it.each([
    "https://169.254.169.254/latest/meta-data/",
    "http://2130706433/",
    "https://[::ffff:127.0.0.1]/",
    "https://localhost./m.json",
    "https://user:pw@example.com/",
    "file:///etc/passwd",
    "https://example.com:8443/",
    "http://example.com/m.json",
  ])("makes zero outbound calls for the forbidden target %s", async (uri) => {
    const { calls, fetchImpl } = recorder(() => jsonResponse({}));
    const result = await fetchMetadataJson(uri, policy, { fetchImpl });
    expect(result).toMatchObject({ ok: false, reason: "uri_rejected", fetches: 0 });
    expect(calls).toHaveLength(0);
  });
});

describe("fetchMetadataJson: redirects", () => {
  it.each([
    ["https://169.254.169.254/latest/meta-data/", "forbidden_ip"],
    ["//127.0.0.1/x", "forbidden_ip"], // scheme-relative, resolved against the current URL
    ["http://meta.example.com/plain", "plain_http"],
    ["file:///etc/passwd", "scheme_not_allowed"],
  ])("stops a redirect to %s after the first hop (no second call)", async (location, detail) => {
    const { calls, fetchImpl } = recorder(() => redirect(location));
    const result = await fetchMetadataJson(URI, policy, { fetchImpl });
    expect(result).toEqual({ ok: false, reason: "redirect_rejected", detail, fetches: 1 });
    expect(calls).toHaveLength(1);
  });

  it("follows relative and ipfs:// redirects, re-checking each", async () => {
    const { calls, fetchImpl } = recorder((_, __, attempt) =>
      attempt === 1 ? redirect("/moved.json", 301) : attempt === 2 ? redirect(`ipfs://${CID}`, 307) : jsonResponse({ name: "ok" }),
    );
    const result = await fetchMetadataJson(URI, policy, { fetchImpl });
    expect(result.ok).toBe(true);
    expect(calls.map((c) => c.url)).toEqual([URI, "https://meta.example.com/moved.json", `https://ipfs.io/ipfs/${CID}`]);
  });

  it("follows 3 redirects (N) and refuses the 4th (N+1) without fetching it", async () => {
    const chain = (redirects: number) =>
      recorder((_, __, attempt) => (attempt <= redirects ? redirect(`https://hop${attempt}.example.com/`, 308) : jsonResponse({ name: "end" })));

    const three = chain(3);
    expect(await fetchMetadataJson(URI, policy, { fetchImpl: three.fetchImpl })).toMatchObject({ ok: true, fetches: 4 });
    expect(three.calls).toHaveLength(4);

    const four = chain(4);
    expect(await fetchMetadataJson(URI, policy, { fetchImpl: four.fetchImpl })).toEqual({ ok: false, reason: "too_many_redirects", fetches: 4 });
    expect(four.calls).toHaveLength(4);
  });

  it("refuses a redirect without Location", async () => {
    const { fetchImpl } = recorder(() => new Response(null, { status: 303 }));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toMatchObject({ ok: false, reason: "redirect_without_location" });
  });
});

describe("fetchMetadataJson: time", () => {
  it("times out when fetch never answers, with a fetch that honours the abort signal", async () => {
    const { fetchImpl } = recorder(
      (_, init) => new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
    );
    const started = Date.now();
    expect(await fetchMetadataJson(URI, policy, { fetchImpl, timeoutMs: 50 })).toEqual({ ok: false, reason: "timeout", fetches: 1 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("times out even when fetch ignores the abort signal", async () => {
    const { fetchImpl } = recorder(() => new Promise<Response>(() => undefined));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl, timeoutMs: 50 })).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("returns at the default 3 s deadline and not before (fake timers)", async () => {
    vi.useFakeTimers();
    let aborted = false;
    const { fetchImpl } = recorder(
      (_, init) =>
        new Promise<Response>(() => {
          init.signal?.addEventListener("abort", () => (aborted = true));
        }),
    );
    let settled = false;
    const pending = fetchMetadataJson(URI, policy, { fetchImpl }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ ok: false, reason: "timeout" });
    expect(aborted).toBe(true);
  });

  it("keeps the deadline while the body trickles in", async () => {
    const { fetchImpl } = recorder(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"name":'));
            },
            // never enqueues the rest
          }),
        ),
    );
    expect(await fetchMetadataJson(URI, policy, { fetchImpl, timeoutMs: 50 })).toMatchObject({ ok: false, reason: "timeout" });
  });
});

describe("fetchMetadataJson: body", () => {
  it("stops reading an endless body at the byte cap and cancels the stream", async () => {
    let pulls = 0;
    let cancelled = false;
    const { fetchImpl } = recorder(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulls++;
              controller.enqueue(new Uint8Array(1024).fill(0x20));
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
    );
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toMatchObject({ ok: false, reason: "too_large" });
    expect(pulls).toBeLessThanOrEqual(64 + 2); // 64 KiB cap in 1 KiB chunks, plus read-ahead
    expect(cancelled).toBe(true);
  });

  it("accepts a body of exactly 64 KiB (N) and refuses 64 KiB + 1 (N+1) with the default cap", async () => {
    const exact = recorder(() => bytesResponse(jsonOfSize(65536)));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl: exact.fetchImpl })).toMatchObject({ ok: true });
    const over = recorder(() => bytesResponse(jsonOfSize(65537)));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl: over.fetchImpl })).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("trusts an honest oversized Content-Length without reading the body", async () => {
    let pulls = 0;
    const { fetchImpl } = recorder(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulls++;
              controller.enqueue(new Uint8Array(10));
            },
          }),
          { headers: { "content-length": "1000000" } },
        ),
    );
    expect(await fetchMetadataJson(URI, policy, { fetchImpl, maxBytes: 100 })).toMatchObject({ ok: false, reason: "too_large" });
    expect(pulls).toBeLessThanOrEqual(1); // at most the stream's own start-up pull
  });

  it.each([
    ["a lone continuation byte", Uint8Array.of(0x7b, 0x80, 0x7d)],
    ["an overlong '/'", Uint8Array.of(0x22, 0xc0, 0xaf, 0x22)],
    ["a UTF-16 surrogate encoded in UTF-8", Uint8Array.of(0x22, 0xed, 0xa0, 0x80, 0x22)],
    ["Latin-1 text", Uint8Array.of(0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d)],
  ])("refuses invalid UTF-8 (%s)", async (_, bytes) => {
    const { fetchImpl } = recorder(() => bytesResponse(bytes));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toMatchObject({ ok: false, reason: "invalid_utf8" });
  });

  it("accepts UTF-8 with a byte order mark and any content type", async () => {
    const { fetchImpl } = recorder(
      () => new Response(new TextEncoder().encode('\uFEFF{"name":"Bom"}'), { headers: { "content-type": "text/plain" } }),
    );
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toMatchObject({ ok: true, value: { name: "Bom" } });
  });

  it.each([
    ["HTML", "<html><body>Not found</body></html>", "invalid_json"],
    ["an empty body", "", "invalid_json"],
    ["JSON with a trailing comma", '{"name":"a",}', "invalid_json"],
    ["a JSON array", '[{"name":"a"}]', "invalid_shape"],
    ["a JSON string", '"name"', "invalid_shape"],
    ["JSON null", "null", "invalid_shape"],
  ])("refuses %s", async (_, body, reason) => {
    const { fetchImpl } = recorder(() => new Response(body));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toMatchObject({ ok: false, reason });
  });

  it("survives deeply nested JSON within the cap", async () => {
    const { fetchImpl } = recorder(() => new Response(`{"name":"deep","x":${"[".repeat(30_000)}${"]".repeat(30_000)}}`));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toMatchObject({ ok: true, value: { name: "deep" } });
  });
});

describe("fetchMetadataJson: failures never throw", () => {
  it("maps HTTP errors to http_status", async () => {
    const { fetchImpl } = recorder(() => new Response("gone", { status: 404 }));
    expect(await fetchMetadataJson(URI, policy, { fetchImpl })).toEqual({ ok: false, reason: "http_status", detail: 404, fetches: 1 });
  });

  it("maps a rejecting or synchronously throwing fetch to network_error", async () => {
    const rejecting: FetchLike = () => Promise.reject(new TypeError("connection reset"));
    const throwing: FetchLike = () => {
      throw new Error("boom");
    };
    expect(await fetchMetadataJson(URI, policy, { fetchImpl: rejecting })).toEqual({ ok: false, reason: "network_error", fetches: 1 });
    expect(await fetchMetadataJson(URI, policy, { fetchImpl: throwing })).toEqual({ ok: false, reason: "network_error", fetches: 1 });
  });
});

describe("fetchMetadataJson with the real fetch against a local server (allowed dev host)", () => {
  let server: Server;
  let base: string;
  let devPolicy: MetadataUriPolicy;
  const hits: string[] = [];
  // 16 MiB of JSON (a description of spaces) in a gzip body of a few KiB.
  const bomb = gzipSync(`{"name":"Bomb","description":"${" ".repeat(16 * 1024 * 1024)}"}`, { level: 9 });
  let endlessClosed = false;
  const gzipped = (response: import("node:http").ServerResponse, body: Buffer) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(body.length) });
    response.end(body);
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(request.url ?? "");
      if (request.url === "/ok.json") {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ name: "Local", twitter: "@local" }));
      } else if (request.url === "/to-metadata-service") {
        response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      } else if (request.url === "/to-ok") {
        response.writeHead(302, { location: "/ok.json" }).end();
      } else if (request.url === "/gzip-ok.json") {
        gzipped(response, gzipSync(JSON.stringify({ name: "Zipped" })));
      } else if (request.url?.startsWith("/gzip-json-of-")) {
        gzipped(response, gzipSync(jsonOfSize(Number(request.url.slice("/gzip-json-of-".length)))));
      } else if (request.url === "/gzip-bomb.json") {
        gzipped(response, bomb);
      } else if (request.url === "/gzip-endless.json") {
        // An endless stream of compressed spaces: ~1 KB on the wire inflates to ~1 MB.
        response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        const gzip = createGzip({ level: 9 });
        gzip.pipe(response);
        gzip.write("[");
        const timer = setInterval(() => gzip.write(" ".repeat(1024 * 1024), () => gzip.flush(zlibConstants.Z_SYNC_FLUSH)), 1);
        response.on("close", () => {
          endlessClosed = true;
          clearInterval(timer);
          gzip.destroy();
        });
      } else if (request.url === "/huge") {
        response.write("[");
        const timer = setInterval(() => response.write(" ".repeat(16 * 1024)), 1);
        response.on("close", () => clearInterval(timer));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    devPolicy = { ...policy, allowedDevHosts: [`127.0.0.1:${port}`] };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads JSON and follows a same-host redirect", async () => {
    expect(await fetchMetadataJson(`${base}/to-ok`, devPolicy)).toMatchObject({
      ok: true,
      fetches: 2,
      value: { name: "Local", socials: { twitter: "https://x.com/local" } },
    });
  });

  it("does not follow a real 302 to the cloud metadata address", async () => {
    hits.length = 0;
    expect(await fetchMetadataJson(`${base}/to-metadata-service`, devPolicy)).toMatchObject({
      ok: false,
      reason: "redirect_rejected",
      fetches: 1,
    });
    expect(hits).toEqual(["/to-metadata-service"]);
  });

  it("cuts off an endless real body at the cap", async () => {
    expect(await fetchMetadataJson(`${base}/huge`, devPolicy)).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("reads a gzip body decoded (Content-Encoding: gzip)", async () => {
    expect(await fetchMetadataJson(`${base}/gzip-ok.json`, devPolicy)).toMatchObject({ ok: true, value: { name: "Zipped" } });
  });

  it("counts DECODED bytes against the cap: 64 KiB inflated is accepted (N), 64 KiB + 1 refused (N+1), both ~100 B on the wire", async () => {
    expect(gzipSync(jsonOfSize(65537)).length).toBeLessThan(1024);
    expect(await fetchMetadataJson(`${base}/gzip-json-of-65536`, devPolicy)).toMatchObject({ ok: true });
    expect(await fetchMetadataJson(`${base}/gzip-json-of-65537`, devPolicy)).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("cuts a gzip bomb (a few KiB inflating to 16 MiB) at the cap", async () => {
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await fetchMetadataJson(`${base}/gzip-bomb.json`, devPolicy)).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("cuts an endless gzip stream at the cap, well before the deadline, and drops the connection", async () => {
    const started = Date.now();
    expect(await fetchMetadataJson(`${base}/gzip-endless.json`, devPolicy)).toMatchObject({ ok: false, reason: "too_large" });
    expect(Date.now() - started).toBeLessThan(2000);
    await vi.waitFor(() => expect(endlessClosed).toBe(true), { timeout: 2000 });
  });
});
