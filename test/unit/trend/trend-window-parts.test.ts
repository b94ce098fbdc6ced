import { describe, expect, it } from "vitest";
import { spanParts, windowSpan } from "../../../src/trend/window-span";

const expand = (parts: ReturnType<typeof spanParts>): number[] => {
  const covered: number[] = [];
  for (const [a, b] of parts.minutes) for (let m = a; m <= b; m++) covered.push(m);
  if (parts.hours) for (let h = parts.hours[0]; h <= parts.hours[1]; h++) for (let m = h * 60; m < h * 60 + 60; m++) covered.push(m);
  return covered.sort((x, y) => x - y);
};

describe("window parts", () => {
  it("covers exactly the span's minutes: ragged ends from minute buckets, whole hours from hour buckets", () => {
    for (const end of [60 * 1000 + 37, 60 * 1000 + 59, 60 * 1000]) {
      for (const length of [1, 5, 60, 61, 120, 360, 1440]) {
        // Given the span of `length` minutes ending with minute `end`
        const parts = spanParts(end - length + 1, end);
        // Then its parts expand to those minutes, each once
        expect(expand(parts)).toEqual(Array.from({ length }, (_, i) => end - length + 1 + i));
      }
    }
  });

  it("uses hour buckets for a one-hour span only when it is aligned on the hour; an empty span has no part", () => {
    expect(spanParts(60 * 10, 60 * 10 + 59)).toEqual({ minutes: [], hours: [10, 10] });
    expect(spanParts(60 * 9 + 59, 60 * 10 + 58)).toEqual({ minutes: [[60 * 9 + 59, 60 * 10 + 58]], hours: null });
    expect(spanParts(10, 9)).toEqual({ minutes: [], hours: null });
  });

  it("a window of N minutes ending at T: the N − 1 whole minutes before T's minute, and T's minute live", () => {
    // Given T = 10:37:21 of some day (unix seconds)
    const t = 60 * (60 * 1000 + 37) + 21;
    for (const n of [1, 5, 60, 360, 1440]) {
      const span = windowSpan(t, n);
      // Then the live minute is T's, and the whole minutes are the n − 1 before it
      expect(span.liveMinute).toBe(60 * 1000 + 37);
      expect(span.startMinute).toBe(span.liveMinute - n + 1);
      expect(expand(span.whole)).toEqual(Array.from({ length: n - 1 }, (_, i) => span.startMinute + i));
      expect(span.endTime).toBe(t);
    }
  });
});
