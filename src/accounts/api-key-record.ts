import { z } from "zod/mini";
import { customLimitsSchema, planIdSchema, type PlanId } from "./plans";

/** The plan of the key's account (src/accounts/plans.ts), copied into every key record so the request path reads one KV value. */
export const planSchema = planIdSchema;
export type Plan = PlanId;

/**
 * What KV holds for one API key, under `apikey:<sha256 hex of the key>`. The key itself is never stored.
 * `hash` repeats the KV key so the lookup can be confirmed with a constant-time comparison.
 */
export const apiKeyRecordSchema = z.object({
  keyId: z.string(),
  hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  name: z.string(),
  account: z.string(),
  plan: planSchema,
  /** Custom terms of the account over its plan's (plans.ts `customLimitsSchema`); rewritten with the plan by `plan:set`. */
  limits: z.optional(customLimitsSchema),
  createdAt: z.number(),
  revoked: z.boolean(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

export const apiKeyKvPrefix = "apikey:";
