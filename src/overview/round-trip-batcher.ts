/**
 * One upstream HTTP request per round trip of an overview. The overview reads in dependent steps (mint and largest
 * accounts → token accounts → their owners) while the price service reads alongside; sent naively that is five or
 * more requests. Here the overview's own calls (`driver`) issued in the same turn go out as one JSON-RPC batch, and
 * the price service's calls (`passenger`) wait for the driver's next round trip and ride in its batch. Once the
 * driver has no round trip left (`finish`), passengers go out on their own — they never wait for anything else.
 *
 * Two timing rules make the sharing reliable: a flush waits one macrotask, so every call issued in reaction to the same
 * answer (the driver's next step and the price service's next read) is in it; and the first round trip can wait for
 * the passengers' first call (`waitForPassengers`), which otherwise arrives only after their own cache and D1 lookups.
 *
 * Both faces implement the upstream client's `call` / `callRaw`, so services take them unchanged. Lives with the
 * overview because it encodes the overview's round-trip plan.
 */
import { rawAnswerFromText, UpstreamError, type ExpectedAnswer, type JsonRpcId, type JsonRpcResponse, type RawAnswer, type Upstream } from "../solana/upstream";

type RpcClient = Pick<Upstream, "call" | "callRaw">;
type CallAnswer = Pick<JsonRpcResponse, "result" | "error">;

type QueuedCall = {
  method: string;
  params: unknown;
  settle: (answer: CallAnswer, url: string) => void;
  fail: (error: unknown) => void;
};

type RawCall = { id?: JsonRpcId; method?: unknown; params?: unknown };

/** Batches the calls of one overview request; create one per request. */
export class RoundTripBatcher {
  /** Calls to send at the next flush. */
  private readonly outbox: QueuedCall[] = [];
  /** Passenger calls waiting for the driver's next round trip. */
  private readonly waiting: QueuedCall[] = [];
  private flushScheduled = false;
  private finished = false;
  /** Holds the next flush until a passenger call arrives or the passengers are done (see `waitForPassengers`). */
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  /** The overview's own reads: calls made in the same turn share one request, sent at the end of the turn. */
  readonly driver: RpcClient = this.face(true);
  /** Reads of services running alongside: they join the driver's next round trip (or go alone after `finish`). */
  readonly passenger: RpcClient = this.face(false);

  /** `requestId` is forwarded on every request so the whole overview can be traced (and counted) upstream. */
  constructor(
    private readonly upstream: RpcClient,
    private readonly requestId?: string,
  ) {}

  /**
   * The next round trip waits until a passenger queues a call or `passengersDone` settles (they needed no call).
   * Worth a few milliseconds at the start: a passenger read that misses round trip 1 costs a request of its own later.
   */
  waitForPassengers(passengersDone: Promise<unknown>): void {
    this.gate = new Promise<void>((open) => {
      this.openGate = open;
      passengersDone.then(
        () => open(),
        () => open(),
      );
    });
  }

  /** The driver will make no more round trips: release waiting passengers now and send later ones directly. */
  finish(): void {
    this.finished = true;
    this.openGate?.();
    if (this.waiting.length > 0) this.scheduleFlush();
  }

  private face(leads: boolean): RpcClient {
    const enqueue = (method: string, params: unknown) =>
      new Promise<{ answer: CallAnswer; url: string }>((resolve, reject) => {
        this.enqueue({ method, params, settle: (answer, url) => resolve({ answer, url }), fail: reject }, leads);
      });
    return {
      async call<T>(method: string, params?: readonly unknown[]) {
        const { answer } = await enqueue(method, params);
        if (answer.error) throw new UpstreamError("rpc-error", answer.error.message, { rpcError: answer.error });
        return { result: answer.result as T };
      },
      // A caller's own batch is split into calls and reassembled, so it can share the round trip like any call.
      async callRaw(body: string, expected: ExpectedAnswer): Promise<RawAnswer> {
        const parsed = JSON.parse(body) as RawCall | RawCall[];
        const items = Array.isArray(parsed) ? parsed : [parsed];
        const answers = await Promise.all(items.map((item) => enqueue(String(item.method), item.params)));
        const responses: JsonRpcResponse[] = answers.map(({ answer }, i) => ({ jsonrpc: "2.0", id: items[i]?.id ?? null, ...answer }));
        const json = Array.isArray(parsed) ? responses : responses[0]!;
        return rawAnswerFromText(JSON.stringify(json), expected, answers[0]?.url ?? "");
      },
    };
  }

  private enqueue(call: QueuedCall, leads: boolean): void {
    if (leads || this.finished) {
      this.outbox.push(call);
      this.scheduleFlush();
    } else {
      this.waiting.push(call);
      this.openGate?.();
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const gate = this.gate ?? Promise.resolve();
    this.gate = undefined; // only the first round trip waits; the opener stays callable until it has opened
    // setTimeout 0 (not a microtask): every continuation of the answer that triggered this flush runs first.
    void gate.then(() =>
      setTimeout(() => {
        this.flushScheduled = false;
        void this.flush();
      }, 0),
    );
  }

  private async flush(): Promise<void> {
    const calls = [...this.outbox.splice(0), ...this.waiting.splice(0)];
    if (calls.length === 0) return;
    const request = calls.map((c, id) => ({ jsonrpc: "2.0", id, method: c.method, ...(c.params === undefined ? {} : { params: c.params }) }));
    try {
      // Every call batched here is a read, so the upstream client may retry the request as a whole.
      const single = request.length === 1;
      const { json, url } = await this.upstream.callRaw(
        JSON.stringify(single ? request[0] : request),
        single ? { id: 0 } : { batchSize: request.length },
        { idempotent: true, requestId: this.requestId },
      );
      // callRaw has checked that the answer holds exactly the ids sent, each once.
      const byId = new Map((Array.isArray(json) ? json : [json]).map((answer) => [answer.id, answer]));
      calls.forEach((call, id) => {
        const { result, error } = byId.get(id)!;
        call.settle(error ? { error } : { result }, url);
      });
    } catch (error) {
      for (const call of calls) call.fail(error);
    }
  }
}
