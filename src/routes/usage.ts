import { Hono } from "hono";
import { z } from "zod/mini";
import type { AppContext } from "../app-context";
import { settleLease, termsOf } from "../accounts/meter-client";
import { readBonusCredits, readMonthUsage } from "../accounts/usage-store";
import { utcMonth, type MeterBalance } from "../accounts/meter-protocol";
import { named, restErrors, type Operation } from "./openapi/operation";

/**
 * GET /api/v1/usage: the calling key's own account — its plan and limits, this month's credits (used, remaining,
 * bonus) and its usage per key per day. Costs no credits (it still counts against the rate windows), so an account
 * out of credits can see why. The meter writes pending usage first, so the rows include every accepted request.
 */
const usageSchema = z.object({
  account: z.string(),
  plan: z.object({
    id: z.string(),
    label: z.string(),
    requestsPerSecond: z.number(),
    requestsPerMinute: z.number(),
    monthlyCredits: z.number(),
    mintsPerRequest: z.number(),
    wsConnections: z.number(),
    wsTokensPerSubscription: z.number(),
  }),
  month: z.string(),
  credits: z.object({ monthly: z.number(), bonus: z.number(), used: z.number(), remaining: z.number() }),
  days: z.array(z.object({ day: z.string(), keyId: z.string(), requests: z.number(), credits: z.number() })),
});
type Usage = z.infer<typeof usageSchema>;

export const usageRoutes = new Hono<AppContext>().get("/api/v1/usage", async (c) => {
  const record = c.get("apiKey");
  const { terms } = termsOf(record);
  const now = Date.now();
  const deps = { env: c.env, waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p) };
  await settleLease(deps, record.account);
  let balance: MeterBalance | undefined;
  try {
    balance = await c.env.ACCOUNT_METER.get(c.env.ACCOUNT_METER.idFromName(record.account)).balance(record.account);
  } catch (err) {
    // The meter is down: D1's figures (behind by at most one flush) rather than no answer.
    console.error(JSON.stringify({ level: "error", event: "meter-failed", call: "balance", account: record.account, error: err instanceof Error ? err.message : String(err) }));
  }
  const days = await readMonthUsage(c.env.DB, record.account, now);
  const used = balance?.creditsUsed ?? days.reduce((n, d) => n + d.credits, 0);
  const bonus = balance?.bonusCredits ?? (await readBonusCredits(c.env.DB, record.account));
  const body: Usage = {
    account: record.account,
    plan: {
      id: terms.id,
      label: terms.label,
      requestsPerSecond: terms.requestsPerSecond,
      requestsPerMinute: terms.requestsPerMinute,
      monthlyCredits: terms.monthlyCredits,
      mintsPerRequest: terms.mintsPerRequest,
      wsConnections: terms.wsConnections,
      wsTokensPerSubscription: terms.wsTokensPerSubscription,
    },
    month: balance?.month ?? utcMonth(now),
    credits: { monthly: terms.monthlyCredits, bonus, used, remaining: Math.max(0, terms.monthlyCredits + bonus - used) },
    days,
  };
  return c.json(body);
});

const example: Usage = {
  account: "acct_4f2a9c1b7e30d8a1c2b3d4e5",
  plan: { id: "free", label: "FREE", requestsPerSecond: 1, requestsPerMinute: 30, monthlyCredits: 10_000, mintsPerRequest: 1, wsConnections: 1, wsTokensPerSubscription: 1 },
  month: "2026-11",
  credits: { monthly: 10_000, bonus: 5_000, used: 42, remaining: 14_958 },
  days: [
    { day: "2026-11-24", keyId: "key_1a2b3c4d5e6f7a8b", requests: 30, credits: 30 },
    { day: "2026-11-25", keyId: "key_1a2b3c4d5e6f7a8b", requests: 12, credits: 12 },
  ],
};

export const usageOperations: Operation[] = [
  {
    method: "get",
    path: "/api/v1/usage",
    operationId: "usage",
    summary: "The calling key's account: plan, limits, credits this month and usage per key per day",
    description: "Months are UTC calendar months. Costs no credits; counts against the rate limits. See the [guide](/guide/accounts.md#usage-api).",
    tags: ["account"],
    authenticated: true,
    responses: {
      200: { description: "The account's plan, credits and this month's usage rows (oldest day first)", schema: named("Usage", usageSchema), examples: { usage: { summary: "A FREE account with a referral bonus", value: example } } },
      401: restErrors[401],
      413: restErrors[413],
      414: restErrors[414],
      500: restErrors[500],
    },
  },
];
