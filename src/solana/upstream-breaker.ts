/**
 * Circuit breaker per upstream URL, per isolate.
 *
 * closed → (failureThreshold consecutive failures) → open for `openMs` → half-open: exactly one probe request
 * goes through; its success closes the circuit, its failure opens it again for `openMs`.
 * A 429 with Retry-After opens the circuit for that long (capped) at once: the node told us when to come back.
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
  /** A half-open probe is under way: everyone else waits for its outcome. */
  probing: boolean;
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
   * Whether a request may go to `url` now. Admitting a request to a half-open circuit makes it the probe,
   * so call this only for the URL you are about to use.
   */
  tryAcquire(url: string, now: number): boolean {
    const circuit = this.circuits.get(url);
    if (!circuit || circuit.openUntil === 0) return true;
    if (now < circuit.openUntil || circuit.probing) return false;
    circuit.probing = true;
    return true;
  }

  /** The request to `url` went well: close its circuit. */
  recordSuccess(url: string): void {
    this.circuits.delete(url);
  }

  /** The request to `url` failed (timeout, refused, 5xx, malformed answer, node behind). */
  recordFailure(url: string, now: number): void {
    const circuit = this.circuit(url);
    circuit.consecutiveFailures++;
    if (circuit.probing || circuit.consecutiveFailures >= this.options.failureThreshold) {
      this.open(circuit, now + this.options.openMs, "failures");
    }
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
    if (now >= circuit.openUntil && !circuit.probing) return undefined;
    return { reason: circuit.openReason, remainingMs: Math.max(0, circuit.openUntil - now) };
  }

  private circuit(url: string): Circuit {
    let circuit = this.circuits.get(url);
    if (!circuit) {
      circuit = { consecutiveFailures: 0, openUntil: 0, openReason: "failures", probing: false };
      this.circuits.set(url, circuit);
    }
    return circuit;
  }

  private open(circuit: Circuit, until: number, reason: OpenReason): void {
    circuit.openUntil = until;
    circuit.openReason = reason;
    circuit.probing = false;
  }
}
