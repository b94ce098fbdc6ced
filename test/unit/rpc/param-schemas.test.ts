import { describe, expect, it } from "vitest";
import { getBase58Decoder } from "@solana/kit";
import { describeUnexpected, oneOf } from "../../../src/rpc/param-schemas";
import { base58DecodedLength } from "../../../src/solana/base58";

describe("base58DecodedLength", () => {
  it("agrees with kit's codec on 2,000 random byte strings (leading zeros included)", () => {
    // Given random bytes of 0..80 bytes, some starting with zero bytes, written in base58 by kit
    const toBase58 = getBase58Decoder();
    for (let i = 0; i < 2000; i++) {
      const bytes = crypto.getRandomValues(new Uint8Array(i % 81));
      if (i % 3 === 0) bytes.fill(0, 0, Math.min(bytes.length, i % 5));
      const text = toBase58.decode(bytes);
      // Then the decoded length is the original length
      expect(base58DecodedLength(text)).toBe(bytes.length);
    }
  });

  it("points at the first character outside the alphabet", () => {
    expect(base58DecodedLength("abc0def")).toEqual({ invalidAt: 3 });
    expect(base58DecodedLength("11I")).toEqual({ invalidAt: 2 });
    expect(base58DecodedLength("ab€")).toEqual({ invalidAt: 2 });
    expect(base58DecodedLength("")).toBe(0);
  });
});

describe("serde-style wording", () => {
  it("describes values as serde's Unexpected does", () => {
    expect([true, 5, -1, 1.5, "x", null, [], {}].map(describeUnexpected)).toEqual(["boolean `true`", "integer `5`", "integer `-1`", "floating point `1.5`", 'string "x"', "null", "sequence", "map"]);
  });
  it("lists names as serde's OneOf does", () => {
    expect([["a"], ["a", "b"], ["a", "b", "c"]].map(oneOf)).toEqual(["`a`", "`a` or `b`", "one of `a`, `b`, `c`"]);
  });
});
