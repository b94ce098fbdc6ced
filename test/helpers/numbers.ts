/**
 * |actual − expected| / |expected|: how far a figure is from the truth, independent of its scale. An exact zero that is
 * expected scores 0 (not NaN); any other figure against an expected zero scores Infinity.
 */
export const relErr = (actual: number, expected: number): number =>
  expected === 0 ? (actual === 0 ? 0 : Infinity) : Math.abs(actual - expected) / Math.abs(expected);
