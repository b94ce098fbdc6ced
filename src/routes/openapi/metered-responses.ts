import { errorResponse, type Operation, type ResponseSpec } from "./operation";

const rateHeaders: NonNullable<ResponseSpec["headers"]> = {
  "RateLimit-Policy": { description: 'The plan\'s windows (draft-ietf-httpapi-ratelimit-headers): `"second";q=1;w=1, "minute";q=30;w=60`', schema: { type: "string" } },
  RateLimit: { description: 'What is left of each window and when its oldest request leaves it (s): `"second";r=0;t=1, "minute";r=29;t=60`', schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Limit of the window with the least left", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in that window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until that window's oldest request leaves it", schema: { type: "integer" } },
};

/** The plan's refusals (docs/accounts.md), added to a metered route's answers: 402, 429 and, for price lists, 403. */
export function meteredResponses(op: Operation, priced: boolean): Operation {
  const responses: Record<number, ResponseSpec> = {
    ...op.responses,
    402: errorResponse("PAYMENT_REQUIRED", "The account's credits for this month are used up (1 per mint priced, 1 per other call)", {
      outOfCredits: "Out of credits: this request costs 3, 1 left this month on the FREE plan",
    }),
    429: {
      ...errorResponse("TOO_MANY_REQUESTS", "Over the plan's requests per second or per minute (all of the account's keys count together); `Retry-After` says when to come back", {
        rateLimited: "Rate limit exceeded: 1 requests per second on the FREE plan; retry in 1 s",
      }),
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } }, ...rateHeaders },
    },
  };
  if (priced) {
    responses[403] = errorResponse("FORBIDDEN", "More mints in `ca` than the plan allows per request (a valid list, over the plan: 403; over the service's own cap of 100: 400)", {
      tooManyMints: "Too many mints in ca: 2 (the FREE plan allows 1 per request)",
    });
  }
  if (responses[200] !== undefined) responses[200] = { ...responses[200], headers: { ...responses[200].headers, ...rateHeaders } };
  return { ...op, responses };
}
