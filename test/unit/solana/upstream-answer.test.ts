import { describe, expect, it } from "vitest";
import { readAnswer } from "../../../src/solana/upstream-answer";
import { skipValue } from "../../../src/json/json-spans";

const ok = `{"jsonrpc":"2.0","result":{"context":{"slot":5},"value":18446744073709551615},"id":7}`;

describe("reading upstream answers without parsing them", () => {
  it("finds the result of a single answer, whitespace around allowed", () => {
    const text = `\n ${ok} \n`;
    const [response] = readAnswer(text, { id: 7 })!;
    expect(response!.id).toBe(7);
    expect(text.slice(response!.result!.start, response!.result!.end)).toBe(`{"context":{"slot":5},"value":18446744073709551615}`);
  });

  it("parses error objects (small) and keeps their raw span", () => {
    const text = `{"jsonrpc":"2.0","error":{"code":-32005,"message":"Node is behind by 42 slots","data":{"numSlotsBehind":42}},"id":"a"}`;
    const [response] = readAnswer(text, { id: "a" })!;
    expect(response!.error!.value).toEqual({ code: -32005, message: "Node is behind by 42 slots", data: { numSlotsBehind: 42 } });
    expect(text.slice(response!.error!.span.start, response!.error!.span.end)).toBe(`{"code":-32005,"message":"Node is behind by 42 slots","data":{"numSlotsBehind":42}}`);
  });

  it("reads a batch answer in any order, each id once", () => {
    const text = `[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","result":"x","id":0}]`;
    expect(readAnswer(text, { batchSize: 2 })!.map((r) => r.id)).toEqual([1, 0]);
  });

  it.each([
    ["HTML", "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", { id: 7 }],
    ["empty", "", { id: 7 }],
    ["binary garbage", "\u0000\u00ff{\"\u00fe\u0013]\u009c\"\n", { id: 7 }],
    ["cut in half", ok.slice(0, ok.length / 2), { id: 7 }],
    ["cut inside a string", `{"jsonrpc":"2.0","result":"abc`, { id: 7 }],
    ["wrong id", ok.replace(`"id":7`, `"id":1000007`), { id: 7 }],
    ["id as a string for a number", ok.replace(`"id":7`, `"id":"7"`), { id: 7 }],
    ["no jsonrpc", ok.replace(`"jsonrpc":"2.0",`, ""), { id: 7 }],
    ["result and error", `{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"m"},"id":7}`, { id: 7 }],
    ["neither result nor error", `{"jsonrpc":"2.0","id":7}`, { id: 7 }],
    ["error without a message", `{"jsonrpc":"2.0","error":{"code":-1},"id":7}`, { id: 7 }],
    ["trailing garbage", `${ok}}`, { id: 7 }],
    ["two objects", `${ok}${ok}`, { id: 7 }],
    ["unbalanced brackets inside", ok.replace(`{"slot":5}`, `{"slot":[5}`), { id: 7 }],
    ["a batch for a single request", `[${ok}]`, { id: 7 }],
    ["a single answer for a batch", ok, { batchSize: 1 }],
    ["a batch one short", `[{"jsonrpc":"2.0","result":1,"id":0}]`, { batchSize: 2 }],
    ["a batch with a repeated id", `[{"jsonrpc":"2.0","result":1,"id":0},{"jsonrpc":"2.0","result":1,"id":0}]`, { batchSize: 2 }],
    ["a batch with an id out of range", `[{"jsonrpc":"2.0","result":1,"id":2},{"jsonrpc":"2.0","result":1,"id":0}]`, { batchSize: 2 }],
  ] as const)("refuses %s", (_name, text, expected) => {
    expect(readAnswer(text, expected)).toBeUndefined();
  });

  it("never throws or hangs on prefixes of a valid answer", () => {
    for (let cut = 0; cut < ok.length; cut++) expect(readAnswer(ok.slice(0, cut), { id: 7 })).toBeUndefined();
    for (let cut = 0; cut < ok.length; cut++) expect(skipValue(ok.slice(0, cut), 0)).toBeLessThanOrEqual(cut);
  });
});
