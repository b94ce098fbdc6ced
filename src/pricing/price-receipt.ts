/**
 * Price receipts: where a price came from, so anyone can check it with a plain `getMultipleAccounts` — the slot, every
 * account the price was computed from (address, owner, a SHA-256 of its data, the decoded fields used), the formula by
 * name and the program version our decoder follows, and the SOL/USD source with its own accounts (docs/api.md, Receipts).
 *
 * Built only when asked (`?receipt=true`): the pieces are the accounts already read for the price, re-walked by the
 * chosen pool's own adapter with a recording lookup, so the list is exactly what the adapter consulted. Hashing runs here
 * and nowhere on the plain price path.
 */
import type { Address } from "@solana/kit";
import type { z } from "zod/mini";
import { div, invert, toDecimalString, type Ratio } from "../math/fixed-point";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { decodeClockSysvar } from "../solana/accounts/clock-sysvar";
import { decodePriceUpdateV2 } from "../solana/accounts/pyth-price-update";
import { decodeMint, decodeTokenAccount, type Mint } from "../solana/accounts/spl-token";
import { PYTH_SOL_USD_PRICE_ACCOUNT, SYSVAR_CLOCK_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WELL_KNOWN_DECIMALS } from "../solana/well-known";
import { decodeMeteoraDammV1Pool } from "../venues/meteora-damm-v1";
import { decodeMeteoraDammV2Pool } from "../venues/meteora-damm-v2";
import { decodeMeteoraDbcConfig, decodeMeteoraDbcPool } from "../venues/meteora-dbc";
import { decodeMeteoraDlmmPair } from "../venues/meteora-dlmm";
import { decodeMeteoraVault } from "../venues/meteora-vault";
import type { AccountLookup } from "../venues/pool-adapter";
import { descriptorOfKind, type PoolKind } from "../venues/pool-kinds";
import { decodePumpBondingCurve, decodePumpGlobal } from "../venues/pump-bonding-curve";
import { pumpFeeConfigFields } from "../venues/pump-fees";
import { decodePumpSwapPool } from "../venues/pumpswap-pool";
import { decodeRaydiumAmmV4Pool } from "../venues/raydium-amm-v4";
import { decodeRaydiumClmmPool } from "../venues/raydium-clmm";
import { decodeRaydiumCpmmPool } from "../venues/raydium-cpmm";
import { decodeRaydiumLaunchLabGlobalConfig, decodeRaydiumLaunchLabPool } from "../venues/raydium-launchlab";
import { decodeOrcaWhirlpool } from "../venues/orca-whirlpool";
import type { DecimalsOf, PoolPrice } from "../venues/types";
import type { Priced } from "./pool-evaluation";
import { decimalsSchema, type poolReceiptSchema, type PriceReceipt, type ReceiptAccount } from "./price-receipt-schema";

export { poolReceiptSchema, priceReceiptSchema, solUsdReceiptSchema, type PriceReceipt } from "./price-receipt-schema";

const significantDigits = 15;

/** A formula by pool kind: what it is called, what it computes, and the program version its decoder follows. */
interface KindFormula {
  readonly name: string;
  readonly version: string;
  readonly expression: string;
  /** the pool account's fields the formula reads */
  readonly pool: (account: AccountBytes) => object;
  /** decoders of the kind's own related accounts by role (token accounts, mints and the Clock need none) */
  readonly related?: Readonly<Record<string, (account: AccountBytes) => object>>;
}

const q64 = "(sqrtPrice / 2^64)^2 × 10^(baseDecimals − quoteDecimals)";

/**
 * Every priced kind's formula. The versions are those the venue files' layouts name (src/venues/<kind>.ts); the
 * compiler refuses a kind without one.
 */
