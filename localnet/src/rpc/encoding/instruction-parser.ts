/**
 * `jsonParsed` instructions, as Agave's transaction-status parsers write them: `{program, programId, parsed, stackHeight}`
 * for the System, SPL Token (both token programs report "spl-token"), Associated Token Account and Memo programs and the
 * instructions of theirs decoded here; anything else is "partially decoded": `{programId, accounts, data, stackHeight}`.
 */
import { TextDecoder } from "node:util";
import { encodeBase58, encodeKey } from "../../chain/base58.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, isTokenProgram, MEMO_PROGRAM_IDS, SYSTEM_PROGRAM_ID } from "../../chain/program-ids.js";
import { uiTokenAmount } from "../../chain/token-amount.js";

type Info = Record<string, unknown>;
type Parsed = { type: string; info: Info } | string;

class Data {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  has(length: number): boolean {
    return this.bytes.length >= length;
  }
  u32(at: number): number {
    return this.view.getUint32(at, true);
  }
  u64(at: number): bigint {
    return this.view.getBigUint64(at, true);
  }
  key(at: number): string {
    return encodeKey(this.bytes.subarray(at, at + 32));
  }
}

function parseSystem(d: Data, keys: string[]): Parsed | undefined {
  if (!d.has(4)) return undefined;
  switch (d.u32(0)) {
    case 0:
      return keys.length >= 2 && d.has(52)
        ? { type: "createAccount", info: { source: keys[0], newAccount: keys[1], lamports: Number(d.u64(4)), space: Number(d.u64(12)), owner: d.key(20) } }
        : undefined;
    case 1:
      return keys.length >= 1 && d.has(36) ? { type: "assign", info: { account: keys[0], owner: d.key(4) } } : undefined;
    case 2:
      return keys.length >= 2 && d.has(12)
        ? { type: "transfer", info: { source: keys[0], destination: keys[1], lamports: Number(d.u64(4)) } }
        : undefined;
    case 8:
      return keys.length >= 1 && d.has(12) ? { type: "allocate", info: { account: keys[0], space: Number(d.u64(4)) } } : undefined;
    default:
      return undefined;
  }
}

/**
 * Agave's `parse_signers`: with more accounts than the last non-signer index needs, the authority is a multisig and the
 * rest are its signers.
 */
function withSigners(info: Info, lastNonSigner: number, keys: string[], single: string, multisig: string): Info {
  if (keys.length > lastNonSigner + 1) {
    info[multisig] = keys[lastNonSigner];
    info.signers = keys.slice(lastNonSigner + 1);
  } else {
    info[single] = keys[lastNonSigner];
  }
  return info;
}

/** Agave's UiExtensionType names, by Token-2022 ExtensionType (u16). */
const EXTENSION_TYPE_NAMES = [
  "uninitialized", "transferFeeConfig", "transferFeeAmount", "mintCloseAuthority", "confidentialTransferMint",
  "confidentialTransferAccount", "defaultAccountState", "immutableOwner", "memoTransfer", "nonTransferable",
  "interestBearingConfig", "cpiGuard", "permanentDelegate", "nonTransferableAccount", "transferHook", "transferHookAccount",
  "confidentialTransferFeeConfig", "confidentialTransferFeeAmount", "metadataPointer", "tokenMetadata", "groupPointer",
  "tokenGroup", "groupMemberPointer", "tokenGroupMember", "confidentialMintBurn", "scaledUiAmountConfig", "pausableConfig",
  "pausableAccount",
];

/** GetAccountDataSize: `{mint}`, plus `extensionTypes` when the instruction lists any (u16 each after the tag). */
function parseGetAccountDataSize(d: Data, keys: string[]): Parsed | undefined {
  if (keys.length < 1 || d.bytes.length % 2 !== 1) return undefined;
  const names: string[] = [];
  for (let at = 1; at < d.bytes.length; at += 2) {
    const name = EXTENSION_TYPE_NAMES[d.bytes[at]! | (d.bytes[at + 1]! << 8)];
    if (name === undefined) return undefined;
    names.push(name);
  }
  return { type: "getAccountDataSize", info: names.length > 0 ? { mint: keys[0], extensionTypes: names } : { mint: keys[0] } };
}

