/**
 * Text users read speaks to users: the OpenAPI document (every string in it, the Swagger "Authorize" dialog's included),
 * the guides (docs/*.md), the README, the static pages and the page templates never name our work items ("issue 9",
 * "a later issue"), "the spec" or files that are not part of the project (SPEC.md, the folder beside it). The OpenAPI document
 * links guides as URLs a deployment serves (/guide/<name>.md, copied from docs/ into the static assets), never as plain
 * repository paths a deployed site cannot link.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const filesIn = (dir: string, ext: RegExp) => readdirSync(path.join(root, dir)).filter((f) => ext.test(f)).map((f) => `${dir}/${f}`);

/** The folder beside the project that once held its test data (spelled in parts, so this file does not name it either). */
const outsideFolder = ["..", "shared"].join("/");

/** What user-facing text must not say; URLs are taken out first (an upstream's issue tracker may be cited). */
const banned: { pattern: RegExp; why: string }[] = [
  { pattern: /\bissues?\s*#?\d+/i, why: "names a work item" },
  { pattern: /\b(?:a|the|later|earlier|this|that)\s+issue(?:'s)?\b/i, why: "names a work item" },
  { pattern: /\bspec(?:'s)?\b/i, why: "names an internal document" },
  { pattern: /\b(?:SPEC|VENUES|STYLE|TOOLCHAIN)\.md\b/, why: "names a file outside the project" },
  { pattern: new RegExp(`${outsideFolder.replace(/\./g, "\\.")}\\b`), why: "names a folder outside the project" },
];

function offences(text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    const withoutUrls = line.replace(/https?:\/\/\S+/g, "");
    for (const { pattern, why } of banned) {
      const m = pattern.exec(withoutUrls);
      if (m) found.push(`line ${i + 1}: "${m[0]}" (${why}): ${line.trim().slice(0, 120)}`);
    }
  });
  return found;
}

function stringsOf(value: unknown, at = "$"): { at: string; text: string }[] {
  if (typeof value === "string") return [{ at, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsOf(v, `${at}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringsOf(v, `${at}.${k}`));
  return [];
}

let openApiStrings: { at: string; text: string }[] = [];
beforeAll(async () => {
  const res = await buildApp().request("/openapi.json", {}, { UPSTREAM_RPC_URL: "http://127.0.0.1:8899" });
  expect(res.status).toBe(200);
  openApiStrings = stringsOf(await res.json());
});

describe("user-facing text", () => {
  it("the check catches what it is for", () => {
    expect(offences("What clients need (issue 9): x")).toHaveLength(1);
    expect(offences("reserved for a later issue")).toHaveLength(1);
    expect(offences("the spec's `{rpc_url}` form")).toHaveLength(1);
    expect(offences(`bytes from ${outsideFolder}/fixtures`)).toHaveLength(1);
    expect(offences("see https://github.com/cloudflare/workerd/issues/1346 for the limit")).toEqual([]);
  });

  it("the OpenAPI document (descriptions, summaries, the Authorize dialog's schemes) says none of it", () => {
    expect(openApiStrings.length).toBeGreaterThan(100);
    const bad = openApiStrings.flatMap(({ at, text }) => offences(text).map((o) => `${at} ${o}`));
    expect(bad).toEqual([]);
  });

  it("the OpenAPI document links guides at URLs a deployment serves, each one a guide of docs/", () => {
    const plainPaths = openApiStrings.filter(({ text }) => /(?<![(/])\bdocs\/[\w-]+\.md/.test(text)).map(({ at }) => at);
    expect(plainPaths).toEqual([]);
    const links = openApiStrings.flatMap(({ text }) => [...text.matchAll(/\]\(\/guide\/([\w-]+\.md)(?:#[\w-]+)?\)/g)].map((m) => m[1]!));
    expect(links.length).toBeGreaterThan(5);
    const guides = new Set(readdirSync(path.join(root, "docs")));
    expect(links.filter((l) => !guides.has(l))).toEqual([]);
    // And the guides are copied into the static assets that serve /guide/ (public/guide/, by copy-docs-assets).
    expect(read("scripts/copy-docs-assets.mjs")).toMatch(/"public", "guide"/);
  });

  const files = [...filesIn("docs", /\.md$/), "README.md", ...filesIn("public", /\.(html|js)$/), ...filesIn("src/pages", /\.ts$/)];
  it.each(files)("%s says none of it", (file) => {
    expect(offences(read(file))).toEqual([]);
  });
});
