import type { Address } from "@solana/kit";
import { Buffer } from "node:buffer";
import { z } from "zod/mini";
import { limits } from "../limits";
import { UpstreamError, type Upstream } from "./upstream";

export interface RawAccount {
  owner: Address;
  lamports: bigint;
  data: Uint8Array;
}

/** Accounts read together, with the lowest slot the answers were read at. Missing accounts map to null. */
export interface AccountSnapshot {
  accounts: Map<Address, RawAccount | null>;
  slot: number;
  /** Upstream HTTP requests this read made (0 when it joined another caller's identical read). */
  requests: number;
}

/** What a read needs: `call`, and `callRaw` to batch several pages into one HTTP request (without it, pages go in parallel). */
export type RpcCaller = Pick<Upstream, "call">;
export type AccountRpc = RpcCaller & Partial<Pick<Upstream, "callRaw">>;

// The upstream is a trust boundary too: a malformed answer must become a defined error, not a crash later on.
const gmaResultSchema = z.object({
  context: z.object({ slot: z.number() }),
  value: z.array(z.nullable(z.object({ owner: z.string(), lamports: z.number(), data: z.tuple([z.string(), z.literal("base64")]) }))),
});
type GmaResult = z.infer<typeof gmaResultSchema>;

/** Native base64 (nodejs_compat): kit's codec validates with a regex and copies twice — the top cost of a cold read. */
const fromBase64 = (text: string): Uint8Array => {
  const buf = Buffer.from(text, "base64");
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
};
/** How a read is sent: traced with `requestId`; at `commitment` (default confirmed). */
export interface ReadOptions {
  requestId?: string;
  commitment?: "confirmed" | "processed";
}

/**
 * Reads accounts with `getMultipleAccounts` (base64, confirmed unless asked): ≤100 addresses per call, and the calls of one read
 * sent together as a JSON-RPC batch (≤ `maxCallsPerBatch` per HTTP request) — so a cold price is one upstream round trip.
 *
 * Reads are never shared between requests here: the price computations that make them are (pricing/price-service.ts),
 * and a shared task must not wait on another request's shared task — workerd would settle the first task's
 * `waitUntil` from the second request's context ("Cannot perform I/O on behalf of a different request").
 */
export async function readAccounts(rpc: AccountRpc, addresses: readonly Address[], options: ReadOptions = {}): Promise<AccountSnapshot> {
  return readAll(rpc, [...new Set(addresses)], options.requestId, options.commitment ?? "confirmed");
}

async function readAll(rpc: AccountRpc, addresses: Address[], requestId: string | undefined, commitment: "confirmed" | "processed"): Promise<AccountSnapshot> {
  const pages: Address[][] = [];
  for (let i = 0; i < addresses.length; i += limits.maxAccountsPerCall) pages.push(addresses.slice(i, i + limits.maxAccountsPerCall));
  const batches: Address[][][] = [];
  for (let i = 0; i < pages.length; i += limits.maxCallsPerBatch) batches.push(pages.slice(i, i + limits.maxCallsPerBatch));
  const results = (await Promise.all(batches.map((batch) => readBatch(rpc, batch, requestId, commitment)))).flat();

  const accounts = new Map<Address, RawAccount | null>();
  let slot = Number.MAX_SAFE_INTEGER;
  results.forEach((result, p) => {
    const page = pages[p]!;
    if (result.value.length !== page.length) throw new UpstreamError("bad-response", "getMultipleAccounts answered a different number of accounts");
    slot = Math.min(slot, result.context.slot);
    page.forEach((address, i) => {
      const v = result.value[i];
      accounts.set(address, v ? { owner: v.owner as Address, lamports: BigInt(v.lamports), data: fromBase64(v.data[0]) } : null);
    });
  });
  return { accounts, slot: pages.length ? slot : 0, requests: rpc.callRaw ? batches.length : pages.length };
}

async function readBatch(rpc: AccountRpc, pages: Address[][], requestId: string | undefined, commitment: "confirmed" | "processed"): Promise<GmaResult[]> {
  const options = { requestId, idempotent: true };
  const config = { encoding: "base64", commitment };
  if (pages.length === 1 || !rpc.callRaw) {
    return Promise.all(pages.map(async (page) => parseResult((await rpc.call<unknown>("getMultipleAccounts", [page, config], options)).result)));
  }
  const body = JSON.stringify(pages.map((page, id) => ({ jsonrpc: "2.0", id, method: "getMultipleAccounts", params: [page, config] })));
  const answer = await rpc.callRaw(body, { batchSize: pages.length }, options);
  const items = answer.json as { id: unknown; result?: unknown; error?: { code: number; message: string } }[];
  return pages.map((_, id) => {
    const item = items.find((i) => i.id === id);
    if (!item) throw new UpstreamError("bad-response", "batch answer lacks an item");
    if (item.error) throw new UpstreamError("rpc-error", item.error.message, { rpcError: item.error });
    return parseResult(item.result);
  });
}

function parseResult(result: unknown): GmaResult {
  const parsed = gmaResultSchema.safeParse(result);
  if (!parsed.success) throw new UpstreamError("bad-response", "getMultipleAccounts answer has an unexpected shape");
  return parsed.data;
}