export const receiptFormulas: { readonly [K in PoolKind]: KindFormula } = {
  "pump-bonding-curve": {
    name: "pump-curve-virtual-reserves",
    version: "pump IDL (pump-fun/pump-public-docs @1b82215, 2026-05-19)",
    expression: "virtualQuoteReserves / virtualTokenReserves × 10^(tokenDecimals − quoteDecimals)",
    pool: decodePumpBondingCurve,
    related: { global: decodePumpGlobal, feeConfig: pumpFeeConfigFields },
  },
  pumpswap: {
    name: "pumpswap-effective-quote-reserve",
    version: "pump_amm IDL (pump-swap-sdk 1.20)",
    expression: "(quoteVault.amount + pool.virtualQuoteReserves) / baseVault.amount × 10^(baseDecimals − quoteDecimals)",
    pool: decodePumpSwapPool,
    related: { feeConfig: pumpFeeConfigFields },
  },
  "raydium-amm-v4": {
    name: "raydium-amm-v4-reserves-net-of-pnl",
    version: "raydium-amm 0.3.1 @27f461d",
    expression: "(pcVault.amount − pool.needTakePnlPc) / (coinVault.amount − pool.needTakePnlCoin) × 10^(pool.coinDecimals − pool.pcDecimals)",
    pool: decodeRaydiumAmmV4Pool,
  },
  "raydium-cpmm": {
    name: "raydium-cpmm-reserves-net-of-fees",
    version: "raydium-cp-swap 0.2.0 @609780f",
    expression:
      "(vault1.amount − protocolFees1 − fundFees1 − creatorFees1) / (vault0.amount − protocolFees0 − fundFees0 − creatorFees0) × 10^(pool.mint0Decimals − pool.mint1Decimals)",
    pool: decodeRaydiumCpmmPool,
  },
  "raydium-clmm": {
    name: "q64-sqrt-price",
    version: "raydium-clmm @03b44b7 (raydium-sdk-V2 0.2.58-alpha)",
    expression: "(pool.sqrtPriceX64 / 2^64)^2 × 10^(pool.mintDecimals0 − pool.mintDecimals1)",
    pool: decodeRaydiumClmmPool,
  },
  "meteora-dlmm": {
    name: "dlmm-active-bin",
    version: "lb_clmm 0.12.0 (dlmm-sdk @fb02e51)",
    expression: "(1 + pool.binStep / 10000)^pool.activeId × 10^(decimalsX − decimalsY)",
    pool: decodeMeteoraDlmmPair,
  },
  "meteora-damm-v1": {
    name: "damm-v1-vault-shares",
    version: "dynamic_amm 0.5.2 IDL, dynamic vault (mercurial-vault)",
    expression:
      "a = (aVault.totalAmount − locked profit still locked at clock.unixTimestamp) × aVaultLp.amount / aVaultLpMint.supply, b likewise; " +
      "curveType 0: b / a × 10^(decimalsA − decimalsB); curveType 1: the stable-swap marginal price dy/dx at amp, with a·tokenAMultiplier and b·tokenBMultiplier",
    pool: decodeMeteoraDammV1Pool,
    related: { aVault: decodeMeteoraVault, bVault: decodeMeteoraVault },
  },
  "meteora-damm-v2": {
    name: "q64-sqrt-price",
    version: "cp_amm 0.2.1 (damm-v2 @a3d3827, damm-v2-sdk 1.4.3)",
    expression: `${q64}; compounding pools (collectFeeMode 2): tokenBAmount / tokenAAmount × 10^(baseDecimals − quoteDecimals)`,
    pool: decodeMeteoraDammV2Pool,
  },
  "meteora-dbc": {
    name: "q64-sqrt-price",
    version: "dynamic_bonding_curve 0.1.10 (@b4f9547, DBC SDK 1.5.7)",
    expression: q64,
    pool: decodeMeteoraDbcPool,
    related: { config: decodeMeteoraDbcConfig },
  },  "raydium-launchlab": {
    name: "launchlab-curve",
    version: "raydium-cpi @62606b0 (raydium-sdk-V2 0.2.58-alpha launchpad curves)",
    expression:
      "globalConfig.curveType constant-product: (pool.virtualQuote + pool.realQuote) / (pool.virtualBase − pool.realBase); " +
      "fixed-price: pool.virtualQuote / pool.virtualBase; linear-price: pool.virtualBase × pool.realBase / 2^64; × 10^(pool.baseDecimals − pool.quoteDecimals)",
    pool: decodeRaydiumLaunchLabPool,
    related: { globalConfig: decodeRaydiumLaunchLabGlobalConfig },
  },
  "orca-whirlpool": {
    name: "q64-sqrt-price",
    version: "whirlpool 0.9.0 (orca-so/whirlpools @630c0e0, whirlpools-core 2.1.1)",
    expression: `${q64}: B per A, with mint A's and B's decimals`,
    pool: decodeOrcaWhirlpool,
  },
};

