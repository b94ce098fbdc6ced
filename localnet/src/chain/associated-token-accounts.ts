/**
 * The Associated Token Account program's `Create` (data empty or [0]) and `CreateIdempotent` ([1]), as its processor:
 * the account must be the derived address of (wallet, token program, mint); an idempotent create of an existing account of
 * that wallet and mint succeeds without change; otherwise the account is created through the same cross-program
 * invocations, logged and recorded as inner instructions: GetAccountDataSize, System CreateAccount (or Transfer, Allocate,
 * Assign when it already holds lamports), InitializeImmutableOwner, InitializeAccount3.
 */
import { isOffCurveAddress, type Address } from "@solana/kit";
import { createHash } from "node:crypto";
import { decodeBase58, encodeBase58 } from "./base58.js";
import { minimumBalanceForRentExemption } from "./cluster-constants.js";
import { isTokenProgram, SYSTEM_PROGRAM_ID } from "./program-ids.js";
import { associatedAccountLength } from "./token-transfers.js";
import type { InstructionErrorKind, Program } from "./program.js";
import type { Pubkey } from "./types.js";

const CREATE = 0;
const CREATE_IDEMPOTENT = 1;
/** AssociatedTokenAccountError::InvalidOwner. */
const INVALID_OWNER = { Custom: 0 };
/**
 * The program's own compute units around its invocations, from a mainnet Create (20,545 units in all): 5,592 before
 * GetAccountDataSize, 4,718 before InitializeImmutableOwner (the System call's 150 apart), 2,479 before
 * InitializeAccount3, 338 after.
 */
const UNITS = { start: 5_592, afterSize: 4_718, afterImmutableOwner: 2_479, end: 338 };
/** Token instructions the program invokes: GetAccountDataSize([ImmutableOwner]), InitializeImmutableOwner, InitializeAccount3. */
const GET_ACCOUNT_DATA_SIZE_IMMUTABLE_OWNER = Uint8Array.of(21, 7, 0);
const INITIALIZE_IMMUTABLE_OWNER = Uint8Array.of(22);
const INITIALIZE_ACCOUNT_3 = 18;
const PDA_MARKER = "ProgramDerivedAddress";

function bytesOf(key: Pubkey): Uint8Array {
  return decodeBase58(key) as Uint8Array;
}

/** `find_program_address([wallet, token program, mint], ATA program)`: the first bump from 255 down off the curve. */
export function associatedTokenAddress(wallet: Pubkey, tokenProgram: Pubkey, mint: Pubkey, programId: Pubkey): Pubkey | undefined {
  for (let bump = 255; bump >= 0; bump--) {
    const hash = createHash("sha256");
    for (const seed of [bytesOf(wallet), bytesOf(tokenProgram), bytesOf(mint), Uint8Array.of(bump), bytesOf(programId)]) hash.update(seed);
    const candidate = encodeBase58(hash.update(PDA_MARKER).digest());
    if (isOffCurveAddress(candidate as Address)) return candidate;
  }
  return undefined;
}

function u64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

/** SystemInstruction bytes: CreateAccount, Transfer, Allocate, Assign. */
const systemInstruction = (index: number, ...parts: Uint8Array[]) => Uint8Array.from([index, 0, 0, 0, ...parts.flatMap((p) => [...p])]);

export const associatedTokenAccountProgram: Program = {
  bpf: true,
  accepts: (ix, keys) =>
    (ix.data.length === 0 || (ix.data.length === 1 && (ix.data[0] === CREATE || ix.data[0] === CREATE_IDEMPOTENT))) &&
    ix.accounts.length >= 6 &&
    keys[ix.accounts[4]!] === SYSTEM_PROGRAM_ID &&
    isTokenProgram(keys[ix.accounts[5]!] ?? ""),
  run(inv) {
    const idempotent = inv.data[0] === CREATE_IDEMPOTENT;
    inv.log(idempotent ? "CreateIdempotent" : "Create");
    inv.consume(UNITS.start);
    const [funderIndex, accountIndex, walletIndex, mintIndex, , tokenProgramIndex] = inv.accounts as number[];
    const [funder, address, wallet, mint, tokenProgram] = [funderIndex, accountIndex, walletIndex, mintIndex, tokenProgramIndex].map((i) => inv.key(i!)) as Pubkey[];
    if (associatedTokenAddress(wallet!, tokenProgram!, mint!, inv.programId) !== address) {
      inv.log("Error: Associated address does not match seed derivation");
      return "InvalidSeeds";
    }
    const existing = inv.account(accountIndex!);
    if (idempotent && existing !== undefined && existing.owner === tokenProgram && existing.data.length >= 165 && existing.data[108] !== 0) {
      if (encodeBase58(existing.data.subarray(32, 64)) !== wallet) {
        inv.log("Associated token account owner does not match address derivation");
        return INVALID_OWNER;
      }
      return encodeBase58(existing.data.subarray(0, 32)) === mint ? null : "InvalidAccountData";
    }
    if (existing && existing.owner !== SYSTEM_PROGRAM_ID) return "IllegalOwner";
    const step = (err: InstructionErrorKind | null, units: number) => {
      inv.consume(units);
      return err;
    };
    const size = inv.invoke(tokenProgram!, [mint!], GET_ACCOUNT_DATA_SIZE_IMMUTABLE_OWNER);
    if (size !== null) return size;
    const space = associatedAccountLength(tokenProgram!);
    const rent = BigInt(Math.max(1, minimumBalanceForRentExemption(space)));
    inv.consume(UNITS.afterSize);
    const held = existing?.lamports ?? 0n;
    const created =
      held > 0n
        ? (rent > held ? inv.invoke(SYSTEM_PROGRAM_ID, [funder!, address!], systemInstruction(2, u64(rent - held))) : null) ??
          inv.invoke(SYSTEM_PROGRAM_ID, [address!], systemInstruction(8, u64(BigInt(space))), [address!]) ??
          inv.invoke(SYSTEM_PROGRAM_ID, [address!], systemInstruction(1, bytesOf(tokenProgram!)), [address!])
        : inv.invoke(SYSTEM_PROGRAM_ID, [funder!, address!], systemInstruction(0, u64(rent), u64(BigInt(space)), bytesOf(tokenProgram!)), [address!]);
    if (created !== null) return created;
    inv.log("Initialize the associated token account");
    const immutable = inv.invoke(tokenProgram!, [address!], INITIALIZE_IMMUTABLE_OWNER);
    if (immutable !== null) return immutable;
    inv.consume(UNITS.afterImmutableOwner);
    const initialized = inv.invoke(tokenProgram!, [address!, mint!], Uint8Array.from([INITIALIZE_ACCOUNT_3, ...bytesOf(wallet!)]));
    return step(initialized, initialized === null ? UNITS.end : 0);
  },
};
