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
}

/** SOL's supply in lamports, as the chain's getSupply counts it. */
export interface SolSupply {
  total: bigint;
  circulating: bigint;
}

/** Where to price: one venue, or one named pool (`poolId`). */
export interface PriceQuery {
  venue?: VenueId;
  poolId?: Address;
}

export type PriceOutcome = { ok: true; record: PriceRecord } | { ok: false; error: ApiError };

