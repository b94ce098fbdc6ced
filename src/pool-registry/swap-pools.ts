import { getBase58Encoder, type Address } from "@solana/kit";
import { swapPoolReaders } from "../venues/swap-pool-readers";
import type { RegisteredPool } from "./registry-store";

/**
 * Pools seen in swap instructions of a transaction (top-level and CPI), read by each venue's own swap-instruction
 * reader (venues/swap-pool-readers.ts). Used to fill the pool registry with pools that cannot be derived from a mint.
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
    const read = program && swapPoolReaders[program];
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
