import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../../src/solana/upstream-breaker";

const url = "http://upstream-a";

describe("circuit breaker", () => {
  it("opens after the threshold of consecutive failures, not before", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 3, openMs: 10_000 });
    breaker.recordFailure(url, 0);
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 1)).toBe(true);
    breaker.recordFailure(url, 1);
    expect(breaker.tryAcquire(url, 2)).toBe(false);
    expect(breaker.openState(url, 2)).toEqual({ reason: "failures", remainingMs: 9_999 });
  });

  it("a success in between resets the count", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, openMs: 1000 });
    breaker.recordFailure(url, 0);
    breaker.recordSuccess(url);
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 0)).toBe(true);
  });

  it("after the open period lets exactly one probe through; its failure re-opens, its success closes", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1000 });
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 999)).toBe(false);
    // Given the open period is over: one probe, everyone else waits
    expect(breaker.tryAcquire(url, 1000)).toBe(true);
    expect(breaker.tryAcquire(url, 1001)).toBe(false);
    // When the probe fails, the circuit opens for another period
    breaker.recordFailure(url, 1002);
    expect(breaker.tryAcquire(url, 2001)).toBe(false);
    expect(breaker.tryAcquire(url, 2002)).toBe(true);
    // When the next probe succeeds, requests flow again
    breaker.recordSuccess(url);
    expect(breaker.tryAcquire(url, 2003)).toBe(true);
    expect(breaker.tryAcquire(url, 2003)).toBe(true);
  });

  it("a Retry-After cool-down opens at once for that long, marked as rate limiting", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 5, openMs: 10_000 });
    breaker.coolDown(url, 2000, 0);
    expect(breaker.tryAcquire(url, 1999)).toBe(false);
    expect(breaker.openState(url, 500)).toEqual({ reason: "rate-limited", remainingMs: 1500 });
    expect(breaker.tryAcquire(url, 2000)).toBe(true);
  });

  it("keeps URLs apart", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1000 });
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire("http://upstream-b", 0)).toBe(true);
  });
});
