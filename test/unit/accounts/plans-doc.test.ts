/**
 * docs/accounts.md's plans table is plans.ts, rendered: a change of either without the other fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plans, referralBonusCredits } from "../../../src/accounts/plans";

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
});