/** What a receipt needs of one account: its bytes as read and the slot of that read. */
interface Seen {
  readonly role: string;
  readonly address: Address;
  readonly account: AccountBytes;
  readonly slot: number;
}

type Decimals = z.infer<typeof decimalsSchema>;

/**
 * One pool's part of a receipt, captured from the accounts of a read: the accounts the pool's adapter consults (found by
 * running it again over a recording lookup) with the decimals it used. Holds bytes already in memory; no hashing yet.
 */
export interface PoolRead {
  readonly kind: PoolKind;
  readonly pool: Address;
  readonly mint: Address;
  /** the pool's price in its own orientation */
  readonly poolPrice: PoolPrice;
  readonly accounts: readonly Seen[];
  readonly decimals: readonly Decimals[];
}

/**
 * Captures the accounts behind `priced` (the chosen pool of `mint`). `mintInfo` is the mint's decoded account when the
 * caller read it (the adapter then takes its decimals from it, as pricing does).
 */
export function capturePoolRead(priced: Priced, mint: Address, mintInfo: Mint | undefined, lookup: AccountLookup, slotOf: (a: Address) => number): PoolRead {
  const seen = new Map<Address, Seen>();
  const roleOf = new Map<Address, string>();
  const decimals = new Map<Address, Decimals>();
  const note = (address: Address, fallbackRole: string) => {
    const account = lookup(address);
    if (account && !seen.has(address)) seen.set(address, { role: roleOf.get(address) ?? fallbackRole, address, account, slot: slotOf(address) });
  };
  const recording: AccountLookup = (a) => {
    note(a, "read");
    return lookup(a);
  };
  // As pricing's own decimalsOf (pool-evaluation.ts): the asked mint from its account, well-known mints from the table.
  const decimalsOf: DecimalsOf = (m) => {
    if (m === mint && mintInfo) {
      decimals.set(m, { mint: m, decimals: mintInfo.decimals, source: "mint account" });
      return mintInfo.decimals;
    }
    const known = WELL_KNOWN_DECIMALS.get(m);
    if (known !== undefined) {
      decimals.set(m, { mint: m, decimals: known, source: "well-known" });
      return known;
    }
    roleOf.set(m, m === mint ? "mint" : "quoteMint");
    const account = lookup(m);
    const value = decodeMint(account!).decimals;
    note(m, "quoteMint");
    decimals.set(m, { mint: m, decimals: value, source: "mint account" });
    return value;
  };
  const poolAccount = lookup(priced.pool)!;
  seen.set(priced.pool, { role: "pool", address: priced.pool, account: poolAccount, slot: slotOf(priced.pool) });
  const evaluation = priced.adapter.evaluate(poolAccount, mint, recording, decimalsOf);
  // The roles the adapter gives its related accounts name them in the receipt.
  for (const [role, address] of Object.entries(evaluation.related)) {
    roleOf.set(address, role);
    const entry = seen.get(address);
    if (entry) seen.set(address, { ...entry, role });
  }
  if (evaluation.kind !== "priced") throw new Error(`receipt: pool ${priced.pool} no longer prices from the accounts it was priced from`);
  return { kind: priced.adapter.kind, pool: priced.pool, mint, poolPrice: evaluation.price, accounts: [...seen.values()], decimals: [...decimals.values()] };
}

