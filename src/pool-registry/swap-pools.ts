import { getBase58Encoder, type Address } from "@solana/kit";
import {
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DBC_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CLMM_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
} from "../solana/well-known";
import type { RegisteredPool } from "./registry-store";

/**
 * Pools seen in swap instructions of a transaction (top-level and CPI), by the account positions of each venue's
 * swap instructions (VENUES.md). Used to fill the pool registry with pools that cannot be derived from a mint.
 */
export type DiscoveredPool = RegisteredPool;

/** The subset of a `getBlock`/`getTransaction` (encoding json) transaction this needs. */
export interface JsonTransaction {
  transaction: { message: { accountKeys: string[]; instructions: JsonInstruction[] } };
  meta: {
    err: unknown;
    innerInstructions?: { index: number; instructions: JsonInstruction[] }[] | null;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
    preTokenBalances?: { accountIndex: number; mint: string }[] | null;
    postTokenBalances?: { accountIndex: number; mint: string }[] | null;
  } | null;
}

interface JsonInstruction {
  programIdIndex: number;
  accounts: number[];
  data: string;
}

const base58 = getBase58Encoder();
const hex = (bytes: Uint8Array, n = 8) => Array.from(bytes.subarray(0, n), (b) => b.toString(16).padStart(2, "0")).join("");

const pumpSwapSwaps = new Set(["66063d1201daebea", "33e685a4017f83ad", "c62e1552b4d9e870"]);
const anchorSwaps = new Set(["f8c69e91e17587c8", "414b3f4ceb5b5b88"]); // swap, swap2 (DLMM, DAMM v2, DBC)
const dlmmSwaps = new Set([...anchorSwaps, "fa49652126cf4bb8", "2bd7f784893cf351", "38ade6d0ade49ccd", "4a62c0d6b1334b33"]);
const cpmmSwaps = new Set(["8fbe5adac41e33de", "37d96256a34ab4ad"]);
const clmmSwap = "f8c69e91e17587c8"; // swap: pool @2, vaults @5/6, mints only from token balances
const clmmSwapV2 = "2b04ed0b1ac91e62"; // swap_v2: the same, plus the vaults' mints @11/12

type Key = (position: number) => Address | undefined;

