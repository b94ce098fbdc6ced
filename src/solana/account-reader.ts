import { getBase64Encoder, type Address } from "@solana/kit";
import { limits } from "../limits";

/** The slice of the upstream client this module needs (src/solana/upstream.ts satisfies it). */
export interface RpcCaller {
  call<T>(method: string, params: unknown[], opts?: { requestId?: string; idempotent?: boolean }): Promise<{ result: T }>;
}

export interface RawAccount {
  owner: Address;
  lamports: bigint;
  data: Uint8Array;
}

/** Accounts read together, with the slot each answer was read at. Missing accounts map to null. */
export interface AccountSnapshot {
  accounts: Map<Address, RawAccount | null>;
  slot: number;
  /** Upstream HTTP requests this read made (0 when fully coalesced into another caller's read). */
  requests: number;
}

interface GmaResult {
  context: { slot: number };
  value: ({ owner: string; lamports: number; data: [string, string] } | null)[];
}

const base64 = getBase64Encoder();
const inflight = new Map<string, Promise<AccountSnapshot>>();

/**
 * Reads accounts with `getMultipleAccounts` (base64, confirmed), ≤100 per call, pages in parallel.
 * Identical reads in flight in this isolate share one upstream request.
 */
export function readAccounts(rpc: RpcCaller, addresses: readonly Address[], requestId?: string): Promise<AccountSnapshot> {
  const unique = [...new Set(addresses)];
  const key = unique.join(",");
  const pending = inflight.get(key);
  if (pending) return pending.then((s) => ({ ...s, requests: 0 }));
  const read = readPages(rpc, unique, requestId).finally(() => inflight.delete(key));
  inflight.set(key, read);
  return read;
}

async function readPages(rpc: RpcCaller, addresses: Address[], requestId?: string): Promise<AccountSnapshot> {
  const pages: Address[][] = [];
  for (let i = 0; i < addresses.length; i += limits.maxAccountsPerCall) pages.push(addresses.slice(i, i + limits.maxAccountsPerCall));
  const answers = await Promise.all(
    pages.map((page) => rpc.call<GmaResult>("getMultipleAccounts", [page, { encoding: "base64", commitment: "confirmed" }], { requestId, idempotent: true })),
  );
  const accounts = new Map<Address, RawAccount | null>();
  let slot = Number.MAX_SAFE_INTEGER;
  answers.forEach(({ result }, p) => {
    slot = Math.min(slot, result.context.slot);
    const page = pages[p]!;
    page.forEach((address, i) => {
      const v = result.value[i];
      accounts.set(address, v ? { owner: v.owner as Address, lamports: BigInt(v.lamports), data: base64.encode(v.data[0]) as Uint8Array } : null);
    });
  });
  return { accounts, slot: pages.length ? slot : 0, requests: pages.length };
}
