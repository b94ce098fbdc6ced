/**
 * The transactions the localnet executes besides its world's: System Program transfers (what `requestAirdrop` and a
 * wallet's SOL transfer are), with Compute Budget instructions accepted and ignored. Execution follows the runtime's
 * outline: the fee (5,000 lamports per signature) is charged first; a failing instruction undoes the transfers and
 * leaves the fee charged, with the System Program's error and log lines.
 */
import { LAMPORTS_PER_SIGNATURE, RENT_EXEMPT_EPOCH } from "./cluster-constants.js";
import { SYSTEM_PROGRAM_ID } from "./program-ids.js";
import type { AccountState, Pubkey, TxMessage, TxRecord } from "./types.js";

export const COMPUTE_BUDGET_PROGRAM_ID = "ComputeBudget111111111111111111111111111111";
/** System Program instruction index of Transfer, and SystemError::ResultWithNegativeLamports (Custom 1). */
const SYSTEM_TRANSFER = 2;
const RESULT_WITH_NEGATIVE_LAMPORTS = 1;
/** Compute units a System transfer / a Compute Budget instruction costs (the builtins' default costs). */
const SYSTEM_UNITS = 150n;
const COMPUTE_BUDGET_UNITS = 150n;

/** A transaction accepted by sendTransaction (or made by requestAirdrop), executed in the next produced slot. */
export interface PendingTransaction {
  signatures: string[];
  message: TxMessage;
  version: "legacy" | 0;
}

interface Transfer {
  from: number;
  to: number;
  lamports: bigint;
}

/** Each instruction as a transfer (or null for Compute Budget), or the index of the first one the localnet cannot run. */
export function transferPlan(message: TxMessage): { ok: true; steps: (Transfer | null)[] } | { ok: false; index: number } {
  const steps: (Transfer | null)[] = [];
  for (const [index, ix] of message.instructions.entries()) {
    const program = message.accountKeys[ix.programIdIndex];
    if (program === COMPUTE_BUDGET_PROGRAM_ID) {
      steps.push(null);
      continue;
    }
    const data = ix.data;
    if (program !== SYSTEM_PROGRAM_ID || data.length !== 12 || ix.accounts.length < 2) return { ok: false, index };
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (view.getUint32(0, true) !== SYSTEM_TRANSFER) return { ok: false, index };
    steps.push({ from: ix.accounts[0]!, to: ix.accounts[1]!, lamports: view.getBigUint64(4, true) });
  }
  return { ok: true, steps };
}

export interface Execution {
  record: TxRecord;
  /** Accounts to write (null = delete: a system account drained to 0). */
  writes: [Pubkey, AccountState | null][];
}

/**
 * Runs `tx` against `read` (the bank's accounts). Undefined when it cannot be included at all (not a transfer-only
 * transaction, or a fee payer that cannot pay the fee: the runtime drops those without a trace).
 */
export function executeTransfers(tx: PendingTransaction, read: (pubkey: Pubkey) => AccountState | undefined): Execution | undefined {
  const plan = transferPlan(tx.message);
  if (!plan.ok) return undefined;
  const keys = tx.message.accountKeys;
  const pre = keys.map((key) => read(key)?.lamports ?? 0n);
  const fee = BigInt(LAMPORTS_PER_SIGNATURE * tx.message.header.numRequiredSignatures);
  if (pre[0]! < fee) return undefined;
  let post = pre.slice();
  post[0]! -= fee;
  const afterFee = post.slice();
  const logs: string[] = [];
  let units = 0n;
  let err: TxRecord["meta"]["err"] = null;
  for (const [index, step] of plan.steps.entries()) {
    const program = keys[tx.message.instructions[index]!.programIdIndex]!;
    logs.push(`Program ${program} invoke [1]`);
    if (step === null) {
      units += COMPUTE_BUDGET_UNITS;
      logs.push(`Program ${program} success`);
      continue;
    }
    units += SYSTEM_UNITS;
    if (step.from >= tx.message.header.numRequiredSignatures) {
      logs.push(`Program ${program} failed: missing required signature for instruction`);
      err = { InstructionError: [index, "MissingRequiredSignature"] };
      break;
    }
    if (post[step.from]! < step.lamports) {
      logs.push(`Transfer: insufficient lamports ${post[step.from]}, need ${step.lamports}`);
      logs.push(`Program ${program} failed: custom program error: 0x${RESULT_WITH_NEGATIVE_LAMPORTS.toString(16)}`);
      err = { InstructionError: [index, { Custom: RESULT_WITH_NEGATIVE_LAMPORTS }] };
      break;
    }
    post[step.from]! -= step.lamports;
    post[step.to]! += step.lamports;
    logs.push(`Program ${program} success`);
  }
  if (err !== null) post = afterFee;
  const writes: [Pubkey, AccountState | null][] = [];
  keys.forEach((key, i) => {
    if (post[i] === pre[i] || writes.some(([k]) => k === key)) return;
    const state = read(key) ?? { lamports: 0n, owner: SYSTEM_PROGRAM_ID, data: new Uint8Array(0), executable: false, rentEpoch: RENT_EXEMPT_EPOCH };
    const drained = post[i] === 0n && state.owner === SYSTEM_PROGRAM_ID && state.data.length === 0;
    writes.push([key, drained ? null : { ...state, lamports: post[i]! }]);
  });
  const record: TxRecord = {
    signatures: tx.signatures,
    message: tx.message,
    version: tx.version,
    meta: {
      err,
      fee,
      preBalances: pre,
      postBalances: post,
      preTokenBalances: [],
      postTokenBalances: [],
      innerInstructions: [],
      logMessages: logs,
      computeUnitsConsumed: units,
    },
  };
  return { record, writes };
}
