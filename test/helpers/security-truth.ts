import type { SecurityTruth } from "../../localnet/src/world/security-tokens";

/**
 * `part / whole` as a percentage with four fraction digits, rounded half up (the API's documented rounding), written
 * here from that rule alone: the expected side of the security tests.
 */
export function formatPercentIndependently(part: bigint, whole: bigint): string {
  if (whole === 0n) return "0.0000";
  const tenThousandths = part * 1_000_000n;
  let q = tenThousandths / whole;
  if ((tenThousandths % whole) * 2n >= whole) q += 1n;
  const text = q.toString().padStart(5, "0");
  return `${text.slice(0, -4)}.${text.slice(-4)}`;
}

/** The world's owners of a security token, largest first, as the API's rows name them. */
export function holderRowsOf(truth: SecurityTruth): { owner: string; amount: string; label: string }[] {
  return truth.holders.map((h) => ({ owner: h.owner, amount: h.amount, label: h.label }));
}
