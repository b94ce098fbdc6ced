/** Every pool kind's adapter, in the order the price service tries them on a pool of unknown kind. */
import { meteoraDammV1PoolAdapter } from "./meteora-damm-v1";
import { meteoraDammV2PoolAdapter } from "./meteora-damm-v2";
import { meteoraDbcPoolAdapter } from "./meteora-dbc";
import { meteoraDlmmPairAdapter } from "./meteora-dlmm";
import type { PoolAdapter } from "./pool-adapter";
import type { PoolKind } from "./pool-kinds";
import { pumpBondingCurveAdapter } from "./pump-bonding-curve";
import { pumpSwapPoolAdapter } from "./pumpswap-pool";
import { raydiumAmmV4PoolAdapter } from "./raydium-amm-v4";
import { raydiumClmmPoolAdapter } from "./raydium-clmm";
import { raydiumCpmmPoolAdapter } from "./raydium-cpmm";

export const poolAdapters: readonly PoolAdapter[] = [
  pumpBondingCurveAdapter,
  pumpSwapPoolAdapter,
  raydiumAmmV4PoolAdapter,
  raydiumCpmmPoolAdapter,
  raydiumClmmPoolAdapter,
  meteoraDlmmPairAdapter,
  meteoraDammV2PoolAdapter,
  meteoraDbcPoolAdapter,
  meteoraDammV1PoolAdapter,
];

export const adapterByKind: ReadonlyMap<PoolKind, PoolAdapter> = new Map(poolAdapters.map((a) => [a.kind, a]));
