/**
 * Exact renderings of raw token amounts for the overview: no float is involved, so a balance read from chain is
 * shown to its last base unit and a percentage is rounded exactly once.
 */
import { PERCENT_DECIMALS } from "./overview-schema";

/** `raw / 10^decimals` as a plain decimal, exact, trailing fractional zeros removed: (1_500_000n, 6) → "1.5". */
export function formatTokenAmount(raw: bigint, decimals: number): string {
  if (raw < 0n) throw new RangeError("formatTokenAmount: negative amount");
  if (decimals === 0) return raw.toString();
  const digits = raw.toString().padStart(decimals + 1, "0");
  const integer = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return fraction === "" ? integer : `${integer}.${fraction}`;
}

/**
 * `part / whole × 100` with exactly {@link PERCENT_DECIMALS} fraction digits, rounded half up: (1n, 3n) → "33.3333".
 * A zero `whole` (nothing minted, or everything burnt) gives "0.0000": there is no share of nothing.
 */
export function formatPercent(part: bigint, whole: bigint): string {
  if (part < 0n || whole < 0n) throw new RangeError("formatPercent: negative amount");
  if (whole === 0n) return `0.${"0".repeat(PERCENT_DECIMALS)}`;
  const scale = 10n ** BigInt(PERCENT_DECIMALS);
  const scaled = (2n * part * 100n * scale + whole) / (2n * whole);
  const digits = scaled.toString().padStart(PERCENT_DECIMALS + 1, "0");
  return `${digits.slice(0, -PERCENT_DECIMALS)}.${digits.slice(-PERCENT_DECIMALS)}`;
}
