import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../../src/solana/upstream-answer";
import { arrayElementSpans, objectMemberSpans, skipValue, skipWhitespace, sliceSpan } from "../../../src/json/json-spans";

/** Whether the scanner takes `text` as exactly one JSON value (whitespace around allowed), as JSON.parse would. */
function scansAsOneValue(text: string): boolean {
  const start = skipWhitespace(text, 0);
  const end = skipValue(text, start);
  return end >= 0 && skipWhitespace(text, end) === text.length;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

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

  it("validates the whole grammar inside results: the audit's answer is refused", () => {
    // Given a JSON-RPC answer whose brackets balance but whose result is not JSON
    const text = `{"jsonrpc":"2.0","result":[1,,2,{oops}],"id":9}`;
    // Then it is not an answer (the proxy turns that into -32053)
    expect(readAnswer(text, { id: 9 })).toBeUndefined();
  });

  it.each([
    ["an empty element", `[1,,2]`],
    ["a bare word in an object", `{oops}`],
    ["a trailing comma in an array", `[1,2,]`],
    ["a trailing comma in an object", `{"a":1,}`],
    ["a leading comma", `[,1]`],
    ["a missing colon", `{"a" 1}`],
    ["a missing value", `{"a":}`],
    ["a missing comma between elements", `[1 2]`],
    ["a missing comma between members", `{"a":1 "b":2}`],
    ["a non-string key", `{1:2}`],
    ["a single-quoted string", `['a']`],
    ["a leading zero", `[01]`],
    ["a leading zero after a minus", `[-01]`],
    ["a leading plus", `[+1]`],
    ["a bare minus", `[-]`],
    ["a dot without digits after", `[1.]`],
    ["a dot without digits before", `[.5]`],
    ["an exponent without digits", `[1e]`],
    ["an exponent sign without digits", `[1e+]`],
    ["hex", `[0x10]`],
    ["NaN", `[NaN]`],
    ["Infinity", `[Infinity]`],
    ["-Infinity", `[-Infinity]`],
    ["a cut literal", `[tru]`],
    ["a misspelt literal", `[nul]`],
    ["a literal followed by letters", `[truex]`],
    ["a capitalised literal", `[True]`],
    ["undefined", `[undefined]`],
    ["an unknown escape", `["\\x41"]`],
    ["a short unicode escape", `["\\u12"]`],
    ["a non-hex unicode escape", `["\\u12G4"]`],
    ["a raw newline in a string", `["a\nb"]`],
    ["a raw tab in a string", `["a\tb"]`],
    ["a raw NUL in a string", `["a\u0000b"]`],
    ["an unclosed string", `["abc]`],
    ["an escaped closing quote only", `["abc\\"]`],
    ["mismatched closers", `[1}`],
    ["an extra closer", `[1]]`],
    ["an unclosed object", `{"a":[1]`],
    ["a comment", `[1 /* c */]`],
    ["a value after the object", `{"a":1}1`],
    ["two colons", `{"a"::1}`],
    ["a colon in an array", `[1:2]`],
    ["a comma after the key", `{"a",1}`],
    ["nothing", ``],
    ["only whitespace", ` \n`],
  ])("refuses %s", (_name, text) => {
    expect(parses(text)).toBe(false);
    expect(scansAsOneValue(text)).toBe(false);
    expect(readAnswer(`{"jsonrpc":"2.0","result":${text},"id":1}`, { id: 1 })).toBeUndefined();
  });

  it.each([
    ["lone surrogate escapes", `["\\ud800","\\udfff x"]`],
    ["every escape", `["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00"]`],
    ["numbers of every form", `[0,-0,1.5,-1.5e10,1E+2,2e-3,18446744073709551615,0.000001]`],
    ["literals", `[true,false,null]`],
    ["whitespace everywhere", ` { "a" : [ 1 , { } , [ ] ] , "b" : "" } `],
    ["non-ASCII text", `["héllo wörld ✓ 😀"]`],
    ["DEL and high control-free characters", `["\u007f\u0080\u2028"]`],
  ])("accepts %s", (_name, text) => {
    expect(parses(text)).toBe(true);
    expect(scansAsOneValue(text)).toBe(true);
  });

  it("agrees with JSON.parse on any JSON value (property)", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (text) => {
        expect(scansAsOneValue(text)).toBe(true);
      }),
      { numRuns: 2000, seed: 20261124 },
    );
  });

  it("agrees with JSON.parse on mutated JSON texts (property)", () => {
    const alphabet = fc.constantFrom(..."{}[]\",:\\ 0123456789-+.eEtrufalsn\n\t\u0000\u001fx".split(""));
    const mutated = fc
      .tuple(fc.json({ maxDepth: 4 }), fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.string({ unit: alphabet, maxLength: 3 })), { maxLength: 3 }))
      .map(([text, edits]) => edits.reduce((t, [at, remove, insert]) => t.slice(0, at % (t.length + 1)) + insert + t.slice((at % (t.length + 1)) + remove), text));
    fc.assert(
      fc.property(mutated, (text) => {
        expect(scansAsOneValue(text)).toBe(parses(text));
      }),
      { numRuns: 5000, seed: 20261124 },
    );
  });

  it("told the text has no control characters, gives the same verdicts on such texts (property)", () => {
    const noControl = fc.json({ maxDepth: 4 }).chain((text) =>
      fc.tuple(fc.nat(text.length), fc.constantFrom("", ",", "]", "}", "\\x", "\\u12", "0", '"')).map(([at, insert]) => text.slice(0, at) + insert + text.slice(at)),
    );
    fc.assert(
      fc.property(noControl, (text) => {
        const start = skipWhitespace(text, 0);
        expect(skipValue(text, start, { controlFree: true })).toBe(skipValue(text, start));
      }),
      { numRuns: 3000, seed: 20261124 },
    );
  });

  it("scans 100,000 levels of nesting without recursion", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(skipValue(deep, 0)).toBe(deep.length);
  });
});
