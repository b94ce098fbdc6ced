/**
 * Which off-chain metadata URIs we are willing to fetch. PURE: no I/O, no DNS, no globals — audit this file alone.
 *
 * Token metadata URIs are written by whoever created the token, so they are attacker-controlled input to a
 * server-side fetch (SSRF). The rules, in order:
 *
 * 1. Input: at most {@link MAX_METADATA_URI_LENGTH} chars after trimming outer whitespace; no control characters,
 *    inner whitespace or backslashes (the WHATWG parser silently drops/rewrites those — a classic parser-differential
 *    trick — so we refuse instead of guessing what the author meant).
 * 2. Schemes: `https:`; `ipfs://CID[/path]` and `ipfs://ipfs/CID[/path]` rewritten onto the IPFS gateway;
 *    `ar://TX[/path]` rewritten onto the Arweave gateway; `http:` only to an allowed dev host. Everything else
 *    (file:, data:, javascript:, ftp:, gopher:, blob:, ws:, ...) is refused. Rewritten URLs go through every
 *    rule below again, so a misconfigured gateway fails closed.
 * 3. No credentials (`user:pw@`), no port other than 443 — except an explicitly allowed dev host
 *    (`host:port`, e.g. the local chain `127.0.0.1:8899`), which may use http or https on its port.
 * 4. Host, judged on the WHATWG-normalised host (`new URL()` turns `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`,
 *    full-width digits and ideographic dots into `127.0.0.1`, and IDN into punycode, exactly as `fetch` will):
 *    - IPv4 literal: only ipaddr.js range `unicast` (no private, loopback, link-local incl. 169.254.169.254, CGNAT,
 *      multicast, broadcast, unspecified, reserved, documentation or benchmarking addresses);
 *    - IPv6 literal: only range `unicast` and not `0000::/16` (loopback, unspecified, IPv4-mapped/compatible/translated
 *      forms, NAT64 `64:ff9b::/96`, 6to4, Teredo, ULA `fc00::/7`, link-local `fe80::/10`, multicast are all refused);
 *    - DNS name: LDH labels, at least two labels, no trailing dot, not a special-use/internal TLD (`localhost`,
 *      `local`, `internal`, `arpa`, `test`, ...), not a wildcard-DNS service that maps names to embedded IPs
 *      (`nip.io`, `sslip.io`, ...), no four numeric labels in a row.
 *
 * Residual risk, accepted: a public DNS name may resolve to a private address (or be rebound to one between
 * requests). Workers cannot resolve DNS, so that cannot be checked here; Cloudflare's egress from Workers does not
 * route to private networks, which is what makes the name-based rules sufficient in production.
 * The returned `url` is the normalised URL to pass to `fetch` (never the raw string), fragment removed.
 */
import ipaddr from "ipaddr.js";

/** Where rewritten URIs go and which plain-http hosts the local development chain may use. */
export type MetadataUriPolicy = {
  /** Base URL for `ipfs://` URIs, e.g. `https://ipfs.io/ipfs/`; a bare origin or host gets `/ipfs/` appended. */
  ipfsGateway: string;
  /** Base URL for `ar://` URIs, e.g. `https://arweave.net/`; a bare host gets `https://`. */
  arweaveGateway: string;
  /** `host[:port]` entries that may be fetched over http/https on any port and regardless of address (dev only). */
  allowedDevHosts: readonly string[];
};

/** Why a URI was refused; a closed set so logs and tests can rely on it. */
export type UriRejectionReason =
  | "empty"
  | "too_long"
  | "forbidden_characters"
  | "unparseable"
  | "scheme_not_allowed"
  | "plain_http"
  | "credentials"
  | "port_not_allowed"
  | "forbidden_ip"
  | "forbidden_hostname"
  | "invalid_ipfs"
  | "invalid_arweave"
  | "gateway_misconfigured";

export type UriCheckResult = { ok: true; url: URL } | { ok: false; reason: UriRejectionReason };

/** Longest URI we consider (chars). Metaplex caps on-chain URIs at 200 bytes; redirects and JSON images may be longer. */
export const MAX_METADATA_URI_LENGTH = 2048;

