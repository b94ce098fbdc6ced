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
 *      multicast, broadcast, unspecified, reserved, documentation or benchmarking addresses), and not in
 *      {@link FORBIDDEN_IPV4_RANGES} (public-looking addresses that are cloud-internal, e.g. Azure's wireserver);
 *    - IPv6 literal: only range `unicast`, not `0000::/16` (loopback, unspecified, IPv4-mapped/compatible/translated
 *      forms, NAT64 `64:ff9b::/96`, 6to4, Teredo, ULA `fc00::/7`, link-local `fe80::/10`, multicast are all refused),
 *      and not in {@link FORBIDDEN_IPV6_RANGES} (named here so the rule does not depend on ipaddr.js's range table);
 *    - DNS name: LDH labels, at least two labels, no trailing dot, not a special-use/internal TLD (`localhost`,
 *      `local`, `internal`, `svc`, `arpa`, `test`, ...) or cluster-internal suffix (`cluster.local`), not a
 *      wildcard-DNS service that maps names to embedded IPs (`nip.io`, `sslip.io`, ...), no four numeric labels in a row.
 * 5. `ipfs://` and `ar://` paths: no `.`/`..` segment and no encoded separator at ANY depth of percent-decoding
 *    (`%2e`, `%252e`, `%25252e`...), because a gateway (or a proxy in front of it) may decode more than once.
 *
 * Residual risk, accepted: a public DNS name may resolve to a private address (or be rebound to one between
 * requests). Workers cannot resolve DNS, so that cannot be checked here; Cloudflare's egress from Workers does not
 * route to private networks, which is what makes the name-based rules sufficient in production.
 * The returned `url` is the normalised URL to pass to `fetch` (never the raw string), fragment removed.
 */
import ipaddr from "ipaddr.js";
import { limits } from "../limits";

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
export const MAX_METADATA_URI_LENGTH = limits.maxMetadataUriLength;

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

/**
 * Special-use and de-facto private TLDs (RFC 6761, RFC 6762, RFC 8375, RFC 9476, ICANN's `.internal`, common LAN
 * names, Kubernetes service names `<service>.<namespace>.svc`).
 */
const FORBIDDEN_TLDS = new Set([
  "localhost", "local", "internal", "localdomain", "lan", "home", "corp", "intranet", "private",
  "arpa", "onion", "test", "invalid", "example", "alt", "svc",
]);
/**
 * Suffixes refused with everything under them: public wildcard-DNS services whose names resolve to an IP written
 * inside them (`10.0.0.1.nip.io`), and Kubernetes' cluster domain (already under `.local`, named so it stays refused).
 */
const FORBIDDEN_DOMAINS = ["nip.io", "sslip.io", "xip.io", "localtest.me", "lvh.me", "vcap.me", "traefik.me", "cluster.local"];

/** IPv4 ranges that ipaddr.js calls `unicast` but are internal to a cloud: refused in every spelling the parser folds. */
const FORBIDDEN_IPV4_RANGES: readonly (readonly [string, number])[] = [
  ["168.63.129.16", 32], // Azure wireserver / host agent (DHCP, DNS, health probes, VM extension config)
];
/**
 * IPv6 ranges refused by name, whatever ipaddr.js's version calls them. Most are also outside `unicast` in
 * ipaddr.js 2.5; listing them keeps the policy auditable on its own.
 */
const FORBIDDEN_IPV6_RANGES: readonly (readonly [string, number])[] = [
  ["64:ff9b::", 96], // NAT64 well-known prefix (RFC 6052): reaches IPv4 targets, private ones included
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215)
  ["2001:db8::", 32], // documentation (RFC 3849)
  ["3fff::", 20], // documentation (RFC 9637)
  ["5f00::", 16], // SRv6 segment identifiers (RFC 9602)
];
const IPV4_DENYLIST = FORBIDDEN_IPV4_RANGES.map(([ip, bits]) => [ipaddr.IPv4.parse(ip), bits] as const);
const IPV6_DENYLIST = FORBIDDEN_IPV6_RANGES.map(([ip, bits]) => [ipaddr.IPv6.parse(ip), bits] as const);
/** Percent-decoding rounds tried on a gateway path before giving up on it (each round must change something). */
const MAX_DECODE_ROUNDS = 4;

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
  if (DOTTED_IPV4.test(hostname)) return isPublicIpv4(hostname) ? null : "forbidden_ip";

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

function isPublicIpv4(text: string): boolean {
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return false;
  const address = ipaddr.IPv4.parse(text);
  return address.range() === "unicast" && !IPV4_DENYLIST.some(([range, bits]) => address.match(range, bits));
}

function isPublicIpv6(text: string): boolean {
  if (!ipaddr.IPv6.isValid(text)) return false;
  const address = ipaddr.IPv6.parse(text);
  // ipaddr.js calls IPv4-compatible `::7f00:1` "unicast"; nothing public lives in 0000::/16, so refuse it wholesale.
  return (
    address.range() === "unicast" &&
    address.parts[0] !== 0 &&
    !IPV6_DENYLIST.some(([range, bits]) => address.match(range, bits))
  );
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
  if (!path.split("/").every((segment) => PATH_SEGMENT.test(segment))) return reject(invalid);
  if (!isFlatGatewayPath(path)) return reject(invalid);

  const base = gatewayBase(gateway, defaultGatewayPath);
  if (!base) return reject("gateway_misconfigured");
  const checked = checkHttpUrl(parseUrl(`${base}${id}${path}${query}`), policy);
  if (checked.ok && !checked.url.href.startsWith(base)) return reject(invalid);
  return checked;
}

/**
 * True when no depth of percent-decoding turns `path` into one that climbs out of (or re-roots inside) the gateway
 * prefix: decodes until no `%` is left (at most {@link MAX_DECODE_ROUNDS} rounds; malformed escapes refused), and
 * every stage, as is and after NFKC (`%EF%BC%8E` is `．`, which NFKC folds to `.`), must keep its separators, have no
 * control character and no `.`/`..` segment. An encoded `.` `/` `\` at any stage (`%2e`, `%252e`) is refused
 * outright: no real CID path needs one, and `%2e%2e` is `..` to most gateways.
 */
function isFlatGatewayPath(path: string): boolean {
  const segments = path.split("/").length;
  let current = path;
  for (let round = 0; ; round++) {
    for (const form of [current, current.normalize("NFKC")]) {
      if (/%(?:2e|2f|5c)/i.test(form) || /[\\\u0000-\u001f\u007f]/.test(form)) return false;
      const parts = form.split("/");
      if (parts.length !== segments || parts.some((segment) => segment === "." || segment === "..")) return false;
    }
    if (!current.includes("%")) return true;
    if (round === MAX_DECODE_ROUNDS) return false;
    try {
      current = decodeURIComponent(current);
    } catch {
      return false; // `%zz`, `%u002e`, a lone `%` or invalid UTF-8: a gateway would guess, so we refuse
    }
  }
}

/** Normalises a configured gateway to `origin + path/`; null if it is not a plain http(s) base URL. */
function gatewayBase(gateway: string, defaultPath: string): string | null {
  const url = parseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(gateway) ? gateway : `https://${gateway}`);
  if (!url || url.username || url.password || url.search || url.hash) return null;
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const path = url.pathname === "/" ? defaultPath : url.pathname;
  return `${url.origin}${path.endsWith("/") ? path : `${path}/`}`;
}
