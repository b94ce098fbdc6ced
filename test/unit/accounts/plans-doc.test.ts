/**
 * docs/accounts.md's plans table is plans.ts, rendered: a change of either without the other fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plans, referralBonusCredits } from "../../../src/accounts/plans";
import { limits } from "../../../src/limits";

const n = (x: number) => (x >= 1_000_000_000 ? "unlimited" : x.toLocaleString("en-US"));

/** The table as the docs carry it. */
function plansTable(): string {
  const rows = Object.values(plans).map(
    (p) =>
      `| ${p.label} | ${p.priceUsdPerMonth === 0 ? "free" : `$${p.priceUsdPerMonth}/month`} | ${n(p.requestsPerSecond)} | ${n(p.requestsPerMinute)} | ${n(p.monthlyCredits)} | ${p.mintsPerRequest} | ${n(p.wsConnections)} | ${p.wsTokensPerSubscription} |`,
  );
  return ["| plan | price | requests / s | requests / min | credits / month | mints / request | WS connections | WS tokens / subscription |", "|---|---|---|---|---|---|---|---|", ...rows].join("\n");
}

describe("docs/accounts.md", () => {
  const doc = readFileSync(path.join(import.meta.dirname, "../../../docs/accounts.md"), "utf8");

  it("shows plans.ts's plans, figure for figure", () => {
    expect(doc).toContain(plansTable());
  });

  it("states the referral bonus of plans.ts", () => {
    expect(doc).toContain(`${referralBonusCredits.referred.toLocaleString("en-US")} bonus credits to the referred account and ${referralBonusCredits.referrer.toLocaleString("en-US")} to the referrer`);
  });

  it("states limits.ts's referral rules and sign-up and login throttles", () => {
    const l = limits.accountWeb;
    const f = (x: number) => x.toLocaleString("en-US");
    expect(doc).toContain(`spent at least ${f(l.referralMinCredits)} credits, on at least ${l.referralMinDays}`);
    expect(doc).toContain(`at most **${l.referralRewardsPerMonth} rewards per UTC month**`);
    expect(doc).toContain(`| ${l.signupsPerAddress} in any hour (attempts at a taken email count too) |`);
    expect(doc).toContain(`| ${l.signupsPerIpv6Net48} in any hour, over all its /64s |`);
    expect(doc).toContain(`| ${l.loginAttemptsPerAddress} attempts in any ${l.loginWindowMs / 60_000} minutes, any emails |`);
    expect(doc).toContain(`| ${l.loginFreeAttemptsPerEmailAddress} attempts free in any ${l.loginWindowMs / 60_000} minutes, then a delay (below) |`);
    expect(doc).toContain(`| ${l.loginFreeAttemptsPerEmail} attempts free in any ${l.loginWindowMs / 60_000} minutes, then a delay (below);`);
    expect(doc).toContain(`wait ${l.loginDelayBaseMs / 1000} s × 2^(attempts − ${l.loginFreeAttemptsPerEmailAddress}) after the newest one, at most ${l.loginDelayMaxMs / 1000} s`);
    expect(l.signupWindowMs).toBe(3_600_000);
    expect(l.deviceCookieTtlMs).toBe(365 * 86_400_000);
    expect(doc).toContain("one year");
  });
});
