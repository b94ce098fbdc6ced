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
