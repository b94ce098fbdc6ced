/**
 * The project stands on its own: a clone of it alone installs, starts and passes its tests. No file of it may name the
 * folder beside the repository that once held its test data (the chain captures now live in test/fixtures/, with
 * SOURCES.md), so a path out of the clone cannot creep back into a test, a script or a guide.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
/** Built in parts, so this file does not name the folder either. */
const outside = ["..", "shared"].join("/");
/** Not the project's own text: installed packages, git, generated output and local state. */
const skipped = new Set(["node_modules", ".git", ".wrangler", "dist", ".vitest-reports", "vendor", "guide"]);
const binary = /\.(png|ico|jpg|jpeg|gif|woff2?|gz|zst)$/i;

function projectFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (skipped.has(name)) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return projectFiles(full);
    return binary.test(name) ? [] : [full];
  });
}

describe("the repository stands alone", () => {
  it("no file names the folder beside the repository", () => {
    // Given every text file of the project
    const files = projectFiles(root);
    expect(files.length).toBeGreaterThan(500);
    // When each is searched for a path out of the clone
    const naming = files.filter((file) => readFileSync(file, "utf8").includes(outside)).map((file) => path.relative(root, file));
    // Then none names it
    expect(naming).toEqual([]);
  });

  it("the chain captures the tests read are in the project, each with its provenance", () => {
    const sources = readFileSync(path.join(root, "test/fixtures/SOURCES.md"), "utf8");
    const captures = projectFiles(path.join(root, "test/fixtures")).filter((f) => f.endsWith(".json") && !f.includes(`${path.sep}program-facts${path.sep}`));
    expect(captures.length).toBeGreaterThan(50);
    const unlisted = captures.map((f) => path.basename(f)).filter((name) => !sources.includes(name));
    expect(unlisted).toEqual([]);
  });
});
