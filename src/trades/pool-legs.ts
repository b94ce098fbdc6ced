/**
 * The nine swap venues by program id: how each one's swap instructions name a pool and its reserves, which of its
 * instructions create or migrate pools, what the pool registry keeps of a pool seen swapped, and (bonding curves) which
 * event of a swap says its curve completed. The
 * account positions and event layouts live beside each venue (venues/*.ts); this only wires them.
 */
import {
  METEORA_DAMM_V1_PROGRAM_ADDRESS,
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DBC_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  PUMP_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CLMM_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
} from "../solana/well-known";
import { meteoraDammV1PoolLifecycle, meteoraDammV1SwapReserves } from "../venues/meteora-damm-v1";
import { meteoraDammV2PoolLifecycle, meteoraDammV2SwappedPool, meteoraDammV2SwapReserves } from "../venues/meteora-damm-v2";
import { meteoraDbcPoolGraduation, meteoraDbcPoolLifecycle, meteoraDbcSwappedPool, meteoraDbcSwapReserves } from "../venues/meteora-dbc";
import { meteoraDlmmPoolLifecycle, meteoraDlmmSwappedPool, meteoraDlmmSwapReserves } from "../venues/meteora-dlmm";
import { pumpBondingCurvePoolGraduation, pumpBondingCurvePoolLifecycle, pumpBondingCurveSwapReserves } from "../venues/pump-bonding-curve";
import { pumpSwapPoolLifecycle, pumpSwapSwappedPool, pumpSwapSwapReserves } from "../venues/pumpswap-pool";
import { raydiumAmmV4PoolLifecycle, raydiumAmmV4SwappedPool, raydiumAmmV4SwapReserves } from "../venues/raydium-amm-v4";
import { raydiumClmmPoolLifecycle, raydiumClmmSwappedPool, raydiumClmmSwapReserves } from "../venues/raydium-clmm";
import { raydiumCpmmPoolLifecycle, raydiumCpmmSwappedPool, raydiumCpmmSwapReserves } from "../venues/raydium-cpmm";
import type { PoolGraduationReader, PoolLifecycleReader, SwappedPoolRoles, SwapReservesReader } from "../venues/types";

export interface VenueInstructionReaders {
  readonly swapReserves: SwapReservesReader;
  readonly lifecycle: PoolLifecycleReader;
  /** for the kinds the pool registry learns from their swaps */
  readonly swappedPool?: SwappedPoolRoles;
  /** read on the venue's own instructions inside each of its swaps (self-CPI events) */
  readonly graduation?: PoolGraduationReader;
}

/** Program id → its readers. A transaction that names none of these programs has no swap and no pool event. */
export const venueInstructionReaders: ReadonlyMap<string, VenueInstructionReaders> = new Map<string, VenueInstructionReaders>([
  [PUMP_PROGRAM_ADDRESS, { swapReserves: pumpBondingCurveSwapReserves, lifecycle: pumpBondingCurvePoolLifecycle, graduation: pumpBondingCurvePoolGraduation }],
  [PUMP_AMM_PROGRAM_ADDRESS, { swapReserves: pumpSwapSwapReserves, lifecycle: pumpSwapPoolLifecycle, swappedPool: pumpSwapSwappedPool }],
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS, { swapReserves: raydiumAmmV4SwapReserves, lifecycle: raydiumAmmV4PoolLifecycle, swappedPool: raydiumAmmV4SwappedPool }],
  [RAYDIUM_CPMM_PROGRAM_ADDRESS, { swapReserves: raydiumCpmmSwapReserves, lifecycle: raydiumCpmmPoolLifecycle, swappedPool: raydiumCpmmSwappedPool }],
  [RAYDIUM_CLMM_PROGRAM_ADDRESS, { swapReserves: raydiumClmmSwapReserves, lifecycle: raydiumClmmPoolLifecycle, swappedPool: raydiumClmmSwappedPool }],
  [METEORA_DLMM_PROGRAM_ADDRESS, { swapReserves: meteoraDlmmSwapReserves, lifecycle: meteoraDlmmPoolLifecycle, swappedPool: meteoraDlmmSwappedPool }],
  [METEORA_DAMM_V1_PROGRAM_ADDRESS, { swapReserves: meteoraDammV1SwapReserves, lifecycle: meteoraDammV1PoolLifecycle }],
  [METEORA_DAMM_V2_PROGRAM_ADDRESS, { swapReserves: meteoraDammV2SwapReserves, lifecycle: meteoraDammV2PoolLifecycle, swappedPool: meteoraDammV2SwappedPool }],
  [
    METEORA_DBC_PROGRAM_ADDRESS,
    { swapReserves: meteoraDbcSwapReserves, lifecycle: meteoraDbcPoolLifecycle, swappedPool: meteoraDbcSwappedPool, graduation: meteoraDbcPoolGraduation },
  ],
]);