function parseToken(d: Data, keys: string[]): Parsed | undefined {
  if (!d.has(1)) return undefined;
  const amount = () => d.u64(1);
  const checked = () => uiTokenAmount(d.u64(1), d.bytes[9]!);
  switch (d.bytes[0]) {
    case 1:
      return keys.length >= 4 ? { type: "initializeAccount", info: { account: keys[0], mint: keys[1], owner: keys[2], rentSysvar: keys[3] } } : undefined;
    case 3:
      return keys.length >= 3 && d.has(9)
        ? { type: "transfer", info: withSigners({ source: keys[0], destination: keys[1], amount: amount().toString() }, 2, keys, "authority", "multisigAuthority") }
        : undefined;
    case 4:
      return keys.length >= 3 && d.has(9)
        ? { type: "approve", info: withSigners({ source: keys[0], delegate: keys[1], amount: amount().toString() }, 2, keys, "owner", "multisigOwner") }
        : undefined;
    case 7:
      return keys.length >= 3 && d.has(9)
        ? { type: "mintTo", info: withSigners({ mint: keys[0], account: keys[1], amount: amount().toString() }, 2, keys, "mintAuthority", "multisigMintAuthority") }
        : undefined;
    case 8:
      return keys.length >= 3 && d.has(9)
        ? { type: "burn", info: withSigners({ account: keys[0], mint: keys[1], amount: amount().toString() }, 2, keys, "authority", "multisigAuthority") }
        : undefined;
    case 9:
      return keys.length >= 3
        ? { type: "closeAccount", info: withSigners({ account: keys[0], destination: keys[1] }, 2, keys, "owner", "multisigOwner") }
        : undefined;
    case 12:
      return keys.length >= 4 && d.has(10)
        ? {
            type: "transferChecked",
            info: withSigners({ source: keys[0], mint: keys[1], destination: keys[2], tokenAmount: checked() }, 3, keys, "authority", "multisigAuthority"),
          }
        : undefined;
    case 14:
      return keys.length >= 3 && d.has(10)
        ? { type: "mintToChecked", info: withSigners({ mint: keys[0], account: keys[1], tokenAmount: checked() }, 2, keys, "mintAuthority", "multisigMintAuthority") }
        : undefined;
    case 15:
      return keys.length >= 3 && d.has(10)
        ? { type: "burnChecked", info: withSigners({ account: keys[0], mint: keys[1], tokenAmount: checked() }, 2, keys, "authority", "multisigAuthority") }
        : undefined;
    case 16:
      return keys.length >= 3 && d.has(33)
        ? { type: "initializeAccount2", info: { account: keys[0], mint: keys[1], owner: d.key(1), rentSysvar: keys[2] } }
        : undefined;
    case 17:
      return keys.length >= 1 ? { type: "syncNative", info: { account: keys[0] } } : undefined;
    case 18:
      return keys.length >= 2 && d.has(33) ? { type: "initializeAccount3", info: { account: keys[0], mint: keys[1], owner: d.key(1) } } : undefined;
    case 21:
      return parseGetAccountDataSize(d, keys);
    case 22:
      return keys.length >= 1 ? { type: "initializeImmutableOwner", info: { account: keys[0] } } : undefined;
    default:
      return undefined;
  }
}

function parseAssociatedToken(d: Data, keys: string[]): Parsed | undefined {
  const tag = d.bytes.length === 0 ? 0 : d.bytes[0];
  if ((tag !== 0 && tag !== 1) || keys.length < 6) return undefined;
  return {
    type: tag === 0 ? "create" : "createIdempotent",
    info: { source: keys[0], account: keys[1], wallet: keys[2], mint: keys[3], systemProgram: keys[4], tokenProgram: keys[5] },
  };
}

function parseMemo(d: Data): Parsed | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(d.bytes);
  } catch {
    return undefined;
  }
}

function parserFor(programId: string): [string, (d: Data, keys: string[]) => Parsed | undefined] | undefined {
  if (programId === SYSTEM_PROGRAM_ID) return ["system", parseSystem];
  if (isTokenProgram(programId)) return ["spl-token", parseToken];
  if (programId === ASSOCIATED_TOKEN_PROGRAM_ID) return ["spl-associated-token-account", parseAssociatedToken];
  if (MEMO_PROGRAM_IDS.has(programId)) return ["spl-memo", parseMemo];
  return undefined;
}

/** One instruction in jsonParsed form; `accountKeys` are the transaction's keys the indexes point into. */
export function parseUiInstruction(
  ix: { programIdIndex: number; accounts: number[]; data: Uint8Array },
  accountKeys: string[],
  stackHeight: number | null,
): Record<string, unknown> {
  const programId = accountKeys[ix.programIdIndex] ?? "";
  const keys = ix.accounts.map((i) => accountKeys[i] ?? "");
  const parser = parserFor(programId);
  const parsed = parser?.[1](new Data(ix.data), keys);
  if (parser && parsed !== undefined) return { program: parser[0], programId, parsed, stackHeight };
  return { programId, accounts: keys, data: encodeBase58(ix.data), stackHeight };
}
