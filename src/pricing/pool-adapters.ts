import type { Address } from "@solana/kit";
import type { DexName } from "./price-record";
import type { AccountBytes, DecimalsOf, PoolCandidate, PoolKind, PoolPrice } from "../venues/types";
import { VenueDecodeError } from "../venues/errors";
import {
  decodePumpBondingCurve,
  listPumpBondingCurveCandidates,
  priceFromPumpBondingCurve,
  requiredAccountsForPumpBondingCurve,
} from "../venues/pump-bonding-curve";
import {
  decodePumpSwapPool,
  listPumpSwapPoolCandidates,
  priceFromPumpSwapPool,
  requiredAccountsForPumpSwapPool,
} from "../venues/pumpswap-pool";
import {
  decodeRaydiumAmmV4Pool,
  priceFromRaydiumAmmV4Pool,
  requiredAccountsForRaydiumAmmV4Pool,
} from "../venues/raydium-amm-v4";
import {
  decodeRaydiumCpmmPool,
  listRaydiumCpmmPoolCandidates,
  priceFromRaydiumCpmmPool,
  requiredAccountsForRaydiumCpmmPool,
} from "../venues/raydium-cpmm";
import {
  decodeRaydiumClmmPool,
  listRaydiumClmmPoolCandidates,
  priceFromRaydiumClmmPool,
  requiredAccountsForRaydiumClmmPool,
} from "../venues/raydium-clmm";
import {
  METEORA_DLMM_KNOWN_PRESETS,
  type DlmmPreset,
  decodeMeteoraDlmmPair,
  listMeteoraDlmmPairCandidates,
  priceFromMeteoraDlmmPair,
  requiredAccountsForMeteoraDlmmPair,
} from "../venues/meteora-dlmm";
import {
  decodeMeteoraDammV1Pool,
  listMeteoraDammV1PoolCandidates,
  priceFromMeteoraDammV1Pool,
  requiredAccountsForMeteoraDammV1Pool,
  requiredVaultLpMintsForMeteoraDammV1,
} from "../venues/meteora-damm-v1";
import {
  decodeMeteoraDammV2Pool,
  listMeteoraDammV2PoolCandidates,
  METEORA_DAMM_V2_KNOWN_CONFIG_INDICES,
  priceFromMeteoraDammV2Pool,
} from "../venues/meteora-damm-v2";
import { decodeMeteoraDbcPool, priceFromMeteoraDbcPool, requiredAccountsForMeteoraDbcPool } from "../venues/meteora-dbc";
import { decodeMeteoraVault } from "../venues/meteora-vault";
import {
  USDC_MINT,
  USDT_MINT,
  WSOL_MINT,
} from "../solana/well-known";

/**
 * Config-enumerated kinds are derived against wSOL only: every (config × quote) pair costs a PDA (~40–80 µs of CPU)
 * on a cold mint, and pools quoted in other mints are learned by the registry (cron) instead.
 */
const solQuote: readonly Address[] = [WSOL_MINT];
const usdQuotes: readonly Address[] = [USDC_MINT, USDT_MINT];
/** wSOL itself is looked up against the USD stables (its SOL/USDC pools), everything else against wSOL. */
const derivedQuotes = (mint: Address): readonly Address[] => (mint === WSOL_MINT ? usdQuotes : solQuote);
/** DAMM v2 static configs start at index 0; the low ones carry most launches, plus the indices seen on mainnet. */
const dammV2ConfigIndices: readonly number[] = [0, 1, 2, 3, ...METEORA_DAMM_V2_KNOWN_CONFIG_INDICES];
/** Permissionless DLMM presets in common use (bin step, base factor); not exhaustive — the registry covers the rest. */
const dlmmPresets: readonly DlmmPreset[] = [
  ...METEORA_DLMM_KNOWN_PRESETS,
  { binStep: 10, baseFactor: 10_000 },
  { binStep: 25, baseFactor: 10_000 },
  { binStep: 80, baseFactor: 6_250 },
  { binStep: 100, baseFactor: 10_000 },
];
const noRegistryDerivation = async (): Promise<PoolCandidate[]> => [];

