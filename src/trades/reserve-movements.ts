/**
 * What the token and system programs visibly moved in and out of given accounts, instruction by instruction: SPL Token
 * and Token-2022 transfer, transfer_checked, transfer_checked_with_fee, mint_to(_checked), burn(_checked); System
 * transfer, transfer_with_seed and create_account. Only instructions naming one of the accounts are decoded.
 */
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../solana/well-known";
import { base58Bytes } from "../solana/base58";
import { readU64 } from "./instruction-data";
import type { FlatInstruction } from "./instruction-tree";

/** `amount` (signed: + into the account) moved by the flat instruction at `at`: lamports (System) or token units. */
export interface ReserveMovement {
  readonly at: number;
  readonly account: number;
  readonly amount: bigint;
  readonly lamports: boolean;
}

/** Token instruction tags (spl-token / token-2022 interface). */
const TRANSFER = 3;
const MINT_TO = 7;
const BURN = 8;
const TRANSFER_CHECKED = 12;
const MINT_TO_CHECKED = 14;
const BURN_CHECKED = 15;
/** Token-2022 TransferFeeExtension, sub-instruction 1 = TransferCheckedWithFee (amount @2, decimals @10, fee @11). */
const TRANSFER_FEE_EXTENSION = 26;
const TRANSFER_CHECKED_WITH_FEE = 1;

/** System instruction tags (u32 LE): lamports u64 @4 for these three. */
const SYSTEM_CREATE_ACCOUNT = 0;
const SYSTEM_TRANSFER = 2;
const SYSTEM_TRANSFER_WITH_SEED = 11;

/** Visible movements of `accounts` (indexes into the transaction keys), in execution order. */
export function reserveMovements(flat: readonly FlatInstruction[], keys: readonly string[], accounts: ReadonlySet<number>): ReserveMovement[] {
  const out: ReserveMovement[] = [];
  for (let at = 0; at < flat.length; at++) {
    const { instruction } = flat[at]!;
    const program = keys[instruction.programIdIndex];
    const isToken = program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS;
    if (!isToken && program !== SYSTEM_PROGRAM_ADDRESS) continue;
    const ix = instruction.accounts;
    if (!Array.isArray(ix) || !ix.some((a) => accounts.has(a))) continue;
    const data = base58Bytes(instruction.data);
    if (!data || data.length === 0) continue;
    const move = (position: number, amount: bigint) => {
      const account = ix[position];
      if (account !== undefined && accounts.has(account) && amount !== 0n) out.push({ at, account, amount, lamports: !isToken });
    };
    if (isToken) {
      const tag = data[0];
      if (tag === TRANSFER || tag === TRANSFER_CHECKED) {
        const amount = readU64(data, 1);
        if (amount === undefined) continue;
        move(0, -amount);
        move(tag === TRANSFER ? 1 : 2, amount);
      } else if (tag === MINT_TO || tag === MINT_TO_CHECKED) {
        const amount = readU64(data, 1);
        if (amount !== undefined) move(1, amount);
      } else if (tag === BURN || tag === BURN_CHECKED) {
        const amount = readU64(data, 1);
        if (amount !== undefined) move(0, -amount);
      } else if (tag === TRANSFER_FEE_EXTENSION && data[1] === TRANSFER_CHECKED_WITH_FEE && program === TOKEN_2022_PROGRAM_ADDRESS) {
        const amount = readU64(data, 2);
        const fee = readU64(data, 11);
        if (amount === undefined || fee === undefined || fee > amount) continue;
        move(0, -amount);
        move(2, amount - fee);
      }
    } else if (data.length >= 12 && data[1] === 0 && data[2] === 0 && data[3] === 0) {
      const tag = data[0];
      const lamports = readU64(data, 4);
      if (lamports === undefined) continue;
      if (tag === SYSTEM_TRANSFER || tag === SYSTEM_CREATE_ACCOUNT) {
        move(0, -lamports);
        move(1, lamports);
      } else if (tag === SYSTEM_TRANSFER_WITH_SEED) {
        move(0, -lamports);
        move(2, lamports);
      }
    }
  }
  return out;
}
