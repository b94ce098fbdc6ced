import { describe, expect, it } from "vitest";

import { checkMetadataUri, type MetadataUriPolicy, type UriRejectionReason } from "../../../src/metadata/uri-policy";

const policy: MetadataUriPolicy = {
  ipfsGateway: "https://ipfs.io/ipfs/",
  arweaveGateway: "https://arweave.net/",
  allowedDevHosts: ["127.0.0.1:8899"],
};
const production: MetadataUriPolicy = { ...policy, allowedDevHosts: [] };

const CID_V0 = "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG";
const CID_V1 = "bafybeid3vxffm77zjc2ezlzxlkejusjjpsaiiym2qbhjb2tgetqspwr7kq";
const AR_TX = "QPC6FYdUn-3V8ytFNuoCS85S2tHAuiDblh6u3CIZLsw";

/** [uri, expected reason] — every one of these must be refused. */
const HOSTILE: [string, UriRejectionReason][] = [
  // IPv4 private, loopback, link-local, CGNAT, and cloud metadata endpoints
  ["https://10.0.0.1/m.json", "forbidden_ip"],
  ["https://10.255.255.255/", "forbidden_ip"],
  ["https://172.16.0.1/", "forbidden_ip"],
  ["https://172.31.255.254/", "forbidden_ip"],
  ["https://192.168.1.1/", "forbidden_ip"],
  ["https://100.64.0.1/", "forbidden_ip"],
  ["https://100.100.100.200/latest/meta-data/", "forbidden_ip"], // Alibaba Cloud metadata (CGNAT range)
  ["https://169.254.169.254/latest/meta-data/", "forbidden_ip"], // AWS/GCP/Azure metadata
  ["https://169.254.0.1/", "forbidden_ip"],
  ["https://127.0.0.1/", "forbidden_ip"],
  ["https://127.255.255.254/", "forbidden_ip"],
  ["https://0.0.0.0/", "forbidden_ip"],
  // Other spellings of 127.0.0.1 / 0.0.0.0 that the WHATWG parser canonicalises
  ["https://0/", "forbidden_ip"],
  ["https://2130706433/", "forbidden_ip"], // decimal integer
  ["https://0177.0.0.1/", "forbidden_ip"], // octal
  ["https://017700000001/", "forbidden_ip"], // octal integer
  ["https://0x7f000001/", "forbidden_ip"], // hex integer
  ["https://0x7f.1/", "forbidden_ip"], // hex short form
  ["https://0x7F.0.0.1/", "forbidden_ip"],
  ["https://127.1/", "forbidden_ip"], // short form
  ["https://%31%32%37.0.0.1/", "forbidden_ip"], // percent-encoded host
  ["https://１２７.０.０.１/", "forbidden_ip"], // full-width digits
  ["https://127。0。0。1/", "forbidden_ip"], // ideographic full stops
  ["https://①②⑦.0.0.1/", "forbidden_ip"], // circled digits (IDNA mapping)
  // Broadcast, multicast, documentation, benchmarking, reserved
  ["https://255.255.255.255/", "forbidden_ip"],
  ["https://224.0.0.1/", "forbidden_ip"],
  ["https://192.0.2.1/", "forbidden_ip"],
  ["https://198.51.100.7/", "forbidden_ip"],
  ["https://203.0.113.9/", "forbidden_ip"],
  ["https://198.18.0.1/", "forbidden_ip"],
  ["https://240.0.0.1/", "forbidden_ip"],
  ["https://192.0.0.170/", "forbidden_ip"],
  // IPv6 literals, incl. IPv4-mapped / compatible / translated / NAT64 / 6to4 embeddings
  ["https://[::1]/", "forbidden_ip"],
  ["https://[::]/", "forbidden_ip"],
  ["https://[0:0:0:0:0:0:0:1]/", "forbidden_ip"],
  ["https://[::ffff:127.0.0.1]/", "forbidden_ip"],
  ["https://[::ffff:7f00:1]/", "forbidden_ip"],
  ["https://[0:0:0:0:0:ffff:7f00:1]/", "forbidden_ip"],
  ["https://[::ffff:10.0.0.1]/", "forbidden_ip"],
  ["https://[::ffff:169.254.169.254]/", "forbidden_ip"],
  ["https://[::ffff:0:7f00:1]/", "forbidden_ip"], // SIIT (rfc6145)
  ["https://[::7f00:1]/", "forbidden_ip"], // IPv4-compatible (ipaddr.js calls it unicast)
  ["https://[64:ff9b::a9fe:a9fe]/", "forbidden_ip"], // NAT64 of 169.254.169.254
  ["https://[2002:7f00:1::]/", "forbidden_ip"], // 6to4 of 127.0.0.1
  ["https://[2001::1]/", "forbidden_ip"], // Teredo
  ["https://[fe80::1]/", "forbidden_ip"],
  ["https://[fc00::1]/", "forbidden_ip"],
  ["https://[fd00:ec2::254]/latest/meta-data/", "forbidden_ip"], // AWS metadata over IPv6 (ULA)
  ["https://[ff02::1]/", "forbidden_ip"],
  ["https://[2001:db8::1]/", "forbidden_ip"],
  // Internal names
  ["https://localhost/", "forbidden_hostname"],
  ["https://LOCALHOST/", "forbidden_hostname"],
  ["https://localhost./", "forbidden_hostname"],
  ["https://LOCALHOST./m.json", "forbidden_hostname"],
  ["https://foo.localhost/", "forbidden_hostname"],
  ["https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", "forbidden_hostname"], // IDNA maps to "localhost"
  ["https://printer.local/", "forbidden_hostname"],
  ["https://metadata.google.internal/computeMetadata/v1/", "forbidden_hostname"],
  ["https://instance-data.ec2.internal/", "forbidden_hostname"],
  ["https://metadata/", "forbidden_hostname"], // single label
  ["https://intranet/", "forbidden_hostname"],
  ["https://example.com./", "forbidden_hostname"], // trailing dot
  ["https://router.home.arpa/", "forbidden_hostname"],
  ["https://1.0.0.127.in-addr.arpa/", "forbidden_hostname"],
  ["https://abc.onion/", "forbidden_hostname"],
  ["https://127.0.0.1.nip.io/", "forbidden_hostname"], // wildcard DNS to the embedded IP
  ["https://10-0-0-1.sslip.io/", "forbidden_hostname"],
  ["https://10.0.0.1.attacker.example.com/", "forbidden_hostname"],
  ["https://under_score.example.com/", "forbidden_hostname"],
  // Credentials, incl. the classic "which host is it" confusions
  ["https://user:pw@example.com/", "credentials"],
  ["https://user@example.com/", "credentials"],
  ["https://evil.com@127.0.0.1/", "credentials"],
  ["https://example.com:x@127.0.0.1/", "credentials"],
  ["https://127.0.0.1%2f@example.com/", "credentials"],
  ["http://127.0.0.1:8899@evil.com/", "credentials"],
  // Schemes
  ["file:///etc/passwd", "scheme_not_allowed"],
  ["data:application/json,{}", "scheme_not_allowed"],
  ["javascript:alert(1)", "scheme_not_allowed"],
  ["JavaScript:alert(1)", "scheme_not_allowed"],
  ["gopher://127.0.0.1:6379/_INFO", "scheme_not_allowed"],
  ["ftp://example.com/m.json", "scheme_not_allowed"],
  ["blob:https://example.com/4f8e", "scheme_not_allowed"],
  ["ws://example.com/", "scheme_not_allowed"],
  ["wss://example.com/", "scheme_not_allowed"],
  ["dict://127.0.0.1:11211/", "scheme_not_allowed"],
  ["ipns://k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8/", "scheme_not_allowed"],
  ["//example.com/m.json", "unparseable"],
  ["example.com/m.json", "unparseable"],
  ["https://", "unparseable"],
  ["https://256.1.1.1/", "unparseable"],
  // Ports and plain http
  ["https://example.com:8443/", "port_not_allowed"],
  ["https://example.com:22/", "port_not_allowed"],
  ["https://example.com:80/", "port_not_allowed"],
  ["https://127.0.0.1:8898/", "port_not_allowed"], // not the dev port
  ["http://example.com/m.json", "plain_http"],
  ["http://2130706433/", "plain_http"],
  ["http://127.0.0.1:8898/", "plain_http"],
  ["http://localhost:8899/", "plain_http"], // the dev host is 127.0.0.1:8899 exactly
  // Characters the parser would silently rewrite
  ["https://exa\tmple.com/", "forbidden_characters"],
  ["https://example.com\\@127.0.0.1/", "forbidden_characters"],
  ["https://example.com/\u0000", "forbidden_characters"],
  ["https://example.com/a b", "forbidden_characters"],
  ["https://example.com\u0085/", "forbidden_characters"],
  ["", "empty"],
  ["   ", "empty"],
  [`https://example.com/${"a".repeat(2100)}`, "too_long"],
  // ipfs:// and ar:// that do not have the expected shape
  ["ipfs://short", "invalid_ipfs"],
  ["ipfs://ipfs/", "invalid_ipfs"],
  [`ipfs://${CID_V0}/../../etc/passwd`, "invalid_ipfs"],
  [`ipfs://${CID_V0}/%2e%2e/x`, "invalid_ipfs"],
  [`ipfs://${CID_V0}/a%2fb`, "invalid_ipfs"],
  [`ipfs://user@${CID_V0}`, "invalid_ipfs"],
  [`ipfs://${CID_V0}:8080/x`, "invalid_ipfs"],
  ["ar://tooShort", "invalid_arweave"],
  [`ar://${AR_TX}/../x`, "invalid_arweave"],
  [`ar://${AR_TX}x`, "invalid_arweave"],
];

