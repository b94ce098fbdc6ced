import { describe, expect, it } from "vitest";
import { arrayElementSpans, objectMemberSpans, skipWhitespace, sliceSpan } from "../../../src/solana/upstream-json-spans";

describe("raw JSON spans", () => {
  it("slices members exactly as written, keeping u64 digits JSON.parse would round", () => {
    // Given an answer with a u64 above 2^53, escaped quotes in strings and nested structures
    const text = ` {"jsonrpc":"2.0", "result" : {"rentEpoch":18446744073709551615,"data":["a\\"}]b\\\\","base64"]} ,"id":7}`;
    // When we take the members of the top-level object
    const members = objectMemberSpans(text, skipWhitespace(text, 0))!;
    // Then each value is the original text, byte for byte
    expect(sliceSpan(text, members.get("result")!)).toBe(`{"rentEpoch":18446744073709551615,"data":["a\\"}]b\\\\","base64"]}`);
    expect(sliceSpan(text, members.get("id")!)).toBe("7");
    expect(sliceSpan(text, members.get("jsonrpc")!)).toBe(`"2.0"`);
  });

  it("splits a batch answer into its elements", () => {
    const text = `[{"id":1,"result":[1,2]} , {"id":0,"error":{"code":-32005,"message":"x"}},null,"s",true]`;
    const spans = arrayElementSpans(text, 0)!.map((s) => sliceSpan(text, s));
    expect(spans).toEqual([`{"id":1,"result":[1,2]}`, `{"id":0,"error":{"code":-32005,"message":"x"}}`, "null", `"s"`, "true"]);
  });

  it("handles empty containers and escaped keys", () => {
    expect(arrayElementSpans("[ ]", 0)).toEqual([]);
    expect(objectMemberSpans("{}", 0)!.size).toBe(0);
    const text = `{"re\\u0073ult":1}`;
    expect(sliceSpan(text, objectMemberSpans(text, 0)!.get("result")!)).toBe("1");
  });
});
