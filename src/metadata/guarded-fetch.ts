/**
 * The one place that performs I/O on an untrusted metadata URI. Everything it fetches has passed
 * `checkMetadataUri` first — the initial URI and every redirect target — and each response is bounded in time
 * (one deadline over the whole exchange, redirects and body included) and size (byte cap while streaming).
 * The cap counts DECODED bytes: fetch (workerd, undici) inflates `Content-Encoding: gzip|br|deflate` before the
 * stream reaches us, so a compression bomb is cut at the cap like any long body; the declared Content-Length is the
 * encoded size and only ever used to refuse early.
 * Any content type is accepted because gateways label JSON inconsistently (application/json, text/plain,
 * application/octet-stream); the body must still be strict UTF-8 and valid JSON of the expected shape.
 */
import { discardBody, readCappedBytes } from "../http/capped-body";
import { limits } from "../limits";
import { normalizeOffchainMetadata, type OffchainMetadata } from "./offchain-metadata";
import { checkMetadataUri, type MetadataUriPolicy, type UriRejectionReason } from "./uri-policy";

/** The subset of `fetch` we use; injectable so tests can count and script every outbound attempt. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type GuardedFetchOptions = {
  fetchImpl?: FetchLike;
  /** Deadline for the whole exchange, redirects and body included (ms). */
  timeoutMs?: number;
  /** Body cap (bytes); the stream is cancelled as soon as it is exceeded. */
  maxBytes?: number;
  /** Redirects followed at most; one more redirect response fails with `too_many_redirects`. */
  maxRedirects?: number;
};

export type MetadataFetchFailure =
  | "uri_rejected"
  | "redirect_rejected"
  | "redirect_without_location"
  | "too_many_redirects"
  | "timeout"
  | "network_error"
  | "http_status"
  | "too_large"
  | "invalid_utf8"
  | "invalid_json"
  | "invalid_shape";

/** `fetches` counts outbound attempts made, for logs and tests. */
export type MetadataFetchResult =
  | { ok: true; value: OffchainMetadata; fetches: number }
  | { ok: false; reason: MetadataFetchFailure; detail?: UriRejectionReason | number; fetches: number };

type Outcome = { ok: true; value: OffchainMetadata } | { ok: false; reason: MetadataFetchFailure; detail?: UriRejectionReason | number };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches and validates off-chain token metadata JSON. Never throws and never rejects; after `timeoutMs` it
 * returns `timeout` even if `fetchImpl` ignores the abort signal.
 */
export async function fetchMetadataJson(
  uri: string,
  policy: MetadataUriPolicy,
  options: GuardedFetchOptions = {},
): Promise<MetadataFetchResult> {
  const {
    fetchImpl = (url, init) => fetch(url, init),
    timeoutMs = limits.metadataTimeoutMs,
    maxBytes = limits.metadataMaxBytes,
    maxRedirects = limits.metadataMaxRedirects,
  } = options;
  const controller = new AbortController();
  let fetches = 0;
  const countedFetch: FetchLike = (url, init) => {
    fetches++;
    return fetchImpl(url, init);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, reason: "timeout" });
    }, timeoutMs);
  });
  try {
    const run = exchange(uri, policy, countedFetch, controller.signal, maxBytes, maxRedirects).catch(
      (): Outcome => (controller.signal.aborted ? { ok: false, reason: "timeout" } : { ok: false, reason: "network_error" }),
    );
    return { ...(await Promise.race([run, deadline])), fetches };
  } finally {
    clearTimeout(timer);
    controller.abort(); // releases any connection or stream still open (no-op when everything finished)
  }
}

async function exchange(
  uri: string,
  policy: MetadataUriPolicy,
  fetchImpl: FetchLike,
  signal: AbortSignal,
  maxBytes: number,
  maxRedirects: number,
): Promise<Outcome> {
  const initial = checkMetadataUri(uri, policy);
  if (!initial.ok) return { ok: false, reason: "uri_rejected", detail: initial.reason };
  let target = initial.url;

  for (let redirects = 0; ; redirects++) {
    const response = await fetchImpl(target.href, {
      method: "GET",
      // Following redirects ourselves is the only way to apply the policy to every hop.
      redirect: "manual",
      signal,
      headers: { accept: "application/json" },
    });

    if (REDIRECT_STATUSES.has(response.status)) {
      discardBody(response);
      if (redirects >= maxRedirects) return { ok: false, reason: "too_many_redirects" };
      const location = response.headers.get("location");
      if (!location) return { ok: false, reason: "redirect_without_location" };
      const next = checkMetadataUri(resolveLocation(location, target), policy);
      if (!next.ok) return { ok: false, reason: "redirect_rejected", detail: next.reason };
      target = next.url;
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      discardBody(response);
      return { ok: false, reason: "http_status", detail: response.status };
    }
    return parseBody(response, maxBytes, policy);
  }
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location; // the policy will refuse it as unparseable
  }
}

async function parseBody(response: Response, maxBytes: number, policy: MetadataUriPolicy): Promise<Outcome> {
  const bytes = await readCappedBytes(response, maxBytes);
  if (!bytes) return { ok: false, reason: "too_large" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, reason: "invalid_utf8" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "invalid_json" };
  }
  const value = normalizeOffchainMetadata(json, policy);
  return value ? { ok: true, value } : { ok: false, reason: "invalid_shape" };
}
