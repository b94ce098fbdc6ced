/**
 * The contract between the transaction runtime (transaction-runtime.ts) and the programs it executes (System, SPL
 * Token / Token-2022, Associated Token Account): what a program is, what it sees while one of its instructions runs,
 * and how it fails. Programs import this, never the runtime.
 */
import type { AccountState, Pubkey } from "./types.js";

/** An instruction error as Agave names it: a variant (`"InvalidArgument"`) or a program's `{ Custom: n }`. */
export type InstructionErrorKind = string | { Custom: number };

/** What a program sees of the transaction while one of its instructions runs. */
export interface Invocation {
  returnData: Uint8Array | undefined;
  readonly programId: Pubkey;
  /** The instruction's accounts, as indexes into the transaction's keys. */
  readonly accounts: readonly number[];
  readonly data: Uint8Array;
  key(index: number): Pubkey;
  /** Index in the transaction of `pubkey` (CPIs name their accounts by key). */
  indexOf(pubkey: Pubkey): number;
  account(index: number): AccountState | undefined;
  write(index: number, state: AccountState): void;
  isSigner(index: number): boolean;
  isWritable(index: number): boolean;
  log(line: string): void;
  /** A line as a builtin writes it (no `Program log:` prefix), e.g. the System Program's transfer failure. */
  logRaw(line: string): void;
  consume(units: number): void;
  /** A cross-program invocation of `programId` over `accounts` (keys), signing for the PDAs in `pdaSigners`. */
  invoke(programId: Pubkey, accounts: Pubkey[], data: Uint8Array, pdaSigners?: Pubkey[]): InstructionErrorKind | null;
}

/** One program the runtime can execute. */
export interface Program {
  /** On-chain programs log `consumed N of M compute units`; builtins do not. */
  bpf: boolean;
  /** Whether the localnet executes this instruction at all (judged from its bytes, before any account is read). */
  accepts(ix: { accounts: number[]; data: Uint8Array }, keys: readonly Pubkey[]): boolean;
  run(invocation: Invocation): InstructionErrorKind | null;
}

/** Raised by a program meeting state the localnet does not model (e.g. a Token-2022 transfer-fee mint). */
export class Unsupported extends Error {}
