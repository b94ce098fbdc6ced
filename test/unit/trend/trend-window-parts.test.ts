import { describe, expect, it } from "vitest";
import { windowParts } from "../../../src/trend/trend-windows";

describe("trend window parts", () => {
  it("covers exactly the window's minutes: ragged ends from minute buckets, whole hours from hour buckets", () => {
    for (const end of [60 * 1000 + 37, 60 * 1000 + 59, 60 * 1000]) {
      for (const hours of [1, 2, 6, 24]) {
        // Given the window of `hours` ending with minute `end`
        const parts = windowParts(end, hours);
        // When its parts are expanded to minutes
        const covered: number[] = [];
        for (const [a, b] of parts.minutes) for (let m = a; m <= b; m++) covered.push(m);
        if (parts.hours) for (let h = parts.hours[0]; h <= parts.hours[1]; h++) for (let m = h * 60; m < h * 60 + 60; m++) covered.push(m);
        covered.sort((x, y) => x - y);
        // Then they are the 60·hours minutes up to `end`, each once
        expect(covered).toEqual(Array.from({ length: 60 * hours }, (_, i) => end - 60 * hours + 1 + i));
      }
    }
  });

  it("uses hour buckets for a one-hour window only when it is aligned on the hour", () => {
    expect(windowParts(60 * 10 + 59, 1)).toEqual({ minutes: [], hours: [10, 10] });
    expect(windowParts(60 * 10 + 58, 1)).toEqual({ minutes: [[60 * 9 + 59, 60 * 10 + 58]], hours: null });
  });
});
