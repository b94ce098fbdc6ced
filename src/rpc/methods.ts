import { invalidParams, standardErrors, type RpcErrorObject } from "../errors/rpc-errors";
import { methodLimits } from "./method-limits";
import { methodParams, type AllowedMethod, type MethodParams } from "./method-schemas";

/**
 * The allowlist: a method is forwarded only if it is a key of `methodParams`, and only once its params pass,
 * in Agave's order: arity (jsonrpc-derive's messages) → types (serde-style, per schema) → Agave's limits.
 */

/** A call that may go upstream, with its params parsed. */
export type ValidatedCall = { [M in AllowedMethod]: { method: M; params: MethodParams<M> } }[AllowedMethod];

/**
 * Exactly one attempt: a transaction sent twice may land twice, and a simulation belongs to a send the caller is
 * about to make — the caller decides whether to try again, with a fresh blockhash if need be.
 */
const notRetried: ReadonlySet<AllowedMethod> = new Set(["sendTransaction", "simulateTransaction"]);

/** Whether an upstream call of `method` may be retried on another attempt. */
export function isIdempotent(method: AllowedMethod): boolean {
  return !notRetried.has(method);
}

function isAllowed(method: string): method is AllowedMethod {
  return Object.hasOwn(methodParams, method);
}

/** Validates one call; `params` is what the envelope parsed (undefined when absent or null). */
export function validateCall(method: string, params: unknown): { ok: true; call: ValidatedCall } | { ok: false; error: RpcErrorObject } {
  if (!isAllowed(method)) return { ok: false, error: standardErrors.methodNotFound };
  if (params !== undefined && !Array.isArray(params)) return { ok: false, error: invalidParams("`params` should be an array") };
  const list: unknown[] = params ?? [];
  const { schema, min, max } = methodParams[method];
  if (list.length < min) return { ok: false, error: invalidParams(`\`params\` should have at least ${min} argument(s)`) };
  if (list.length > max) {
    const error = max === 0
      ? invalidParams("Invalid parameters: No parameters were expected")
      : invalidParams(`Invalid parameters: Expected from ${min} to ${max} parameters.`, JSON.stringify(`Got: ${list.length}`));
    return { ok: false, error };
  }
  const parsed = schema.safeParse(list);
  if (!parsed.success) return { ok: false, error: invalidParams(parsed.error.issues[0]!.message) };
  const call = { method, params: parsed.data } as ValidatedCall;
  const check = methodLimits[method] as ((p: unknown) => RpcErrorObject | undefined) | undefined;
  const problem = check?.(call.params);
  return problem ? { ok: false, error: problem } : { ok: true, call };
}
