/**
 * Instructions every swap transaction carries around the venue instruction, with the CPIs and log lines mainnet shows for
 * them (fixtures 4pCgZ28W, 22K6ixTV, 54MFrVcf): ComputeBudget, System transfer, ATA create(-idempotent), SyncNative,
 * CloseAccount, token Transfer / TransferChecked / MintTo / Burn, and Anchor's self-CPI event.
 */
import type { Pubkey } from "../../chain/types.js";
import { BorshWriter, FixedWriter, concat, hex } from "../core/bytes.js";
import { keyBytes, u64le } from "../core/keys.js";
import {
  ATA_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  EVENT_IX_TAG,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from "../programs.js";
import { rentExempt } from "../spl/token.js";
import { r, w, ws, type Ix } from "./builder.js";

const GET_ACCOUNT_DATA_SIZE = hex("150700");
const INITIALIZE_IMMUTABLE_OWNER = hex("16");
const INITIALIZE_ACCOUNT3 = hex("12");
const IDEMPOTENT = hex("01");
const SYNC_NATIVE = hex("11");
const CLOSE_ACCOUNT = hex("09");
const TRANSFER = hex("03");
const TRANSFER_CHECKED = hex("0c");
const MINT_TO = hex("07");
const BURN = hex("08");
const EVENT_TAG = hex(EVENT_IX_TAG);

export function setComputeUnitLimit(units: number): Ix {
  return { program: COMPUTE_BUDGET_PROGRAM, accounts: [], data: new FixedWriter(5).u8(0, 2).u32(1, units).bytes, steps: [], cu: 150 };
}

export function setComputeUnitPrice(microLamports: bigint): Ix {
  return { program: COMPUTE_BUDGET_PROGRAM, accounts: [], data: new FixedWriter(9).u8(0, 3).u64(1, microLamports).bytes, steps: [], cu: 150 };
}

export function systemTransfer(from: Pubkey, to: Pubkey, lamports: bigint, top = true): Ix {
  return {
    program: SYSTEM_PROGRAM,
    accounts: [top ? ws(from) : w(from), w(to)],
    data: new FixedWriter(12).u32(0, 2).u64(4, lamports).bytes,
    steps: [],
    cu: 150,
  };
}

export function systemCreateAccount(payer: Pubkey, account: Pubkey, lamports: bigint, space: number, owner: Pubkey): Ix {
  return {
    program: SYSTEM_PROGRAM,
    accounts: [w(payer), w(account)],
    data: new FixedWriter(52).u32(0, 0).u64(4, lamports).u64(12, BigInt(space)).pubkey(20, owner).bytes,
    steps: [],
    cu: 150,
  };
}

function tokenIx(program: Pubkey, accounts: Ix["accounts"], data: Uint8Array, name: string, cu: number, extra: Ix["steps"] = []): Ix {
  return { program, accounts, data, steps: [{ log: `Instruction: ${name}` }, ...extra], cu };
}

/**
 * ATA program Create (data empty) or CreateIdempotent (data [1]) creating a new account: GetAccountDataSize, System
 * CreateAccount, InitializeImmutableOwner, InitializeAccount3 CPIs.
 */
export function ataCreate(payer: Pubkey, ataAddress: Pubkey, owner: Pubkey, mint: Pubkey, tokenProgram: Pubkey, size: number, idempotent = true): Ix {
  const t22 = tokenProgram === TOKEN_2022_PROGRAM;
  const steps: Ix["steps"] = [
    { log: idempotent ? "CreateIdempotent" : "Create" },
    {
      cpi: tokenIx(tokenProgram, [r(mint)], GET_ACCOUNT_DATA_SIZE, "GetAccountDataSize", 1569, [{ ret: u64le(size) }]),
    },
    { cpi: systemCreateAccount(payer, ataAddress, rentExempt(size), size, tokenProgram) },
    { log: "Initialize the associated token account" },
    {
      cpi: tokenIx(
        tokenProgram,
        [w(ataAddress)],
        INITIALIZE_IMMUTABLE_OWNER,
        "InitializeImmutableOwner",
        1405,
        t22 ? [] : [{ log: "Please upgrade to SPL Token 2022 for immutable owner support" }],
      ),
    },
    { cpi: tokenIx(tokenProgram, [w(ataAddress), r(mint)], concat(INITIALIZE_ACCOUNT3, keyBytes(owner)), "InitializeAccount3", 4188) },
  ];
  return {
    program: ATA_PROGRAM,
    accounts: [ws(payer), w(ataAddress), r(owner), r(mint), r(SYSTEM_PROGRAM), r(tokenProgram)],
    data: idempotent ? IDEMPOTENT : new Uint8Array(0),
    steps,
    cu: 13000,
  };
}

export function syncNative(account: Pubkey): Ix {
  return tokenIx(TOKEN_PROGRAM, [w(account)], SYNC_NATIVE, "SyncNative", 3045);
}

export function closeAccount(account: Pubkey, destination: Pubkey, owner: Pubkey, tokenProgram = TOKEN_PROGRAM): Ix {
  return tokenIx(tokenProgram, [w(account), w(destination), { pubkey: owner, signer: true }], CLOSE_ACCOUNT, "CloseAccount", 2915);
}

export function tokenTransfer(tokenProgram: Pubkey, source: Pubkey, dest: Pubkey, authority: Pubkey, amount: bigint): Ix {
  return tokenIx(tokenProgram, [w(source), w(dest), r(authority)], concat(TRANSFER, u64le(amount)), "Transfer", 4645);
}

export function tokenTransferChecked(
  tokenProgram: Pubkey,
  source: Pubkey,
  mint: Pubkey,
  dest: Pubkey,
  authority: Pubkey,
  amount: bigint,
  decimals: number,
): Ix {
  return tokenIx(
    tokenProgram,
    [w(source), r(mint), w(dest), r(authority)],
    concat(TRANSFER_CHECKED, u64le(amount), Uint8Array.of(decimals)),
    "TransferChecked",
    6147,
  );
}

export function tokenMintTo(tokenProgram: Pubkey, mint: Pubkey, dest: Pubkey, authority: Pubkey, amount: bigint): Ix {
  return tokenIx(tokenProgram, [w(mint), w(dest), r(authority)], concat(MINT_TO, u64le(amount)), "MintTo", 4492);
}

export function tokenBurn(tokenProgram: Pubkey, account: Pubkey, mint: Pubkey, authority: Pubkey, amount: bigint): Ix {
  return tokenIx(tokenProgram, [w(account), w(mint), r(authority)], concat(BURN, u64le(amount)), "Burn", 4616);
}

/** Anchor `emit_cpi!`: the program invokes itself with its event authority; data = EVENT_IX_TAG ‖ disc ‖ borsh. */
export function eventCpi(program: Pubkey, eventAuthority: Pubkey, payload: Uint8Array): Ix {
  return { program, accounts: [r(eventAuthority)], data: concat(EVENT_TAG, payload), steps: [], cu: 2003 };
}

export function borsh(): BorshWriter {
  return new BorshWriter();
}

export { TOKEN_PROGRAM, TOKEN_2022_PROGRAM };
