/**
 * Armed faults for the JSON-RPC endpoint: `{mode, count, methods?}` makes the next `count` HTTP requests that carry one
 * of `methods` (any request when omitted) misbehave in `mode`. Plans queue in arrival order; a request consumes one
 * count of the first plan it matches.
 *
 * Modes: `500`/`429` (status only), `html` (a proxy's error page with 200), `truncated` (half the answer),
 * `wrong-id`, `garbage` (bytes that are not UTF-8 JSON), `timeout` (held, then the connection dropped), `slow` (the
 * right answer after `SLOW_FAULT_MS`), `reset` (headers and half the body, then the connection dropped),
 * `refused` (the connection dropped before any answer, as a node that went away), `wrong-shape` (a well-formed
 * JSON-RPC answer with the right id whose `result` is not the shape asked for: an object's arrays become numbers, as a
 * buggy or incompatible node would answer).
 */
export const FAULT_MODES = ["500", "429", "html", "truncated", "wrong-id", "timeout", "garbage", "slow", "reset", "refused", "wrong-shape"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultPlan {
  mode: FaultMode;
  count: number;
  methods?: string[];
}

/** Validates an admin request body; returns the plan or a message saying what is wrong. */
export function readFaultPlan(body: unknown): FaultPlan | string {
  if (typeof body !== "object" || body === null) return "body must be a JSON object";
  const { mode, count, methods } = body as Record<string, unknown>;
  if (!(FAULT_MODES as readonly unknown[]).includes(mode)) return `mode must be one of ${FAULT_MODES.join(", ")}`;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1) return "count must be a positive integer";
  if (methods !== undefined && (!Array.isArray(methods) || methods.some((m) => typeof m !== "string"))) {
    return "methods must be an array of method names";
  }
  return methods === undefined ? { mode: mode as FaultMode, count } : { mode: mode as FaultMode, count, methods: methods as string[] };
}

export class FaultInjector {
  private plans: FaultPlan[] = [];

  arm(plan: FaultPlan): void {
    this.plans.push({ ...plan });
  }

  clear(): number {
    const cleared = this.plans.length;
    this.plans = [];
    return cleared;
  }

  pending(): FaultPlan[] {
    return this.plans.map((plan) => ({ ...plan }));
  }

  /** The fault for a request carrying `methods`, consuming one count of the first matching plan. */
  take(methods: string[]): FaultMode | undefined {
    const index = this.plans.findIndex((plan) => !plan.methods || plan.methods.some((m) => methods.includes(m)));
    const plan = this.plans[index];
    if (!plan) return undefined;
    if (--plan.count === 0) this.plans.splice(index, 1);
    return plan.mode;
  }
}
