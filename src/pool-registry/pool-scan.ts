/**
 * Pools found on first ask: a mint with no registered pool is looked up once with `getProgramAccounts` on every pool
 * program whose pools cannot all be derived from the mint (AMM v4 is keyed by its market, DBC by an arbitrary config,
 * DAMM v1/v2, DLMM, CPMM and CLMM pools may use configs or presets we do not enumerate, PumpSwap pools other than the
 * canonical one, LaunchLab pools in quotes other than wSOL, Whirlpools of the fee tiers, adaptive-fee tiers and quotes
 * not derived). Each scan is one `memcmp` on the mint at a mint field, narrowed by the account size (or the
 * discriminator where sizes vary) and a `dataSlice` holding only the two mint fields, so the answer is ~150 B a pool.
 *
 * Bounds (limits.poolScan): at most `maxConcurrent` scans at once and `perMinute` scans a minute per isolate; beyond
 * them a mint answers from what derivation found, with the reason, never waits and never multiplies upstream calls.
 * A miss is remembered `missTtlMs` (new pools are registered by the chain tail as they are created, so a miss cannot
 * hide one for long). An upstream fault (timeout, 5xx, a JSON-RPC error) is neither a miss nor remembered.
 *
 * Coalescing: a second ask of a mint while its scan runs does not start another one and does not await the first
 * one's promise (that promise is part of another request's shared price computation, and a shared task must never
 * wait on another: isolate/shared-tasks.ts). It watches the scan's outcome slot with its own timers instead, bounded
 * by `limits.poolScan.waitMs` and its own deadline. The scan itself runs under the starter's `waitUntil`, so the
 * starter's abort does not cancel it.
 */
