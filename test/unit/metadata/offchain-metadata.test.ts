import { describe, expect, it } from "vitest";

import { normalizeOffchainMetadata, OFFCHAIN_TEXT_LIMITS } from "../../../src/metadata/offchain-metadata";
import type { MetadataUriPolicy } from "../../../src/metadata/uri-policy";

const policy: MetadataUriPolicy = { ipfsGateway: "https://ipfs.io/ipfs/", arweaveGateway: "https://arweave.net/", allowedDevHosts: [] };
const CID = "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG";

describe("normalizeOffchainMetadata", () => {
  it("reads pump.fun-style JSON with socials at the top level", () => {
    const json = {
      name: "Dog Coin",
      symbol: "DOG",
      description: "much wow",
      image: `ipfs://${CID}`,
      showName: true,
      createdOn: "https://pump.fun",
      twitter: "https://x.com/dog",
      telegram: "https://t.me/dog",
      website: "https://dog.example.com",
    };
    expect(normalizeOffchainMetadata(json, policy)).toEqual({
      name: "Dog Coin",
      symbol: "DOG",
      description: "much wow",
      image: `https://ipfs.io/ipfs/${CID}`,
      socials: { twitter: "https://x.com/dog", telegram: "https://t.me/dog", website: "https://dog.example.com/" },
    });
  });

  it("finds socials under extensions, properties.links and links, top level winning", () => {
    const json = {
      twitter: "javascript:alert(1)", // unusable, so the next place is tried
      extensions: { twitter: "https://twitter.com/ext", website: "https://ext.example.com" },
      properties: { links: { telegram: "https://t.me/props", website: "https://props.example.com" } },
      links: { discord: "https://discord.gg/abc", x: "https://x.com/links" },
    };
    expect(normalizeOffchainMetadata(json, policy)?.socials).toEqual({
      twitter: "https://twitter.com/ext",
      website: "https://ext.example.com/",
      telegram: "https://t.me/props",
      discord: "https://discord.gg/abc",
    });
  });

  it("expands @handles for twitter and telegram only, and drops other non-URLs", () => {
    const json = { twitter: "@dogcoin", telegram: "@dogcoin_chat", website: "@dogcoin", discord: "dogcoin" };
    expect(normalizeOffchainMetadata(json, policy)?.socials).toEqual({
      twitter: "https://x.com/dogcoin",
      telegram: "https://t.me/dogcoin_chat",
    });
  });

  it("refuses dangerous or private links and images", () => {
    const json = {
      image: "data:image/svg+xml,<svg onload=alert(1)>",
      website: "http://169.254.169.254/",
      twitter: "https://x.com@127.0.0.1/",
      links: { telegram: "file:///etc/passwd" },
    };
    expect(normalizeOffchainMetadata(json, policy)).toEqual({ image: null, description: null, socials: {} });
  });

  it("treats fields of the wrong type as absent instead of failing the document", () => {
    const json = { name: 42, symbol: ["X"], image: { url: "https://a.example.com" }, links: ["https://x.com/a"], properties: "x" };
    expect(normalizeOffchainMetadata(json, policy)).toEqual({ image: null, description: null, socials: {} });
  });

  it("cleans and caps display text", () => {
    const json = {
      name: `  \u202eevil\u0000 name\u0007  `,
      symbol: "S".repeat(500),
      description: "d".repeat(10_000),
    };
    const value = normalizeOffchainMetadata(json, policy);
    expect(value?.name).toBe("evil name");
    expect(value?.symbol).toHaveLength(OFFCHAIN_TEXT_LIMITS.symbol);
    expect(value?.description).toHaveLength(OFFCHAIN_TEXT_LIMITS.description);
  });

  it("caps by code points, never splitting a surrogate pair", () => {
    const value = normalizeOffchainMetadata({ symbol: "🐶".repeat(100) }, policy);
    expect(Array.from(value?.symbol ?? "")).toHaveLength(OFFCHAIN_TEXT_LIMITS.symbol);
    expect(value?.symbol).toBe("🐶".repeat(OFFCHAIN_TEXT_LIMITS.symbol));
  });

  it.each([[null], [[]], ["text"], [42], [true]])("returns null for a non-object document (%j)", (json) => {
    expect(normalizeOffchainMetadata(json, policy)).toBeNull();
  });
});

describe("normalizeOffchainMetadata hands URLs to the policy unmodified", () => {
  it("does not 'repair' a URL with control characters into an acceptable one", () => {
    const json = { image: "https://exa\u0000mple.com/i.png", website: "https://example.com/\u0007" };
    expect(normalizeOffchainMetadata(json, policy)).toMatchObject({ image: null, socials: {} });
  });
});
