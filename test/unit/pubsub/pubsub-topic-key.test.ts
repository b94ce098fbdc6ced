import { describe, expect, it } from "vitest";
import { topicKeyOf } from "../../../src/pubsub/pubsub-topic-key";

const keyOf = (method: string, paramsText?: string) => topicKeyOf(method, paramsText === undefined ? undefined : JSON.parse(paramsText), paramsText);
const PK = "11111111111111111111111111111111";

describe("the sharing key of a subscription", () => {
  it("key order, spacing and an omitted, null or empty config make no difference; the canonical text is what goes upstream", () => {
    const a = keyOf("accountSubscribe", `["${PK}", {"encoding":"base64", "commitment":"confirmed"}]`);
    const b = keyOf("accountSubscribe", `["${PK}",{"commitment":"confirmed","encoding":"base64"}]`);
    expect(a).toEqual(b);
    expect(a.paramsText).toBe(`["${PK}",{"commitment":"confirmed","encoding":"base64"}]`);
    expect(keyOf("accountSubscribe", `["${PK}"]`).key).toBe(keyOf("accountSubscribe", `["${PK}", null]`).key);
    expect(keyOf("accountSubscribe", `["${PK}"]`).key).toBe(keyOf("accountSubscribe", `["${PK}", {}]`).key);
    expect(keyOf("slotSubscribe").key).toBe(keyOf("slotSubscribe", "[]").key);
  });

  it("different method, address or config → different keys; slotSubscribe's [{}] is not its [] (the node refuses one)", () => {
    expect(keyOf("accountSubscribe", `["${PK}"]`).key).not.toBe(keyOf("programSubscribe", `["${PK}"]`).key);
    expect(keyOf("accountSubscribe", `["${PK}",{"commitment":"processed"}]`).key).not.toBe(keyOf("accountSubscribe", `["${PK}",{"commitment":"confirmed"}]`).key);
    expect(keyOf("slotSubscribe", "[{}]").key).not.toBe(keyOf("slotSubscribe", "[]").key);
  });

  it("numbers JSON would merge (1.0 and 1, 1e3, -0, past 2^53) keep the caller's text as key and as upstream params", () => {
    for (const config of ['{"minContextSlot":1.0}', '{"minContextSlot":1e3}', '{"minContextSlot":-0}', '{"minContextSlot":18446744073709551615}']) {
      const text = `["${PK}", ${config}]`;
      expect(keyOf("accountSubscribe", text)).toEqual({ key: `accountSubscribe=${text}`, paramsText: text });
    }
    expect(keyOf("accountSubscribe", `["${PK}",{"minContextSlot":1}]`).key).not.toBe(keyOf("accountSubscribe", `["${PK}",{"minContextSlot":1.0}]`).key);
  });
});