/** What the receipt of a price record is made of, besides the chosen pool's read. */
export interface ReceiptInputs {
  readonly slot: number;
  readonly mint: Address;
  readonly mintInfo: Mint;
  readonly pool: PoolRead;
  /** the token in the pool's other mint (oriented), and that mint's USD price */
  readonly priceInQuote: Ratio;
  readonly quoteUsd: Ratio;
  readonly circulating: bigint;
  /** accounts read besides the pool's: the mint, its burn accounts, its launch curve (for `graduated`) */
  readonly more: readonly { role: string; address: Address }[];
  readonly lookup: AccountLookup;
  readonly slotOf: (a: Address) => number;
  readonly solUsd: SolUsdSource;
}

/** Where SOL/USD came from: the Pyth account of the same read, or a pool read (its own, maybe earlier). */
export type SolUsdSource =
  | { readonly source: "pyth"; readonly price: Ratio; readonly publishTime: number; readonly maxAgeSeconds: number }
  | { readonly source: "pool"; readonly price: Ratio; readonly read: PoolRead };

/** The receipt of one price record. */
export async function buildPriceReceipt(inputs: ReceiptInputs): Promise<PriceReceipt> {
  const { pool, lookup, slotOf } = inputs;
  const accounts: Seen[] = [...pool.accounts];
  const listed = new Set(accounts.map((a) => a.address));
  for (const { role, address } of inputs.more) {
    const account = lookup(address);
    if (!account || listed.has(address)) continue;
    listed.add(address);
    accounts.push({ role, address, account, slot: slotOf(address) });
  }
  return {
    slot: inputs.slot,
    pool: pool.pool,
    formula: formulaOf(pool.kind),
    decimals: [...pool.decimals],
    result: resultOf(pool, inputs.priceInQuote, inputs.quoteUsd),
    circulatingSupply: inputs.circulating.toString(),
    accounts: await receiptAccounts(pool.kind, accounts),
    solUsd: await buildSolUsdReceipt(inputs.solUsd, lookup, slotOf),
  };
}

/** The SOL/USD part of a receipt: the Pyth account of the read, or the SOL/USD pool's own part. */
export async function buildSolUsdReceipt(source: SolUsdSource, lookup: AccountLookup, slotOf: (a: Address) => number): Promise<PriceReceipt["solUsd"]> {
  if (source.source === "pyth") {
    return {
      source: "pyth",
      priceInUsd: toDecimalString(source.price, significantDigits),
      publishTime: source.publishTime,
      maxAgeSeconds: source.maxAgeSeconds,
      accounts: await receiptAccounts("pyth", [{ role: "priceUpdate", address: PYTH_SOL_USD_PRICE_ACCOUNT, account: lookup(PYTH_SOL_USD_PRICE_ACCOUNT)!, slot: slotOf(PYTH_SOL_USD_PRICE_ACCOUNT) }]),
    };
  }
  return {
    source: "pool",
    priceInUsd: toDecimalString(source.price, significantDigits),
    pool: source.read.pool,
    formula: formulaOf(source.read.kind),
    result: solPoolResult(source.read, source.price),
    decimals: [...source.read.decimals],
    accounts: await receiptAccounts(source.read.kind, source.read.accounts),
  };
}


/**
 * One pool's accounts and formula, with `more` accounts read for it besides what pricing reads (a quote's fee configs
 * and tick or bin arrays), for receipts of answers other than a price record.
 */
export async function buildPoolReceipt(read: PoolRead, more: readonly { role: string; address: Address }[], lookup: AccountLookup, slotOf: (a: Address) => number): Promise<z.infer<typeof poolReceiptSchema>> {
  const accounts: Seen[] = [...read.accounts];
  const listed = new Set(accounts.map((a) => a.address));
  for (const { role, address } of more) {
    const account = lookup(address);
    if (!account || listed.has(address)) continue;
    listed.add(address);
    accounts.push({ role, address, account, slot: slotOf(address) });
  }
  return { pool: read.pool, formula: formulaOf(read.kind), decimals: [...read.decimals], accounts: await receiptAccounts(read.kind, accounts) };
}

