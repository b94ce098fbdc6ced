/**
 * Per program, the reader of the pool its swap instructions trade against (each defined beside its venue). The pool
 * registry uses them to learn pools that cannot be derived from a mint. pump.fun curves and DAMM v1 pools are derived
 * from the mint alone, so none is needed for them.
 */
import {
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DBC_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CLMM_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
} from "../solana/well-known";
import { meteoraDammV2SwapPool } from "./meteora-damm-v2";
import { meteoraDbcSwapPool } from "./meteora-dbc";
import { meteoraDlmmSwapPool } from "./meteora-dlmm";
import { pumpSwapSwapPool } from "./pumpswap-pool";
import { raydiumAmmV4SwapPool } from "./raydium-amm-v4";
import { raydiumClmmSwapPool } from "./raydium-clmm";
import { raydiumCpmmSwapPool } from "./raydium-cpmm";
import type { SwapPoolReader } from "./types";

export const swapPoolReaders: Readonly<Record<string, SwapPoolReader>> = {
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS]: raydiumAmmV4SwapPool,
  [PUMP_AMM_PROGRAM_ADDRESS]: pumpSwapSwapPool,
  [METEORA_DBC_PROGRAM_ADDRESS]: meteoraDbcSwapPool,
  [RAYDIUM_CPMM_PROGRAM_ADDRESS]: raydiumCpmmSwapPool,
  [RAYDIUM_CLMM_PROGRAM_ADDRESS]: raydiumClmmSwapPool,
  [METEORA_DLMM_PROGRAM_ADDRESS]: meteoraDlmmSwapPool,
  [METEORA_DAMM_V2_PROGRAM_ADDRESS]: meteoraDammV2SwapPool,
};
