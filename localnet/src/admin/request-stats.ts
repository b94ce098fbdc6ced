/**
 * Counts JSON-RPC HTTP requests (a batch is one request; its methods each count) in total and per `x-request-id`, so a
 * test can assert how many upstream calls one API request caused. Per-id entries are capped (oldest dropped first), and
 * only the newest ids keep their last body: bodies are up to 50 KiB each, and under `npm start` every worker request
 * carries a new id, so keeping one per tracked id grew the process by hundreds of MB.
 */
export interface RequestCounts {
  requests: number;
  methods: Record<string, number>;
  /** addresses asked for by getMultipleAccounts / getAccountInfo */
  accounts: number;
  /** the last request body seen (per request id only), so a benchmark can replay exactly what a service sent */
  lastBody?: string;
}

const MAX_TRACKED_IDS = 10_000;
/** Ids whose last body is kept (≤ 50 KiB each: at most ~12.5 MB). */
export const MAX_KEPT_BODIES = 256;

function emptyCounts(): RequestCounts {
  return { requests: 0, methods: {}, accounts: 0 };
}

function add(counts: RequestCounts, methods: string[], accounts: number): void {
  counts.requests++;
  counts.accounts += accounts;
  for (const method of methods) counts.methods[method] = (counts.methods[method] ?? 0) + 1;
}

export class RequestStats {
  private total = emptyCounts();
  private readonly byRequestId = new Map<string, RequestCounts>();
  /** Ids holding a `lastBody`, oldest first. */
  private readonly withBody = new Set<string>();

  record(requestId: string | undefined, methods: string[], accounts = 0, body?: string): void {
    add(this.total, methods, accounts);
    if (requestId === undefined) return;
    let counts = this.byRequestId.get(requestId);
    if (!counts) {
      if (this.byRequestId.size >= MAX_TRACKED_IDS) {
        const oldest = this.byRequestId.keys().next().value!;
        this.byRequestId.delete(oldest);
        this.withBody.delete(oldest);
      }
      this.byRequestId.set(requestId, (counts = emptyCounts()));
    }
    add(counts, methods, accounts);
    if (body === undefined || body.length > 1_000_000) return;
    counts.lastBody = body;
    this.withBody.delete(requestId);
    this.withBody.add(requestId);
    if (this.withBody.size > MAX_KEPT_BODIES) {
      const oldest = this.withBody.values().next().value!;
      this.withBody.delete(oldest);
      delete this.byRequestId.get(oldest)!.lastBody;
    }
  }

  /** Ids tracked, and how many of them hold a body (the admin memory route reports them). */
  sizes(): { requestIds: number; bodies: number } {
    return { requestIds: this.byRequestId.size, bodies: this.withBody.size };
  }

  get(requestId?: string): RequestCounts {
    if (requestId === undefined) return this.total;
    return this.byRequestId.get(requestId) ?? emptyCounts();
  }

  reset(): void {
    this.total = emptyCounts();
    this.byRequestId.clear();
    this.withBody.clear();
  }
}
