import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALONE_FILES, FILE_SECONDS, splitIntoLanes } from "../../lanes";

describe("test lanes (vitest --shard, test/lanes.ts)", () => {
  const files = Array.from({ length: 45 }, (_, i) => `test/integration/f${String(i).padStart(2, "0")}.test.ts`);
  const seconds = Object.fromEntries(files.map((f, i) => [f, i === 0 ? 150 : i < 3 ? 75 : 5 + (i % 7)]));

  it("puts every file in exactly one lane, whatever the lane count", () => {
    for (const count of [1, 2, 3, 5]) {
      const lanes = splitIntoLanes(files, count, seconds);
      expect(lanes).toHaveLength(count);
      expect(lanes.flat().sort()).toEqual([...files].sort());
    }
  });

  it("balances expected time, not file counts: two lanes within the longest unsplittable file's share", () => {
    const [a, b] = splitIntoLanes(files, 2, seconds).map((lane) => lane.reduce((sum, f) => sum + seconds[f]!, 0));
    const total = a! + b!;
    // LPT bound: the lanes differ by at most the largest weight placed last; here by far less than a 150 s file.
    expect(Math.abs(a! - b!)).toBeLessThanOrEqual(11);
    expect(Math.max(a!, b!)).toBeLessThan(total / 2 + 6);
  });

  it("is the same split in every process (input order does not matter) and unknown files count as the median", () => {
    const shuffled = [...files].reverse();
    expect(splitIntoLanes(shuffled, 2, seconds)).toEqual(splitIntoLanes(files, 2, seconds));
    const withNew = [...files, "test/integration/new-one.test.ts"];
    expect(splitIntoLanes(withNew, 2, seconds).flat().sort()).toEqual([...withNew].sort());
  });

  it("names files that exist (a renamed file would silently count as the median)", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    for (const file of Object.keys(FILE_SECONDS)) expect(existsSync(path.join(root, file)), file).toBe(true);
  });

  it("the files that run alone are worker files that exist, and npm test runs them in a phase of their own", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    for (const file of ALONE_FILES) {
      expect(file).toMatch(/^test\/integration\/.+\.test\.ts$/);
      expect(existsSync(path.join(root, file)), file).toBe(true);
    }
    const script = readFileSync(path.join(root, "scripts/test.sh"), "utf8");
    expect(script).toContain("m.ALONE_FILES");
    expect(script).toContain("worker-alone.blob");
  });

  it("the REST fuzz files together cover every fuzzed route exactly once (test/helpers/rest-fuzz.ts)", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    const helper = readFileSync(path.join(root, "test/helpers/rest-fuzz.ts"), "utf8");
    const listed = [.../REST_FUZZ_ROUTES = \[([^\]]+)\]/.exec(helper)![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    const dir = path.join(root, "test/integration");
    const fuzzed = readdirSync(dir)
      .filter((f) => /^rest\.fuzz\..+\.test\.ts$/.test(f))
      .flatMap((f) => [.../describeRestFuzz\(\[([^\]]+)\]\)/.exec(readFileSync(path.join(dir, f), "utf8"))![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
    expect(listed.length).toBeGreaterThanOrEqual(6);
    expect([...fuzzed].sort()).toEqual([...listed].sort());
  });
});
