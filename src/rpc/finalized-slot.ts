import { limits } from "../limits";
import type { Upstream } from "../solana/upstream";

/**
 * The cluster's finalized slot, asked with `getSlot {commitment: finalized}` and reused for `finalizedSlotTtlMs`
 * per isolate and cluster. Only the number is shared between requests, never a pending promise: a promise made
 * by one request and awaited by another is cross-request I/O in workerd.
 */
const known = new Map<string, { slot: number; at: number }>();

/** The finalized slot of `upstream`'s cluster, at most `finalizedSlotTtlMs` old. */
export async function finalizedSlot(upstream: Upstream, requestId: string | undefined): Promise<number> {
  const memo = known.get(upstream.clusterKey);
  if (memo && Date.now() - memo.at < limits.finalizedSlotTtlMs) return memo.slot;
  const { result } = await upstream.call<number>("getSlot", [{ commitment: "finalized" }], { idempotent: true, requestId });
  known.set(upstream.clusterKey, { slot: result, at: Date.now() });
  return result;
}