function formulaOf(kind: PoolKind): PriceReceipt["formula"] {
  const f = receiptFormulas[kind];
  return { name: f.name, poolType: kind, program: descriptorOfKind[kind].program, version: f.version, expression: f.expression };
}

function resultOf(read: PoolRead, priceInQuote: Ratio, quoteUsd: Ratio): PriceReceipt["result"] {
  const tokenIsBase = read.poolPrice.baseMint === read.mint;
  return {
    poolPrice: toDecimalString(read.poolPrice.priceQuotePerBase, significantDigits),
    baseMint: read.poolPrice.baseMint,
    quoteMint: read.poolPrice.quoteMint,
    tokenIsBase,
    priceInQuote: toDecimalString(priceInQuote, significantDigits),
    quoteUsd: toDecimalString(quoteUsd, significantDigits),
  };
}

/** SOL in the SOL/USD pool's other (USD) mint, and that mint's USD price as the price applied it. */
function solPoolResult(read: PoolRead, solUsd: Ratio): PriceReceipt["result"] {
  const perQuote = read.poolPrice.baseMint === read.mint ? read.poolPrice.priceQuotePerBase : invert(read.poolPrice.priceQuotePerBase);
  return resultOf(read, perQuote, div(solUsd, perQuote));
}

async function receiptAccounts(kind: PoolKind | "pyth", seen: readonly Seen[]): Promise<ReceiptAccount[]> {
  return Promise.all(
    seen.map(async (s) => ({
      role: s.role,
      address: s.address,
      owner: s.account.owner,
      slot: s.slot,
      dataLength: s.account.data.length,
      sha256: await sha256Hex(s.account.data),
      fields: fieldsOf(kind, s),
    })),
  );
}

/** The decoded fields of one account, by what it is to the formula; {} when it is none we decode (never a failure). */
function fieldsOf(kind: PoolKind | "pyth", seen: Seen): Record<string, string | number | boolean | null> {
  const { account, role, address } = seen;
  try {
    if (kind === "pyth") return jsonFields(decodePriceUpdateV2(account));
    const formula = receiptFormulas[kind];
    if (role === "pool") return jsonFields(formula.pool(account));
    const own = formula.related?.[role];
    if (own) return jsonFields(own(account));
    if (address === SYSVAR_CLOCK_ADDRESS) return jsonFields(decodeClockSysvar(account));
    if (account.owner === TOKEN_PROGRAM_ADDRESS || account.owner === TOKEN_2022_PROGRAM_ADDRESS) {
      if (isMintRole(role)) {
        const mint = decodeMint(account);
        return { decimals: mint.decimals, supply: mint.supply.toString() };
      }
      const tokenAccount = decodeTokenAccount(account);
      return { mint: tokenAccount.mint, owner: tokenAccount.owner, amount: tokenAccount.amount.toString() };
    }
  } catch {
    // a field list is a help, not the proof (the hash is): an account we cannot decode here lists none
  }
  return {};
}

const isMintRole = (role: string) => role === "mint" || role === "quoteMint" || role.endsWith("LpMint");

/** Flattens a decoded account to JSON values: bigints as decimal strings, nested objects as `a.b`, bytes left out. */
function jsonFields(decoded: object, prefix = "", out: Record<string, string | number | boolean | null> = {}): Record<string, string | number | boolean | null> {
  for (const [key, value] of Object.entries(decoded)) {
    const name = prefix + key;
    if (typeof value === "bigint") out[name] = value.toString();
    else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null) out[name] = value;
    else if (value instanceof Uint8Array) continue;
    else if (typeof value === "object" && value !== undefined) jsonFields(value as object, `${name}.`, out);
  }
  return out;
}

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
