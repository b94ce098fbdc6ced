/**
 * The runtime for submitted transactions (sendTransaction, requestAirdrop): the programs the localnet can execute, run
 * the way Agave's bank does. The fee payer is checked and charged first (a payer that cannot pay makes the transaction
 * unloadable: dropped, never recorded); instructions then run in order, each logged as `Program X invoke [1]` … and, for
 * on-chain (BPF) programs, `consumed N of M compute units`; the first failing instruction undoes every change but the
 * fee. Token balances of the transaction's token accounts are collected before and after, as Agave's
 * `collect_token_balances`.
 *
 * Programs: System `Transfer`, Compute Budget (limits read, price ignored), SPL Token / Token-2022 `Transfer` and
 * `TransferChecked`, Associated Token Account `Create` / `CreateIdempotent`. Anything else is unsupported: the
 * transaction is refused, never executed.
 */
import { LAMPORTS_PER_SIGNATURE } from "./cluster-constants.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, RESERVED_ACCOUNT_KEYS, SYSTEM_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./program-ids.js";
import { associatedTokenAccountProgram } from "./associated-token-accounts.js";
import { systemProgram } from "./system-transfers.js";
import { tokenBalancesOf } from "./token-balances.js";
import { tokenProgram } from "./token-transfers.js";
import { Unsupported, type InstructionErrorKind, type Invocation, type Program } from "./program.js";
import type { AccountState, CompiledInstruction, Pubkey, TxMessage, TxRecord } from "./types.js";

export const COMPUTE_BUDGET_PROGRAM_ID = "ComputeBudget111111111111111111111111111111";

/** A transaction accepted by sendTransaction (or made by requestAirdrop), executed in the next produced slot. */
export interface PendingTransaction {
  signatures: string[];
  message: TxMessage;
  version: "legacy" | 0;
}

/** Agave's InstructionError: a unit variant's name, or `{Custom: n}`. */

/** `Display` of Agave's InstructionError, as in `Program X failed: …` and preflight messages. */
const INSTRUCTION_ERROR_TEXT: Record<string, string> = {
  MissingRequiredSignature: "missing required signature for instruction",
  InvalidAccountData: "invalid account data for instruction",
  InvalidInstructionData: "invalid instruction data",
  IncorrectProgramId: "incorrect program id for instruction",
  UninitializedAccount: "instruction requires an initialized account",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  IllegalOwner: "Provided owner is not allowed",
  NotEnoughAccountKeys: "insufficient account keys for instruction",
  ReadonlyDataModified: "instruction modified data of a read-only account",
  ReadonlyLamportChange: "instruction changed the balance of a read-only account",
  PrivilegeEscalation: "Cross-program invocation with unauthorized signer or writable account",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  InvalidArgument: "invalid program argument",
  UnsupportedProgramId: "Unsupported program id",
  MissingAccount: "An account required by the instruction is missing",
};

export function instructionErrorText(err: InstructionErrorKind): string {
  if (typeof err === "object") return `custom program error: 0x${err.Custom.toString(16)}`;
  return INSTRUCTION_ERROR_TEXT[err] ?? err;
}

/** Why a transaction cannot be loaded (Agave's TransactionError before execution) and its `Display`. */
export type LoadError = "AccountNotFound" | "InvalidAccountForFee" | "InsufficientFundsForFee";
export const LOAD_ERROR_TEXT: Record<LoadError, string> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  InvalidAccountForFee: "This account may not be used to pay transaction fees",
  InsufficientFundsForFee: "Insufficient funds for fee",
};

/** Agave's default compute budget: 200,000 units per non-builtin instruction, 3,000 per builtin, at most 1.4M. */
const DEFAULT_INSTRUCTION_UNITS = 200_000;
const BUILTIN_INSTRUCTION_UNITS = 3_000;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;
/** Compute Budget instruction SetComputeUnitLimit (u32 units). */
const SET_COMPUTE_UNIT_LIMIT = 2;
/** Cost of a Compute Budget instruction (a builtin's default cost). */
const COMPUTE_BUDGET_UNITS = 150;

const computeBudgetProgram: Program = {
  bpf: false,
  accepts: (ix) => ix.data.length > 0 && ix.data[0]! >= 1 && ix.data[0]! <= 4,
  run(invocation) {
    invocation.consume(COMPUTE_BUDGET_UNITS);
    return null;
  },
};

let registry: Map<Pubkey, Program> | undefined;

/** The executable programs by id (built on first use: the program modules import this one). */
function programs(): Map<Pubkey, Program> {
  registry ??= new Map<Pubkey, Program>([
    [SYSTEM_PROGRAM_ID, systemProgram],
    [COMPUTE_BUDGET_PROGRAM_ID, computeBudgetProgram],
    [TOKEN_PROGRAM_ID, tokenProgram],
    [TOKEN_2022_PROGRAM_ID, tokenProgram],
    [ASSOCIATED_TOKEN_PROGRAM_ID, associatedTokenAccountProgram],
  ]);
  return registry;
}

