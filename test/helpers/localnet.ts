import { env } from "cloudflare:workers";
import type { WorldManifest, WorldPool, WorldToken } from "../../localnet/src/world/manifest";
import type { TradeRecord } from "../../localnet/src/world/swap-truth";
import { newApiKey } from "./keys";

/** Plain JSON-RPC to localnet (not through the worker): the tests' independent view of the chain. */
export async function chainRpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(env.LOCALNET_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** POSTs a raw JSON-RPC body straight to localnet; the answer's exact text. */
export async function chainRpcText(body: string): Promise<string> {
  const res = await fetch(env.LOCALNET_URL, { method: "POST", headers: { "content-type": "application/json" }, body });
  return res.text();
}

/** localnet's ground truth of the swaps it made in slots `from`..`to` (`GET /__localnet/trades`), failed ones included. */
export async function tradeTruth(from: number, to: number): Promise<TradeRecord[]> {
  const res = await fetch(`${env.LOCALNET_URL}/__localnet/trades?from=${from}&to=${to}`);
  if (res.status !== 200) throw new Error(`GET /__localnet/trades: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { trades: TradeRecord[] }).trades;
}

export async function world(): Promise<WorldManifest> {
  return (await fetch(`${env.LOCALNET_URL}/__localnet/world`)).json();
}

/**
 * The manifest once the worker can read all of it: the manifest is the world as of its newest (processed) block, the
 * worker reads at confirmed, one block behind, so a token an earlier file of the lane launched in that block would be
 * listed but not yet readable. Advances until confirmed reaches that block.
 */
export async function readableWorld(): Promise<WorldManifest> {
  const newest = await chainRpc<number>("getSlot", [{ commitment: "processed" }]);
  const manifest = await world();
  while ((await chainRpc<number>("getSlot", [{ commitment: "confirmed" }])) < newest) await advance(1);
  return manifest;
}

/** A new API key, then the readable world: where a file that asks about the world's tokens starts (its beforeAll). */
export async function keyAndReadableWorld(): Promise<{ key: string; manifest: WorldManifest }> {
  const key = await newApiKey();
  return { key, manifest: await readableWorld() };
}

export async function advance(slots: number): Promise<number> {
  const res = await fetch(`${env.LOCALNET_URL}/__localnet/advance?slots=${slots}`, { method: "POST" });
  return ((await res.json()) as { slot: number }).slot;
}

export interface UpstreamCounts {
  requests: number;
  methods: Record<string, number>;
  /** addresses asked for by getMultipleAccounts / getAccountInfo */
  accounts: number;
}

/** What localnet saw from requests carrying `x-request-id: requestId`. */
export async function upstreamCounts(requestId: string): Promise<UpstreamCounts> {
  const res = await fetch(`${env.LOCALNET_URL}/__localnet/stats?requestId=${encodeURIComponent(requestId)}`);
  return res.json();
}

export async function upstreamRequests(requestId: string): Promise<number> {
  return (await upstreamCounts(requestId)).requests;
}

/** Raw account bytes at commitment `confirmed`, with the context slot. */
export async function rawAccounts(addresses: string[]): Promise<{ slot: number; data: (Uint8Array | null)[]; owners: (string | null)[]; lamports: (number | null)[] }> {
  const result = await chainRpc<{ context: { slot: number }; value: ({ data: [string, string]; owner: string; lamports: number } | null)[] }>("getMultipleAccounts", [
    addresses,
    { encoding: "base64", commitment: "confirmed" },
  ]);
  return {
    slot: result.context.slot,
    data: result.value.map((v) => (v ? Uint8Array.from(atob(v.data[0]), (c) => c.charCodeAt(0)) : null)),
    owners: result.value.map((v) => v?.owner ?? null),
    lamports: result.value.map((v) => v?.lamports ?? null),
  };
}

export function tokensWhere(manifest: WorldManifest, pred: (t: WorldToken) => boolean): WorldToken[] {
  return manifest.tokens.filter(pred);
}

export function poolsOfKind(manifest: WorldManifest, kind: string): { token: WorldToken; pool: WorldPool }[] {
  return manifest.tokens.flatMap((token) => token.pools.filter((p) => p.kind === kind).map((pool) => ({ token, pool })));
}

const INCINERATOR = "1nc1nerator11111111111111111111111111111111";

/**
 * Raw amount of `mint` the incinerator holds, found by scanning both token programs' accounts for its owner (no ATA
 * derivation): the tests' independent view of supply burnt by transfer, which circulating supply leaves out.
 */
export async function incineratorBalance(mint: string): Promise<bigint> {
  let total = 0n;
  for (const program of ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"]) {
    const found = await chainRpc<{ account: { data: [string, string] } }[]>("getProgramAccounts", [
      program,
      { encoding: "base64", commitment: "confirmed", filters: [{ memcmp: { offset: 0, bytes: mint } }, { memcmp: { offset: 32, bytes: INCINERATOR } }] },
    ]);
    for (const { account } of found) {
      const data = Uint8Array.from(atob(account.data[0]), (c) => c.charCodeAt(0));
      total += new DataView(data.buffer).getBigUint64(64, true);
    }
  }
  return total;
}
