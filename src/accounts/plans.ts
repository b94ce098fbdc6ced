import { z } from "zod/mini";

/**
 * The plans, in one place: what each allows per account (all of an account's keys share these), read by the meter
 * (rate limits, credits), the price route (mints per request), the /ws rooms (connections, tokens per subscription)
 * and the dashboard. Anchored on CoinVera's published tiers; credits: 1 per mint priced, 1 per JSON-RPC call answered with data
 * (in a batch: its calls; notifications and refused items are free), 1 per other REST call. DEV is the unlimited plan of the key `npm start` creates (local bench).
 * docs/accounts.md renders this table.
 */
export const planIdSchema = z.enum(["free", "pro", "advanced", "dev"]);
export type PlanId = z.infer<typeof planIdSchema>;

export interface PlanLimits {
  id: PlanId;
  label: string;
  /** Shown on the dashboard; no payment provider: an operator sets plans (`npm run plan:set`). */
  priceUsdPerMonth: number;
  requestsPerSecond: number;
  requestsPerMinute: number;
  /** Credits granted each calendar month (UTC); referral bonuses come on top. */
  monthlyCredits: number;
  mintsPerRequest: number;
  wsConnections: number;
  wsTokensPerSubscription: number;
  /**
   * `/rpc` WebSocket (Solana PubSub) sockets per account, a budget of its own beside `/ws`'s: a Solana client opens
   * one for its confirmations whatever streams the account also holds on /ws, and one shared figure would make a FREE
   * account choose between confirming transactions and watching prices. Counted by the account's meter across every hub shard.
   */
  rpcWsConnections: number;
  /** Live plus asked-for PubSub subscriptions per `/rpc` socket (at most the service's `maxPubSubSubscriptionsPerSocket`). */
  rpcWsSubscriptionsPerSocket: number;
  /** Live plus asked-for PubSub subscriptions of all the account's `/rpc` sockets together. */
  rpcWsSubscriptionsPerAccount: number;
}

const UNLIMITED = 1_000_000_000;

export const plans: Readonly<Record<PlanId, PlanLimits>> = {
  free: { id: "free", label: "FREE", priceUsdPerMonth: 0, requestsPerSecond: 1, requestsPerMinute: 30, monthlyCredits: 10_000, mintsPerRequest: 1, wsConnections: 1, wsTokensPerSubscription: 1, rpcWsConnections: 1, rpcWsSubscriptionsPerSocket: 10, rpcWsSubscriptionsPerAccount: 10 },
  pro: { id: "pro", label: "PRO", priceUsdPerMonth: 49, requestsPerSecond: 20, requestsPerMinute: 500, monthlyCredits: 2_000_000, mintsPerRequest: 10, wsConnections: 5, wsTokensPerSubscription: 5, rpcWsConnections: 5, rpcWsSubscriptionsPerSocket: 100, rpcWsSubscriptionsPerAccount: 250 },
  advanced: { id: "advanced", label: "ADVANCED", priceUsdPerMonth: 199, requestsPerSecond: 60, requestsPerMinute: 1_500, monthlyCredits: 10_000_000, mintsPerRequest: 20, wsConnections: 20, wsTokensPerSubscription: 10, rpcWsConnections: 20, rpcWsSubscriptionsPerSocket: 100, rpcWsSubscriptionsPerAccount: 1_000 },
  dev: { id: "dev", label: "DEV", priceUsdPerMonth: 0, requestsPerSecond: UNLIMITED, requestsPerMinute: UNLIMITED, monthlyCredits: UNLIMITED, mintsPerRequest: 100, wsConnections: 1_000, wsTokensPerSubscription: 100, rpcWsConnections: 1_000, rpcWsSubscriptionsPerSocket: 100, rpcWsSubscriptionsPerAccount: 100_000 },
};

/** Bonus credits of the referral program, granted to both accounts once the referred account's first API call succeeds. */
export const referralBonusCredits = { referrer: 5_000, referred: 5_000 } as const;

export function planLimits(id: PlanId): PlanLimits {
  return plans[id];
}

/**
 * An account's own terms over its plan's, carried in its key records (`limits`): an operator's deal, the bench key whose
 * FREE-shaped limits sit far above its load, and the tests' rate windows shortened from 1 s / 60 s to milliseconds so ten
 * windows run in a few seconds (the meter's arithmetic does not depend on the window's length).
 */
export const customLimitsSchema = z.object({
  requestsPerSecond: z.optional(z.int().check(z.positive())),
  requestsPerMinute: z.optional(z.int().check(z.positive())),
  monthlyCredits: z.optional(z.int().check(z.nonnegative())),
  mintsPerRequest: z.optional(z.int().check(z.positive())),
  wsConnections: z.optional(z.int().check(z.nonnegative())),
  wsTokensPerSubscription: z.optional(z.int().check(z.positive())),
  rpcWsConnections: z.optional(z.int().check(z.nonnegative())),
  rpcWsSubscriptionsPerSocket: z.optional(z.int().check(z.nonnegative())),
  rpcWsSubscriptionsPerAccount: z.optional(z.int().check(z.nonnegative())),
  /** Length of the "second" and "minute" windows (ms); 1,000 and 60,000 unless set. */
  secondWindowMs: z.optional(z.int().check(z.gte(10), z.lte(60_000))),
  minuteWindowMs: z.optional(z.int().check(z.gte(10), z.lte(3_600_000))),
});
export type CustomLimits = z.infer<typeof customLimitsSchema>;

/** One sliding window of the meter: at most `limit` requests in any `ms` span. */
export interface RateWindow {
  name: "second" | "minute";
  limit: number;
  ms: number;
}

/** What an account may do: its plan's figures, with its custom ones over them. */
export interface AccountTerms extends PlanLimits {
  windows: [RateWindow, RateWindow];
}

export function accountTerms(id: PlanId, custom?: CustomLimits): AccountTerms {
  const base = { ...plans[id], ...stripUndefined(custom) };
  return {
    ...base,
    id,
    label: plans[id].label,
    windows: [
      { name: "second", limit: base.requestsPerSecond, ms: custom?.secondWindowMs ?? 1000 },
      { name: "minute", limit: base.requestsPerMinute, ms: custom?.minuteWindowMs ?? 60_000 },
    ],
  };
}

function stripUndefined(custom: CustomLimits | undefined): Partial<PlanLimits> {
  const out: Record<string, number> = {};
  if (custom) for (const [k, v] of Object.entries(custom)) if (v !== undefined && k !== "secondWindowMs" && k !== "minuteWindowMs") out[k] = v;
  return out as Partial<PlanLimits>;
}

/** One text per distinct terms (plan and custom limits): a socket admitted under one text is re-admitted when it changes. */
export function termsKeyOf(plan: PlanId, custom?: CustomLimits): string {
  return JSON.stringify([plan, custom ? Object.entries(custom).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)) : []]);
}
