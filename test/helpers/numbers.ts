/** |actual − expected| / |expected|: how far a figure is from the truth, independent of its scale. */
export const relErr = (actual: number, expected: number): number => Math.abs(actual - expected) / Math.abs(expected);
