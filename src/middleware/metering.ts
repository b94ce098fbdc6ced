import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import type { AppContext } from "../app-context";
import { firstCallSucceeded, meterFromLease, meterRequest, termsOf } from "../accounts/meter-client";
import { outOfCreditsMessage, rateLimitedMessage, tooManyMintsMessage } from "../accounts/meter-refusals";
import { ApiError } from "../errors/api-error";
import { noTimings } from "../http/server-timing";
import { limits } from "../limits";

/**
 * Plans in force on REST (after auth): the request's cost in credits (one per mint for the price routes, none for
 * `/api/v1/usage`, one otherwise), the plan's mints-per-request cap (403), then the account's meter: 429 with
 * `Retry-After` over a rate window, 402 without credits. Accepted requests are charged — before the route reads them,
 * so an answer the route then refuses still costs what it asked (docs/accounts.md#credits). Rate-limit headers go on
 * every metered answer. The meter failing lets the request through (fail open, meter-client.ts).
 */
export function meteredRest(pricePaths: ReadonlySet<string>) {
  return createMiddleware<AppContext>(async (c, next) => {
    const record = c.get("apiKey");
    const { terms } = termsOf(record);
    const cost = costOf(c, pricePaths);
    if (pricePaths.has(c.req.path) && cost > terms.mintsPerRequest && cost <= limits.maxMintsPerPriceRequest) {
      throw new ApiError("FORBIDDEN", tooManyMintsMessage(terms, cost));
    }
    const deps = { env: c.env, waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p) };
    const timings = c.get("timings") ?? noTimings;
    // A lease of this isolate answers synchronously (the warm path); otherwise the account's meter is asked.
    let decision = meterFromLease(deps, record, cost);
    if (decision === undefined) decision = await timings.time("meter", () => meterRequest(deps, record, cost));
    else timings.add("meter", 0);
    if (decision.kind === "rate-limited") {
      throw new ApiError("TOO_MANY_REQUESTS", rateLimitedMessage(terms, decision.window, decision.retryAfterSeconds), { ...decision.headers, "retry-after": String(decision.retryAfterSeconds) });
    }
    if (decision.kind === "out-of-credits") throw new ApiError("PAYMENT_REQUIRED", outOfCreditsMessage(terms, cost, decision.creditsRemaining), decision.headers);
    if (decision.kind === "unmetered") {
      await next();
      return;
    }
    // Set before the route answers: they join the headers its response is built with (c.body), which costs less than
    // changing a built response's headers. An answer not built through the context (an error envelope) gets them after.
    const headers = decision.headers;
    for (const name in headers) c.header(name, headers[name]);
    await next();
    if (!c.res.headers.has("ratelimit")) for (const name in headers) c.res.headers.set(name, headers[name]!);
    if (decision.firstCallPending && c.res.status < 400) firstCallSucceeded(deps, record.account);
  });
}

/** Credits of this request: its mints on the price routes (the items of `ca`, as params.ts counts them; 1 past its cap), 0 for usage, else 1. */
function costOf(c: Context<AppContext>, pricePaths: ReadonlySet<string>): number {
  if (c.req.path === "/api/v1/usage") return 0;
  if (!pricePaths.has(c.req.path)) return 1;
  const ca = c.req.query("ca");
  if (ca === undefined) return 1;
  let n = 0;
  for (const item of ca.split(",")) if (item.trim().length > 0) n++;
  // Over the service's cap the route refuses the list whole (400): it costs what a refused call costs, 1.
  return n > limits.maxMintsPerPriceRequest ? 1 : Math.max(1, n);
}
