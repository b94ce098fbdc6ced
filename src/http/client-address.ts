import ipaddr from "ipaddr.js";

/**
 * The client address throttles count by: `CF-Connecting-IP`, which Cloudflare sets on every request (a client's own
 * header of that name is overwritten at the edge). An IPv6 client is counted by its /64, the block one subscriber
 * usually holds whole, so rotating addresses inside it earns no fresh window. Without the header (local dev, tests that
 * send none) every client shares one bucket, `unknown`: stricter, never looser.
 */
export function clientAddressBucket(header: string | undefined): string {
  const raw = header?.trim() ?? "";
  if (!ipaddr.isValid(raw)) return "unknown";
  const address = ipaddr.process(raw); // IPv4-mapped IPv6 → IPv4
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
}

/**
 * The IPv6 /48 a client address lies in (`2001:db8:1::/48`), or null for IPv4 and unknown clients: the block a site is
 * usually given whole (RFC 6177), so sign-ups rotating through its 65,536 /64s share one count as well.
 */
export function clientIpv6Net48(header: string | undefined): string | null {
  const raw = header?.trim() ?? "";
  if (!ipaddr.isValid(raw)) return null;
  const address = ipaddr.process(raw);
  if (address.kind() === "ipv4") return null;
  const parts = (address as ipaddr.IPv6).parts.slice(0, 3);
  return `${parts.map((p) => p.toString(16)).join(":")}::/48`;
}
