/**
 * How much of a pool's LP can never be withdrawn: burnt (with a Burn instruction, or sent to a burn address) or held
 * by a known locker. For pools with a fungible LP mint — Raydium CPMM and AMM v4, PumpSwap — read in three round trips:
 *
 *   1. the pool: its LP mint and its own count of the LP it issued (VENUES.md §3 PumpSwap lp_mint @107 / lp_supply
 *      @203; §4 AMM v4 lp_mint @464 / lp_amount @720; §5 CPMM lp_mint @136 / lp_supply @333);
 *   2. the LP mint (its supply now) and its largest accounts (getTokenLargestAccounts, ≤ 20);
 *   3. those accounts (their owners), then the owners' accounts (which program owns them: a locker's escrow?).
 *
 * A Burn lowers the LP mint's supply but not the pool's count, so `poolLpSupply − lpMintSupply` is what was burnt that
 * way. Meteora DAMM v2 keeps liquidity in positions, read by position-locks.ts; Raydium CLMM, Meteora DLMM and Orca
 * Whirlpool too, read by concentrated-positions.ts. Bonding curves have no LP at all: the answer says so and gives no
 * figures.
 */
import { getAddressDecoder, getU64Decoder, type Address } from "@solana/kit";

import { limits } from "../limits";
import { formatPercent } from "../overview/amount-format";
import { parseLargestAccounts } from "../overview/holder-reads";
import { BURN_OWNERS } from "../overview/liquidity-owners";
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { decodeMint } from "../solana/accounts/spl-token";
import { readTokenHolding } from "../overview/holders";
import { PUMP_AMM_PROGRAM_ADDRESS, RAYDIUM_AMM_V4_PROGRAM_ADDRESS, RAYDIUM_CPMM_PROGRAM_ADDRESS } from "../solana/well-known";
import { CONCENTRATED_POSITION_SCANS, readConcentratedPositionLocks } from "./concentrated-positions";
import { lpLockerOf } from "./lockers";
import type { PositionLocks } from "./position-figures";
import { readDammV2PositionLocks } from "./position-locks";
import type { FactSource } from "./security-schema";

type LpLayout = { program: Address; decoder: ReturnType<typeof lpDecoder> };

function lpDecoder(lpMintAt: number, lpSupplyAt: number) {
  return getFieldsDecoder({ lpMint: [lpMintAt, getAddressDecoder()], poolLpSupply: [lpSupplyAt, getU64Decoder()] });
}

/** Pools with a fungible LP mint, by `dex`: where the pool keeps its LP mint and its count of issued LP. */
const LP_LAYOUTS: Readonly<Record<string, LpLayout>> = {
  "raydium-cpmm": { program: RAYDIUM_CPMM_PROGRAM_ADDRESS, decoder: lpDecoder(136, 333) },
  "raydium-amm-v4": { program: RAYDIUM_AMM_V4_PROGRAM_ADDRESS, decoder: lpDecoder(464, 720) },
  pumpswap: { program: PUMP_AMM_PROGRAM_ADDRESS, decoder: lpDecoder(107, 203) },
};

const NO_LP: Readonly<Record<string, string>> = {
  pumpfun: "The token trades on its bonding curve: there is no LP, and nobody can withdraw the curve's reserves before it migrates.",
  "meteora-dbc": "The token trades on its bonding curve: there is no LP, and nobody can withdraw the curve's reserves before it migrates.",
};

export type LpLocks = {
  lpMint: string;
  poolLpSupply: string;
  lpMintSupply: string;
  burned: string;
  burnedPercent: string;
  locked: string;
  lockedPercent: string;
  lockers: { owner: string; locker: string; amount: string }[];
};

export type LpAnswer = { lp: LpLocks | null; positions: PositionLocks | null; message: string; source: FactSource };

