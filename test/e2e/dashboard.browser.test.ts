/**
 * The account web app in headless Chromium against the bundled worker (test/e2e/helpers/served-worker.ts) over a real
 * localnet: sign up → create a key → it is shown once → price a mint with it → the dashboard shows the usage (written
 * by the meter in batches; the dashboard asks it to write first) → revoke (after a confirmation page) → the key gets
 * 401 and stays listed as revoked; then sign up through the referral link → the new account's first call → the
 * referrer sees the referred account, its reward waiting for real use; then the dashboard on a 390 px phone screen
 * (nothing wider than the screen) and /favicon.ico. Plain forms only: the pages run no script (JavaScript is off in
 * this browser context, so nothing here depends on it).
 * Screenshots of each dashboard section and of the phone view go to a temporary directory, or to SCREENSHOTS_DIR when
 * set: `npm run screenshots` sets it to docs/screenshots/ to refresh the README's (the test run itself changes no
 * tracked file). Needs Chromium: /usr/bin/chromium, or CHROMIUM_PATH (README "Node versions and Chromium").
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type Localnet } from "../../localnet/src/server";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { plans } from "../../src/accounts/plans";
import { sleep } from "../helpers/wait";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const phoneWidth = 390;
let screenshots: string;
let screenshotsAreTemporary = false;
const password = "correct horse battery staple";
let net: Localnet;
let worker: ServedWorker;
let profile: string;
let browser: BrowserContext;
/** A mint localnet prices on a live pump.fun curve (always priced, whatever its depth). */
let mint: string;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 7 });
  const manifest = (await (await fetch(`${net.rpcUrl}/__localnet/world`)).json()) as WorldManifest;
  mint = manifest.tokens.find((t) => t.venues.includes("pumpfun") && t.tags.includes("fresh") && !t.tags.includes("complete"))!.mint;
  worker = await serveWorker({ UPSTREAM_RPC_URL: net.rpcUrl, UPSTREAM_WS_URL: net.wsUrl, DEVICE_COOKIE_SECRET: "browser test device-cookie secret" });
  profile = await mkdtemp(path.join(os.tmpdir(), "tmd-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    javaScriptEnabled: false,
    viewport: { width: 1100, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  if (process.env.SCREENSHOTS_DIR) screenshots = path.resolve(process.env.SCREENSHOTS_DIR);
  else {
    screenshots = await mkdtemp(path.join(os.tmpdir(), "tmd-screenshots-"));
    screenshotsAreTemporary = true;
  }
  await mkdir(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await worker?.close();
  await net?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (screenshotsAreTemporary) await rm(screenshots, { recursive: true, force: true });
});

async function signUpIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(url);
  await page.fill("#email", email);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${worker.origin}/dashboard`), page.click("button[type=submit]")]);
}

/**
 * A price call with a FREE key, paced under the FREE plan's requests per second (every key of an account shares it):
 * the browser steps between two calls can take less than a second on a quiet machine, and a 429 is not what these
 * tests look at.
 */
let lastPriceAt = 0;
async function price(key: string): Promise<Response> {
  const gapMs = 1000 / plans.free.requestsPerSecond + 50;
  const wait = lastPriceAt + gapMs - Date.now();
  if (wait > 0) await sleep(wait);
  lastPriceAt = Date.now();
  return fetch(`${worker.origin}/api/v1/price?ca=${mint}`, { headers: { "x-api-key": key } });
}

/** Reloads the dashboard until `probe` reads what is wanted (usage and grants are written in the background). */
async function dashboardUntil(page: Page, what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await page.goto(`${worker.origin}/dashboard`);
    if (await probe()) return;
    if (Date.now() > end) throw new Error(`the dashboard never showed ${what}`);
    await sleep(500);
  }
}

const figure = (page: Page, id: string) => page.locator(`#${id}`).innerText();

describe("the account web app in a browser", () => {
  let referralLink: string;
  let referrerPage: Page;

  it("sign up → create a key (shown once) → price with it → usage on the dashboard → revoke, confirmed → 401, listed as revoked", async () => {
    // Given a visitor who signs up
    const page = await browser.newPage();
    referrerPage = page;
    const signupPage = await page.goto(`${worker.origin}/signup`);
    expect(signupPage?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await signUpIn(page, `${worker.origin}/signup`, "ada@example.com");
    expect(await page.locator("h1").innerText()).toContain("ada@example.com");
    // When they create a key named with markup
    await page.fill("#key-name", "<b>trading bot</b>");
    await Promise.all([page.waitForURL(`${worker.origin}/dashboard#keys`), page.click("#keys button[type=submit]")]);
    // Then the key is shown once, the name as text
    const key = await page.locator("#new-key-value").innerText();
    expect(key).toMatch(/^tmd_[A-Za-z0-9_-]{32}$/);
    expect(await page.locator("#new-key b").innerText()).toBe("<b>trading bot</b>");
    await page.locator("section#keys").screenshot({ path: path.join(screenshots, "dashboard-keys.png") });
    // And a reload does not show it again
    await page.reload();
    expect(await page.locator("#new-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect(await page.locator("#keys tbody tr").count()).toBe(1);
    expect(await page.locator("#keys tbody td code").innerText()).toBe(`${key.slice(0, 8)}…`);

    // When the key prices a mint localnet trades
    const priced = await price(key);
    expect(priced.status).toBe(200);
    expect(await priced.json()).toMatchObject({ ca: mint, dex: "pumpfun" });
    // Then the dashboard, loaded right after, shows the request and its credit (the meter writes usage to D1 in
    // batches; the page asks it to write first)
    await page.goto(`${worker.origin}/dashboard`);
    expect(Number(await figure(page, "requests-month"))).toBe(1);
    expect(Number((await figure(page, "credits-used")).replace(/,/g, ""))).toBe(1);
    expect(Number(await page.locator("#keys tbody td.num").innerText())).toBeGreaterThanOrEqual(1);
    expect(await page.locator("#keys tbody td").nth(3).innerText()).toMatch(/UTC$/); // last used
    expect(await figure(page, "plan")).toBe("FREE");
    expect(await page.locator("#usage svg rect").count()).toBeGreaterThanOrEqual(1);
    await page.locator("section#usage").screenshot({ path: path.join(screenshots, "dashboard-usage.png") });

    // When the key is revoked
    // When Revoke is pressed / Then a confirmation page asks first, and Cancel changes nothing
    await Promise.all([page.waitForURL(/\/dashboard\/keys\/revoke\?keyId=key_[0-9a-f]{16}$/), page.click("#keys form[action='/dashboard/keys/revoke'] button")]);
    expect(await page.locator("h1").innerText()).toBe("Revoke the key <b>trading bot</b>?");
    expect(await page.locator("#revoke").innerText()).toContain("cannot be undone");
    await Promise.all([page.waitForURL(`${worker.origin}/dashboard#keys`), page.click("#revoke a")]);
    expect((await price(key)).status).toBe(200);
    expect(await page.locator("#keys tbody tr .status").innerText()).toBe("live");
    // When it is confirmed
    await page.click("#keys form[action='/dashboard/keys/revoke'] button");
    await Promise.all([page.waitForURL(`${worker.origin}/dashboard#keys`), page.click("#revoke button.danger")]);
    // Then it stays listed, as revoked with when, with no Revoke button
    expect(await page.locator("#keys tbody tr").count()).toBe(1);
    expect(await page.locator("#keys tbody tr .status").innerText()).toMatch(/^revoked \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(await page.locator("#keys form[action='/dashboard/keys/revoke']").count()).toBe(0);
    // Then it gets 401 at once
    const refused = await price(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: "error", error: { code: 401, message: "Missing or invalid API key" } });

    referralLink = await figure(page, "referral-link");
    expect(referralLink).toMatch(new RegExp(`^${worker.origin}/signup\\?ref=[0-9A-Z]{10}$`));
    await page.locator("section#docs").screenshot({ path: path.join(screenshots, "dashboard-docs.png") });
  }, 60_000);

  it("sign up through the referral link → the new account's first call → the referrer sees it, its reward waiting for real use", async () => {
    expect(referralLink).toBeDefined();
    const before = Number((await figure(referrerPage, "bonus-credits")).replace(/,/g, ""));
    // Given a friend in another browser session who follows the link
    const friendContext = await chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      const friend = await friendContext.newPage({ javaScriptEnabled: false });
      await friend.goto(referralLink);
      expect(await friend.locator("input[name=ref]").getAttribute("value")).toBe(referralLink.split("ref=")[1]);
      await signUpIn(friend, referralLink, "friend@example.com");
      // When the friend creates a key and makes a first successful call
      await friend.fill("#key-name", "friend's bot");
      await Promise.all([friend.waitForURL(`${worker.origin}/dashboard#keys`), friend.click("#keys button[type=submit]")]);
      const key = await friend.locator("#new-key-value").innerText();
      expect((await price(key)).status).toBe(200);
      await friend.goto(`${worker.origin}/dashboard`); // its usage written (the page asks the meter first)
      expect(Number(await figure(friend, "requests-month"))).toBe(1);
      // Then the referrer's dashboard shows one referred account, waiting for real use, and no reward for one call
      await dashboardUntil(referrerPage, "the referred account", async () => (await figure(referrerPage, "referred-count")) === "1");
      expect(await figure(referrerPage, "referred-waiting")).toBe("1");
      expect(Number((await figure(referrerPage, "bonus-credits")).replace(/,/g, ""))).toBe(before);
      expect(await referrerPage.locator("section#referrals").innerText()).toMatch(/1,000 credits spent over at least 2 different days/);
      await referrerPage.locator("section#referrals").screenshot({ path: path.join(screenshots, "dashboard-referrals.png") });
    } finally {
      await friendContext.close();
    }
  }, 60_000);

  it(`on a ${phoneWidth} px phone screen nothing is wider than the screen: key cards hold their Revoke button, chart labels stay readable`, async () => {
    // Given a signed-in account with a live key and a revoked one, on a phone-sized page
    const page = await browser.newPage();
    await page.setViewportSize({ width: phoneWidth, height: 844 });
    await signUpIn(page, `${worker.origin}/signup`, "phone@example.com");
    let liveKey = "";
    for (const name of ["revoked on the phone", "a key with a rather long name for a small screen"]) {
      await page.fill("#key-name", name);
      await Promise.all([page.waitForURL(`${worker.origin}/dashboard#keys`), page.click("#keys button[type=submit]")]);
      liveKey = await page.locator("#new-key-value").innerText();
    }
    // (one call, so the chart has a day to draw)
    expect((await price(liveKey)).status).toBe(200);
    // Then the document is no wider than the screen, with live keys only and with a revoked one too
    const fitsTheScreen = async () => {
      await page.goto(`${worker.origin}/dashboard`);
      // (a string: this file is type-checked without the DOM's types)
      const widths = (await page.evaluate("({ scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, viewport: window.innerWidth })")) as { scroll: number; body: number; viewport: number };
      expect(widths.viewport).toBe(phoneWidth);
      expect(widths.scroll).toBeLessThanOrEqual(phoneWidth);
      expect(widths.body).toBeLessThanOrEqual(phoneWidth);
    };
    await fitsTheScreen();
    await page.locator("#keys tbody tr", { hasText: "revoked on the phone" }).locator("button").click();
    await Promise.all([page.waitForURL(`${worker.origin}/dashboard#keys`), page.click("#revoke button.danger")]);
    await fitsTheScreen();
    // And every key is a card: the live one's Revoke button inside it, the revoked one marked with when
    const live = page.locator("#keys tbody tr", { hasText: "a key with a rather long name" });
    const card = (await live.boundingBox())!;
    const button = (await live.locator("button").boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(card.x);
    expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width);
    expect(button.y + button.height).toBeLessThanOrEqual(card.y + card.height);
    expect(card.x + card.width).toBeLessThanOrEqual(phoneWidth);
    expect(await page.locator("#keys tbody tr", { hasText: "revoked on the phone" }).locator(".status").innerText()).toMatch(/revoked \d{4}-\d\d-\d\d/);
    // And the chart's labels are drawn at least 10 px tall (its drawing is scaled down to the screen)
    // and inside the chart (none cut off at its edges)
    const chart = (await page.locator("#usage svg").boundingBox())!;
    const labels = page.locator("#usage svg text");
    expect(await labels.count()).toBeGreaterThan(2);
    for (const box of await Promise.all((await labels.all()).map((l) => l.boundingBox()))) {
      expect(box!.height).toBeGreaterThanOrEqual(10);
      expect(box!.x).toBeGreaterThanOrEqual(chart.x);
      expect(box!.x + box!.width).toBeLessThanOrEqual(chart.x + chart.width);
      expect(box!.y).toBeGreaterThanOrEqual(chart.y);
      expect(box!.y + box!.height).toBeLessThanOrEqual(chart.y + chart.height);
    }
    await page.screenshot({ path: path.join(screenshots, "dashboard-phone.png"), fullPage: true });
  }, 60_000);

  it("/favicon.ico answers 200 with an icon, no key needed; the pages link it", async () => {
    const res = await fetch(`${worker.origin}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/icon/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO header: reserved 0, type 1 (icon)
    const page = await browser.newPage();
    await page.goto(`${worker.origin}/login`);
    expect(await page.locator("link[rel=icon]").getAttribute("href")).toBe("/favicon.ico");
  });
});
