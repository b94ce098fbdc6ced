/**
 * The account web app in headless Chromium against the bundled worker (test/e2e/helpers/served-worker.ts) over a real
 * localnet: sign up → create a key → it is shown once → price a mint with it → the dashboard shows the usage (written
 * by the meter in batches; the dashboard asks it to write first) → revoke → the key gets 401; then sign up through the
 * referral link → the new account's first call → the referrer's bonus credits grow. Plain forms only: the pages run
 * no script (JavaScript is off in this browser context, so nothing here depends on it). Leaves a screenshot of each
 * dashboard section in docs/screenshots/ for the README. Needs /usr/bin/chromium (.ci/run installs it): without it
 * the launch fails and so does every test.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type Localnet } from "../../localnet/src/server";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { sleep } from "../helpers/wait";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const screenshots = path.resolve(import.meta.dirname, "../../docs/screenshots");
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
  worker = await serveWorker({ UPSTREAM_RPC_URL: net.rpcUrl, UPSTREAM_WS_URL: net.wsUrl });
  profile = await mkdtemp(path.join(os.tmpdir(), "tmd-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    javaScriptEnabled: false,
    viewport: { width: 1100, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  await mkdir(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await worker?.close();
  await net?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function signUpIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(url);
  await page.fill("#email", email);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${worker.origin}/dashboard`), page.click("button[type=submit]")]);
}

async function price(key: string): Promise<Response> {
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

  it("sign up → create a key (shown once) → price with it → usage on the dashboard → revoke → 401", async () => {
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
    await Promise.all([page.waitForURL(`${worker.origin}/dashboard#keys`), page.click("#keys form[action='/dashboard/keys/revoke'] button")]);
    expect(await page.locator("#keys tbody tr").innerText()).toContain("revoked");
    // Then it gets 401 at once
    const refused = await price(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: "error", error: { code: 401, message: "Missing or invalid API key" } });

    referralLink = await figure(page, "referral-link");
    expect(referralLink).toMatch(new RegExp(`^${worker.origin}/signup\\?ref=[0-9A-Z]{10}$`));
    await page.locator("section#docs").screenshot({ path: path.join(screenshots, "dashboard-docs.png") });
  }, 60_000);

  it("sign up through the referral link → the new account's first call → the referrer's credits grow", async () => {
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
      // Then both accounts get the referral bonus: the referrer's dashboard shows one referred account and the reward
      await dashboardUntil(referrerPage, "the referral reward", async () => (await figure(referrerPage, "referred-count")) === "1" && Number((await figure(referrerPage, "bonus-credits")).replace(/,/g, "")) > before);
      const reward = Number((await figure(referrerPage, "referral-credits")).replace(/,/g, ""));
      expect(reward).toBeGreaterThan(0);
      expect(Number((await figure(referrerPage, "bonus-credits")).replace(/,/g, ""))).toBe(before + reward);
      await referrerPage.locator("section#referrals").screenshot({ path: path.join(screenshots, "dashboard-referrals.png") });
      await dashboardUntil(friend, "the referred account's bonus", async () => Number((await figure(friend, "bonus-credits")).replace(/,/g, "")) > 0);
    } finally {
      await friendContext.close();
    }
  }, 60_000);
});
