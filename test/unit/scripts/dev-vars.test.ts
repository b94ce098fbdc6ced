/**
 * npm start hands vars (an upstream URL may carry a provider's key) to wrangler in a 0600 file, never as `--var`
 * arguments `ps` shows, and never overwrites or deletes a file the user wrote.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { GENERATED_MARKER, render, writeDevVars } from "../../../scripts/lib/dev-vars";

const VARS = { UPSTREAM_RPC_URL: "https://rpc.example.com/?api-key=s3cr3t$x", METADATA_DEV_HOSTS: "127.0.0.1:8899" };
let root = "";
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "dev-vars-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;

describe("writeDevVars", () => {
  it("with no .dev.vars/.env of the user's: writes .dev.vars 0600 (no wrangler args) and removes it on cleanup", () => {
    // Given an empty project
    // When
    const file = writeDevVars(root, VARS);
    // Then
    expect(file.path).toBe(path.join(root, ".dev.vars"));
    expect(file.wranglerArgs).toEqual([]);
    expect(mode(file.path)).toBe(0o600);
    const text = readFileSync(file.path, "utf8");
    expect(text.startsWith(GENERATED_MARKER)).toBe(true);
    expect(text).toContain(`UPSTREAM_RPC_URL='https://rpc.example.com/?api-key=s3cr3t$x'`); // wrangler reads .dev.vars without expansion
    file.cleanup();
    file.cleanup(); // idempotent
    expect(existsSync(file.path)).toBe(false);
  });

  it("leaves a user's .dev.vars alone: writes its own file under .wrangler/ and lists both for --env-file, theirs first", () => {
    const theirs = path.join(root, ".dev.vars");
    writeFileSync(theirs, "MY_SECRET=keep\n");
    const file = writeDevVars(root, VARS);
    expect(file.path.startsWith(path.join(root, ".wrangler") + path.sep)).toBe(true);
    expect(file.wranglerArgs).toEqual(["--env-file", theirs, "--env-file", file.path]);
    expect(mode(file.path)).toBe(0o600);
    // --env-file files are $-expanded by wrangler: ours escapes `$`
    expect(readFileSync(file.path, "utf8")).toContain(`UPSTREAM_RPC_URL='https://rpc.example.com/?api-key=s3cr3t\\$x'`);
    file.cleanup();
    expect(existsSync(file.path)).toBe(false);
    expect(readFileSync(theirs, "utf8")).toBe("MY_SECRET=keep\n");
  });

  it("keeps loading a user's .env/.env.local (what wrangler reads without .dev.vars) before its own file", () => {
    writeFileSync(path.join(root, ".env.local"), "A=1\n");
    const file = writeDevVars(root, VARS);
    expect(file.wranglerArgs).toEqual(["--env-file", path.join(root, ".env.local"), "--env-file", file.path]);
    expect(existsSync(path.join(root, ".dev.vars"))).toBe(false);
    file.cleanup();
  });

  it("replaces a generated .dev.vars left behind by a killed run", () => {
    writeFileSync(path.join(root, ".dev.vars"), `${GENERATED_MARKER}\nUPSTREAM_RPC_URL='http://old'\n`);
    const file = writeDevVars(root, VARS);
    expect(file.path).toBe(path.join(root, ".dev.vars"));
    expect(readFileSync(file.path, "utf8")).toContain("127.0.0.1:8899");
    file.cleanup();
  });

  it("cleanup does not delete a .dev.vars the user wrote meanwhile", () => {
    const file = writeDevVars(root, VARS);
    writeFileSync(file.path, "MINE=1\n");
    file.cleanup();
    expect(readFileSync(file.path, "utf8")).toBe("MINE=1\n");
  });

  it("a run that stops late does not delete the next run's .dev.vars (wrangler dev would reload without its vars)", () => {
    // Given a run whose file was replaced, as a leftover, by the next run's
    const earlier = writeDevVars(root, { ...VARS, INSTANCE_NONCE: "run-1" });
    rmSync(earlier.path);
    const next = writeDevVars(root, { ...VARS, INSTANCE_NONCE: "run-2" });
    // When the earlier run's exit handler runs
    earlier.cleanup();
    // Then the next run's file is still there, and goes with its own cleanup
    expect(readFileSync(next.path, "utf8")).toContain("run-2");
    next.cleanup();
    expect(existsSync(next.path)).toBe(false);
  });

  it("never writes through a planted symlink (a dangling .dev.vars link → refused, its target not created)", () => {
    const target = path.join(root, "elsewhere");
    symlinkSync(target, path.join(root, ".dev.vars"));
    expect(() => writeDevVars(root, VARS)).toThrow(/EEXIST/);
    expect(existsSync(target)).toBe(false);
  });
});

describe("render", () => {
  it("quotes each value with a quote it does not contain", () => {
    expect(render({ A: "it's", B: "it's `x`", C: "plain" }, false)).toBe(`${GENERATED_MARKER}\nA=\`it's\`\nB="it's \`x\`"\nC='plain'\n`);
  });

  it.each([
    ["a line break", "a\nb"],
    ["all three quotes", `'"\``],
    ["a trailing backslash", "abc\\"],
    ["\\n inside what would be double quotes", `'\`\\n`],
  ])("refuses a value with %s", (_, value) => {
    expect(() => render({ A: value }, false)).toThrow();
  });

  it("refuses names that are not env var names", () => {
    expect(() => render({ "A B": "x" }, false)).toThrow();
  });
});

describe("scripts/start.ts", () => {
  it("passes no --var arguments to wrangler (argv is world-readable in ps)", () => {
    const start = readFileSync(path.resolve(import.meta.dirname, "../../../scripts/start.ts"), "utf8");
    expect(start).not.toMatch(/["']--var["']/);
    expect(start).toMatch(/writeDevVars\(/);
  });
});