/** Looks an address up in the accounts read so far: undefined = not read yet, null = read and absent. */
export type AccountLookup = (address: Address) => AccountBytes | null | undefined;

export type Evaluation =
  | { readonly kind: "priced"; readonly price: PoolPrice; readonly related: Record<string, Address> }
  | { readonly kind: "needs"; readonly addresses: Address[]; readonly related: Record<string, Address> };

/** Everything the router knows about one pool kind: how to find it, what to read, how to price it. */
export interface PoolAdapter {
  readonly kind: PoolKind;
  readonly dex: DexName;
  /** Pools derivable from the mint alone. */
  candidates(mint: Address): Promise<PoolCandidate[]>;
  /** Decodes the pool (throws VenueDecodeError on a foreign account) and prices it, or says what it still needs. */
  evaluate(pool: AccountBytes, mint: Address, lookup: AccountLookup, decimalsOf: DecimalsOf): Evaluation;
}

function adapter<S, R extends string>(spec: {
  kind: PoolKind;
  dex: DexName;
  candidates: (mint: Address) => Promise<PoolCandidate[]>;
  decode: (account: AccountBytes) => S;
  required: (state: S) => Record<R, Address>;
  price: (state: S, mint: Address, related: Record<R, AccountBytes>, decimalsOf: DecimalsOf) => PoolPrice;
}): PoolAdapter {
  return {
    kind: spec.kind,
    dex: spec.dex,
    candidates: spec.candidates,
    evaluate(pool, mint, lookup, decimalsOf) {
      const state = spec.decode(pool);
      const related = spec.required(state);
      const missing: Address[] = [];
      const accounts = {} as Record<R, AccountBytes>;
      for (const role of Object.keys(related) as R[]) {
        const found = lookup(related[role]);
        if (found === undefined) missing.push(related[role]);
        else if (found === null) throw new VenueDecodeError(spec.kind, "value", `related account ${role} missing`);
        else accounts[role] = found;
      }
      if (missing.length > 0) return { kind: "needs", addresses: missing, related };
      return { kind: "priced", price: spec.price(state, mint, accounts, decimalsOf), related };
    },
  };
}

