import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/rpc/canonical-json";
import { cacheCandidate } from "../../../src/rpc/immutable-cache";
import { validateCall, type ValidatedCall } from "../../../src/rpc/methods";
import { configOf } from "../../../src/config";

function call(method: string, params: unknown[]): ValidatedCall {
  const outcome = validateCall(method, params);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.call;
}
const candidate = (method: string, params: unknown[]) => cacheCandidate(call(method, params), "https://api.test", "http://node");

describe("immutable result cache policy", () => {
  it("gives one key per meaning: key order and null (= default) fields do not matter", () => {
    expect(canonicalJson([5, { rewards: false, encoding: "json", commitment: null }, null])).toBe(`[5,{"encoding":"json","rewards":false}]`);
    expect(candidate("getBlock", [5, { encoding: "json", rewards: false }])!.key).toBe(candidate("getBlock", [5, { rewards: false, encoding: "json", commitment: null }])!.key);
    expect(candidate("getBlock", [5, { encoding: "json" }])!.key).not.toBe(candidate("getBlock", [5, { encoding: "base64" }])!.key);
  });

  it("caches finalized getBlock at once, never a confirmed one", () => {
    expect(candidate("getBlock", [5])!.finality("{}")).toBe("final");
    expect(candidate("getBlock", [5, "json"])!.finality("{}")).toBe("final");
    expect(candidate("getBlock", [5, { commitment: "finalized" }])!.finality("{}")).toBe("final");
    expect(candidate("getBlock", [5, { commitment: "confirmed" }])).toBeUndefined();
  });

  it("caches getBlockTime and closed getBlocks ranges once the finalized slot passes them", () => {
    expect(candidate("getBlockTime", [7])!.finality("1700000000")).toEqual({ finalizedAtLeast: 7 });
    expect(candidate("getBlocks", [5, 9])!.finality("[5,7,9]")).toEqual({ finalizedAtLeast: 9 });
    expect(candidate("getBlocks", [5])).toBeUndefined();
    expect(candidate("getBlocks", [5, { commitment: "confirmed" }])).toBeUndefined();
  });

  it("caches getBlocksWithLimit only when the answer is full", () => {
    const c = candidate("getBlocksWithLimit", [5, 3])!;
    expect(c.finality("[5,6,8]")).toEqual({ finalizedAtLeast: 8 });
    expect(c.finality("[5,6]")).toBe("never");
  });

  it("never caches other methods", () => {
    for (const [method, params] of [["getSlot", []], ["getBalance", ["So11111111111111111111111111111111111111112"]], ["getBlockHeight", []], ["getTransaction", ["5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"]]] as const) {
      expect(candidate(method, [...params])).toBeUndefined();
    }
  });

  it("names the cluster by a digest: no upstream URL, and no secret in one, appears in a cache key", () => {
    // Given upstream URLs carrying provider credentials in the path and the query
    const secretUrls = "https://mainnet.provider.test/v2/sk_live_PATHSECRET123,https://backup.provider.test/?api-key=QUERYSECRET456";
    const upstreamConfig = (vars: { UPSTREAM_RPC_URL: string }) => configOf(vars).upstream;
    const { clusterKey } = upstreamConfig({ UPSTREAM_RPC_URL: secretUrls });
    // When a cache key is built for them
    const key = cacheCandidate(call("getBlock", [5]), "https://api.test", clusterKey)!.key;
    // Then it holds a SHA-256 hex digest, and nothing of the URLs
    expect(clusterKey).toMatch(/^[0-9a-f]{64}$/);
    for (const secret of ["PATHSECRET123", "QUERYSECRET456", "sk_live", "provider.test", "api-key"]) {
      expect(key).not.toContain(secret);
      expect(decodeURIComponent(key)).not.toContain(secret);
    }
    // And the same list always gives the same key; another list another
    expect(upstreamConfig({ UPSTREAM_RPC_URL: ` ${secretUrls.replace(",", " , ")} ` }).clusterKey).toBe(clusterKey);
    expect(upstreamConfig({ UPSTREAM_RPC_URL: "https://mainnet.provider.test/v2/sk_live_OTHER" }).clusterKey).not.toBe(clusterKey);
  });

  it("ignores unknown config keys: they are not part of the key (they never reach the node)", () => {
    expect(candidate("getBlock", [5, { encoding: "json", padding: "x".repeat(100) }])!.key).toBe(candidate("getBlock", [5, { encoding: "json" }])!.key);
  });

  it("refuses, rather than overflows, a value nested past the cap", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/nesting over/);
  });
});
