/**
 * The ranges uri-policy names itself must stay refused whatever ipaddr.js's range table says: here ipaddr.js is
 * replaced by one that calls every address "unicast" (as a table that predates RFC 8215, 9602 and 9637 would for
 * those ranges), so only the policy's own lists stand between a URI and the address.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("ipaddr.js", async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof import("ipaddr.js") }).default;
  const knowsNothing = { ...real, IPv4: class extends real.IPv4 {}, IPv6: class extends real.IPv6 {} };
  knowsNothing.IPv4.prototype.range = () => "unicast";
  knowsNothing.IPv6.prototype.range = () => "unicast";
  knowsNothing.IPv4.parse = (text: string) => new knowsNothing.IPv4(real.IPv4.parse(text).octets);
  knowsNothing.IPv6.parse = (text: string) => new knowsNothing.IPv6(real.IPv6.parse(text).parts);
  return { default: knowsNothing };
});

const { checkMetadataUri } = await import("../../../src/metadata/uri-policy");
const policy = { ipfsGateway: "https://ipfs.io/ipfs/", arweaveGateway: "https://arweave.net/", allowedDevHosts: [] };

describe("checkMetadataUri: named ranges do not depend on ipaddr.js's range table", () => {
  it("the stand-in table really calls private addresses unicast (control)", () => {
    expect(checkMetadataUri("https://10.0.0.1/", policy).ok).toBe(true);
  });

  it.each([
    "https://168.63.129.16/",
    "https://2822734096/",
    "https://[64:ff9b::a9fe:a9fe]/",
    "https://[64:ff9b:1::1]/",
    "https://[2001:db8::1]/",
    "https://[3fff::1]/",
    "https://[3fff:fff:ffff::1]/",
    "https://[5f00::1]/",
  ])("refuses %s", (uri) => {
    expect(checkMetadataUri(uri, policy)).toEqual({ ok: false, reason: "forbidden_ip" });
  });
});
