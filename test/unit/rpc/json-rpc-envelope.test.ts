import { describe, expect, it } from "vitest";
import { nestingDepth } from "../../../src/rpc/json-nesting";
import { idText, parseRequestBody, resultResponseText, upstreamRequestText } from "../../../src/rpc/json-rpc-envelope";
import { limits } from "../../../src/limits";

/** A getBlock request whose config nests to `depth` levels in all (the request object is level 1). */
function nestedRequest(depth: number, id: unknown = 9): string {
  // request {1} → params [2] → config {3} → "x": [4] … ; the innermost container closes at `depth`
  const inner = depth - 3;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"getBlock","params":[1,{"x":${"[".repeat(inner)}${"]".repeat(inner)}}]}`;
}

const invalidRequest = { code: -32600, message: "Invalid request" };
const invalidVersion = { code: -32600, message: "Unsupported JSON-RPC protocol version" };

describe("JSON-RPC envelope", () => {
  it("answers bodies that are not JSON as a whole with a parse error", () => {
    for (const body of ["", "{", `{"jsonrpc":"2.0"`, "nope", "[1,]"]) {
      expect(parseRequestBody(body, 100, 32)).toEqual({ kind: "error", error: { code: -32700, message: "Parse error" } });
    }
  });

  it("answers an empty batch with one invalid-request error, and a batch over the cap with our -32055", () => {
    expect(parseRequestBody("[]", 100, 32)).toEqual({ kind: "error", error: invalidRequest });
    const call = `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`;
    expect(parseRequestBody(`[${Array(3).fill(call).join(",")}]`, 3, 32).kind).toBe("batch");
    expect(parseRequestBody(`[${Array(4).fill(call).join(",")}]`, 3, 32)).toEqual({ kind: "error", error: { code: -32055, message: "Batch too large; max 3 requests" } });
  });

  it.each([
    ["a number", `5`, { kind: "invalid", id: null, error: invalidRequest }],
    ["null", `null`, { kind: "invalid", id: null, error: invalidRequest }],
    ["no method", `{"jsonrpc":"2.0","id":3}`, { kind: "invalid", id: 3, error: invalidRequest }],
    ["method not a string", `{"jsonrpc":"2.0","id":"a","method":7}`, { kind: "invalid", id: "a", error: invalidRequest }],
    ["an unknown member", `{"jsonrpc":"2.0","id":3,"method":"getSlot","extra":1}`, { kind: "invalid", id: 3, error: invalidRequest }],
    ["a boolean id", `{"jsonrpc":"2.0","id":true,"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["an object id", `{"jsonrpc":"2.0","id":{},"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["a negative id", `{"jsonrpc":"2.0","id":-1,"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["an id in exponent form", `{"jsonrpc":"2.0","id":1e3,"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["an integral id written with a fraction", `{"jsonrpc":"2.0","id":2.0,"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["an id past u64", `{"jsonrpc":"2.0","id":18446744073709551616,"method":"getSlot"}`, { kind: "invalid", id: null, error: invalidRequest }],
    ["string params", `{"jsonrpc":"2.0","id":3,"method":"getSlot","params":"x"}`, { kind: "invalid", id: 3, error: invalidRequest }],
    ["jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"getSlot"}`, { kind: "invalid", id: 3, error: invalidVersion }],
    ["no jsonrpc", `{"id":3,"method":"getSlot"}`, { kind: "invalid", id: 3, error: invalidVersion }],
  ])("classifies %s as an invalid request", (_name, body, item) => {
    expect(parseRequestBody(body, 100, 32)).toEqual({ kind: "single", item });
  });

  it("keeps u64 ids past 2^53 exact (serde reads Num(u64)), and echoes them digit for digit", () => {
    for (const digits of ["9007199254740993", "18446744073709551615"]) {
      const parsed = parseRequestBody(`{"jsonrpc":"2.0","id":${digits},"method":"getSlot"}`, 100, 32);
      expect(parsed).toEqual({ kind: "single", item: { kind: "call", id: BigInt(digits), method: "getSlot", params: undefined, paramsText: undefined } });
      expect(idText(BigInt(digits))).toBe(digits);
    }
    // safe integers stay numbers
    expect(parseRequestBody(`{"jsonrpc":"2.0","id":9007199254740991,"method":"getSlot"}`, 100, 32)).toMatchObject({ item: { id: 9007199254740991 } });
  });

  it("treats a valid request without id as a notification, and id null as a call", () => {
    expect(parseRequestBody(`{"jsonrpc":"2.0","method":"getSlot"}`, 100, 32)).toEqual({ kind: "single", item: { kind: "notification" } });
    const item = parseRequestBody(`{"jsonrpc":"2.0","id":null,"method":"getSlot"}`, 100, 32);
    expect(item).toEqual({ kind: "single", item: { kind: "call", id: null, method: "getSlot", params: undefined, paramsText: undefined } });
  });

  it("keeps the caller's params text byte for byte, per batch element", () => {
    // Given params with a number JSON.parse cannot hold exactly
    const body = ` [ {"jsonrpc":"2.0","id":"x","method":"getBlock","params":[ 18446744073709551615 , {"rewards":false}]}, {"jsonrpc":"2.0","id":2,"method":"getSlot","params":null} ]`;
    const parsed = parseRequestBody(body, 100, 32);
    // Then the forwarded params are the original text, and null params are no params
    expect(parsed.kind).toBe("batch");
    const [first, second] = parsed.kind === "batch" ? parsed.items : [];
    expect(first).toMatchObject({ kind: "call", id: "x", paramsText: `[ 18446744073709551615 , {"rewards":false}]` });
    expect(second).toMatchObject({ kind: "call", id: 2, params: undefined, paramsText: undefined });
  });

  it("builds upstream requests and responses around raw text", () => {
    expect(upstreamRequestText(`"a"`, "getBlock", "[1]")).toBe(`{"jsonrpc":"2.0","id":"a","method":"getBlock","params":[1]}`);
    expect(upstreamRequestText("0", "getHealth", undefined)).toBe(`{"jsonrpc":"2.0","id":0,"method":"getHealth"}`);
    expect(resultResponseText("7", `{"x":18446744073709551615}`)).toBe(`{"jsonrpc":"2.0","result":{"x":18446744073709551615},"id":7}`);
  });

  it(`accepts an element nesting ${limits.maxRpcJsonDepth} deep; one level more is an invalid request, id kept`, () => {
    const max = limits.maxRpcJsonDepth;
    expect(nestingDepth(nestedRequest(max))).toBe(max);
    expect(parseRequestBody(nestedRequest(max), 100, max)).toMatchObject({ kind: "single", item: { kind: "call", id: 9 } });
    expect(parseRequestBody(nestedRequest(max + 1), 100, max)).toEqual({ kind: "single", item: { kind: "invalid", id: 9, error: invalidRequest } });
  });

  it("in a batch, only the element that nests too deep is refused (the batch's own array is not counted)", () => {
    const max = limits.maxRpcJsonDepth;
    const body = `[${nestedRequest(max, "a")},${nestedRequest(3000, "b")},{"jsonrpc":"2.0","id":"c","method":"getSlot"}]`;
    const parsed = parseRequestBody(body, 100, max);
    expect(parsed.kind === "batch" && parsed.items.map((item) => (item.kind === "call" ? "call" : item.kind === "invalid" ? item.error.code : item.kind))).toEqual(["call", -32600, "call"]);
    expect(parsed.kind === "batch" && parsed.items[1]).toEqual({ kind: "invalid", id: "b", error: invalidRequest });
  });

  it("counts brackets outside strings only, and survives 25,000 levels without recursion", () => {
    expect(nestingDepth(`{"a":"[[[[{{{{","b":["\\\\",["\\"["]]}`)).toBe(3);
    expect(nestingDepth("5")).toBe(0);
    const deep = `{"jsonrpc":"2.0","id":1,"method":"getBlock","params":${"[".repeat(25_000)}${"]".repeat(25_000)}}`;
    expect(nestingDepth(deep)).toBe(25_001);
    expect(parseRequestBody(deep, 100, limits.maxRpcJsonDepth)).toEqual({ kind: "single", item: { kind: "invalid", id: 1, error: invalidRequest } });
  });
});
