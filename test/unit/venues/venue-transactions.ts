/**
 * Every instruction of a real transaction fixture (top level and inner), with its program, data bytes and accounts
 * resolved against the transaction's keys (static, then address-table loaded): what a venue's instruction readers see.
 */
import { getBase58Encoder, type Address } from "@solana/kit";
import type { JsonTransaction } from "../../../src/trades/json-transaction";
import { resolvedKeys } from "../trades/transaction-fixtures";

export interface FixtureInstruction {
  readonly program: string;
  readonly data: Uint8Array;
  readonly accounts: readonly Address[];
  /** the reader's view of the accounts */
  readonly key: (position: number) => Address | undefined;
  /** the top-level instruction it belongs to, and whether it is that instruction itself */
  readonly topLevel: number;
  readonly inner: boolean;
}

type RawInstruction = { programIdIndex: number; accounts: number[]; data: string };

export function instructionsOf(tx: JsonTransaction): FixtureInstruction[] {
  const keys = resolvedKeys(tx) as Address[];
  const base58 = getBase58Encoder();
  const view = (ix: RawInstruction, topLevel: number, inner: boolean): FixtureInstruction => {
    const accounts = ix.accounts.map((i) => keys[i]!);
    return { program: keys[ix.programIdIndex]!, data: base58.encode(ix.data) as Uint8Array, accounts, key: (p) => accounts[p], topLevel, inner };
  };
  const top = tx.transaction.message.instructions as unknown as RawInstruction[];
  const inner = (tx.meta?.innerInstructions ?? []) as unknown as { index: number; instructions: RawInstruction[] }[];
  return top.flatMap((ix, i) => [view(ix, i, false), ...(inner.find((set) => set.index === i)?.instructions ?? []).map((sub) => view(sub, i, true))]);
}

/** The base64 payloads of the transaction's `Program data:` log lines (Anchor `emit!` events), in order. */
export function programDataLogs(tx: JsonTransaction): Uint8Array[] {
  const logs = ((tx.meta as { logMessages?: string[] } | null | undefined)?.logMessages ?? []) as string[];
  return logs.filter((line) => line.startsWith("Program data: ")).map((line) => new Uint8Array(Buffer.from(line.slice("Program data: ".length), "base64")));
}
