/**
 * npm start hands vars (an upstream URL may carry a provider's key) to wrangler in a 0600 file, never as `--var`
 * arguments `ps` shows, and never overwrites or deletes a file the user wrote.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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
  it("with no .dev.vars/.env of the user's: writes its own 0600 file under .wrangler/ (never .dev.vars), loaded with --env-file, removed on cleanup", () => {
    // Given an empty project
    // When
    const file = writeDevVars(root, VARS, "run-a");
    // Then
    expect(file.path).toBe(path.join(root, ".wrangler", "start-run-a.env"));
    expect(file.wranglerArgs).toEqual(["--env-file", file.path]);
    expect(existsSync(path.join(root, ".dev.vars"))).toBe(false);
    expect(mode(file.path)).toBe(0o600);
    const text = readFileSync(file.path, "utf8");
    expect(text.startsWith(GENERATED_MARKER)).toBe(true);
    expect(text).toContain(`UPSTREAM_RPC_URL='https://rpc.example.com/?api-key=s3cr3t\\$x'`); // --env-file files are $-expanded
    file.cleanup();
    file.cleanup(); // idempotent
    expect(existsSync(file.path)).toBe(false);
  });

  it("two runs of one checkout never touch each other's file (wrangler dev reloads when its vars file changes)", () => {
    // Given a first run
    const first = writeDevVars(root, { ...VARS, INSTANCE_NONCE: "run-1" }, 101);
    const firstText = readFileSync(first.path, "utf8");
    // When a second starts and stops beside it
    const second = writeDevVars(root, { ...VARS, INSTANCE_NONCE: "run-2" }, 102);
    expect(second.path).not.toBe(first.path);
    expect(second.wranglerArgs).not.toContain(first.path);
    second.cleanup();
    // Then the first run's file is as it wrote it
    expect(readFileSync(first.path, "utf8")).toBe(firstText);
    first.cleanup();
    expect(existsSync(first.path)).toBe(false);
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

  it("removes a generated .dev.vars left behind by an older version's killed run (it is not the user's)", () => {
    writeFileSync(path.join(root, ".dev.vars"), `${GENERATED_MARKER}\nUPSTREAM_RPC_URL='http://old'\n`);
    const file = writeDevVars(root, VARS);
    expect(existsSync(path.join(root, ".dev.vars"))).toBe(false);
    expect(file.wranglerArgs).toEqual(["--env-file", file.path]);
    expect(readFileSync(file.path, "utf8")).toContain("127.0.0.1:8899");
    file.cleanup();
  });

  it("cleanup does not delete a file someone rewrote meanwhile", () => {
    const file = writeDevVars(root, VARS);
    writeFileSync(file.path, "MINE=1\n");
    file.cleanup();
    expect(readFileSync(file.path, "utf8")).toBe("MINE=1\n");
  });

  it("a run that stops late does not delete the next run's file of the same pid (wrangler dev would reload without its vars)", () => {
    // Given a run whose file was replaced by the next run's (a pid reused)
    const earlier = writeDevVars(root, { ...VARS, INSTANCE_NONCE: "run-1" }, 7);
    const next = writeDevVars(root, { ...VARS, INSTANCE_NONCE: "run-2" }, 7);
    // When the earlier run's exit handler runs
    earlier.cleanup();
    // Then the next run's file is still there, and goes with its own cleanup
    expect(readFileSync(next.path, "utf8")).toContain("run-2");
    next.cleanup();
    expect(existsSync(next.path)).toBe(false);
  });

  it("never writes through a planted symlink (a link where its file goes is replaced, its target not created)", () => {
    const target = path.join(root, "elsewhere");
    mkdirSync(path.join(root, ".wrangler"));
    symlinkSync(target, path.join(root, ".wrangler", "start-9.env"));
    const file = writeDevVars(root, VARS, 9);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(file.path).isSymbolicLink()).toBe(false);
    expect(mode(file.path)).toBe(0o600);
    file.cleanup();
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
