/**
 * The creator a launchpad account names, for the three launchpads whose accounts carry one:
 *
 * | launchpad | account | where it is found | creator field |
 * |---|---|---|---|
 * | pump.fun | bonding curve | PDA(["bonding-curve", mint]) | `creator` @49, curves of 81 bytes and more (VENUES.md §2) |
 * | Meteora DBC | VirtualPool (424 B) | not derivable (its config is an arbitrary key): the pool registry's `meteora-dbc` row of the mint, else one getProgramAccounts (dataSize 424, base_mint @136, no data) | `creator` @104 (meteora-ag/dynamic-bonding-curve IDL, release 0.1.6) |
 * | Raydium LaunchLab | PoolState (429 B) | PDA(["pool", mint, quote]) for quote wSOL and USDC | `creator` @333 (raydium-io/raydium-cpi `launch-cpi` states.rs; raydium-sdk-V2 launchpad layout) |
 *
 * Each account is checked by its decoder (owner, size, discriminator) before the creator is read from it; an account of
 * another shape names no creator. The pump.fun curve is tried first, then LaunchLab, then DBC: a token has one launch.
 */
import { getAddressDecoder, type Address } from "@solana/kit";
import { z } from "zod/mini";

import { AccountDecodeError } from "../solana/accounts/decode-error";
import type { AccountRpc, RawAccount } from "../solana/account-reader";
import { USDC_MINT, WSOL_MINT } from "../solana/well-known";
import { UpstreamError } from "../solana/upstream";
import { decodeMeteoraDbcPool, METEORA_DBC_POOL_SIZE, METEORA_DBC_PROGRAM_ADDRESS } from "../venues/meteora-dbc";
import { decodePumpBondingCurve } from "../venues/pump-bonding-curve";
import { decodeRaydiumLaunchLabPool, findRaydiumLaunchLabPoolAddress } from "../venues/raydium-launchlab";

export const launchpads = ["pumpfun", "meteora-dbc", "raydium-launchlab"] as const;
export type Launchpad = (typeof launchpads)[number];

export type LaunchpadCreator = { address: Address; launchpad: Launchpad; account: Address };

/** Where each launchpad keeps the creator (see the module table). */
const PUMP_CURVE_CREATOR_OFFSET = 49;
const DBC_POOL_CREATOR_OFFSET = 104;

/** Quote mints a LaunchLab pool of the mint is looked up against (the launchpad's two common quotes). */
const LAUNCHLAB_QUOTES: readonly Address[] = [WSOL_MINT, USDC_MINT];

/** The LaunchLab pool addresses of `mint` (one per quote in {@link LAUNCHLAB_QUOTES}). */
export function launchLabPoolsOf(mint: Address): Promise<Address[]> {
  return Promise.all(LAUNCHLAB_QUOTES.map((quote) => findRaydiumLaunchLabPoolAddress(mint, quote)));
}

/** Runs a decoder; an account of another shape gives undefined (an upstream fault is not caught: it is no decode error). */
function decoded<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (error) {
    if (error instanceof AccountDecodeError) return undefined;
    throw error;
  }
}

/** The creator a pump.fun curve names (older curves, shorter than 81 bytes, name none). */
export function pumpCurveCreator(account: RawAccount | null | undefined): Address | null {
  if (!account || account.data.length < PUMP_CURVE_CREATOR_OFFSET + 32) return null;
  if (!decoded(() => decodePumpBondingCurve(account))) return null;
  return getAddressDecoder().decode(account.data, PUMP_CURVE_CREATOR_OFFSET);
}

/** The creator a Meteora DBC VirtualPool of `mint` names. */
export function dbcPoolCreator(account: RawAccount | null | undefined, mint: Address): Address | null {
  if (!account) return null;
  const pool = decoded(() => decodeMeteoraDbcPool(account));
  if (!pool || pool.baseMint !== mint) return null;
  return getAddressDecoder().decode(account.data, DBC_POOL_CREATOR_OFFSET);
}

/** The creator a Raydium LaunchLab PoolState of `mint` names. */
export function launchLabPoolCreator(account: RawAccount | null | undefined, mint: Address): Address | null {
  if (!account) return null;
  const pool = decoded(() => decodeRaydiumLaunchLabPool(account));
  return pool && pool.baseMint === mint ? pool.creator : null;
}

/**
 * The launchpad creator of `mint` from the accounts read: the curve, the LaunchLab pools (in {@link launchLabPoolsOf}
 * order) and the registry's DBC pool (each with its address); null when none names one.
 */
export function launchpadCreatorOf(
  mint: Address,
  curve: { address: Address; account: RawAccount | null | undefined },
  launchLab: readonly { address: Address; account: RawAccount | null | undefined }[],
  dbc: { address: Address; account: RawAccount | null | undefined } | null,
): LaunchpadCreator | null {
  const pump = pumpCurveCreator(curve.account);
  if (pump) return { address: pump, launchpad: "pumpfun", account: curve.address };
  for (const pool of launchLab) {
    const creator = launchLabPoolCreator(pool.account, mint);
    if (creator) return { address: creator, launchpad: "raydium-launchlab", account: pool.address };
  }
  const creator = dbc ? dbcPoolCreator(dbc.account, mint) : null;
  return creator && dbc ? { address: creator, launchpad: "meteora-dbc", account: dbc.address } : null;
}

/** The Meteora DBC pool the pool registry knows for `mint` (the oldest), or null. */
export async function registeredDbcPool(db: D1Database, mint: Address): Promise<Address | null> {
  const row = await db
    .prepare("SELECT address FROM pools WHERE base_mint = ?1 AND kind = 'meteora-dbc' ORDER BY first_slot LIMIT 1")
    .bind(mint)
    .first<{ address: string }>();
  return row ? (row.address as Address) : null;
}

/** Where a VirtualPool keeps its base mint (VENUES.md §11). */
const DBC_POOL_BASE_MINT_OFFSET = 136;

const keysOnlySchema = z.array(z.object({ pubkey: z.string() }));

/**
 * The Meteora DBC pools of `mint` on chain: one getProgramAccounts narrowed to VirtualPools (dataSize) of that base mint
 * (memcmp) with no data (a mint has one DBC pool per config it launched on, in practice one), smallest address first.
 */
export async function scanDbcPools(rpc: AccountRpc, mint: Address, requestId?: string): Promise<Address[]> {
  const filters = [{ dataSize: METEORA_DBC_POOL_SIZE }, { memcmp: { offset: DBC_POOL_BASE_MINT_OFFSET, bytes: mint } }];
  const { result } = await rpc.call<unknown>(
    "getProgramAccounts",
    [METEORA_DBC_PROGRAM_ADDRESS, { encoding: "base64", commitment: "confirmed", dataSlice: { offset: 0, length: 0 }, filters }],
    { idempotent: true, requestId },
  );
  const parsed = keysOnlySchema.safeParse(result);
  if (!parsed.success) throw new UpstreamError("bad-response", "getProgramAccounts answer has an unexpected shape");
  return parsed.data.map((row) => row.pubkey as Address).sort();
}
