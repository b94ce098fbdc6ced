import type { AccountTerms } from "./plans";

/** The texts of the meter's refusals, the same on REST (envelope) and /rpc (JSON-RPC error). */
export function rateLimitedMessage(terms: AccountTerms, window: string, retryAfterSeconds: number): string {
  const w = terms.windows.find((x) => x.name === window) ?? terms.windows[0];
  return `Rate limit exceeded: ${w.limit} requests per ${window} on the ${terms.label} plan; retry in ${retryAfterSeconds} s`;
}

export function outOfCreditsMessage(terms: AccountTerms, cost: number, creditsRemaining: number): string {
  return `Out of credits: this request costs ${cost}, ${creditsRemaining} left this month on the ${terms.label} plan`;
}

export function tooManyMintsMessage(terms: AccountTerms, mints: number): string {
  return `Too many mints in ca: ${mints} (the ${terms.label} plan allows ${terms.mintsPerRequest} per request)`;
}
