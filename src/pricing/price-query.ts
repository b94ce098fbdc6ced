import type { Address } from "@solana/kit";
import type { ApiError } from "../errors/api-error";
import type { Timings } from "../http/server-timing";
import type { Deadline } from "../isolate/deadline";
import type { AccountRpc } from "../solana/account-reader";
import type { PriceCache } from "./price-cache";
import type { PriceRecord, VenueId } from "./price-record";

/** What pricing needs from the request that asks: the upstream, the registry, the cache and the request's bounds. */
export interface PriceDeps {
  rpc: AccountRpc;
  db: D1Database;
  cache: PriceCache;
  waitUntil: (p: Promise<unknown>) => void;
  requestId?: string;
  /** When the calling request must answer: waits on work shared with other requests end by then. */
  deadline?: Deadline;
  now?: () => number;
  /** Stage durations for the caller's `Server-Timing`. */
  timings?: Timings;
  /** SOL's own supply (the wSOL mint's is only what is wrapped); the price service provides it, remembered. */
  solSupply?: () => Promise<SolSupply>;
  /** Set while pricing a quote token for another token's pool: its own pools must then be SOL-, USD- or LST-quoted. */
  quoteHop?: boolean;
  /** Accounts read at `processed` (the /ws processed price stream); absent: confirmed, as every other reader. */
  commitment?: "processed";
}

/** SOL's supply in lamports, as the chain's getSupply counts it. */
export interface SolSupply {
  total: bigint;
  circulating: bigint;
}

/** Where to price: one venue, or one named pool (`poolId`); `receipt` adds the record's receipt (price-receipt.ts). */
export interface PriceQuery {
  venue?: VenueId;
  poolId?: Address;
  receipt?: boolean;
}

/**
 * The cache scope of a query: records with receipts are cached apart from plain ones, so a plain answer never pays for
 * a receipt and a receipt always describes the record it comes with; records read at processed apart from all others.
 */
export function priceScopeOf(query: PriceQuery, commitment?: "processed"): string {
  const venue = query.venue ?? "auto";
  const scope = query.receipt ? `${venue}+receipt` : venue;
  // Records read at processed never meet confirmed ones: not in a cache, not in a computation shared with a request.
  return commitment === undefined ? scope : `${scope}@${commitment}`;
}

export type PriceOutcome = { ok: true; record: PriceRecord } | { ok: false; error: ApiError };

