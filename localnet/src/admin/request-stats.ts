/**
 * Counts JSON-RPC HTTP requests (a batch is one request; its methods each count) in total and per `x-request-id`, so a
 * test can assert how many upstream calls one API request caused. Per-id entries are capped (oldest dropped first).
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

  record(requestId: string | undefined, methods: string[], accounts = 0, body?: string): void {
    add(this.total, methods, accounts);
    if (requestId === undefined) return;
    let counts = this.byRequestId.get(requestId);
    if (!counts) {
      if (this.byRequestId.size >= MAX_TRACKED_IDS) this.byRequestId.delete(this.byRequestId.keys().next().value!);
      this.byRequestId.set(requestId, (counts = emptyCounts()));
    }
    add(counts, methods, accounts);
    if (body !== undefined && body.length <= 1_000_000) counts.lastBody = body;
  }

  get(requestId?: string): RequestCounts {
    if (requestId === undefined) return this.total;
    return this.byRequestId.get(requestId) ?? emptyCounts();
  }

  reset(): void {
    this.total = emptyCounts();
    this.byRequestId.clear();
  }
}
