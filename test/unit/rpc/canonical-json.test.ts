import { describe, expect, it } from "vitest";
import { canonicalJson, isPlainObject } from "../../../src/rpc/canonical-json";
import { cacheCandidate } from "../../../src/rpc/immutable-cache";
import { validateCall } from "../../../src/rpc/methods";
import { topicKeyOf } from "../../../src/pubsub/pubsub-topic-key";

const PK = "11111111111111111111111111111111";

describe("canonicalJson: one text per meaning, for every key that shares work", () => {
  it("sorts keys and drops null members and trailing null elements, keeping inner nulls of arrays", () => {
    expect(canonicalJson({ b: 1, a: [null, 2, null], c: null })).toBe(`{"a":[null,2],"b":1}`);
  });

  it("has no text for a number JSON.parse may have merged with another", () => {
    for (const n of [1.5, 2 ** 53, -(2 ** 60), Number.NaN]) expect(canonicalJson([5, { minContextSlot: n }])).toBeUndefined();
    expect(canonicalJson([5, { minContextSlot: 2 ** 53 - 1 }])).toBe(`[5,{"minContextSlot":9007199254740991}]`);
  });

  it("tells objects from arrays and null", () => {
    expect([{}, [], null, "x"].map(isPlainObject)).toEqual([true, false, false, false]);
  });

  it("is the text both the PubSub sharing key and the result cache key are made of", () => {
    // Given the same params, with keys in another order and a null member
    const params = [PK, { encoding: "base64", commitment: "finalized", dataSlice: null }];
    // When the PubSub hub and the cache each key them
    const topic = topicKeyOf("accountSubscribe", params, JSON.stringify(params));
    const call = validateCall("getBlock", [5, { encoding: "json", commitment: "finalized", rewards: null }]);
    if (!call.ok) throw new Error(call.error.message);
    // Then each key holds canonicalJson's text
    expect(topic.paramsText).toBe(`["${PK}",{"commitment":"finalized","encoding":"base64"}]`);
    expect(cacheCandidate(call.call, "https://api.test", "node")!.key).toContain(encodeURIComponent(canonicalJson(call.call.params)!));
  });

  it("gives no cache key to a call whose number only the caller's text holds exactly", () => {
    // Given a finalized getBlock (cacheable) for a slot past 2^53 (a u64 the node accepts)
    const call = validateCall("getBlock", [2 ** 60, { encoding: "json", commitment: "finalized" }]);
    expect(call.ok).toBe(true);
    // Then its answer is not shared under a key that may stand for another slot
    if (call.ok) expect(cacheCandidate(call.call, "https://api.test", "node")).toBeUndefined();
  });
});
