/**
 * The trades page cursor (src/trades/trade-queries.ts): opaque, canonical, and refused (undefined → 400) when it is
 * anything but a cursor this service made. Also the exact human form of raw amounts shown beside them.
 */
import { describe, expect, it } from "vitest";
import { decodeTradeCursor, encodeTradeCursor, rawAmountUi } from "../../../src/trades/trade-queries";

describe("trade cursor", () => {
  it.each([
    { slot: 0, txIndex: 0, ordinal: 0 },
    { slot: 381204117, txIndex: 12, ordinal: 3 },
    { slot: Number.MAX_SAFE_INTEGER, txIndex: 4_000_000, ordinal: 63 },
  ])("round-trips %o", (position) => {
    const cursor = encodeTradeCursor(position);
    // base64url without padding: safe in a query string as is
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeTradeCursor(cursor)).toEqual(position);
  });

  const b64 = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  it.each([
    ["empty", ""],
    ["not base64url", "abc$"],
    ["padded", btoa("1:2:3")],
    ["standard base64 alphabet", "MTo+Oj8"],
    ["two parts", b64("1:2")],
    ["four parts", b64("1:2:3:4")],
    ["negative", b64("-1:2:3")],
    ["leading zero", b64("01:2:3")],
    ["not digits", b64("a:b:c")],
    ["spaces", b64(" 1:2:3")],
    ["beyond a safe integer", b64("9007199254740993:0:0")],
    ["too long", "A".repeat(65)],
    ["junk bytes", "____"],
    ["one character", "A"],
  ])("refuses %s", (_, cursor) => {
    expect(decodeTradeCursor(cursor)).toBeUndefined();
  });
});

describe("rawAmountUi", () => {
  it.each([
    ["1500000", 6, "1.5"],
    ["1", 9, "0.000000001"],
    ["0", 6, "0"],
    ["123", 0, "123"],
    ["1000000", 6, "1"],
    // u64 max: beyond a double's 53 bits, exact to the last unit
    ["18446744073709551615", 9, "18446744073.709551615"],
    ["18446744073709551615", 0, "18446744073709551615"],
  ])("%s at %i decimals → %s", (raw, decimals, expected) => {
    expect(rawAmountUi(raw, decimals)).toBe(expected);
  });
});