/** Per program: recognise a swap by its data and read the pool, mints and related accounts by position. */
const readers: Record<string, (data: Uint8Array, key: Key, count: number, mintOf: (a: Address) => Address | undefined) => DiscoveredPool | undefined> = {
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS]: (data, key, count, mintOf) => {
    const tag = data[0];
    let amm: Address | undefined, coinVault: Address | undefined, pcVault: Address | undefined;
    if ((tag === 9 || tag === 11) && (count === 17 || count === 18)) {
      const shift = count === 18 ? 1 : 0;
      [amm, coinVault, pcVault] = [key(1), key(4 + shift), key(5 + shift)];
    } else if ((tag === 16 || tag === 17) && count >= 8) {
      [amm, coinVault, pcVault] = [key(1), key(3), key(4)];
    } else return undefined;
    const coinMint = coinVault && mintOf(coinVault);
    const pcMint = pcVault && mintOf(pcVault);
    if (!amm || !coinVault || !pcVault || !coinMint || !pcMint) return undefined;
    return { address: amm, kind: "raydium-amm-v4", baseMint: coinMint, quoteMint: pcMint, related: { coinVault, pcVault } };
  },
  [PUMP_AMM_PROGRAM_ADDRESS]: (data, key) => {
    if (!pumpSwapSwaps.has(hex(data))) return undefined;
    const [pool, baseMint, quoteMint, baseVault, quoteVault] = [key(0), key(3), key(4), key(7), key(8)];
    if (!pool || !baseMint || !quoteMint || !baseVault || !quoteVault) return undefined;
    return { address: pool, kind: "pumpswap", baseMint, quoteMint, related: { baseVault, quoteVault } };
  },
  [METEORA_DBC_PROGRAM_ADDRESS]: (data, key) => {
    if (!anchorSwaps.has(hex(data))) return undefined;
    const [config, pool, baseMint, quoteMint] = [key(1), key(2), key(7), key(8)];
    if (!config || !pool || !baseMint || !quoteMint) return undefined;
    return { address: pool, kind: "meteora-dbc", baseMint, quoteMint, related: { config } };
  },
  [RAYDIUM_CPMM_PROGRAM_ADDRESS]: (data, key) => {
    if (!cpmmSwaps.has(hex(data))) return undefined;
    const [pool, inVault, outVault, inMint, outMint] = [key(3), key(6), key(7), key(10), key(11)];
    if (!pool || !inVault || !outVault || !inMint || !outMint) return undefined;
    return { address: pool, kind: "raydium-cpmm", baseMint: inMint, quoteMint: outMint, related: { inVault, outVault } };
  },
  // CLMM pools are derived against wSOL only (per config): pools quoted in USDC or any other mint are found here.
  [RAYDIUM_CLMM_PROGRAM_ADDRESS]: (data, key, count, mintOf) => {
    const disc = hex(data);
    if (!((disc === clmmSwap && count >= 10) || (disc === clmmSwapV2 && count >= 13))) return undefined;
    const [pool, inputVault, outputVault] = [key(2), key(5), key(6)];
    if (!pool || !inputVault || !outputVault) return undefined;
    const inMint = disc === clmmSwapV2 ? key(11) : mintOf(inputVault);
    const outMint = disc === clmmSwapV2 ? key(12) : mintOf(outputVault);
    if (!inMint || !outMint) return undefined;
    return { address: pool, kind: "raydium-clmm", baseMint: inMint, quoteMint: outMint, related: { inputVault, outputVault } };
  },
  [METEORA_DLMM_PROGRAM_ADDRESS]: (data, key) => {
    if (!dlmmSwaps.has(hex(data))) return undefined;
    const [pair, reserveX, reserveY, mintX, mintY] = [key(0), key(2), key(3), key(6), key(7)];
    if (!pair || !reserveX || !reserveY || !mintX || !mintY) return undefined;
    return { address: pair, kind: "meteora-dlmm", baseMint: mintX, quoteMint: mintY, related: { reserveX, reserveY } };
  },
  [METEORA_DAMM_V2_PROGRAM_ADDRESS]: (data, key) => {
    if (!anchorSwaps.has(hex(data))) return undefined;
    const [pool, vaultA, vaultB, mintA, mintB] = [key(1), key(4), key(5), key(6), key(7)];
    if (!pool || !vaultA || !vaultB || !mintA || !mintB) return undefined;
    return { address: pool, kind: "meteora-damm-v2", baseMint: mintA, quoteMint: mintB, related: { vaultA, vaultB } };
  },
};

/** Every pool swapped against in a successful transaction (deduplicated). Malformed instructions are skipped. */
export function discoverPoolsInTransaction(tx: JsonTransaction): DiscoveredPool[] {
  if (!tx.meta || tx.meta.err !== null) return [];
  const keys = [...tx.transaction.message.accountKeys, ...(tx.meta.loadedAddresses?.writable ?? []), ...(tx.meta.loadedAddresses?.readonly ?? [])] as Address[];
  const mintByIndex = new Map<number, Address>();
  for (const b of [...(tx.meta.preTokenBalances ?? []), ...(tx.meta.postTokenBalances ?? [])]) mintByIndex.set(b.accountIndex, b.mint as Address);
  const mintOf = (a: Address) => {
    const index = keys.indexOf(a);
    return index < 0 ? undefined : mintByIndex.get(index);
  };
  const found = new Map<Address, DiscoveredPool>();
  const instructions = [...tx.transaction.message.instructions, ...(tx.meta.innerInstructions ?? []).flatMap((i) => i.instructions)];
  for (const ix of instructions) {
    const program = keys[ix.programIdIndex];
    const read = program && readers[program];
    if (!read) continue;
    let data: Uint8Array;
    try {
      data = base58.encode(ix.data) as Uint8Array;
    } catch {
      continue;
    }
    const pool = read(data, (p) => keys[ix.accounts[p] ?? -1], ix.accounts.length, mintOf);
    if (pool && pool.baseMint !== pool.quoteMint) found.set(pool.address, pool);
  }
  return [...found.values()];
}
