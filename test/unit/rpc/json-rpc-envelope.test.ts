import { describe, expect, it } from "vitest";
import { parseRequestBody, resultResponseText, upstreamRequestText } from "../../../src/rpc/json-rpc-envelope";

const invalidRequest = { code: -32600, message: "Invalid request" };
const invalidVersion = { code: -32600, message: "Unsupported JSON-RPC protocol version" };

describe("JSON-RPC envelope", () => {
  it("answers bodies that are not JSON as a whole with a parse error", () => {
    for (const body of ["", "{", `{"jsonrpc":"2.0"`, "nope", "[1,]"]) {
      expect(parseRequestBody(body, 100)).toEqual({ kind: "error", error: { code: -32700, message: "Parse error" } });
    }
  });

  it("answers an empty batch with one invalid-request error, and a batch over the cap with our -32055", () => {
    expect(parseRequestBody("[]", 100)).toEqual({ kind: "error", error: invalidRequest });
    const call = `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`;
    expect(parseRequestBody(`[${Array(3).fill(call).join(",")}]`, 3).kind).toBe("batch");
    expect(parseRequestBody(`[${Array(4).fill(call).join(",")}]`, 3)).toEqual({ kind: "error", error: { code: -32055, message: "Batch too large; max 3 requests" } });
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
    ["string params", `{"jsonrpc":"2.0","id":3,"method":"getSlot","params":"x"}`, { kind: "invalid", id: 3, error: invalidRequest }],
    ["jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"getSlot"}`, { kind: "invalid", id: 3, error: invalidVersion }],
    ["no jsonrpc", `{"id":3,"method":"getSlot"}`, { kind: "invalid", id: 3, error: invalidVersion }],
  ])("classifies %s as an invalid request", (_name, body, item) => {
    expect(parseRequestBody(body, 100)).toEqual({ kind: "single", item });
  });

  it("treats a valid request without id as a notification, and id null as a call", () => {
    expect(parseRequestBody(`{"jsonrpc":"2.0","method":"getSlot"}`, 100)).toEqual({ kind: "single", item: { kind: "notification" } });
    const item = parseRequestBody(`{"jsonrpc":"2.0","id":null,"method":"getSlot"}`, 100);
    expect(item).toEqual({ kind: "single", item: { kind: "call", id: null, method: "getSlot", params: undefined, paramsText: undefined } });
  });

  it("keeps the caller's params text byte for byte, per batch element", () => {
    // Given params with a number JSON.parse cannot hold exactly
    const body = ` [ {"jsonrpc":"2.0","id":"x","method":"getBlock","params":[ 18446744073709551615 , {"rewards":false}]}, {"jsonrpc":"2.0","id":2,"method":"getSlot","params":null} ]`;
    const parsed = parseRequestBody(body, 100);
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
});
