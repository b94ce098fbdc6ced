import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8ByteLength } from "../../../src/json/utf8-length";

// String.prototype.isWellFormed is ES2024 (Node 20 has it); the projects' lib is ES2022.
const isWellFormed = (t: string) => (t as string & { isWellFormed(): boolean }).isWellFormed();

describe("UTF-8 byte length without encoding", () => {
  it("equals TextEncoder's length for well-formed text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }), (a, b) => {
        for (const text of [a, b].filter(isWellFormed)) expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).byteLength);
      }),
      { numRuns: 5000, seed: 20261124 },
    );
    expect(utf8ByteLength("aé€😀")).toBe(1 + 2 + 3 + 4);
  });
});
