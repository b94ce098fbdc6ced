import { UpstreamError } from "../solana/upstream";
import { ApiError } from "./api-error";

export function isUpstreamError(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError;
}

/** REST face of an upstream failure: timeouts are 504, everything else 503. Messages stay generic. */
export function upstreamApiError(err: UpstreamError): ApiError {
  if (err.kind === "timeout") return new ApiError("UPSTREAM_TIMEOUT");
  const retry = err.retryAfterSeconds;
  return new ApiError("UPSTREAM_UNAVAILABLE", undefined, retry !== undefined ? { "retry-after": String(retry) } : {});
}