/**
 * Index of the first instruction the localnet cannot execute, or -1 when it can run them all (and they do something
 * besides setting compute budget).
 */
export function unsupportedInstruction(message: TxMessage): number {
  let acting = false;
  for (const [index, ix] of message.instructions.entries()) {
    const programId = message.accountKeys[ix.programIdIndex];
    const program = programId === undefined ? undefined : programs().get(programId);
    if (!program || !program.accepts(ix, message.accountKeys)) return index;
    if (programId !== COMPUTE_BUDGET_PROGRAM_ID) acting = true;
  }
  return acting ? -1 : 0;
}

function computeUnitLimit(message: TxMessage): number {
  let limit: number | undefined;
  let builtins = 0;
  let others = 0;
  for (const ix of message.instructions) {
    const programId = message.accountKeys[ix.programIdIndex]!;
    if (programId === COMPUTE_BUDGET_PROGRAM_ID && ix.data[0] === SET_COMPUTE_UNIT_LIMIT && ix.data.length === 5) {
      limit = new DataView(ix.data.buffer, ix.data.byteOffset).getUint32(1, true);
    }
    if (programs().get(programId)?.bpf) others++;
    else builtins++;
  }
  return Math.min(limit ?? others * DEFAULT_INSTRUCTION_UNITS + builtins * BUILTIN_INSTRUCTION_UNITS, MAX_COMPUTE_UNIT_LIMIT);
}

/** Agave `is_writable`: the header's writable sections, minus reserved keys and keys invoked as programs. */
function writableFlags(message: TxMessage): boolean[] {
  const { header, accountKeys, instructions } = message;
  const programs = new Set(instructions.map((ix) => ix.programIdIndex));
  const signed = header.numRequiredSignatures;
  return accountKeys.map((key, i) => {
    const byHeader = i < signed ? i < signed - header.numReadonlySignedAccounts : i < accountKeys.length - header.numReadonlyUnsignedAccounts;
    return byHeader && !RESERVED_ACCOUNT_KEYS.has(key) && !programs.has(i);
  });
}

/** The transaction being executed: its working account states, logs, compute meter and inner instructions. */
class TransactionRun {
  readonly keys: readonly Pubkey[];
  readonly writable: boolean[];
  readonly states: (AccountState | undefined)[];
  readonly logs: string[] = [];
  readonly inner: CompiledInstruction[] = [];
  used = 0;

  constructor(
    readonly tx: PendingTransaction,
    states: (AccountState | undefined)[],
    readonly limit: number,
  ) {
    this.keys = tx.message.accountKeys;
    this.writable = writableFlags(tx.message);
    this.states = states.slice();
  }

  /** Runs one instruction at `depth` (1 = top level, 2 = a CPI, recorded as an inner instruction). */
  invoke(depth: number, programIdIndex: number, accounts: number[], data: Uint8Array, pdaSigners: ReadonlySet<number> = new Set()): InstructionErrorKind | null {
    const programId = this.keys[programIdIndex]!;
    const program = programs().get(programId)!;
    this.logs.push(`Program ${programId} invoke [${depth}]`);
    if (depth > 1) this.inner.push({ programIdIndex, accounts, data, stackHeight: depth });
    const remaining = this.limit - this.used;
    const before = this.used;
    const invocation = new RuntimeInvocation(this, depth, programId, accounts, data, pdaSigners);
    let err = program.run(invocation);
    if (this.used > this.limit) {
      this.used = this.limit;
      err = "ComputationalBudgetExceeded";
    }
    if (program.bpf) this.logs.push(`Program ${programId} consumed ${this.used - before} of ${remaining} compute units`);
    if (err === null && invocation.returnData) this.logs.push(`Program return: ${programId} ${Buffer.from(invocation.returnData).toString("base64")}`);
    this.logs.push(err === null ? `Program ${programId} success` : `Program ${programId} failed: ${instructionErrorText(err)}`);
    return err;
  }
}

/** The runtime's side of an invocation (programs see the `Invocation` of chain/program.ts). */
class RuntimeInvocation implements Invocation {
  returnData: Uint8Array | undefined;

  constructor(
    private readonly run: TransactionRun,
    private readonly depth: number,
    readonly programId: Pubkey,
    /** The instruction's accounts, as indexes into the transaction's keys. */
    readonly accounts: readonly number[],
    readonly data: Uint8Array,
    /** Program-derived addresses the caller signs for (`invoke_signed`). */
    private readonly pdaSigners: ReadonlySet<number>,
  ) {}

  key(index: number): Pubkey {
    return this.run.keys[index]!;
  }

  /** Index in the transaction of `pubkey` (CPIs name their accounts by key). */
  indexOf(pubkey: Pubkey): number {
    return this.run.keys.indexOf(pubkey);
  }

  account(index: number): AccountState | undefined {
    return this.run.states[index];
  }

  write(index: number, state: AccountState): void {
    this.run.states[index] = state;
  }

