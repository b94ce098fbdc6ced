import { limits } from "../limits";

/**
 * Retry-After, read from an upstream and passed on to our callers (REST `Retry-After`, JSON-RPC
 * `data.retryAfterSeconds`). Whatever the upstream wrote — `0`, `1e+23` seconds, a date in the year 3000 — what we
 * pass on is a whole number of seconds within `minRetryAfterSeconds..maxRetryAfterSeconds`.
 */

/** `seconds` as a whole number within the range we ever tell a caller. */
export function clampRetryAfterSeconds(seconds: number): number {
  if (Number.isNaN(seconds)) return limits.minRetryAfterSeconds;
  return Math.min(limits.maxRetryAfterSeconds, Math.max(limits.minRetryAfterSeconds, Math.ceil(seconds)));
}

/** Retry-After as delay-seconds or an HTTP date, clamped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return clampRetryAfterSeconds(Number(trimmed));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return clampRetryAfterSeconds((date - now) / 1000);
}
