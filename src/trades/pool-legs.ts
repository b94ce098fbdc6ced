/**
 * The nine swap venues by program id: how each one's swap instructions name a pool and its reserves, and which of its
 * instructions create or migrate pools. The account positions live beside each venue (venues/*.ts); this only wires them.
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
import { meteoraDammV2PoolLifecycle, meteoraDammV2SwapReserves } from "../venues/meteora-damm-v2";
import { meteoraDbcPoolLifecycle, meteoraDbcSwapReserves } from "../venues/meteora-dbc";
import { meteoraDlmmPoolLifecycle, meteoraDlmmSwapReserves } from "../venues/meteora-dlmm";
import { pumpBondingCurvePoolLifecycle, pumpBondingCurveSwapReserves } from "../venues/pump-bonding-curve";
import { pumpSwapPoolLifecycle, pumpSwapSwapReserves } from "../venues/pumpswap-pool";
import { raydiumAmmV4PoolLifecycle, raydiumAmmV4SwapReserves } from "../venues/raydium-amm-v4";
import { raydiumClmmPoolLifecycle, raydiumClmmSwapReserves } from "../venues/raydium-clmm";
import { raydiumCpmmPoolLifecycle, raydiumCpmmSwapReserves } from "../venues/raydium-cpmm";
import type { PoolLifecycleReader, SwapReservesReader } from "../venues/types";

export interface VenueInstructionReaders {
  readonly swapReserves: SwapReservesReader;
  readonly lifecycle: PoolLifecycleReader;
}

/** Program id → its readers. A transaction that names none of these programs has no swap and no pool event. */
export const venueInstructionReaders: ReadonlyMap<string, VenueInstructionReaders> = new Map<string, VenueInstructionReaders>([
  [PUMP_PROGRAM_ADDRESS, { swapReserves: pumpBondingCurveSwapReserves, lifecycle: pumpBondingCurvePoolLifecycle }],
  [PUMP_AMM_PROGRAM_ADDRESS, { swapReserves: pumpSwapSwapReserves, lifecycle: pumpSwapPoolLifecycle }],
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS, { swapReserves: raydiumAmmV4SwapReserves, lifecycle: raydiumAmmV4PoolLifecycle }],
  [RAYDIUM_CPMM_PROGRAM_ADDRESS, { swapReserves: raydiumCpmmSwapReserves, lifecycle: raydiumCpmmPoolLifecycle }],
  [RAYDIUM_CLMM_PROGRAM_ADDRESS, { swapReserves: raydiumClmmSwapReserves, lifecycle: raydiumClmmPoolLifecycle }],
  [METEORA_DLMM_PROGRAM_ADDRESS, { swapReserves: meteoraDlmmSwapReserves, lifecycle: meteoraDlmmPoolLifecycle }],
  [METEORA_DAMM_V1_PROGRAM_ADDRESS, { swapReserves: meteoraDammV1SwapReserves, lifecycle: meteoraDammV1PoolLifecycle }],
  [METEORA_DAMM_V2_PROGRAM_ADDRESS, { swapReserves: meteoraDammV2SwapReserves, lifecycle: meteoraDammV2PoolLifecycle }],
  [METEORA_DBC_PROGRAM_ADDRESS, { swapReserves: meteoraDbcSwapReserves, lifecycle: meteoraDbcPoolLifecycle }],
]);
