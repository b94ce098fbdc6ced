/**
 * The pump fee program (pump-fees `pfeeUx…`) as the world runs it: one FeeConfig per program, PDA(["fee_config",
 * program], pump-fees), whose market-cap tiers set the fees of every pump.fun curve swap and canonical PumpSwap swap
 * (pump-fun/pump-public-docs `docs/FEE_PROGRAM_README.md`; the schedule selection and account versions as
 * @pump-fun/pump-sdk 2.0.0 and @pump-fun/pump-swap-sdk 1.20.0 describe the program: `fees_for_quote_mint`,
 * `calculate_fee_tier`, `FeeConfig::deserialize_versioned`). Written here from those descriptions, independent of the
 * worker's code.
 *
 * Layout (pump_fees IDL): discriminator, bump u8, admin, flat_fees (lp, protocol, creator u64 bps), fee_tiers
 * Vec<{threshold u128, fees}>, stable_fee_tiers (same), exotic_flat_fees. The world writes the current 4097-byte version.
 */
import type { Pubkey } from "../../chain/types.js";
import { FixedWriter, hex } from "../core/bytes.js";
import { constantPda, keyBytes } from "../core/keys.js";
import { PUMP_AMM_PROGRAM, PUMP_FEE_PROGRAM, PUMP_PROGRAM, USDC_MINT, WSOL_MINT } from "../programs.js";
import { r, type Ix } from "../tx/builder.js";

export interface Fees {
  lp: bigint;
  protocol: bigint;
  creator: bigint;
}
export interface FeeTier {
  /** market cap in quote atoms (lamports for SOL) from which the tier applies */
  threshold: bigint;
  fees: Fees;
}
export interface FeeSchedule {
  flat: Fees;
  tiers: FeeTier[];
  stableTiers: FeeTier[];
  /** all zero = unset: other quotes pay `flat` */
  exotic: Fees;
}

const fees = (lp: number, protocol: number, creator: number): Fees => ({ lp: BigInt(lp), protocol: BigInt(protocol), creator: BigInt(creator) });
const SOL = 1_000_000_000n;

/**
 * The world's curve schedule: three SOL tiers across the curves' market caps (≈28 SOL at launch, ≈411 SOL at
 * completion), the first one mainnet's curve fee (0.95 % protocol + 0.30 % creator, pump-public-docs `fees.png`), then
 * cheaper ones; two USDC tiers (a $10k market cap in USDC atoms) and an exotic rate for coins quoted in another token.
 */
export const PUMP_CURVE_FEE_SCHEDULE: FeeSchedule = {
  flat: fees(0, 95, 30),
  tiers: [
    { threshold: 0n, fees: fees(0, 95, 30) },
    { threshold: 60n * SOL, fees: fees(0, 90, 25) },
    { threshold: 200n * SOL, fees: fees(0, 85, 20) },
  ],
  stableTiers: [
    { threshold: 0n, fees: fees(0, 95, 30) },
    { threshold: 10_000_000_000n, fees: fees(0, 90, 25) },
  ],
  exotic: fees(0, 100, 20),
};

/**
 * PumpSwap's schedule as mainnet's FeeConfig 5PHirr8… held it (pump-public-docs `fees.png`; the 4073-byte account of
 * slot 445186127): from 420 SOL of market cap up, LP 0.20 % and protocol 0.05 %, the creator share falling tier by tier;
 * below it 0.02 / 0.93 / 0.30 %. Non-canonical pools pay the flat 0.25 / 0.05 / 0 %.
 */
