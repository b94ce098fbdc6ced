import type { WindowState } from "./meter-protocol";

/**
 * Rate-limit headers of a metered answer:
 * - `RateLimit-Policy` and `RateLimit` in the form of draft-ietf-httpapi-ratelimit-headers-09/10 (structured-field
 *   lists: `"minute";q=30;w=60` — quota q per window w seconds; `"minute";r=29;t=45` — r left, t seconds until the
 *   oldest counted request leaves the window), one item per window;
 * - `X-RateLimit-Limit/Remaining/Reset` (the de-facto form): the window with the least left, Reset in seconds as `t`.
 * Windows shorter than a second (custom test terms) are rounded up to whole seconds, as the fields carry integers.
 */
export function rateLimitHeaders(windows: readonly WindowState[]): Record<string, string> {
  if (windows.length === 0) return {};
  let tightest = windows[0]!;
  for (const w of windows) if (w.remaining < tightest.remaining || (w.remaining === tightest.remaining && w.ms > tightest.ms)) tightest = w;
  return {
    "ratelimit-policy": windows.map((w) => `"${w.name}";q=${w.limit};w=${seconds(w.ms)}`).join(", "),
    ratelimit: windows.map((w) => `"${w.name}";r=${w.remaining};t=${seconds(w.resetMs)}`).join(", "),
    "x-ratelimit-limit": String(tightest.limit),
    "x-ratelimit-remaining": String(tightest.remaining),
    "x-ratelimit-reset": String(seconds(tightest.resetMs)),
  };
}

/** Whole seconds, rounded up: a client waiting this long is never early. */
export function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
