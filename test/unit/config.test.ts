import { describe, expect, it } from "vitest";
import { configOf } from "../../src/config";
import { limits } from "../../src/limits";

const base = { UPSTREAM_RPC_URL: "http://127.0.0.1:8899" };

describe("configOf: every var through one schema, once per env object", () => {
  it("reads the upstream list in order, with a digest of it as the cluster key", () => {
    const config = configOf({ UPSTREAM_RPC_URL: " https://a.example/v2/k , http://b.example " });
    expect(config.upstream.urls).toEqual(["https://a.example/v2/k", "http://b.example"]);
    expect(config.upstream.clusterKey).toMatch(/^[0-9a-f]{64}$/);
    expect(config.upstream.attemptTimeoutMs).toBe(limits.upstreamAttemptTimeoutMs);
  });

  it("fails loudly on an unusable upstream, listing every problem", () => {
    expect(() => configOf({ UPSTREAM_RPC_URL: " , " })).toThrow("UPSTREAM_RPC_URL is empty");
    expect(() => configOf({ UPSTREAM_RPC_URL: "ftp://x", UPSTREAM_WS_URL: "http://y" })).toThrow(/UPSTREAM_RPC_URL: not a http:\/https: URL: ftp:\/\/x.*UPSTREAM_WS_URL: not a ws:\/wss: URL: http:\/\/y/);
  });

  it("ws/wss URLs become the http(s) URLs workerd upgrades; none configured is an empty list", () => {
    expect(configOf({ ...base, UPSTREAM_WS_URL: "ws://127.0.0.1:8900, wss://node.example/ws?api-key=k" }).pubSubUrls).toEqual(["http://127.0.0.1:8900/", "https://node.example/ws?api-key=k"]);
    expect(configOf({ ...base }).pubSubUrls).toEqual([]);
    expect(configOf({ ...base, UPSTREAM_WS_URL: " , " }).pubSubUrls).toEqual([]);
  });

  it("times: a valid number wins; blank, negative or garbage keep the default (a typo must not turn caching off)", () => {
    expect(configOf({ ...base, PRICE_CACHE_TTL_MS: "0" }).priceCacheTtlMs).toBe(0);
    expect(configOf({ ...base, PRICE_CACHE_TTL_MS: "2500" }).priceCacheTtlMs).toBe(2500);
    for (const raw of [undefined, "", " ", "-1", "soon", "NaN"]) expect(configOf({ ...base, PRICE_CACHE_TTL_MS: raw }).priceCacheTtlMs).toBe(limits.defaultPriceCacheTtlMs);
    expect(configOf({ ...base, UPSTREAM_ATTEMPT_TIMEOUT_MS: "200" }).upstream.attemptTimeoutMs).toBe(200);
    expect(configOf({ ...base, UPSTREAM_ATTEMPT_TIMEOUT_MS: "0" }).upstream.attemptTimeoutMs).toBe(limits.upstreamAttemptTimeoutMs);
  });

  it("metadata policy and holder scan", () => {
    const config = configOf({ ...base, METADATA_DEV_HOSTS: " 127.0.0.1:8899 , localhost ", HOLDERS_FULL_SCAN: "true", IPFS_GATEWAY: " " });
    expect(config.metadataPolicy).toEqual({ ipfsGateway: "https://ipfs.io/ipfs/", arweaveGateway: "https://arweave.net/", allowedDevHosts: ["127.0.0.1:8899", "localhost"] });
    expect(config.holdersFullScan).toBe(true);
    expect(configOf({ ...base, HOLDERS_FULL_SCAN: "yes" }).holdersFullScan).toBe(false);
  });

  it("parses once per env object", () => {
    const env = { ...base };
    expect(configOf(env)).toBe(configOf(env));
    expect(configOf({ ...base })).not.toBe(configOf(env));
  });
});