const SWAP_TIERS: [thresholdSol: number, creatorBps: number][] = [
  [420, 95], [1470, 90], [2460, 85], [3440, 80], [4420, 75], [9820, 70], [14740, 65], [19650, 60], [24560, 55], [29470, 50],
  [34380, 45], [39300, 40], [44210, 35], [49120, 30], [54030, 28], [58940, 25], [63860, 23], [68770, 20], [73681, 18],
  [78590, 15], [83500, 13], [88400, 10], [93330, 8], [98240, 5],
];
const SWAP_STABLE_TIERS_USD = [59_000, 300_000, 500_000, 700_000, 900_000, ...Array.from({ length: 19 }, (_, i) => (i + 2) * 1_000_000)];
export const PUMPSWAP_FEE_SCHEDULE: FeeSchedule = {
  flat: fees(25, 5, 0),
  tiers: [{ threshold: 0n, fees: fees(2, 93, 30) }, ...SWAP_TIERS.map(([sol, creator]) => ({ threshold: BigInt(sol) * SOL, fees: fees(20, 5, creator) }))],
  stableTiers: [
    { threshold: 0n, fees: fees(2, 93, 30) },
    ...SWAP_STABLE_TIERS_USD.map((usd, i) => ({ threshold: BigInt(usd) * 1_000_000n, fees: fees(20, 5, SWAP_TIERS[i]![1]) })),
  ],
  exotic: fees(0, 0, 0),
};

export const pumpFeeConfig = constantPda(["fee_config", keyBytes(PUMP_PROGRAM)], PUMP_FEE_PROGRAM);
export const pumpSwapFeeConfig = constantPda(["fee_config", keyBytes(PUMP_AMM_PROGRAM)], PUMP_FEE_PROGRAM);

const FEE_CONFIG = hex("8f3492bbdb7b4c9b");
/** pump-fees FeeConfig::CURRENT_SIZE: the version with stable tiers and exotic flat fees. */
export const FEE_CONFIG_SIZE = 4097;

export function encodeFeeConfig(s: FeeSchedule, admin: Pubkey): Uint8Array {
  const w = new FixedWriter(FEE_CONFIG_SIZE).raw(0, FEE_CONFIG).u8(8, 255).pubkey(9, admin);
  const putFees = (at: number, f: Fees) => w.u64(at, f.lp).u64(at + 8, f.protocol).u64(at + 16, f.creator);
  putFees(41, s.flat);
  let at = 65;
  for (const list of [s.tiers, s.stableTiers]) {
    w.u32(at, list.length);
    at += 4;
    for (const t of list) {
      w.u128(at, t.threshold);
      putFees(at + 16, t.fees);
      at += 40;
    }
  }
  putFees(at, s.exotic);
  return w.bytes;
}

/** calculate_fee_tier: below the first threshold the first tier, else the last tier whose threshold is reached. */
export function tierOf(tiers: readonly FeeTier[], marketCap: bigint): number {
  let chosen = 0;
  tiers.forEach((t, i) => {
    if (marketCap >= t.threshold) chosen = i;
  });
  return chosen;
}

const SOL_LIKE = new Set<Pubkey>(["11111111111111111111111111111111", WSOL_MINT, "9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP"]);

/** fees_for_quote_mint: flat for non-canonical pools; SOL tiers, USDC tiers, or the exotic (else flat) rate by quote. */
export function scheduledFees(s: FeeSchedule, canonical: boolean, quoteMint: Pubkey, marketCap: bigint): Fees {
  if (!canonical) return s.flat;
  if (SOL_LIKE.has(quoteMint)) return s.tiers[tierOf(s.tiers, marketCap)]!.fees;
  if (quoteMint === USDC_MINT) {
    const list = s.stableTiers.length > 0 ? s.stableTiers : s.tiers;
    return list[tierOf(list, marketCap)]!.fees;
  }
  const unset = s.exotic.lp === 0n && s.exotic.protocol === 0n && s.exotic.creator === 0n;
  return unset ? s.flat : s.exotic;
}

const GET_FEES = hex("e7257e55cf5b3f34");

/** pump-fees `get_fees` as pump / pump_amm CPI it: (fee_config, calling program), returns lp, protocol, creator bps (u64 each). */
export function getFeesCpi(feeConfig: Pubkey, program: Pubkey, f: Fees, cu: number): Ix {
  const ret = new FixedWriter(24).u64(0, f.lp).u64(8, f.protocol).u64(16, f.creator).bytes;
  return { program: PUMP_FEE_PROGRAM, accounts: [r(feeConfig), r(program)], data: GET_FEES, steps: [{ log: "Instruction: GetFees" }, { ret }], cu };
}
