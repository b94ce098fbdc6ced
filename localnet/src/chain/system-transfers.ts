/**
 * The System Program as the localnet's runtime runs it. A transaction may call `Transfer` (what `requestAirdrop` and a
 * wallet's SOL transfer are); `CreateAccount`, `Allocate` and `Assign` run only as cross-program invocations (the
 * associated token account program creating an account). Errors and log lines are Agave's system processor's.
 */
import { RENT_EXEMPT_EPOCH } from "./cluster-constants.js";
import { encodeBase58 } from "./base58.js";
import type { InstructionErrorKind, Invocation, Program } from "./program.js";

/** SystemInstruction indexes, and SystemError codes (Custom). */
const CREATE_ACCOUNT = 0;
const ASSIGN = 1;
const TRANSFER = 2;
const ALLOCATE = 8;
const ACCOUNT_ALREADY_IN_USE = 0;
const RESULT_WITH_NEGATIVE_LAMPORTS = 1;
/** Compute units of any System instruction (the builtin's default cost). */
const SYSTEM_UNITS = 150;
const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111";

const inUse = (key: string) => `account Address { address: ${key}, base: None } already in use`;

/** Moves `lamports` from account index `from` to `to`, as `system_processor::transfer` (signer, data, balance checks). */
function transfer(inv: Invocation, from: number, to: number, lamports: bigint): InstructionErrorKind | null {
  const source = inv.account(from);
  if (!inv.isSigner(from)) {
    inv.logRaw(`Transfer: \`from\` account ${inv.key(from)} must sign`);
    return "MissingRequiredSignature";
  }
  if (source && source.data.length > 0) {
    inv.logRaw("Transfer: `from` must not carry data");
    return "InvalidArgument";
  }
  const balance = source?.lamports ?? 0n;
  if (balance < lamports) {
    inv.logRaw(`Transfer: insufficient lamports ${balance}, need ${lamports}`);
    return { Custom: RESULT_WITH_NEGATIVE_LAMPORTS };
  }
  if (lamports === 0n || from === to) return null;
  inv.write(from, { ...source!, lamports: balance - lamports });
  const target = inv.account(to) ?? emptyAccount();
  inv.write(to, { ...target, lamports: target.lamports + lamports });
  return null;
}

function emptyAccount() {
  return { lamports: 0n, owner: SYSTEM_PROGRAM_ID, data: new Uint8Array(0), executable: false, rentEpoch: RENT_EXEMPT_EPOCH };
}

function allocate(inv: Invocation, index: number, space: bigint, label: string): InstructionErrorKind | null {
  const state = inv.account(index) ?? emptyAccount();
  if (state.data.length > 0 || state.owner !== SYSTEM_PROGRAM_ID) {
    inv.logRaw(`${label}: ${inUse(inv.key(index))}`);
    return { Custom: ACCOUNT_ALREADY_IN_USE };
  }
  if (!inv.isSigner(index)) {
    inv.logRaw(`${label}: 'to' account ${inv.key(index)} must sign`);
    return "MissingRequiredSignature";
  }
  inv.write(index, { ...state, data: new Uint8Array(Number(space)) });
  return null;
}

function assign(inv: Invocation, index: number, owner: string): InstructionErrorKind | null {
  const state = inv.account(index) ?? emptyAccount();
  if (state.owner === owner) return null;
  if (!inv.isSigner(index)) {
    inv.logRaw(`Assign: account ${inv.key(index)} must sign`);
    return "MissingRequiredSignature";
  }
  inv.write(index, { ...state, owner });
  return null;
}

export const systemProgram: Program = {
  bpf: false,
  accepts: (ix) => ix.data.length === 12 && ix.accounts.length >= 2 && new DataView(ix.data.buffer, ix.data.byteOffset).getUint32(0, true) === TRANSFER,
  run(inv) {
    inv.consume(SYSTEM_UNITS);
    const { data, accounts } = inv;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data.length < 4) return "InvalidInstructionData";
    switch (view.getUint32(0, true)) {
      case TRANSFER:
        if (data.length !== 12) return "InvalidInstructionData";
        return transfer(inv, accounts[0]!, accounts[1]!, view.getBigUint64(4, true));
      case CREATE_ACCOUNT: {
        if (data.length !== 52) return "InvalidInstructionData";
        const [from, to] = accounts as [number, number];
        if ((inv.account(to)?.lamports ?? 0n) > 0n) {
          inv.logRaw(`Create Account: ${inUse(inv.key(to))}`);
          return { Custom: ACCOUNT_ALREADY_IN_USE };
        }
        const owner = encodeBase58(data.subarray(20, 52));
        return allocate(inv, to, view.getBigUint64(12, true), "Create Account") ?? assign(inv, to, owner) ?? transfer(inv, from, to, view.getBigUint64(4, true));
      }
      case ALLOCATE:
        if (data.length !== 12) return "InvalidInstructionData";
        return allocate(inv, accounts[0]!, view.getBigUint64(4, true), "Allocate");
      case ASSIGN:
        if (data.length !== 36) return "InvalidInstructionData";
        return assign(inv, accounts[0]!, encodeBase58(data.subarray(4, 36)));
      default:
        return "InvalidInstructionData";
    }
  },
};
