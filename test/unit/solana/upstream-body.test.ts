import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasControlByte, readCappedBody } from "../../../src/solana/upstream-body";

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe("reading an upstream body with a cap", () => {
  it("reads exactly the cap; one byte more is too large", async () => {
    expect(await readCappedBody(new Response("12345"), 5)).toEqual({ ok: true, text: "12345", controlFree: true });
    expect(await readCappedBody(new Response("123456"), 5)).toEqual({ ok: false, reason: "too-large" });
  });

  it("counts bytes, not characters", async () => {
    expect(await readCappedBody(new Response("ééé"), 5)).toEqual({ ok: false, reason: "too-large" });
    expect(await readCappedBody(new Response("ééé"), 6)).toMatchObject({ ok: true, text: "ééé" });
  });

  it("refuses bytes that are not UTF-8", async () => {
    expect(await readCappedBody(new Response(Uint8Array.from([0x7b, 0xff, 0x7d])), 100)).toEqual({ ok: false, reason: "not-utf8" });
  });

  it("knows whether the text holds a control character; trailing whitespace does not count", async () => {
    expect(await readCappedBody(new Response(`{"a":"b"}\n`), 100)).toMatchObject({ controlFree: true });
    expect(await readCappedBody(new Response(`{"a":\n"b"}`), 100)).toMatchObject({ controlFree: false });
    expect(await readCappedBody(new Response(`{"a":"\u0001"}`), 100)).toMatchObject({ controlFree: false });
    expect(await readCappedBody(new Response(""), 100)).toEqual({ ok: true, text: "", controlFree: true });
  });

  it("finds a byte below 0x20 four bytes at a time exactly as a byte-by-byte look does (property)", () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x20, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 64 }), fc.nat(64), (list, cut) => {
        const bytes = Uint8Array.from(list);
        const end = Math.min(cut, bytes.length);
        expect(hasControlByte(bytes, end)).toBe(bytes.subarray(0, end).some((b) => b < 0x20));
      }),
      { numRuns: 20_000, seed: 20261124 },
    );
    // Every position and every control value, next to high bytes that borrow
    for (let at = 0; at < 9; at++) {
      for (let value = 0; value < 0x20; value++) {
        const bytes = new Uint8Array(9).fill(0xff);
        bytes[at] = value;
        expect(hasControlByte(bytes, 9)).toBe(true);
      }
    }
    expect(hasControlByte(bytesOf(" !~\u007f"), 4)).toBe(false);
    // A view not aligned for words
    const buffer = Uint8Array.from([0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x0a]);
    expect(hasControlByte(buffer.subarray(1), 6)).toBe(true);
    expect(hasControlByte(buffer.subarray(1), 5)).toBe(false);
  });
});