  isSigner(index: number): boolean {
    return index < this.run.tx.message.header.numRequiredSignatures || this.pdaSigners.has(index);
  }

  isWritable(index: number): boolean {
    return this.run.writable[index]!;
  }

  log(line: string): void {
    this.run.logs.push(`Program log: ${line}`);
  }

  /** A line as a builtin writes it (no `Program log:` prefix), e.g. the System Program's transfer failure. */
  logRaw(line: string): void {
    this.run.logs.push(line);
  }

  consume(units: number): void {
    this.run.used += units;
  }

  /**
   * A cross-program invocation of `programId` over `accounts` (keys; all must be among the transaction's), signing for
   * the program-derived addresses in `pdaSigners`.
   */
  invoke(programId: Pubkey, accounts: Pubkey[], data: Uint8Array, pdaSigners: Pubkey[] = []): InstructionErrorKind | null {
    const programIndex = this.indexOf(programId);
    const indexes = accounts.map((key) => this.indexOf(key));
    if (programIndex < 0 || indexes.some((i) => i < 0)) return "MissingAccount";
    return this.run.invoke(this.depth + 1, programIndex, indexes, data, new Set(pdaSigners.map((key) => this.indexOf(key))));
  }
}

export type Outcome =
  | { kind: "executed"; record: TxRecord; writes: [Pubkey, AccountState | null][] }
  /** The fee payer cannot pay: Agave drops the transaction before execution; nothing is recorded. */
  | { kind: "dropped"; err: LoadError }
  /** An instruction the localnet does not execute (by its bytes, or by the state it meets). */
  | { kind: "unsupported"; index: number };

/** Agave `validate_fee_payer` for a payer without a nonce: a System account holding at least the fee. */
function feePayerError(payer: AccountState | undefined, fee: bigint): LoadError | undefined {
  if (!payer || payer.lamports === 0n) return "AccountNotFound";
  if (payer.owner !== SYSTEM_PROGRAM_ID || payer.data.length !== 0) return "InvalidAccountForFee";
  if (payer.lamports < fee) return "InsufficientFundsForFee";
  return undefined;
}

export function transactionFee(message: TxMessage): bigint {
  return BigInt(LAMPORTS_PER_SIGNATURE * message.header.numRequiredSignatures);
}

/** Runs `tx` against `read` (the bank's accounts). */
export function executeTransaction(tx: PendingTransaction, read: (pubkey: Pubkey) => AccountState | undefined): Outcome {
  const { message } = tx;
  const unsupported = unsupportedInstruction(message);
  if (unsupported >= 0) return { kind: "unsupported", index: unsupported };
  const keys = message.accountKeys;
  const preStates = keys.map((key) => read(key));
  const fee = transactionFee(message);
  const payerError = feePayerError(preStates[0], fee);
  if (payerError) return { kind: "dropped", err: payerError };
  const afterFee = preStates.slice();
  afterFee[0] = { ...preStates[0]!, lamports: preStates[0]!.lamports - fee };
  const run = new TransactionRun(tx, afterFee, computeUnitLimit(message));
  const invoked = new Set(message.instructions.map((ix) => ix.programIdIndex));
  const innerInstructions: TxRecord["meta"]["innerInstructions"] = [];
  let err: TxRecord["meta"]["err"] = null;
  let current = 0;
  try {
    for (const [index, ix] of message.instructions.entries()) {
      current = index;
      const failure = run.invoke(1, ix.programIdIndex, ix.accounts, ix.data);
      if (run.inner.length > 0) innerInstructions.push({ index, instructions: run.inner.splice(0) });
      if (failure !== null) {
        err = { InstructionError: [index, failure] };
        break;
      }
    }
  } catch (thrown) {
    if (thrown instanceof Unsupported) return { kind: "unsupported", index: current };
    throw thrown;
  }
  const postStates = err === null ? run.states : afterFee;
  const writes: [Pubkey, AccountState | null][] = [];
  keys.forEach((key, i) => {
    const post = postStates[i];
    if (post === preStates[i] || post === undefined) return;
    writes.push([key, post.lamports === 0n ? null : post]);
  });
  const mintOf = (pubkey: Pubkey, states: (AccountState | undefined)[]) => {
    const i = keys.indexOf(pubkey);
    return i >= 0 ? states[i] : read(pubkey);
  };
  const record: TxRecord = {
    signatures: tx.signatures,
    message,
    version: tx.version,
    meta: {
      err,
      fee,
      preBalances: preStates.map((s) => s?.lamports ?? 0n),
      postBalances: postStates.map((s) => s?.lamports ?? 0n),
      preTokenBalances: tokenBalancesOf(preStates, invoked, (mint) => mintOf(mint, preStates)),
      postTokenBalances: tokenBalancesOf(postStates, invoked, (mint) => mintOf(mint, postStates)),
      innerInstructions,
      logMessages: run.logs,
      computeUnitsConsumed: BigInt(run.used),
    },
  };
  return { kind: "executed", record, writes };
}