describe("checkMetadataUri refuses hostile URIs", () => {
  it("has a table of at least 50 hostile URIs", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(50);
  });

  it.each(HOSTILE)("refuses %j (%s)", (uri, reason) => {
    expect(checkMetadataUri(uri, policy)).toEqual({ ok: false, reason });
  });

  it("leans on the WHATWG parser to canonicalise numeric IPv4 hosts (the spellings fetch would use)", () => {
    for (const host of ["2130706433", "0177.0.0.1", "0x7f.1", "0x7f000001", "127.1", "017700000001"]) {
      expect(new URL(`https://${host}/`).hostname).toBe("127.0.0.1");
    }
    expect(new URL("https://[0:0:0:0:0:ffff:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
    expect(new URL("https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ./").hostname).toBe("localhost.");
  });

  it("refuses the dev host when the policy has none (production)", () => {
    expect(checkMetadataUri("http://127.0.0.1:8899/m.json", production)).toEqual({ ok: false, reason: "plain_http" });
    expect(checkMetadataUri("https://127.0.0.1:8899/m.json", production)).toEqual({ ok: false, reason: "port_not_allowed" });
  });

  it("applies every rule to the gateway too, so a bad gateway fails closed", () => {
    const uri = `ipfs://${CID_V0}`;
    expect(checkMetadataUri(uri, { ...policy, ipfsGateway: "https://10.0.0.1/ipfs/" })).toEqual({ ok: false, reason: "forbidden_ip" });
    expect(checkMetadataUri(uri, { ...production, ipfsGateway: "http://127.0.0.1:8899/ipfs/" })).toEqual({ ok: false, reason: "plain_http" });
    expect(checkMetadataUri(uri, { ...policy, ipfsGateway: "ftp://ipfs.io/" })).toEqual({ ok: false, reason: "gateway_misconfigured" });
    expect(checkMetadataUri(uri, { ...policy, ipfsGateway: "https://u:p@ipfs.io/" })).toEqual({ ok: false, reason: "gateway_misconfigured" });
    expect(checkMetadataUri(`ar://${AR_TX}`, { ...policy, arweaveGateway: "https://arweave.net/?x=1" })).toEqual({
      ok: false,
      reason: "gateway_misconfigured",
    });
  });

  it("never throws, whatever it is given", () => {
    const inputs: unknown[] = [null, undefined, 42, {}, "\uD800", "https://\uD800.com/", "ipfs://", "ar://", ":", "a:"];
    for (const input of inputs) expect(() => checkMetadataUri(input as string, policy)).not.toThrow();
  });
});

describe("checkMetadataUri accepts and normalises good URIs", () => {
  it.each([
    [`https://arweave.net/${AR_TX}`, `https://arweave.net/${AR_TX}`],
    [`https://nftstorage.link/ipfs/${CID_V1}/2235.json`, `https://nftstorage.link/ipfs/${CID_V1}/2235.json`],
    ["https://raw.githubusercontent.com/MeteoraAg/token-metadata/refs/heads/main/meteora_lp.json", "https://raw.githubusercontent.com/MeteoraAg/token-metadata/refs/heads/main/meteora_lp.json"],
    ["HTTPS://Example.COM:443/a.json?x=1#frag", "https://example.com/a.json?x=1"],
    ["  https://example.com/m.json  ", "https://example.com/m.json"],
    ["https://8.8.8.8/m.json", "https://8.8.8.8/m.json"], // public IPv4 literal
    ["https://[2606:4700:4700::1111]/m.json", "https://[2606:4700:4700::1111]/m.json"], // public IPv6 literal
    ["https://пример.рф/m.json", "https://xn--e1afmkfd.xn--p1ai/m.json"], // IDN → punycode, a public name
    ["https://10.example.com/m.json", "https://10.example.com/m.json"], // numeric label, but not an address
    [`ipfs://${CID_V0}`, `https://ipfs.io/ipfs/${CID_V0}`],
    [`ipfs://${CID_V0}/readme.json`, `https://ipfs.io/ipfs/${CID_V0}/readme.json`],
    [`ipfs://ipfs/${CID_V1}/2235.json`, `https://ipfs.io/ipfs/${CID_V1}/2235.json`],
    [`IPFS://${CID_V1}/a.json?filename=a.json#x`, `https://ipfs.io/ipfs/${CID_V1}/a.json?filename=a.json`],
    [`ar://${AR_TX}`, `https://arweave.net/${AR_TX}`],
    [`ar://${AR_TX}/manifest/0.json`, `https://arweave.net/${AR_TX}/manifest/0.json`],
    ["http://127.0.0.1:8899/metadata/LOCAL.json", "http://127.0.0.1:8899/metadata/LOCAL.json"], // allowed dev host
    ["https://127.0.0.1:8899/metadata/LOCAL.json", "https://127.0.0.1:8899/metadata/LOCAL.json"],
  ])("accepts %s", (uri, href) => {
    const result = checkMetadataUri(uri, policy);
    expect(result.ok && result.url.href).toBe(href);
  });

  it.each([
    ["ipfs.io", `https://ipfs.io/ipfs/${CID_V0}`],
    ["https://cloudflare-ipfs.com", `https://cloudflare-ipfs.com/ipfs/${CID_V0}`],
    ["https://gw.example.com/custom", `https://gw.example.com/custom/${CID_V0}`],
    ["http://127.0.0.1:8899/ipfs/", `http://127.0.0.1:8899/ipfs/${CID_V0}`], // local chain serving as gateway in dev
  ])("rewrites ipfs:// onto gateway %s", (ipfsGateway, href) => {
    const result = checkMetadataUri(`ipfs://${CID_V0}`, { ...policy, ipfsGateway });
    expect(result.ok && result.url.href).toBe(href);
  });

  it("rewrites ar:// onto a gateway given as a bare host", () => {
    const result = checkMetadataUri(`ar://${AR_TX}`, { ...policy, arweaveGateway: "arweave.net" });
    expect(result.ok && result.url.href).toBe(`https://arweave.net/${AR_TX}`);
  });

  it("matches dev hosts after normalising the configured entry", () => {
    const result = checkMetadataUri("http://127.0.0.1:8899/x.json", { ...production, allowedDevHosts: ["127.1:8899"] });
    expect(result.ok).toBe(true);
  });
});

describe("checkMetadataUri: audit additions (issue 8)", () => {
  it.each([
    "https://kubernetes.default.svc/",
    "https://redis.prod.svc/token.json",
    "https://KUBERNETES.DEFAULT.SVC/",
    "https://kubernetes.default.svc.cluster.local/",
    "https://api.cluster.local/",
    "https://metadata.google.internal/",
    "https://vault.corp.internal/token.json",
  ])("refuses the cluster- or cloud-internal name %s", (uri) => {
    expect(checkMetadataUri(uri, production)).toEqual({ ok: false, reason: "forbidden_hostname" });
  });

  it.each([
    "https://svc.example.com/m.json",
    "https://internal.example.com/m.json",
    "https://cluster.local.example.com/m.json",
  ])("still accepts a public name that merely contains those words: %s", (uri) => {
    expect(checkMetadataUri(uri, production).ok).toBe(true);
  });

  it.each([
    "https://168.63.129.16/machine?comp=goalstate",
    "https://2822734096/", // decimal integer
    "https://0xa83f8110/", // hex integer
    "https://0xA8.0x3F.0x81.0x10/", // hex per octet
    "https://0250.077.0201.020/", // octal per octet
    "https://168.63.33040/", // three-part short form
    "https://１６８.６３.１２９.１６/", // full-width digits
    "https://168。63。129。16/", // ideographic full stops
    "https://[::ffff:168.63.129.16]/", // IPv4-mapped
    "https://[::ffff:a83f:8110]/",
    "https://[64:ff9b::a83f:8110]/", // NAT64
    "https://[64:ff9b:1::a83f:8110]/", // local-use NAT64
  ])("refuses Azure's wireserver 168.63.129.16 spelled %s", (uri) => {
    expect(checkMetadataUri(uri, production)).toEqual({ ok: false, reason: "forbidden_ip" });
  });

  it("still accepts the addresses either side of the wireserver", () => {
    expect(checkMetadataUri("https://168.63.129.15/", production).ok).toBe(true);
    expect(checkMetadataUri("https://168.63.129.17/", production).ok).toBe(true);
  });

  it.each([
    "https://[64:ff9b:1::1]/", // local-use NAT64 64:ff9b:1::/48 (RFC 8215)
    "https://[64:ff9b:1:ffff:ffff:ffff:ffff:ffff]/",
    "https://[3fff::1]/", // documentation 3fff::/20 (RFC 9637)
    "https://[3fff:fff:ffff::1]/",
    "https://[5f00::1]/", // SRv6 SIDs 5f00::/16 (RFC 9602)
    "https://[5f00:ffff:ffff::1]/",
  ])("refuses the IPv6 range of %s", (uri) => {
    expect(checkMetadataUri(uri, production)).toEqual({ ok: false, reason: "forbidden_ip" });
  });

  it.each(["https://[64:ff9b:2::1]/", "https://[3fff:1000::1]/", "https://[5f01::1]/"])(
    "still accepts the public IPv6 just outside those ranges: %s",
    (uri) => {
      expect(checkMetadataUri(uri, production).ok).toBe(true);
    },
  );

  it.each([
    `ipfs://${CID_V0}/%252e%252e/%252e%252e/admin`, // double-encoded dots
    `ipfs://${CID_V0}/%25252e%25252e/admin`, // triple-encoded
    `ipfs://${CID_V0}/%252E%252E/admin`,
    `ipfs://${CID_V0}/.%252e/admin`, // half encoded
    `ipfs://${CID_V0}/%2e./admin`,
    `ipfs://${CID_V0}/%2E%2E/admin`,
    `ipfs://${CID_V0}/%252e/x`, // a single dot segment, double-encoded
    `ipfs://${CID_V0}/a%252fb`, // double-encoded slash
    `ipfs://${CID_V0}/a%255cb`, // double-encoded backslash
    `ipfs://${CID_V0}/%EF%BC%8E%EF%BC%8E/admin`, // full-width dots, which NFKC folds to ".."
    `ipfs://${CID_V0}/%2500/x`, // double-encoded NUL
    `ipfs://${CID_V0}/%25zz/x`, // decodes to a malformed escape
    `ipfs://${CID_V0}/%u002e%u002e/x`, // IIS-style escapes
    `ipfs://${CID_V0}/%2525252525252e/x`, // deeper than the decode bound
    `ipfs://ipfs/${CID_V1}/%252e%252e/%252e%252e/admin`,
    `ar://${AR_TX}/%252e%252e/x`,
  ])("refuses the encoded traversal %s", (uri) => {
    const result = checkMetadataUri(uri, policy);
    expect(result).toEqual({ ok: false, reason: uri.startsWith("ar:") ? "invalid_arweave" : "invalid_ipfs" });
  });

  it.each([
    [`ipfs://${CID_V0}/my%20token.json`, `https://ipfs.io/ipfs/${CID_V0}/my%20token.json`],
    [`ipfs://${CID_V0}/%E2%9C%93.json`, `https://ipfs.io/ipfs/${CID_V0}/%E2%9C%93.json`],
    [`ipfs://${CID_V0}/a..b/c.json`, `https://ipfs.io/ipfs/${CID_V0}/a..b/c.json`],
  ])("still accepts encoded names that stay inside the CID: %s", (uri, href) => {
    const result = checkMetadataUri(uri, policy);
    expect(result.ok && result.url.href).toBe(href);
  });
});
