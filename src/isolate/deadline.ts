import { ApiError } from "../errors/api-error";

/**
 * The moment a request must have its answer. Every wait on work the request does not own (a task shared with other
 * requests) is bounded by it, so a request can never hang on someone else's promise.
 */
export interface Deadline {
  /** Epoch ms. */
  readonly at: number;
}

export function deadlineIn(ms: number, now = Date.now()): Deadline {
  return { at: now + ms };
}

/** Thrown when a request's deadline passes while it waits; routes render it as 504. */
export class DeadlineExceeded extends ApiError {
  constructor() {
    super("UPSTREAM_TIMEOUT", "The request did not complete within its deadline");
  }
}

/**
 * `promise`, or `DeadlineExceeded` once `deadline` passes — whichever comes first. The timer is this caller's own,
 * so it fires even when the promise belongs to a request that was cancelled.
 */
export function within<T>(promise: Promise<T>, deadline: Deadline | undefined, now = Date.now()): Promise<T> {
  if (!deadline) return promise;
  const remaining = deadline.at - now;
  if (remaining <= 0) return Promise.reject(new DeadlineExceeded());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded()), remaining);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
