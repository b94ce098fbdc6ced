/**
 * SPL Token and Token-2022 as the localnet's runtime runs them, following the programs' processors. A transaction may
 * call `Transfer` (3) and `TransferChecked` (12); `GetAccountDataSize` (21), `InitializeImmutableOwner` (22) and
 * `InitializeAccount3` (18) run as the associated token account program's cross-program invocations.
 *
 * Token-2022 state with extensions that change what a transfer does (transfer fees, hooks, non-transferable, confidential,
 * pausable, memo-required, CPI guard, permanent delegate, default state, interest/scaled amounts, ...) is not modelled:
 * meeting it makes the transaction unsupported (refused, never executed). Mints with only passive extensions (close
 * authority, metadata / group pointers and their data) and accounts with only ImmutableOwner run.
 */
import { decodeBase58, encodeBase58 } from "./base58.js";
import { minimumBalanceForRentExemption } from "./cluster-constants.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./program-ids.js";
import { Unsupported, type InstructionErrorKind, type Invocation, type Program } from "./program.js";
import type { AccountState, Pubkey } from "./types.js";

const INITIALIZE_ACCOUNT_3 = 18;
const TRANSFER = 3;
const TRANSFER_CHECKED = 12;
const GET_ACCOUNT_DATA_SIZE = 21;
const INITIALIZE_IMMUTABLE_OWNER = 22;

/** Layouts: Account 165 bytes, Mint 82, Multisig 355; Token-2022 extensions after an AccountType byte @165. */
export const TOKEN_ACCOUNT_LENGTH = 165;
const MINT_LENGTH = 82;
const MULTISIG_LENGTH = 355;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;
const EXTENSION_IMMUTABLE_OWNER = 7;
/** Token-2022 extensions a transfer can ignore: MintCloseAuthority, Metadata/Group/GroupMember pointers and data. */
const PASSIVE_MINT_EXTENSIONS = new Set([3, 18, 19, 20, 21, 22, 23]);
const PASSIVE_ACCOUNT_EXTENSIONS = new Set([EXTENSION_IMMUTABLE_OWNER]);
/** Token-2022 account of an associated token address: the base, the AccountType byte, an empty ImmutableOwner TLV. */
const TOKEN_2022_ATA_LENGTH = TOKEN_ACCOUNT_LENGTH + 1 + 4;

/** TokenError codes (Custom) and the processors' `PrintProgramError` lines. */
const TOKEN_ERROR_TEXT: Record<number, string> = {
  1: "insufficient funds",
  3: "Account not associated with this Mint",
  4: "owner does not match",
  14: "Operation overflowed",
  17: "Account is frozen",
  18: "decimals different from the Mint decimals",
};
const INSUFFICIENT_FUNDS = { Custom: 1 };
const MINT_MISMATCH = { Custom: 3 };
const OWNER_MISMATCH = { Custom: 4 };
const OVERFLOW = { Custom: 14 };
const ACCOUNT_FROZEN = { Custom: 17 };
const MINT_DECIMALS_MISMATCH = { Custom: 18 };

/**
 * Compute units per instruction: mainnet figures from real transaction logs (spl-token 3.x: Transfer 4,644,
 * TransferChecked 6,199, and inside an ATA Create GetAccountDataSize 1,622, InitializeImmutableOwner 1,405,
 * InitializeAccount3 4,241; Token-2022: TransferChecked 2,442 — also used for its Transfer —, GetAccountDataSize 2,941,
 * InitializeImmutableOwner 1,924, InitializeAccount3 taken as spl-token's).
 */
const UNITS: Record<string, Record<number, number>> = {
  [TOKEN_PROGRAM_ID]: { [TRANSFER]: 4_644, [TRANSFER_CHECKED]: 6_199, [GET_ACCOUNT_DATA_SIZE]: 1_622, [INITIALIZE_IMMUTABLE_OWNER]: 1_405, [INITIALIZE_ACCOUNT_3]: 4_241 },
  [TOKEN_2022_PROGRAM_ID]: { [TRANSFER]: 2_442, [TRANSFER_CHECKED]: 2_442, [GET_ACCOUNT_DATA_SIZE]: 2_941, [INITIALIZE_IMMUTABLE_OWNER]: 1_924, [INITIALIZE_ACCOUNT_3]: 4_241 },
};

