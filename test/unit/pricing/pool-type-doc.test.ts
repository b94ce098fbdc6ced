import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dexOfPoolKind } from "../../../src/venues/pool-kinds";

const apiDoc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/api.md"), "utf8");

describe("docs/api.md", () => {
  it("documents every poolType value, with its dex", () => {
    // Given the price record's poolType row
    const row = apiDoc.split("\n").find((line) => line.startsWith("| `poolType` |"));
    expect(row).toBeDefined();
    // Then it names every pool kind the service can answer with
    for (const kind of Object.keys(dexOfPoolKind)) expect(row!, kind).toContain(`\`${kind}\``);
    expect(row!).toContain("`pump-bonding-curve` (`dex` `pumpfun`)");
  });
});
