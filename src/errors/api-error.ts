import { z } from "zod/mini";

/**
 * One closed set of REST error codes, mapped to HTTP status in one place.
 * Handlers throw `ApiError`; `app.onError` renders the spec's envelope. 5xx messages are generic by construction.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  /** The account's credits for the month are used up (docs/accounts.md#credits). */
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  /** Well-formed but not answerable on the state read (a quote larger than the liquidity read). */
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** The messages of codes whose text never depends on the request (5xx bodies never echo internals). */
export const genericMessages: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: "Missing or invalid API key",
  INTERNAL: "Internal server error",
  UPSTREAM_UNAVAILABLE: "Upstream chain data is temporarily unavailable",
  UPSTREAM_TIMEOUT: "Upstream chain data did not answer in time",
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? genericMessages[code] ?? code);
    this.name = "ApiError";
    this.code = code;
    this.status = errorStatus[code];
    this.headers = headers;
  }
}

/** The spec's error envelope: every non-200 REST answer. */
export const errorEnvelopeSchema = z.object({
  status: z.literal("error"),
  error: z.object({ code: z.number(), message: z.string() }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export function errorEnvelope(status: number, message: string): ErrorEnvelope {
  return { status: "error", error: { code: status, message } };
}

/** Renders an ApiError as the spec's envelope. */
export function errorResponse(err: ApiError, requestId?: string): Response {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8", ...err.headers });
  if (requestId) headers.set("x-request-id", requestId);
  return new Response(JSON.stringify(errorEnvelope(err.status, err.message)), { status: err.status, headers });
}