/** The LP figures of `pool` (priced as `dex`), or why there are none. */
export async function readLpLocks(rpc: AccountRpc, pool: Address, dex: string, requestId?: string): Promise<LpAnswer> {
  const layout = LP_LAYOUTS[dex];
  if (dex === "meteora-damm-v2") return { lp: null, ...(await readDammV2PositionLocks(rpc, pool, requestId)) };
  if (CONCENTRATED_POSITION_SCANS[dex]) return { lp: null, ...(await readConcentratedPositionLocks(rpc, pool, dex, requestId)) };
  if (!layout) {
    const message =
      NO_LP[dex] ??
      `The ${dex} pool has no LP token or positions this report reads: whether its liquidity is burnt or locked is not assessed.`;
    return { lp: null, positions: null, message, source: { accounts: [pool], slot: null, trades: null, unseen: NO_LP[dex] ? null : `the liquidity of ${dex} pools` } };
  }
  const poolRead = await readAccounts(rpc, [pool], { requestId });
  const poolAccount = poolRead.accounts.get(pool);
  if (!poolAccount || poolAccount.owner !== layout.program || poolAccount.data.length < layout.decoder.fixedSize) {
    return { lp: null, positions: null, message: `The pool account ${pool} could not be read as a ${dex} pool.`, source: { accounts: [pool], slot: poolRead.slot, trades: null, unseen: null } };
  }
  const { lpMint, poolLpSupply } = layout.decoder.decode(poolAccount.data);

  const [mintRead, largestAnswer] = await Promise.all([
    readAccounts(rpc, [lpMint], { requestId }),
    rpc.call<unknown>("getTokenLargestAccounts", [lpMint, { commitment: "confirmed" }], { idempotent: true, requestId }),
  ]);
  const lpMintAccount = mintRead.accounts.get(lpMint);
  if (!lpMintAccount) {
    return { lp: null, positions: null, message: `The pool's LP mint ${lpMint} does not exist.`, source: { accounts: [pool, lpMint], slot: mintRead.slot, trades: null, unseen: null } };
  }
  const lpMintSupply = decodeMint(lpMintAccount).supply;
  const largest = parseLargestAccounts(largestAnswer.result).slice(0, limits.security.lpOwnersRead);
  const accountsRead = await readAccounts(rpc, largest, { requestId });
  const holdings = largest.flatMap((account) => readTokenHolding(account, accountsRead.accounts.get(account), lpMint) ?? []);
  const owners = [...new Set(holdings.map((h) => h.owner).filter((o) => !BURN_OWNERS.has(o)))];
  const ownerAccounts = owners.length > 0 ? (await readAccounts(rpc, owners, { requestId })).accounts : new Map();

  let heldByBurn = 0n;
  let locked = 0n;
  const lockers = new Map<Address, { locker: string; amount: bigint }>();
  for (const { owner, amount } of holdings) {
    if (BURN_OWNERS.has(owner)) {
      heldByBurn += amount;
      continue;
    }
    const locker = lpLockerOf(owner, ownerAccounts.get(owner)?.owner ?? null);
    if (!locker) continue;
    locked += amount;
    const entry = lockers.get(owner) ?? { locker, amount: 0n };
    entry.amount += amount;
    lockers.set(owner, entry);
  }
  const burnedByInstruction = poolLpSupply > lpMintSupply ? poolLpSupply - lpMintSupply : 0n;
  const burned = burnedByInstruction + heldByBurn;
  const lp: LpLocks = {
    lpMint,
    poolLpSupply: poolLpSupply.toString(),
    lpMintSupply: lpMintSupply.toString(),
    burned: burned.toString(),
    burnedPercent: formatPercent(burned, poolLpSupply),
    locked: locked.toString(),
    lockedPercent: formatPercent(locked, poolLpSupply),
    lockers: [...lockers].map(([owner, { locker, amount }]) => ({ owner, locker, amount: amount.toString() })),
  };
  const free = 100 - Number(lp.burnedPercent) - Number(lp.lockedPercent);
  return {
    lp,
    positions: null,
    message: `${lp.burnedPercent}% of the LP is burnt and ${lp.lockedPercent}% locked; ${free > 0 ? free.toFixed(4) : "0.0000"}% can be withdrawn by its holders.`,
    source: {
      accounts: [pool, lpMint, ...largest],
      slot: Math.min(poolRead.slot, mintRead.slot, accountsRead.slot),
      trades: null,
      unseen: `LP beyond the ${limits.security.lpOwnersRead} largest LP accounts, and lockers not in the published locker table`,
    },
  };
}
