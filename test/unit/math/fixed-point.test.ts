import { describe, expect, it } from "vitest";
import { compare, div, fromPow10, invert, mul, ratio, toDecimalString } from "../../../src/math/fixed-point";

describe("ratio arithmetic", () => {
  it("keeps the denominator positive and multiplies, divides and inverts exactly", () => {
    expect(ratio(3n, -4n)).toEqual({ num: -3n, den: 4n });
    expect(mul(ratio(2n, 3n), ratio(9n, 4n))).toEqual({ num: 18n, den: 12n });
    expect(div(ratio(2n, 3n), ratio(-4n, 5n))).toEqual({ num: -10n, den: 12n });
    expect(invert(ratio(-7n, 2n))).toEqual({ num: -2n, den: 7n });
  });

  it("rejects a zero denominator and division by zero", () => {
    expect(() => ratio(1n, 0n)).toThrow(RangeError);
    expect(() => div(ratio(1n), ratio(0n))).toThrow(RangeError);
    expect(() => invert(ratio(0n))).toThrow(RangeError);
  });

  it("builds powers of ten both ways and compares without reducing", () => {
    expect(fromPow10(3)).toEqual({ num: 1000n, den: 1n });
    expect(fromPow10(-2)).toEqual({ num: 1n, den: 100n });
    expect(() => fromPow10(1.5)).toThrow(RangeError);
    expect(compare(ratio(1n, 3n), ratio(2n, 6n))).toBe(0);
    expect(compare(ratio(1n, 3n), ratio(1n, 2n))).toBe(-1);
    expect(compare(ratio(-1n, 3n), ratio(-1n, 2n))).toBe(1);
  });
});

describe("toDecimalString", () => {
  it("renders small prices as plain decimals with the asked significant digits", () => {
    // Given 2.8123456789e-8 / When rendered with 12 significant digits / Then no exponent, trailing zeros dropped
    expect(toDecimalString(ratio(28123456789n, 10n ** 18n), 12)).toBe("0.000000028123456789");
    expect(toDecimalString(ratio(1n, 3n), 12)).toBe("0.333333333333");
    expect(toDecimalString(ratio(2n, 3n), 12)).toBe("0.666666666667");
  });

  it("rounds half away from zero, including carries into a new digit", () => {
    expect(toDecimalString(ratio(15n, 10n), 1)).toBe("2");
    expect(toDecimalString(ratio(-15n, 10n), 1)).toBe("-2");
    expect(toDecimalString(ratio(99995n, 100000n), 4)).toBe("1");
    expect(toDecimalString(ratio(9999n, 10n), 3)).toBe("1000");
    expect(toDecimalString(ratio(-1n, 3n), 3)).toBe("-0.333");
  });

  it("renders huge numbers as their full rounded integer, and zero as 0", () => {
    expect(toDecimalString(ratio(123456789012345678901234567890n, 7n), 12)).toBe("17636684144620811271604938270");
    expect(toDecimalString(ratio(12345678901234n, 100n), 12)).toBe("123456789012");
    expect(toDecimalString(ratio(12345678901234n, 1000n), 12)).toBe("12345678901.2");
    expect(toDecimalString(ratio(0n, 5n), 12)).toBe("0");
  });

  it("finds the exponent exactly at powers of ten", () => {
    expect(toDecimalString(ratio(1n, 1000n), 3)).toBe("0.001");
    expect(toDecimalString(ratio(999999n, 1000000000n), 3)).toBe("0.001");
    expect(toDecimalString(ratio(1000n, 1n), 3)).toBe("1000");
    expect(toDecimalString(ratio(100n, 1n), 3)).toBe("100");
  });

  it("matches Number formatting on a spread of values", () => {
    for (const [num, den] of [[1n, 7n], [22n, 7n], [314159n, 100n], [5n, 1234567n], [987654321n, 1000n]] as const) {
      const expected = Number((Number(num) / Number(den)).toPrecision(12)).toString();
      expect(toDecimalString(ratio(num, den), 12)).toBe(expected);
    }
  });

  it("rejects a non-positive digit count", () => {
    expect(() => toDecimalString(ratio(1n), 0)).toThrow(RangeError);
  });
});
