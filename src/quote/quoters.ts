/** Every pool kind's quoter: the compiler refuses a kind without one (a new venue is quoted, or it does not build). */
import type { PoolKind } from "../venues/pool-kinds";
import { raydiumClmmQuoter } from "./clmm-quoter";
import { meteoraDlmmQuoter } from "./dlmm-quoter";
import { raydiumLaunchLabQuoter } from "./launchlab-quoter";
import { meteoraDammV2Quoter, meteoraDbcQuoter } from "./meteora-curve-quoters";
import type { QuoterSpec } from "./pool-quoter";
import { meteoraDammV1Quoter, pumpCurveQuoter, pumpSwapQuoter, raydiumAmmV4Quoter, raydiumCpmmQuoter } from "./reserve-quoters";
import { orcaWhirlpoolQuoter } from "./whirlpool-quoter";

export const quoterByKind: Readonly<Record<PoolKind, QuoterSpec>> = {
  "pump-bonding-curve": pumpCurveQuoter,
  pumpswap: pumpSwapQuoter,
  "raydium-amm-v4": raydiumAmmV4Quoter,
  "raydium-cpmm": raydiumCpmmQuoter,
  "raydium-clmm": raydiumClmmQuoter,
  "meteora-dlmm": meteoraDlmmQuoter,
  "meteora-damm-v1": meteoraDammV1Quoter,
  "meteora-damm-v2": meteoraDammV2Quoter,
  "meteora-dbc": meteoraDbcQuoter,
  "raydium-launchlab": raydiumLaunchLabQuoter,
  "orca-whirlpool": orcaWhirlpoolQuoter,
};
