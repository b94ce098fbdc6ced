/**
 * JSON output with exact u64s. Values up to 2^53 are plain numbers; larger u64s (rentEpoch = u64::MAX on every
 * rent-exempt account) are carried as marker strings and spliced back as bare digits, because JSON.stringify cannot emit
 * a bigint and a rounded double (18446744073709552000) would reach kit clients, which parse integers as exact bigints.
 */
const MARK = "\u0000u64:";
const MARKED = /"\\u0000u64:(\d+)"/g;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function u64(value: bigint): number | string {
  return value <= MAX_SAFE ? Number(value) : MARK + value.toString();
}

export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes("\\u0000u64:") ? text.replace(MARKED, "$1") : text;
}