export const poolAdapters: readonly PoolAdapter[] = [
  adapter({
    kind: "pump-bonding-curve",
    dex: "pumpfun",
    candidates: listPumpBondingCurveCandidates,
    decode: decodePumpBondingCurve,
    required: requiredAccountsForPumpBondingCurve,
    price: priceFromPumpBondingCurve,
  }),
  adapter({
    kind: "pumpswap",
    dex: "pumpswap",
    candidates: listPumpSwapPoolCandidates,
    decode: decodePumpSwapPool,
    required: requiredAccountsForPumpSwapPool,
    price: (state, _mint, related, decimalsOf) => priceFromPumpSwapPool(state, related, decimalsOf),
  }),
  adapter({
    kind: "raydium-amm-v4",
    dex: "raydium-amm-v4",
    // Keyed by the market, not the mints: only the registry (and getProgramAccounts) finds these.
    candidates: noRegistryDerivation,
    decode: decodeRaydiumAmmV4Pool,
    required: requiredAccountsForRaydiumAmmV4Pool,
    price: (state, _mint, related) => priceFromRaydiumAmmV4Pool(state, related),
  }),
  adapter({
    kind: "raydium-cpmm",
    dex: "raydium-cpmm",
    candidates: (mint) => listRaydiumCpmmPoolCandidates(mint, derivedQuotes(mint)),
    decode: decodeRaydiumCpmmPool,
    required: requiredAccountsForRaydiumCpmmPool,
    price: (state, _mint, related) => priceFromRaydiumCpmmPool(state, related),
  }),
  adapter({
    kind: "raydium-clmm",
    dex: "raydium-clmm",
    candidates: (mint) => listRaydiumClmmPoolCandidates(mint, derivedQuotes(mint)),
    decode: decodeRaydiumClmmPool,
    required: requiredAccountsForRaydiumClmmPool,
    price: (state, _mint, related) => priceFromRaydiumClmmPool(state, related),
  }),
  adapter({
    kind: "meteora-dlmm",
    dex: "meteora-dlmm",
    candidates: (mint) => listMeteoraDlmmPairCandidates(mint, derivedQuotes(mint), dlmmPresets),
    decode: decodeMeteoraDlmmPair,
    required: requiredAccountsForMeteoraDlmmPair,
    price: (state, _mint, related, decimalsOf) => priceFromMeteoraDlmmPair(state, related, decimalsOf),
  }),
  adapter({
    kind: "meteora-damm-v2",
    dex: "meteora-damm-v2",
    candidates: (mint) => listMeteoraDammV2PoolCandidates(mint, derivedQuotes(mint), dammV2ConfigIndices),
    decode: decodeMeteoraDammV2Pool,
    // Price and reserves come from the pool alone (sqrt price and liquidity).
    required: () => ({}),
    price: (state, _mint, _related, decimalsOf) => priceFromMeteoraDammV2Pool(state, decimalsOf),
  }),
  adapter({
    kind: "meteora-dbc",
    dex: "meteora-dbc",
    // Configs are arbitrary partner keys: only the registry (and getProgramAccounts) finds these curves.
    candidates: noRegistryDerivation,
    decode: decodeMeteoraDbcPool,
    required: requiredAccountsForMeteoraDbcPool,
    price: (state, _mint, related, decimalsOf) => priceFromMeteoraDbcPool(state, related, decimalsOf),
  }),
  meteoraDammV1Adapter(),
];

/**
 * DAMM v1 keeps its tokens in shared dynamic vaults, so pricing needs two levels of accounts: the vaults and the pool's
 * vault-LP balances (with the Clock sysvar and, for depeg pools, the stake-pool account), then the vaults' LP mints:
 * two more reads the first time; then they are known (related accounts) and ride in the same batch as the pool.
 * Time comes from the Clock account read in that batch, never from the server's clock.
 */
function meteoraDammV1Adapter(): PoolAdapter {
  return {
    kind: "meteora-damm-v1",
    dex: "meteora-damm-v1",
    candidates: (mint) => listMeteoraDammV1PoolCandidates(mint, derivedQuotes(mint)),
    evaluate(poolAccount, _mint, lookup, decimalsOf) {
      const pool = decodeMeteoraDammV1Pool(poolAccount);
      const first = requiredAccountsForMeteoraDammV1Pool(pool);
      const missing = Object.values(first).filter((a) => lookup(a) === undefined);
      if (missing.length > 0) return { kind: "needs", addresses: missing, related: first };
      const get = (a: Address) => {
        const found = lookup(a);
        if (!found) throw new VenueDecodeError("meteora-damm-v1", "value", `related account ${a} missing`);
        return found;
      };
      const second = requiredVaultLpMintsForMeteoraDammV1(decodeMeteoraVault(get(first.aVault)), decodeMeteoraVault(get(first.bVault)));
      const related = { ...first, ...second };
      const missingLp = Object.values(second).filter((a) => lookup(a) === undefined);
      if (missingLp.length > 0) return { kind: "needs", addresses: missingLp, related };
      const accounts = Object.fromEntries(Object.entries(related).map(([role, a]) => [role, get(a)])) as Record<keyof typeof related, AccountBytes>;
      const price = priceFromMeteoraDammV1Pool(pool, accounts, decimalsOf);
      return { kind: "priced", price, related };
    },
  };
}

export const adapterByKind: ReadonlyMap<PoolKind, PoolAdapter> = new Map(poolAdapters.map((a) => [a.kind, a]));