import type { Address } from "@solana/kit";
import { Buffer } from "node:buffer";
import { z } from "zod/mini";
import { within, type Deadline } from "../isolate/deadline";
import { BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import { base58Encode } from "../solana/base58";
import { UpstreamError } from "../solana/upstream";
import type { AccountRpc } from "../solana/account-reader";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import {
  METEORA_DAMM_V1_PROGRAM_ADDRESS,
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DBC_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CLMM_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
  RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
} from "../solana/well-known";
import { ORCA_WHIRLPOOL_MINT_A_OFFSET, ORCA_WHIRLPOOL_MINT_B_OFFSET, ORCA_WHIRLPOOL_SIZE } from "../venues/orca-whirlpool";
import { RAYDIUM_LAUNCHLAB_BASE_MINT_OFFSET, RAYDIUM_LAUNCHLAB_POOL_SIZE } from "../venues/raydium-launchlab";
import type { PoolKind } from "../venues/pool-kinds";
import { registerScannedPools } from "./registry-writes";

/**
 * Where each kind keeps its mints, from our decoders' layouts (src/venues/<kind>.ts; offsets include the 8-byte
 * discriminator). `pair` is the offset of two adjacent 32-byte mint fields (base/first, then quote/second), `sides`
 * the mint fields a scan matches on (`second` when the second mint is not right after the first). Sizes are exact where
 * the program writes one size; DAMM v1 and PumpSwap pools have grown over versions, so their discriminator (offset 0)
 * narrows the scan instead.
 * This table belongs in the venue descriptors (one per kind) once they land.
 */
export interface ScanLayout {
  kind: PoolKind;
  program: Address;
  narrow: { dataSize: number } | { discriminator: string };
  pair: number;
  sides: readonly number[];
  /** where the second mint starts after `pair` when the two mint fields are not adjacent (Whirlpool: a vault between) */
  second?: number;
}

const disc = (hex: string) => base58Encode(Uint8Array.from(Buffer.from(hex, "hex")));

export const scanLayouts: readonly ScanLayout[] = [
  // coin_mint @400, pc_mint @432 (raydium-amm-v4.ts, AmmInfo 752 B)
  { kind: "raydium-amm-v4", program: RAYDIUM_AMM_V4_PROGRAM_ADDRESS, narrow: { dataSize: 752 }, pair: 400, sides: [400, 432] },
  // config @72, base_mint @136; the quote mint is the config's (@8 of the 1048-B PoolConfig): `pair` here is the config
  { kind: "meteora-dbc", program: METEORA_DBC_PROGRAM_ADDRESS, narrow: { dataSize: 424 }, pair: 72, sides: [136] },
  // base_mint @43, quote_mint @75 (pumpswap-pool.ts, ≥203 B)
  { kind: "pumpswap", program: PUMP_AMM_PROGRAM_ADDRESS, narrow: { discriminator: disc("f19a6d0411b16dbc") }, pair: 43, sides: [43] },
  // token_a_mint @168, token_b_mint @200 (meteora-damm-v2.ts, 1112 B)
  { kind: "meteora-damm-v2", program: METEORA_DAMM_V2_PROGRAM_ADDRESS, narrow: { dataSize: 1112 }, pair: 168, sides: [168, 200] },
  // token_a_mint @40, token_b_mint @72 (meteora-damm-v1.ts, ≥917 B)
  { kind: "meteora-damm-v1", program: METEORA_DAMM_V1_PROGRAM_ADDRESS, narrow: { discriminator: disc("f19a6d0411b16dbc") }, pair: 40, sides: [40, 72] },
  // token_x_mint @88, token_y_mint @120 (meteora-dlmm.ts, 904 B)
  { kind: "meteora-dlmm", program: METEORA_DLMM_PROGRAM_ADDRESS, narrow: { dataSize: 904 }, pair: 88, sides: [88, 120] },
  // token_0_mint @168, token_1_mint @200 (raydium-cpmm.ts, 637 B)
  { kind: "raydium-cpmm", program: RAYDIUM_CPMM_PROGRAM_ADDRESS, narrow: { dataSize: 637 }, pair: 168, sides: [168, 200] },
  // token_mint_0 @73, token_mint_1 @105 (raydium-clmm.ts, 1544 B)
  { kind: "raydium-clmm", program: RAYDIUM_CLMM_PROGRAM_ADDRESS, narrow: { dataSize: 1544 }, pair: 73, sides: [73, 105] },
  // base_mint @205, quote_mint @237 (raydium-launchlab.ts, PoolState 429 B): a launched token is always the base
  { kind: "raydium-launchlab", program: RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, narrow: { dataSize: RAYDIUM_LAUNCHLAB_POOL_SIZE }, pair: RAYDIUM_LAUNCHLAB_BASE_MINT_OFFSET, sides: [RAYDIUM_LAUNCHLAB_BASE_MINT_OFFSET] },
  // token_mint_a @101, token_mint_b @181 with vault A between (orca-whirlpool.ts, Whirlpool 653 B): every fee tier,
  // adaptive-fee tiers and other configs included
  {
    kind: "orca-whirlpool",
    program: ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
    narrow: { dataSize: ORCA_WHIRLPOOL_SIZE },
    pair: ORCA_WHIRLPOOL_MINT_A_OFFSET,
    sides: [ORCA_WHIRLPOOL_MINT_A_OFFSET, ORCA_WHIRLPOOL_MINT_B_OFFSET],
    second: ORCA_WHIRLPOOL_MINT_B_OFFSET - ORCA_WHIRLPOOL_MINT_A_OFFSET,
  },
];

/** getProgramAccounts calls one scan of a mint makes (one per kind and mint field), sent as one batch. */
export const scanCallsPerMint = scanLayouts.reduce((n, l) => n + l.sides.length, 0);
if (scanCallsPerMint > limits.maxRpcBatch) throw new Error("a scan's calls must fit one JSON-RPC batch");

/** A pool a scan found: enough for the registry row; its related accounts are learned when it is first priced. */
export interface ScannedPool {
  address: Address;
  kind: PoolKind;
  baseMint: Address;
  quoteMint: Address;
}

export type ScanOutcome =
  | { status: "scanned"; pools: ScannedPool[]; slot: number }
  /** Not scanned now (budget spent, upstream fault, still running elsewhere): `reason` says why, for the 404. */
  | { status: "skipped"; reason: string };

/** Mints every pool is quoted in: a scan on them would list every pool of the program. */
const quoteMints: ReadonlySet<string> = new Set([WSOL_MINT, USDC_MINT, USDT_MINT]);

const gpaSchema = z.object({
  context: z.object({ slot: z.number() }),
  value: z.array(z.object({ pubkey: z.string(), account: z.object({ data: z.tuple([z.string(), z.literal("base64")]) }) })),
});
const gmaSchema = z.object({ value: z.array(z.nullable(z.object({ data: z.tuple([z.string(), z.literal("base64")]) }))) });

const fromBase64 = (text: string) => Uint8Array.from(Buffer.from(text, "base64"));

interface Running {
  startedAt: number;
  outcome?: ScanOutcome;
}

/** What a scan borrows from its caller: trace id, the caller's deadline (waits only), its waitUntil (the scan outlives it). */
export interface ScanOwner {
  requestId?: string;
  deadline?: Deadline;
  waitUntil: (p: Promise<unknown>) => void;
}

export interface ScannerOptions {
  maxConcurrent: number;
  perMinute: number;
  missTtlMs: number;
  hitTtlMs: number;
  waitMs: number;
  pollMs: number;
  memoBytes: number;
  answerCapBytes: number;
}

/** The bounded scanner of one isolate (exported as a class so tests can build one with their own clock and bounds). */
export class PoolScanner {
  private readonly memo: BoundedCache<Address, { until: number; pools: ScannedPool[]; slot: number }>;
  private readonly running = new Map<Address, Running>();
  private starts: number[] = [];

  constructor(
    private readonly options: ScannerOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.memo = new BoundedCache("pool-scan-memo", options.memoBytes, (m) => 24 + 140 * m.pools.length);
  }

  /** The pools of `mint` the programs hold, scanned at most once per `missTtlMs` (see the module comment). */
  async scan(rpc: AccountRpc, mint: Address, owner: ScanOwner): Promise<ScanOutcome> {
    const now = this.clock();
    if (quoteMints.has(mint)) return { status: "scanned", pools: [], slot: 0 };
    const memo = this.memo.get(mint);
    if (memo && memo.until > now) return { status: "scanned", pools: memo.pools, slot: memo.slot };
    const current = this.running.get(mint);
    if (current && now - current.startedAt < this.options.waitMs) return this.watch(current, owner.deadline);
    this.starts = this.starts.filter((t) => now - t < 60_000);
    if (this.running.size >= this.options.maxConcurrent || this.starts.length >= this.options.perMinute) {
      return { status: "skipped", reason: `pool scan budget spent (${this.options.perMinute} a minute, ${this.options.maxConcurrent} at once): derived pools only` };
    }
    this.starts.push(now);
    const entry: Running = { startedAt: now };
    this.running.set(mint, entry);
    const work = this.run(rpc, mint, owner.requestId).then((outcome) => {
      entry.outcome = outcome;
      return outcome;
    });
    // Owned by no request: the runtime keeps it alive after the starter answers or is cancelled.
    owner.waitUntil(work.finally(() => this.running.get(mint) === entry && this.running.delete(mint)));
    return within(work, owner.deadline);
  }

  /** In flight now (tests, metrics). */
  get inFlight(): number {
    return this.running.size;
  }

  private async run(rpc: AccountRpc, mint: Address, requestId?: string): Promise<ScanOutcome> {
    try {
      const { pools, slot } = await scanPrograms(rpc, mint, this.options.answerCapBytes, requestId);
      const until = this.clock() + (pools.length > 0 ? this.options.hitTtlMs : this.options.missTtlMs);
      this.memo.set(mint, { until, pools, slot });
      return { status: "scanned", pools, slot };
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      // A mint with more pools than the answer cap is a quote-like mint: asking again would say the same. Remembered
      // as a miss, its derived pools stand.
      if (err.kind === "answer-too-large") {
        this.memo.set(mint, { until: this.clock() + this.options.missTtlMs, pools: [], slot: 0 });
        return { status: "skipped", reason: "too many pools to scan: derived pools only" };
      }
      return { status: "skipped", reason: `pool scan failed upstream (${err.kind}): derived pools only` };
    }
  }

  /** Waits for another caller's scan by watching its slot with this caller's own timers (see the module comment). */
  private async watch(entry: Running, deadline: Deadline | undefined): Promise<ScanOutcome> {
    // real time for the timers; the scanner's clock (which tests may set) only says how long the scan has run
    const until = Math.min(Date.now() + this.options.waitMs - (this.clock() - entry.startedAt), deadline?.at ?? Number.POSITIVE_INFINITY);
    while (!entry.outcome && Date.now() < until) await new Promise((r) => setTimeout(r, this.options.pollMs));
    return entry.outcome ?? { status: "skipped", reason: "pool scan still running: derived pools only" };
  }
}

/** One scan: every layout's mint fields in JSON-RPC batches, then DBC configs for their quote mints. */
async function scanPrograms(rpc: AccountRpc, mint: Address, capBytes: number, requestId?: string): Promise<{ pools: ScannedPool[]; slot: number }> {
  const calls = scanLayouts.flatMap((layout) =>
    layout.sides.map((offset) => {
      const filters: unknown[] = [{ memcmp: { offset, bytes: mint } }];
      filters.push("dataSize" in layout.narrow ? { dataSize: layout.narrow.dataSize } : { memcmp: { offset: 0, bytes: layout.narrow.discriminator } });
      const params = [layout.program, { encoding: "base64", commitment: "confirmed", withContext: true, dataSlice: { offset: layout.pair, length: (layout.second ?? 32) + 32 }, filters }];
      return { layout, params };
    }),
  );
  const results = await callAll(rpc, "getProgramAccounts", calls.map((c) => c.params), capBytes, requestId);
  const found = new Map<Address, ScannedPool & { config?: Address }>();
  let slot = 0;
  results.forEach((raw, i) => {
    const parsed = gpaSchema.safeParse(raw);
    if (!parsed.success) throw new UpstreamError("bad-response", "getProgramAccounts answer has an unexpected shape");
    slot = Math.max(slot, parsed.data.context.slot);
    const { layout } = calls[i]!;
    for (const { pubkey, account } of parsed.data.value) {
      const bytes = fromBase64(account.data[0]);
      const secondAt = layout.second ?? 32;
      if (bytes.length < secondAt + 32) continue;
      const first = base58Encode(bytes.subarray(0, 32)) as Address;
      const second = base58Encode(bytes.subarray(secondAt, secondAt + 32)) as Address;
      // DBC: the slice is config ‖ 32 bytes before base_mint; the base mint is the one matched, the quote the config's
      const pool = layout.kind === "meteora-dbc" ? { address: pubkey as Address, kind: layout.kind, baseMint: mint, quoteMint: mint, config: first } : { address: pubkey as Address, kind: layout.kind, baseMint: first, quoteMint: second };
      found.set(pool.address, pool);
    }
  });
  const configs = [...new Set([...found.values()].flatMap((p) => (p.config ? [p.config] : [])))];
  if (configs.length > 0) {
    const [raw] = await callAll(rpc, "getMultipleAccounts", [[configs.slice(0, limits.maxAccountsPerCall), { encoding: "base64", commitment: "confirmed", dataSlice: { offset: 8, length: 32 } }]], capBytes, requestId);
    const parsed = gmaSchema.safeParse(raw);
    if (!parsed.success) throw new UpstreamError("bad-response", "getMultipleAccounts answer has an unexpected shape");
    const quoteOf = new Map(configs.map((c, i) => [c, parsed.data.value[i]]));
    for (const pool of found.values()) {
      if (!pool.config) continue;
      const data = quoteOf.get(pool.config)?.data[0];
      const bytes = data ? fromBase64(data) : undefined;
      if (bytes && bytes.length === 32) pool.quoteMint = base58Encode(bytes) as Address;
      else found.delete(pool.address); // a pool whose config is gone cannot be priced
    }
  }
  return { pools: [...found.values()].map(({ address, kind, baseMint, quoteMint }) => ({ address, kind, baseMint, quoteMint })), slot };
}

/**
 * Calls `method` once per params, as one JSON-RPC batch (one HTTP request; 17 calls, within the batch sizes providers
 * take: limits.maxRpcBatch) when the client can send raw bodies. One attempt, no retry: a scan is dear, a failed one is
 * simply not remembered and the next ask looks again — and a retried scan would stack failures on the upstream's
 * circuit ahead of the price read that follows it.
 */
async function callAll(rpc: AccountRpc, method: string, paramsList: unknown[][], capBytes: number, requestId?: string): Promise<unknown[]> {
  const options = { idempotent: false, requestId, maxAnswerBytes: capBytes };
  if (!rpc.callRaw || paramsList.length === 1) return Promise.all(paramsList.map(async (params) => (await rpc.call<unknown>(method, params, options)).result));
  const body = JSON.stringify(paramsList.map((params, id) => ({ jsonrpc: "2.0", id, method, params })));
  const answer = await rpc.callRaw(body, { batchSize: paramsList.length }, options);
  const items = answer.json as { id: unknown; result?: unknown; error?: { code: number; message: string } }[];
  return paramsList.map((_, id) => {
    const item = items.find((it) => it.id === id);
    if (!item) throw new UpstreamError("bad-response", "batch answer lacks an item");
    if (item.error) throw new UpstreamError("rpc-error", item.error.message, { rpcError: item.error });
    return item.result;
  });
}

const scanner = new PoolScanner({ ...limits.poolScan, memoBytes: limits.isolateCacheBudgets.poolScanMemo });

/**
 * Scans each of `mints` (bounded per isolate, see PoolScanner) and registers what it finds in D1 (`source` gpa), under
 * the owner's `waitUntil`. Returns each mint's outcome.
 */
export async function scanForPools(rpc: AccountRpc, db: D1Database, mints: readonly Address[], owner: ScanOwner): Promise<Map<Address, ScanOutcome>> {
  const outcomes = await Promise.all(mints.map((mint) => scanner.scan(rpc, mint, owner).catch((err: unknown): ScanOutcome => ({ status: "skipped", reason: `pool scan did not finish (${err instanceof Error ? err.message : "unknown"}): derived pools only` }))));
  const found = outcomes.flatMap((o) => (o.status === "scanned" ? o.pools.map((p) => ({ ...p, slot: o.slot })) : []));
  if (found.length > 0) owner.waitUntil(registerScannedPools(db, found).catch(() => undefined));
  return new Map(mints.map((m, i) => [m, outcomes[i]!]));
}