// C0/C1 controls, space, DEL and backslash: the URL parser strips or rewrites these, so they only serve to confuse.
const FORBIDDEN_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// `ipfs://[ipfs/]CID[/path][?query][#fragment]`; CIDv0 is base58 and CIDv1 base32/base36, all alphanumeric.
const IPFS_URI = /^ipfs:\/\/(?:ipfs\/)?([A-Za-z0-9]{16,128})(\/[^?#]*)?(\?[^#]*)?(?:#.*)?$/i;
// Arweave transaction ids are 32 bytes in base64url: 43 chars.
const ARWEAVE_URI = /^ar:\/\/([A-Za-z0-9_-]{43})(\/[^?#]*)?(\?[^#]*)?(?:#.*)?$/i;
const PATH_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DOTTED_IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Special-use and de-facto private TLDs (RFC 6761, RFC 6762, RFC 8375, RFC 9476, ICANN's `.internal`, common LAN names). */
const FORBIDDEN_TLDS = new Set([
  "localhost", "local", "internal", "localdomain", "lan", "home", "corp", "intranet", "private",
  "arpa", "onion", "test", "invalid", "example", "alt",
]);
/** Public wildcard-DNS services whose names resolve to an IP written inside them (`10.0.0.1.nip.io`). */
const FORBIDDEN_DOMAINS = ["nip.io", "sslip.io", "xip.io", "localtest.me", "lvh.me", "vcap.me", "traefik.me"];

const reject = (reason: UriRejectionReason): UriCheckResult => ({ ok: false, reason });

/**
 * Decides whether an untrusted metadata URI may be fetched and returns the normalised (and, for ipfs:/ar:,
 * rewritten) URL to fetch. Never throws.
 */
export function checkMetadataUri(raw: string, policy: MetadataUriPolicy): UriCheckResult {
  if (typeof raw !== "string") return reject("unparseable");
  const uri = raw.trim();
  if (uri === "") return reject("empty");
  if (uri.length > MAX_METADATA_URI_LENGTH) return reject("too_long");
  if (FORBIDDEN_CHARACTERS.test(uri)) return reject("forbidden_characters");

  const scheme = SCHEME.exec(uri)?.[1]?.toLowerCase();
  switch (scheme) {
    case "https":
    case "http":
      return checkHttpUrl(parseUrl(uri), policy);
    case "ipfs":
      return rewriteOntoGateway(IPFS_URI.exec(uri), policy.ipfsGateway, "/ipfs/", "invalid_ipfs", policy);
    case "ar":
      return rewriteOntoGateway(ARWEAVE_URI.exec(uri), policy.arweaveGateway, "/", "invalid_arweave", policy);
    case undefined:
      return reject("unparseable"); // relative or scheme-relative: there is no base to resolve against
    default:
      return reject("scheme_not_allowed");
  }
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function checkHttpUrl(url: URL | null, policy: MetadataUriPolicy): UriCheckResult {
  if (!url) return reject("unparseable");
  if (url.protocol !== "https:" && url.protocol !== "http:") return reject("scheme_not_allowed");
  if (url.username !== "" || url.password !== "") return reject("credentials");
  url.hash = ""; // never sent; dropping it keeps the URL stable for caching

  if (isAllowedDevHost(url, policy.allowedDevHosts)) return { ok: true, url };
  if (url.protocol !== "https:") return reject("plain_http");
  if (url.port !== "") return reject("port_not_allowed"); // the parser already turns :443 into ""
  const hostProblem = checkHostname(url.hostname);
  return hostProblem ? reject(hostProblem) : { ok: true, url };
}

function isAllowedDevHost(url: URL, allowedDevHosts: readonly string[]): boolean {
  // Compare parser-normalised hosts on both sides so `LOCALHOST:8899` or `127.1:8899` entries still match exactly.
  return allowedDevHosts.some((entry) => {
    if (/[/@?#\\]/.test(entry)) return false;
    return parseUrl(`http://${entry}`)?.host === url.host;
  });
}

/** Returns why a WHATWG-normalised hostname is forbidden, or null when it is a public target. */
function checkHostname(hostname: string): "forbidden_ip" | "forbidden_hostname" | null {
  if (hostname.startsWith("[")) return isPublicIpv6(hostname.slice(1, -1)) ? null : "forbidden_ip";
  if (DOTTED_IPV4.test(hostname)) {
    return ipaddr.IPv4.isValidFourPartDecimal(hostname) && ipaddr.IPv4.parse(hostname).range() === "unicast"
      ? null
      : "forbidden_ip";
  }

  if (hostname.length > 253 || hostname.endsWith(".")) return "forbidden_hostname";
  const labels = hostname.split(".");
  if (labels.length < 2) return "forbidden_hostname"; // single-label names only resolve on internal resolvers
  if (!labels.every((label) => DNS_LABEL.test(label))) return "forbidden_hostname";
  const tld = labels[labels.length - 1] ?? "";
  // A numeric last label makes the parser read the host as IPv4, so this can only be another runtime's leniency.
  if (/^[0-9]/.test(tld) || FORBIDDEN_TLDS.has(tld)) return "forbidden_hostname";
  if (FORBIDDEN_DOMAINS.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`))) {
    return "forbidden_hostname";
  }
  if (/(?:^|\.)\d+\.\d+\.\d+\.\d+(?:\.|$)/.test(hostname)) return "forbidden_hostname"; // 10.0.0.1.attacker.example
  return null;
}

function isPublicIpv6(text: string): boolean {
  if (!ipaddr.IPv6.isValid(text)) return false;
  const address = ipaddr.IPv6.parse(text);
  // ipaddr.js calls IPv4-compatible `::7f00:1` "unicast"; nothing public lives in 0000::/16, so refuse it wholesale.
  return address.range() === "unicast" && address.parts[0] !== 0;
}

function rewriteOntoGateway(
  match: RegExpExecArray | null,
  gateway: string,
  defaultGatewayPath: string,
  invalid: "invalid_ipfs" | "invalid_arweave",
  policy: MetadataUriPolicy,
): UriCheckResult {
  if (!match) return reject(invalid);
  const [, id = "", path = "", query = ""] = match;
  if (!path.split("/").every((segment) => PATH_SEGMENT.test(segment) && segment !== "." && segment !== "..")) {
    return reject(invalid);
  }
  // Encoded dots/slashes/backslashes could climb out of the gateway prefix once a gateway decodes them.
  if (/%(?:2e|2f|5c)/i.test(path)) return reject(invalid);

  const base = gatewayBase(gateway, defaultGatewayPath);
  if (!base) return reject("gateway_misconfigured");
  const checked = checkHttpUrl(parseUrl(`${base}${id}${path}${query}`), policy);
  if (checked.ok && !checked.url.href.startsWith(base)) return reject(invalid);
  return checked;
}

/** Normalises a configured gateway to `origin + path/`; null if it is not a plain http(s) base URL. */
function gatewayBase(gateway: string, defaultPath: string): string | null {
  const url = parseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(gateway) ? gateway : `https://${gateway}`);
  if (!url || url.username || url.password || url.search || url.hash) return null;
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const path = url.pathname === "/" ? defaultPath : url.pathname;
  return `${url.origin}${path.endsWith("/") ? path : `${path}/`}`;
}
