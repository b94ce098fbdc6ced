/**
 * `/docs` and `/openapi.json` from the bundled worker served for real (test/e2e/helpers/served-worker.ts): the
 * document validates as OpenAPI 3.1, and the docs page renders it in headless Chromium with every script and style
 * loaded from the worker itself (no CDN: the test fails on any request to another origin). Its screenshot goes to a
 * temporary directory, or to SCREENSHOTS_DIR when set (`npm run screenshots` refreshes the README's
 * docs/screenshots/docs-page.png), so a test run leaves the tree as it was. Needs Chromium (CHROMIUM_PATH, else
 * /usr/bin/chromium).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let worker: ServedWorker;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  // No chain is asked; the upstream is a secret of deployments, so one is named here (nothing listens on it).
  worker = await serveWorker({ UPSTREAM_RPC_URL: "http://127.0.0.1:9" });
  profile = await mkdtemp(path.join(os.tmpdir(), "tmd-chromium-"));
  // A fresh profile (--user-data-dir, which playwright takes as launchPersistentContext's first argument)
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    viewport: { width: 1280, height: 1000 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await worker?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

describe("the bundled worker's own documentation", () => {
  it("GET /openapi.json is a valid OpenAPI 3.1 document, without a key", async () => {
    const res = await fetch(`${worker.origin}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const validator = new Validator();
    const result = await validator.validate((await res.json()) as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(validator.version).toBe("3.1");
  });

  it("GET /docs renders every endpoint in headless Chromium, loading nothing from another origin", async () => {
    // Given a fresh page that records every request it makes
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    // When the docs page loads
    const res = await page.goto(`${worker.origin}/docs`);
    expect(res?.status()).toBe(200);
    // Then Swagger UI shows the API with its routes, each from the served document
    await page.getByText("/api/v1/price", { exact: true }).first().waitFor({ timeout: 20_000 });
    const text = await page.locator("#docs").innerText();
    for (const route of ["/health", "/api/v1/price", "/api/v1/venue-a", "/api/v1/pumpswap", "/api/v1/overview", "/rpc", "/openapi.json"]) {
      expect(text, route).toContain(route);
    }
    expect(text).toContain("Token market-data API for Solana");
    // And it needed nothing but the worker: its page, its script and style assets, its document
    expect(requested.filter((url) => new URL(url).origin !== worker.origin && !url.startsWith("data:"))).toEqual([]);
    expect(requested.map((url) => new URL(url).pathname)).toEqual(expect.arrayContaining(["/docs", "/vendor/swagger-ui/swagger-ui-bundle.js", "/vendor/swagger-ui/swagger-ui.css", "/openapi.json"]));
    expect(pageErrors).toEqual([]);
    await page.screenshot({ path: path.join(process.env.SCREENSHOTS_DIR ? path.resolve(process.env.SCREENSHOTS_DIR) : profile, "docs-page.png") });
    await page.close();
  });
});
