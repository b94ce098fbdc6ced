import { describe, expect, it } from "vitest";
import { parseRequestBody } from "../../../src/rpc/json-rpc-envelope";
import { forwardedParamsText } from "../../../src/rpc/forwarded-params";
import { validateCall } from "../../../src/rpc/methods";
import { upstreamPlan } from "../../../src/rpc/upstream-plan";
import { limits } from "../../../src/limits";

const key = "So11111111111111111111111111111111111111112";

/** What goes upstream for `method` with params written as `paramsText`. */
function forwarded(method: string, paramsText: string): string {
  const body = parseRequestBody(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":${paramsText}}`, limits.maxRpcBatch, limits.maxRpcJsonDepth);
  if (body.kind !== "single" || body.item.kind !== "call") throw new Error("not a call");
  const validated = validateCall(method, body.item.params);
  if (!validated.ok) throw new Error(validated.error.message);
  return forwardedParamsText(body.item.paramsText!, validated.call.params);
}

describe("params forwarded upstream", () => {
  it("drops unknown config keys (accepted, as Agave's serde does, but never sent)", () => {
    expect(forwarded("getBalance", `["${key}", {"commitment":"confirmed","padding":"${"x".repeat(100)}"}]`)).toBe(`["${key}",{"commitment":"confirmed"}]`);
    expect(forwarded("getBlockProduction", `[{"commitment":"finalized","encoding":"base64"}]`)).toBe(`[{"commitment":"finalized"}]`);
  });

  it("drops them at every level: dataSlice, filters, memcmp", () => {
    const params = `["${key}", {"encoding":"base64","dataSlice":{"offset":0,"length":8,"x":[1,2]},"filters":[{"dataSize":165},{"memcmp":{"offset":0,"bytes":"${key}","junk":{}}}],"extra":null}]`;
    expect(forwarded("getProgramAccounts", params)).toBe(
      `["${key}",{"encoding":"base64","dataSlice":{"offset":0,"length":8},"filters":[{"dataSize":165},{"memcmp":{"offset":0,"bytes":"${key}"}}]}]`,
    );
  });

  it("copies values as the caller wrote them: u64 digits JSON.parse would round survive", () => {
    expect(forwarded("getBlock", `[18446744073709551615, {"commitment":"confirmed","rewards":false}]`)).toBe(`[18446744073709551615,{"commitment":"confirmed","rewards":false}]`);
    expect(forwarded("getBlock", `[5, "json"]`)).toBe(`[5,"json"]`);
    expect(forwarded("getSlot", `[{"minContextSlot":18446744073709551615}]`)).toBe(`[{"minContextSlot":18446744073709551615}]`);
  });

  it("sends a repeated key once, with the value that was validated (the last, as JSON.parse reads it)", () => {
    expect(forwarded("getSlot", `[{"commitment":"processed","commitment":"confirmed"}]`)).toBe(`[{"commitment":"confirmed"}]`);
  });

  it("the audit's padded getTokenAccountsByDelegate: the padding reaches neither upstream call", () => {
    // Given form (a) with a 26 KB unknown key in its options
    const params = `["${key}", {"encoding":"base64","pad":"${"p".repeat(26_000)}"}]`;
    const body = parseRequestBody(`{"jsonrpc":"2.0","id":1,"method":"getTokenAccountsByDelegate","params":${params}}`, 100, 32);
    if (body.kind !== "single" || body.item.kind !== "call") throw new Error("not a call");
    const validated = validateCall("getTokenAccountsByDelegate", body.item.params);
    if (!validated.ok) throw new Error(validated.error.message);
    // When its upstream plan is made
    const plan = upstreamPlan(validated.call, forwardedParamsText(body.item.paramsText!, validated.call.params));
    // Then both parts are small
    expect(plan.parts).toHaveLength(2);
    for (const part of plan.parts) {
      expect(part.paramsText!.length).toBeLessThan(200);
      expect(part.paramsText).not.toContain("pad");
    }
  });
});
