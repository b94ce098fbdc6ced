import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const { layers, rulesFor } = createRequire(import.meta.url)(path.join(root, "scripts/layering.cjs")) as {
  layers: string[][];
  rulesFor(floors: string[][]): unknown[];
};

/** The violations of `floors` in the src/ of `baseDir`, as dependency-cruiser reports them (type-only imports counted). */
async function violationsOf(baseDir: string, floors: string[][]): Promise<IViolation[]> {
  const result = await cruise(["src"], {
    baseDir,
    validate: true,
    ruleSet: { forbidden: rulesFor(floors) } as never,
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
  });
  return (result.output as ICruiseResult).summary.violations;
}

const readable = (violations: IViolation[]) => violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`);

const trees: string[] = [];
/** A throwaway src/ tree: path → text. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "layering-"));
  trees.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
afterAll(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

describe("the layering of src/", () => {
  it("holds: no circle, no import beside or above its floor, no entry off the floors", async () => {
    // Given the project's src/ and its floors
    // When dependency-cruiser reads every import
    const violations = await violationsOf(root, layers);
    // Then none breaks a rule
    expect(readable(violations)).toEqual([]);
  }, 60_000);

  it("is the one docs/architecture.md describes, floor by floor", () => {
    // Given the table of floors in the docs
    const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
    const documented = [...doc.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => ({
      floor: Number(m[1]),
      entries: [...m[2]!.matchAll(/`([^`]+)`/g)].map((e) => e[1]!.replace(/\/$|\.ts$/, "")),
    }));
    // Then it lists the checked floors, bottom to top, entry for entry
    expect(documented.map((d) => d.floor)).toEqual(layers.map((_, i) => i + 1));
    expect(documented.map((d) => d.entries)).toEqual(layers);
  });
});

describe("the rules catch", () => {
  it("an import that runs back up (a ground file importing the app)", async () => {
    // Given the project's floors and limits.ts importing app.ts
    const dir = tree({ "src/limits.ts": 'import { app } from "./app";\nexport const limits = { app };\n', "src/app.ts": "export const app = 1;\n" });
    // Then the import is refused by limits' rule
    expect(readable(await violationsOf(dir, layers))).toEqual(["layer-limits: src/limits.ts -> src/app.ts"]);
  });

  it("a type-only import back up (the form env.ts once used for the Durable Object classes)", async () => {
    const dir = tree({
      "src/env.ts": 'export interface Env { ROOM: import("./streams/stream-room").StreamRoom }\n',
      "src/streams/stream-room.ts": "export class StreamRoom {}\n",
    });
    expect(readable(await violationsOf(dir, layers))).toEqual(["layer-env: src/env.ts -> src/streams/stream-room.ts"]);
  });

  it("an import beside: two entries of one floor", async () => {
    const dir = tree({ "src/accounts/meter.ts": 'import type { Hub } from "../rpc/hub";\nexport type M = Hub;\n', "src/rpc/hub.ts": "export type Hub = 1;\n" });
    expect(readable(await violationsOf(dir, layers))).toEqual(["layer-accounts: src/accounts/meter.ts -> src/rpc/hub.ts"]);
  });

  it("a circle inside one entry, where imports are otherwise free", async () => {
    const dir = tree({
      "src/accounts/a.ts": 'import { b } from "./b";\nexport const a = () => b();\n',
      "src/accounts/b.ts": 'import { a } from "./a";\nexport const b = () => a();\n',
    });
    // dependency-cruiser reports a circle once, from the file it met first
    expect(readable(await violationsOf(dir, layers))).toEqual(["no-circular: src/accounts/a.ts -> src/accounts/b.ts (src/accounts/b.ts -> src/accounts/a.ts)"]);
  });

  it("an entry that stands on no floor", async () => {
    const dir = tree({ "src/gadgets/tool.ts": 'import { limits } from "../limits";\nexport const tool = limits;\n', "src/limits.ts": "export const limits = 1;\n" });
    expect(readable(await violationsOf(dir, layers))).toEqual(["not-unlisted: src/gadgets/tool.ts -> src/limits.ts"]);
  });

  it("while a downward import passes", async () => {
    const dir = tree({ "src/app.ts": 'import { limits } from "./limits";\nexport const app = limits;\n', "src/limits.ts": "export const limits = 1;\n" });
    expect(readable(await violationsOf(dir, layers))).toEqual([]);
  });
});