const INSTRUCTION_NAMES: Record<number, string> = {
  [TRANSFER]: "Transfer",
  [TRANSFER_CHECKED]: "TransferChecked",
  [GET_ACCOUNT_DATA_SIZE]: "GetAccountDataSize",
  [INITIALIZE_IMMUTABLE_OWNER]: "InitializeImmutableOwner",
  [INITIALIZE_ACCOUNT_3]: "InitializeAccount3",
};

/** Size of a new associated token account of `tokenProgram` (what GetAccountDataSize answers for ImmutableOwner). */
export function associatedAccountLength(tokenProgram: Pubkey): number {
  return tokenProgram === TOKEN_2022_PROGRAM_ID ? TOKEN_2022_ATA_LENGTH : TOKEN_ACCOUNT_LENGTH;
}

/** The processor's error line (`Error: …`), then the error itself. */
function fail(inv: Invocation, err: InstructionErrorKind): InstructionErrorKind {
  inv.log(`Error: ${typeof err === "object" ? TOKEN_ERROR_TEXT[err.Custom] : err}`);
  return err;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Types of the TLV extensions from @166 (stops at an uninitialized entry). */
function extensionTypes(data: Uint8Array): number[] {
  const types: number[] = [];
  const v = view(data);
  for (let at = TOKEN_ACCOUNT_LENGTH + 1; at + 4 <= data.length; ) {
    const type = v.getUint16(at, true);
    if (type === 0) break;
    types.push(type);
    at += 4 + v.getUint16(at + 2, true);
  }
  return types;
}

function requirePassive(data: Uint8Array, passive: ReadonlySet<number>): void {
  const active = extensionTypes(data).filter((type) => !passive.has(type));
  if (active.length > 0) throw new Unsupported(`Token-2022 extensions ${active.join(", ")}`);
}

interface TokenAccount {
  state: AccountState;
  mint: Pubkey;
  owner: Pubkey;
  amount: bigint;
  delegate: Pubkey | null;
  delegatedAmount: bigint;
  frozen: boolean;
  native: boolean;
}

/** `Account::unpack` (Tokenkeg: exactly 165 bytes; Token-2022: `StateWithExtensions<Account>`), owner checked. */
function unpackAccount(inv: Invocation, index: number): TokenAccount | InstructionErrorKind {
  const state = inv.account(index);
  if (!state || state.owner !== inv.programId) return "IncorrectProgramId";
  const { data } = state;
  const is2022 = inv.programId === TOKEN_2022_PROGRAM_ID;
  const layoutOk =
    data.length === TOKEN_ACCOUNT_LENGTH ||
    (is2022 && data.length > TOKEN_ACCOUNT_LENGTH && data.length !== MULTISIG_LENGTH && data[TOKEN_ACCOUNT_LENGTH] === ACCOUNT_TYPE_ACCOUNT);
  if (!layoutOk) return "InvalidAccountData";
  const status = data[108]!;
  if (status === 0) return "UninitializedAccount";
  if (status > 2) return "InvalidAccountData";
  if (is2022) requirePassive(data, PASSIVE_ACCOUNT_EXTENSIONS);
  const v = view(data);
  return {
    state,
    mint: encodeBase58(data.subarray(0, 32)),
    owner: encodeBase58(data.subarray(32, 64)),
    amount: v.getBigUint64(64, true),
    delegate: v.getUint32(72, true) === 1 ? encodeBase58(data.subarray(76, 108)) : null,
    delegatedAmount: v.getBigUint64(121, true),
    frozen: status === 2,
    native: v.getUint32(109, true) === 1,
  };
}

/** `Mint::unpack` (Token-2022: with extensions), owner checked; the mint's decimals. */
function unpackMint(inv: Invocation, index: number): number | InstructionErrorKind {
  const state = inv.account(index);
  if (!state || state.owner !== inv.programId) return "IncorrectProgramId";
  const { data } = state;
  const is2022 = inv.programId === TOKEN_2022_PROGRAM_ID;
  const layoutOk = data.length === MINT_LENGTH || (is2022 && data.length > TOKEN_ACCOUNT_LENGTH && data[TOKEN_ACCOUNT_LENGTH] === ACCOUNT_TYPE_MINT);
  if (!layoutOk) return "InvalidAccountData";
  if (data[45] !== 1) return "UninitializedAccount";
  if (is2022) requirePassive(data, PASSIVE_MINT_EXTENSIONS);
  return data[44]!;
}

/** `validate_owner`: the authority is the expected owner and signed, or is a multisig with enough of its signers. */
function validateOwner(inv: Invocation, expected: Pubkey, authority: number, signers: readonly number[]): InstructionErrorKind | null {
  if (inv.key(authority) !== expected) return OWNER_MISMATCH;
  const state = inv.account(authority);
  if (state && state.owner === inv.programId && state.data.length === MULTISIG_LENGTH) {
    const data = state.data;
    const required = data[0]!;
    const keys = Array.from({ length: Math.min(data[1]!, 11) }, (_, i) => encodeBase58(data.subarray(3 + 32 * i, 35 + 32 * i)));
    const matched = new Set<number>();
    for (const signer of signers) {
      for (const [position, key] of keys.entries()) {
        if (key !== inv.key(signer) || matched.has(position)) continue;
        if (!inv.isSigner(signer)) return "MissingRequiredSignature";
        matched.add(position);
      }
    }
    return matched.size < required ? "MissingRequiredSignature" : null;
  }
  return inv.isSigner(authority) ? null : "MissingRequiredSignature";
}

/** `process_transfer`, the checks in the processor's order. */
function transfer(inv: Invocation, checked: boolean): InstructionErrorKind | null {
  const v = view(inv.data);
  const amount = v.getBigUint64(1, true);
  const accounts = inv.accounts;
  const [sourceIndex, mintIndex, destinationIndex, authorityIndex] = checked
    ? [accounts[0], accounts[1], accounts[2], accounts[3]]
    : [accounts[0], undefined, accounts[1], accounts[2]];
  const signers = accounts.slice(checked ? 4 : 3);
  const source = unpackAccount(inv, sourceIndex!);
  if (!isAccount(source)) return fail(inv, source);
  const destination = unpackAccount(inv, destinationIndex!);
  if (!isAccount(destination)) return fail(inv, destination);
  if (source.frozen || destination.frozen) return fail(inv, ACCOUNT_FROZEN);
  if (source.amount < amount) return fail(inv, INSUFFICIENT_FUNDS);
  if (source.mint !== destination.mint) return fail(inv, MINT_MISMATCH);
  if (mintIndex !== undefined) {
    if (inv.key(mintIndex) !== source.mint) return fail(inv, MINT_MISMATCH);
    const decimals = unpackMint(inv, mintIndex);
    if (typeof decimals !== "number") return fail(inv, decimals);
    if (decimals !== inv.data[9]) return fail(inv, MINT_DECIMALS_MISMATCH);
  }
  const selfTransfer = sourceIndex === destinationIndex;
  let delegate = source.delegate;
  let delegatedAmount = source.delegatedAmount;
  if (delegate !== null && inv.key(authorityIndex!) === delegate) {
    const denied = validateOwner(inv, delegate, authorityIndex!, signers);
    if (denied) return fail(inv, denied);
    if (delegatedAmount < amount) return fail(inv, INSUFFICIENT_FUNDS);
    if (!selfTransfer) {
      delegatedAmount -= amount;
      if (delegatedAmount === 0n) delegate = null;
    }
  } else {
    const denied = validateOwner(inv, source.owner, authorityIndex!, signers);
    if (denied) return fail(inv, denied);
  }
  if (selfTransfer) return null;
  const credited = destination.amount + amount;
  if (credited > 0xffff_ffff_ffff_ffffn) return fail(inv, OVERFLOW);
  // The runtime refuses changes to accounts the transaction did not mark writable (after the program returns).
  if (!inv.isWritable(sourceIndex!) || !inv.isWritable(destinationIndex!)) return "ReadonlyDataModified";

  const sourceData = source.state.data.slice();
  const sv = view(sourceData);
  sv.setBigUint64(64, source.amount - amount, true);
  if (delegate === null) {
    sv.setUint32(72, 0, true);
    sourceData.fill(0, 76, 108);
  }
  sv.setBigUint64(121, delegatedAmount, true);
  const destinationData = destination.state.data.slice();
  view(destinationData).setBigUint64(64, credited, true);
  const lamports = source.native ? amount : 0n;
  inv.write(sourceIndex!, { ...source.state, data: sourceData, lamports: source.state.lamports - lamports });
  inv.write(destinationIndex!, { ...destination.state, data: destinationData, lamports: destination.state.lamports + lamports });
  return null;
}

function isAccount(value: TokenAccount | InstructionErrorKind): value is TokenAccount {
  return typeof value === "object" && "state" in value;
}

/** GetAccountDataSize with the ImmutableOwner extension (what the associated token account program asks). */
function getAccountDataSize(inv: Invocation): InstructionErrorKind | null {
  const decimals = unpackMint(inv, inv.accounts[0]!);
  if (typeof decimals !== "number") return fail(inv, decimals);
  const size = new Uint8Array(8);
  view(size).setBigUint64(0, BigInt(associatedAccountLength(inv.programId)), true);
  inv.returnData = size;
  return null;
}

function initializeImmutableOwner(inv: Invocation): InstructionErrorKind | null {
  if (inv.programId === TOKEN_PROGRAM_ID) {
    inv.log("Please upgrade to SPL Token 2022 for immutable owner support");
    return null;
  }
  const index = inv.accounts[0]!;
  const state = inv.account(index)!;
  const data = state.data.slice();
  view(data).setUint16(TOKEN_ACCOUNT_LENGTH + 1, EXTENSION_IMMUTABLE_OWNER, true);
  inv.write(index, { ...state, data });
  return null;
}

/** InitializeAccount3: mint and owner set, initialized; a native-mint account holds its lamports above rent as amount. */
function initializeAccount3(inv: Invocation): InstructionErrorKind | null {
  const [index, mintIndex] = inv.accounts as [number, number];
  const state = inv.account(index);
  if (!state || state.owner !== inv.programId) return fail(inv, "IncorrectProgramId");
  const decimals = unpackMint(inv, mintIndex);
  if (typeof decimals !== "number") return fail(inv, decimals);
  const data = state.data.slice();
  const v = view(data);
  const mint = inv.key(mintIndex);
  data.set(keyBytes(mint), 0);
  data.set(inv.data.subarray(1, 33), 32);
  data[108] = 1;
  if (mint === NATIVE_MINT) {
    const reserve = BigInt(minimumBalanceForRentExemption(data.length));
    v.setUint32(109, 1, true);
    v.setBigUint64(113, reserve, true);
    v.setBigUint64(64, state.lamports - reserve, true);
  }
  if (inv.programId === TOKEN_2022_PROGRAM_ID && data.length > TOKEN_ACCOUNT_LENGTH) data[TOKEN_ACCOUNT_LENGTH] = ACCOUNT_TYPE_ACCOUNT;
  inv.write(index, { ...state, data });
  return null;
}

function keyBytes(key: Pubkey): Uint8Array {
  const bytes = decodeBase58(key);
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new Error(`not a public key: ${key}`);
  return bytes;
}

export const tokenProgram: Program = {
  bpf: true,
  accepts: (ix) =>
    (ix.data[0] === TRANSFER && ix.data.length === 9 && ix.accounts.length >= 3) ||
    (ix.data[0] === TRANSFER_CHECKED && ix.data.length === 10 && ix.accounts.length >= 4),
  run(inv) {
    const op = inv.data[0]!;
    const name = INSTRUCTION_NAMES[op];
    if (name === undefined) return "InvalidInstructionData";
    inv.log(`Instruction: ${name}`);
    inv.consume(UNITS[inv.programId]![op]!);
    switch (op) {
      case TRANSFER:
        return transfer(inv, false);
      case TRANSFER_CHECKED:
        return transfer(inv, true);
      case GET_ACCOUNT_DATA_SIZE:
        return getAccountDataSize(inv);
      case INITIALIZE_IMMUTABLE_OWNER:
        return initializeImmutableOwner(inv);
      default:
        return initializeAccount3(inv);
    }
  },
};
