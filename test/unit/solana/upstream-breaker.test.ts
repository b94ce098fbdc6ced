import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../../src/solana/upstream-breaker";

const url = "http://upstream-a";
/** How long a probe may take before it is presumed lost. */
const probeMs = 6_000;

describe("circuit breaker", () => {
  it("opens after the threshold of consecutive failures, not before", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 3, openMs: 10_000 });
    breaker.recordFailure(url, 0);
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 1, probeMs)).toBe(true);
    breaker.recordFailure(url, 1);
    expect(breaker.tryAcquire(url, 2, probeMs)).toBe(false);
    expect(breaker.openState(url, 2)).toEqual({ reason: "failures", remainingMs: 9_999 });
  });

  it("a success in between resets the count", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, openMs: 1000 });
    breaker.recordFailure(url, 0);
    breaker.recordSuccess(url);
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 0, probeMs)).toBe(true);
  });

  it("after the open period lets exactly one probe through; its failure re-opens, its success closes", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1000 });
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 999, probeMs)).toBe(false);
    // Given the open period is over: one probe, everyone else waits
    expect(breaker.tryAcquire(url, 1000, probeMs)).toBe(true);
    expect(breaker.tryAcquire(url, 1001, probeMs)).toBe(false);
    // When the probe fails, the circuit opens for another period
    breaker.recordFailure(url, 1002);
    expect(breaker.tryAcquire(url, 2001, probeMs)).toBe(false);
    expect(breaker.tryAcquire(url, 2002, probeMs)).toBe(true);
    // When the next probe succeeds, requests flow again
    breaker.recordSuccess(url);
    expect(breaker.tryAcquire(url, 2003, probeMs)).toBe(true);
    expect(breaker.tryAcquire(url, 2003, probeMs)).toBe(true);
  });

  it("a Retry-After cool-down opens at once for that long, marked as rate limiting", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 5, openMs: 10_000 });
    breaker.coolDown(url, 2000, 0);
    expect(breaker.tryAcquire(url, 1999, probeMs)).toBe(false);
    expect(breaker.openState(url, 500)).toEqual({ reason: "rate-limited", remainingMs: 1500 });
    expect(breaker.tryAcquire(url, 2000, probeMs)).toBe(true);
  });

  it("keeps URLs apart", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1000 });
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire("http://upstream-b", 0, probeMs)).toBe(true);
  });

  it("a probe that never reports (its request was cancelled) is presumed lost after its deadline: another may go", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1000 });
    breaker.recordFailure(url, 0);
    // Given a probe admitted at 1000 whose request is cancelled (no success, no failure is ever recorded)
    expect(breaker.tryAcquire(url, 1000, probeMs)).toBe(true);
    // Then until its deadline nobody else goes
    expect(breaker.tryAcquire(url, 1000 + probeMs - 1, probeMs)).toBe(false);
    expect(breaker.openState(url, 1000 + probeMs - 1)).toMatchObject({ reason: "failures" });
    // And at the deadline one new probe goes (and only one)
    expect(breaker.openState(url, 1000 + probeMs)).toBeUndefined();
    expect(breaker.tryAcquire(url, 1000 + probeMs, probeMs)).toBe(true);
    expect(breaker.tryAcquire(url, 1000 + probeMs + 1, probeMs)).toBe(false);
    // When that one succeeds, the circuit closes
    breaker.recordSuccess(url);
    expect(breaker.tryAcquire(url, 1000 + probeMs + 2, probeMs)).toBe(true);
  });

  it("release: an outcome that says nothing about the node ends a probe without counting", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, openMs: 1000 });
    breaker.recordFailure(url, 0);
    breaker.release(url);
    breaker.release(url);
    // Releases did not count: one more failure is needed to open
    expect(breaker.tryAcquire(url, 0, probeMs)).toBe(true);
    breaker.recordFailure(url, 0);
    expect(breaker.tryAcquire(url, 1, probeMs)).toBe(false);
    // A probe that is released (e.g. the node answered 413) leaves the circuit half-open for the next request
    expect(breaker.tryAcquire(url, 1000, probeMs)).toBe(true);
    breaker.release(url);
    expect(breaker.tryAcquire(url, 1001, probeMs)).toBe(true);
    expect(breaker.tryAcquire(url, 1002, probeMs)).toBe(false);
  });
});
