import { describe, expect, it } from "vitest";
import { clientAddressBucket } from "../../../src/http/client-address";

describe("clientAddressBucket: what the sign-up and login throttles count by", () => {
  it.each([
    ["an IPv4 address", "203.0.113.7", "203.0.113.7"],
    ["surrounding spaces", " 203.0.113.7 ", "203.0.113.7"],
    ["an IPv6 address: its /64", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["another address in the same /64", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["a compressed IPv6 address", "2001:db8::1", "2001:db8:0:0::/64"],
    ["an IPv4-mapped IPv6 address: as IPv4", "::ffff:198.51.100.9", "198.51.100.9"],
    ["no header", undefined, "unknown"],
    ["garbage", "not an address", "unknown"],
    ["a list (a proxy's X-Forwarded-For style)", "203.0.113.7, 10.0.0.1", "unknown"],
  ])("%s", (_, header, bucket) => {
    expect(clientAddressBucket(header)).toBe(bucket);
  });
});
