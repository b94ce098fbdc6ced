/**
 * `engines.node` in package.json tells the truth: every Node version it admits satisfies every installed package's own
 * `engines.node` (package-lock.json), but for one documented exception, and README states the same range.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/**
 * commander 15 (>=22.12) comes with @solana/errors (via @solana/kit) for its `solana-errors` CLI only
 * (node_modules/@solana/errors/dist/cli.mjs); the library the worker and scripts import never loads it. npm still
 * warns EBADENGINE for it on Node 20.
 */
const exceptions = new Set(["node_modules/commander"]);

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v.replace(/^v/, "").split(".").map((n) => (n === "x" || n === "*" ? 0 : Number(n)));
  return [a, b, c];
};
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The subset of semver ranges package.json files use for engines: `||`, `>=`, `>`, `<`, `^`, `*`, x-ranges, bare versions. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split("||").some((alt) =>
    alt.trim().replace(/([<>]=?)\s+/g, "$1").split(/\s+/).filter(Boolean).every((comp) => {
      if (comp === "*" || comp === "x") return true; // any version
      const m = /^(>=|>|<=|<|\^|=)?(.*)$/.exec(comp)!;
      const want = parse(m[2]!);
      switch (m[1]) {
        case ">=": return cmp(v, want) >= 0;
        case ">": return cmp(v, want) > 0;
        case "<=": return cmp(v, want) <= 0;
        case "<": return cmp(v, want) < 0;
        case "^": return v[0] === want[0] && cmp(v, want) >= 0;
        default: return m[2]!.includes("x") ? v[0] === want[0] : cmp(v, want) === 0;
      }
    }),
  );
}

// Node releases around every bound that appears in the lock file.
const nodeVersions = ["18.20.0", "20.3.0", "20.18.0", "20.18.1", "20.19.0", "20.20.2", "21.7.0", "22.0.0", "22.11.0", "22.12.0", "22.13.0", "23.5.0", "24.0.0", "25.0.0"];

describe("engines.node", () => {
  it("every Node version it admits satisfies every installed package (commander's CLI aside)", () => {
    const admitted = nodeVersions.filter((v) => satisfies(v, pkg.engines.node));
    expect(admitted).toContain("20.20.2"); // the version this project is tested on
    const conflicts: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!where || !range || exceptions.has(where)) continue;
      for (const v of admitted) if (!satisfies(v, range)) conflicts.push(`${where}@${entry.version} wants ${range}, Node ${v} admitted`);
    }
    expect(conflicts).toEqual([]);
  });

  it("the exception is still needed (else drop it) and README states the range", () => {
    expect(lock.packages["node_modules/commander"]?.engines).toEqual({ node: ">=22.12.0" });
    expect(readFileSync(path.join(root, "README.md"), "utf8")).toContain(`\`${pkg.engines.node}\``);
  });

  it("the range check itself", () => {
    expect(satisfies("20.19.0", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("21.0.0", "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies("22.11.0", "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies("8.1.0", ">= 8.0.0")).toBe(true);
    expect(satisfies("5.0.0", "4.x || >=6.0.0")).toBe(false);
  });
});
