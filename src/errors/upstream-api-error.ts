import { clampRetryAfterSeconds } from "../http/retry-after";
import { UpstreamError } from "../solana/upstream";
import { ApiError } from "./api-error";

export function isUpstreamError(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError;
}

/**
 * REST face of an upstream failure: timeouts are 504, every other kind 503 — including `request-refused` and
 * `answer-too-large`, which REST callers cannot act on (the service built the request). Messages stay generic;
 * Retry-After, when the upstream gave one, is clamped to `minRetryAfterSeconds..maxRetryAfterSeconds`.
 */
export function upstreamApiError(err: UpstreamError): ApiError {
  if (err.kind === "timeout") return new ApiError("UPSTREAM_TIMEOUT");
  const retry = err.retryAfterSeconds;
  return new ApiError("UPSTREAM_UNAVAILABLE", undefined, retry !== undefined ? { "retry-after": String(clampRetryAfterSeconds(retry)) } : {});
}
