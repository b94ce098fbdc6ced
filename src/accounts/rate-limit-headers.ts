import type { WindowState } from "./meter-protocol";

/**
 * Rate-limit headers of a metered answer:
 * - `RateLimit-Policy` and `RateLimit` in the form of draft-ietf-httpapi-ratelimit-headers-09/10 (structured-field
 *   lists: `"minute";q=30;w=60` — quota q per window w seconds; `"minute";r=29;t=45` — r left, t seconds until the
 *   oldest counted request leaves the window), one item per window;
 * - `X-RateLimit-Limit/Remaining/Reset` (the de-facto form): the window with the least left, Reset in seconds as `t`.
 * Windows shorter than a second (custom test terms) are rounded up to whole seconds, as the fields carry integers.
 */
export function rateLimitHeaders(windows: readonly WindowState[], extraRemaining = 0, elapsedMs = 0): Record<string, string> {
  if (windows.length === 0) return {};
  // The warm path builds these for every request: one pass, the policy text cached per windows array.
  let policy = policies.get(windows);
  if (policy === undefined) policies.set(windows, (policy = windows.map((w) => `"${w.name}";q=${w.limit};w=${seconds(w.ms)}`).join(", ")));
  let state = "";
  let tightest = windows[0]!;
  let tightRemaining = Infinity;
  let tightReset = 0;
  for (const w of windows) {
    const remaining = w.remaining + extraRemaining;
    const reset = seconds(w.resetMs - elapsedMs);
    state += `${state === "" ? "" : ", "}"${w.name}";r=${remaining};t=${reset}`;
    if (remaining < tightRemaining || (remaining === tightRemaining && w.ms > tightest.ms)) {
      tightest = w;
      tightRemaining = remaining;
      tightReset = reset;
    }
  }
  return {
    "ratelimit-policy": policy,
    ratelimit: state,
    "x-ratelimit-limit": String(tightest.limit),
    "x-ratelimit-remaining": String(tightRemaining),
    "x-ratelimit-reset": String(tightReset),
  };
}

const policies = new WeakMap<readonly WindowState[], string>();

/** Whole seconds, rounded up: a client waiting this long is never early. */
export function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
