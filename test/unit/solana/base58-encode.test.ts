import { getAddressDecoder, getBase58Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { base58Encode } from "../../../src/solana/base58";

describe("base58Encode", () => {
  it("equals kit's address text for 5,000 random 32-byte keys, leading zero bytes included", () => {
    // Given random keys, some with one or two leading zero bytes and one all zeros
    const kit = getAddressDecoder();
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
    for (let i = 0; i < 5000; i++) {
      const bytes = Uint8Array.from({ length: 32 }, next);
      if (i % 7 === 0) bytes[0] = 0;
      if (i % 49 === 0) bytes[1] = 0;
      if (i === 4999) bytes.fill(0);
      // Then our text is kit's text
      expect(base58Encode(bytes)).toBe(kit.decode(bytes));
    }
  });

  it("equals kit's base58 text for other lengths (signatures, short and empty input)", () => {
    // Given byte strings of 0 to 100 bytes (beyond the scratch arrays), some with leading zero bytes
    const kit = getBase58Decoder();
    let seed = 777;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
    for (let length = 0; length <= 100; length++) {
      for (const leadingZeros of [0, 1, 3]) {
        const bytes = Uint8Array.from({ length }, next);
        bytes.fill(0, 0, Math.min(leadingZeros, length));
        // Then our text is kit's text
        expect(base58Encode(bytes)).toBe(kit.decode(bytes));
      }
    }
  });
});
