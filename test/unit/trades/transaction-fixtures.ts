/**
 * Real mainnet transactions from test/fixtures/transactions (provenance in test/fixtures/SOURCES.md), and an oracle for
 * what a pool account's balance did in them, computed from the meta alone (independent of the extraction code).
 */
import { readFileSync } from "node:fs";
import { fixturePath } from "../../helpers/fixtures";
import type { JsonTransaction } from "../../../src/trades/json-transaction";

/** A transaction fixture: `getTransaction`-like JSON, a getBlock-style `[tx]` array, or (Carbon core) a bare meta. */
export function loadTransaction(relative: string): JsonTransaction {
  const raw = JSON.parse(readFileSync(fixturePath(`transactions/${relative}`), "utf8")) as unknown;
  const tx = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown>;
  if (!("transaction" in tx)) {
    // Carbon core fixtures hold only the meta: give them an empty message (their inner instructions name no known keys)
    return { transaction: { signatures: [], message: { accountKeys: [], instructions: [] } }, meta: tx as unknown as JsonTransaction["meta"] };
  }
  return tx as unknown as JsonTransaction;
}

/** A deep copy to edit for a synthetic case. */
export function copyOf<T>(value: T): T {
  return structuredClone(value);
}

/** Keys as the transaction resolves them: static, then address-table loaded (writable, readonly). */
export function resolvedKeys(tx: JsonTransaction): string[] {
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

/** post − pre of an account's token amount (absent before = 0) or, with `lamports`, of its lamports. */
export function balanceChange(tx: JsonTransaction, account: string, lamports = false): bigint {
  const index = resolvedKeys(tx).indexOf(account);
  if (index < 0) throw new Error(`${account} is not in the transaction`);
  const meta = tx.meta!;
  if (lamports) return BigInt(meta.postBalances![index]!) - BigInt(meta.preBalances![index]!);
  const amount = (list: typeof meta.preTokenBalances) => BigInt(list?.find((b) => b.accountIndex === index)?.uiTokenAmount.amount ?? "0");
  return amount(meta.postTokenBalances) - amount(meta.preTokenBalances);
}

export const WSOL = "So11111111111111111111111111111111111111112";
export const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
export const at = { slot: 1, blockTime: 1_700_000_000, txIndex: 7 };
