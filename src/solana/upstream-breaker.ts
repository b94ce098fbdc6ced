/**
 * Circuit breaker per upstream URL, per isolate.
 *
 * closed → (failureThreshold consecutive failures) → open for `openMs` → half-open: exactly one probe request
 * goes through; its success closes the circuit, its failure opens it again for `openMs`.
 * A 429 with Retry-After opens the circuit for that long (capped) at once: the node told us when to come back.
 * Only the node's own faults are failures (the caller decides which: timeouts, refused connections, 5xx, garbage,
 * node behind). An answer caused by the request — a 4xx, an answer over our size cap — says nothing about the
 * node's health: `release` frees a probe without counting anything.
 * A probe has a deadline: workerd cancels a request whose client went away, and a probe cancelled mid-flight never
 * reports back — without the deadline its circuit would wait for it forever.
 *
 * State lives in module memory: each isolate learns on its own, which is what we want (no storage round trip
 * on the hot path; a failing node is found out within `failureThreshold` requests per isolate).
 */

/** Why a circuit is open: plain failures, or the node asked us to back off. */
export type OpenReason = "failures" | "rate-limited";

interface Circuit {
  consecutiveFailures: number;
  /** Epoch ms until which no request goes out; 0 when closed. */
  openUntil: number;
  openReason: OpenReason;
  /** A half-open probe is under way until this epoch ms (0: none): everyone else waits for its outcome, not longer. */
  probeUntil: number;
}

/** When a circuit opens, and for how long. */
export interface BreakerOptions {
  failureThreshold: number;
  openMs: number;
}

/** The circuits of every upstream URL one isolate talks to. */
export class CircuitBreaker {
  private readonly circuits = new Map<string, Circuit>();

  constructor(private readonly options: BreakerOptions) {}

  /**
   * Whether a request may go to `url` now. Admitting a request to a half-open circuit makes it the probe, presumed
   * lost after `probeMs` (its longest possible attempt, with a margin); so call this only for the URL you are about to use.
   */
  tryAcquire(url: string, now: number, probeMs: number): boolean {
    const circuit = this.circuits.get(url);
    if (!circuit || circuit.openUntil === 0) return true;
    if (now < circuit.openUntil || now < circuit.probeUntil) return false;
    circuit.probeUntil = now + probeMs;
    return true;
  }

  /** The request to `url` went well: close its circuit. */
  recordSuccess(url: string): void {
    this.circuits.delete(url);
  }

  /** The request to `url` failed through the node's fault (timeout, refused, 5xx, malformed answer, node behind). */
  recordFailure(url: string, now: number): void {
    const circuit = this.circuit(url);
    circuit.consecutiveFailures++;
    if (circuit.probeUntil !== 0 || circuit.consecutiveFailures >= this.options.failureThreshold) {
      this.open(circuit, now + this.options.openMs, "failures");
    }
  }

  /**
   * The request to `url` ended in a way that says nothing about the node (it refused this request, or its answer
   * was too big for us): counts stay as they are; a probe is over, so the next request may probe.
   */
  release(url: string): void {
    const circuit = this.circuits.get(url);
    if (circuit) circuit.probeUntil = 0;
  }

  /** The node at `url` answered 429 with Retry-After: stop calling it for `ms`. */
  coolDown(url: string, ms: number, now: number): void {
    const circuit = this.circuit(url);
    circuit.consecutiveFailures++;
    this.open(circuit, Math.max(circuit.openUntil, now + ms), "rate-limited");
  }

  /** Why `url` refuses requests now, and for how long (ms); undefined when it admits them. */
  openState(url: string, now: number): { reason: OpenReason; remainingMs: number } | undefined {
    const circuit = this.circuits.get(url);
    if (!circuit || circuit.openUntil === 0) return undefined;
    if (now >= circuit.openUntil && now >= circuit.probeUntil) return undefined;
    return { reason: circuit.openReason, remainingMs: Math.max(0, circuit.openUntil - now) };
  }

  private circuit(url: string): Circuit {
    let circuit = this.circuits.get(url);
    if (!circuit) {
      circuit = { consecutiveFailures: 0, openUntil: 0, openReason: "failures", probeUntil: 0 };
      this.circuits.set(url, circuit);
    }
    return circuit;
  }

  private open(circuit: Circuit, until: number, reason: OpenReason): void {
    circuit.openUntil = until;
    circuit.openReason = reason;
    circuit.probeUntil = 0;
  }
}
