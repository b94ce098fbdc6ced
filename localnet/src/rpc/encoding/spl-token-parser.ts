/**
 * `jsonParsed` for SPL Token and Token-2022 accounts, in Agave's account-decoder shape:
 * `{program: "spl-token" | "spl-token-2022", parsed: {type: "account" | "mint" | "multisig", info}, space}`.
 *
 * Layouts (spl-token state.rs; Token-2022 keeps the same base): mint 82 bytes, account 165 bytes, multisig 355 bytes.
 * Token-2022 accounts with extensions: base, zero padding to 165, AccountType byte @165 (1 mint, 2 account), then TLV
 * entries (u16 type, u16 length, value) until type 0. Unpacking fails exactly where `StateWithExtensions::unpack` fails,
 * and the caller then falls back to base64 (or drops the account from token-account lists), as Agave does.
 */
import { encodeKey } from "../../chain/base58.js";
import { TOKEN_2022_PROGRAM_ID } from "../../chain/program-ids.js";
import { u64 } from "../json-serialize.js";
import { uiTokenAmount } from "../../chain/token-amount.js";

export interface ParsedAccountJson {
  program: string;
  parsed: { type: string; info: Record<string, unknown> };
  space: number;
}

const MINT_LENGTH = 82;
const ACCOUNT_LENGTH = 165;
const MULTISIG_LENGTH = 355;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8(at: number): number {
    return this.bytes[at]!;
  }
  u16(at: number): number {
    return this.view.getUint16(at, true);
  }
  i16(at: number): number {
    return this.view.getInt16(at, true);
  }
  u32(at: number): number {
    return this.view.getUint32(at, true);
  }
  u64(at: number): bigint {
    return this.view.getBigUint64(at, true);
  }
  i64(at: number): number {
    return Number(this.view.getBigInt64(at, true));
  }
  f64(at: number): number {
    return this.view.getFloat64(at, true);
  }
  key(at: number): string {
    return encodeKey(this.bytes.subarray(at, at + 32));
  }
  /** OptionalNonZeroPubkey: all zeros means none. */
  optionalKey(at: number): string | null {
    return this.bytes.subarray(at, at + 32).every((b) => b === 0) ? null : this.key(at);
  }
  /** COption<Pubkey>: u32 tag (0 none, 1 some) then the key; any other tag makes the state invalid. */
  cOptionKey(at: number): string | null | undefined {
    const tag = this.u32(at);
    return tag === 0 ? null : tag === 1 ? this.key(at + 4) : undefined;
  }
  cOptionU64(at: number): bigint | null | undefined {
    const tag = this.u32(at);
    return tag === 0 ? null : tag === 1 ? this.u64(at + 4) : undefined;
  }
}

type Extension = Record<string, unknown>;

function borshString(r: Reader, at: number): [string, number] | undefined {
  if (at + 4 > r.bytes.length) return undefined;
  const length = r.u32(at);
  if (at + 4 + length > r.bytes.length) return undefined;
  return [Buffer.from(r.bytes.subarray(at + 4, at + 4 + length)).toString("utf8"), at + 4 + length];
}

function tokenMetadata(r: Reader): Record<string, unknown> | undefined {
  if (r.bytes.length < 64) return undefined;
  const out: Record<string, unknown> = { updateAuthority: r.optionalKey(0), mint: r.key(32) };
  let at = 64;
  for (const name of ["name", "symbol", "uri"]) {
    const s = borshString(r, at);
    if (!s) return undefined;
    out[name] = s[0];
    at = s[1];
  }
  if (at + 4 > r.bytes.length) return undefined;
  const pairs: [string, string][] = [];
  const count = r.u32(at);
  at += 4;
  for (let i = 0; i < count; i++) {
    const k = borshString(r, at);
    const v = k && borshString(r, k[1]);
    if (!k || !v) return undefined;
    pairs.push([k[0], v[0]]);
    at = v[1];
  }
  out.additionalMetadata = pairs;
  return out;
}

const ACCOUNT_STATES = ["uninitialized", "initialized", "frozen"] as const;

function transferFee(r: Reader, at: number) {
  return { epoch: u64(r.u64(at)), maximumFee: u64(r.u64(at + 8)), transferFeeBasisPoints: r.u16(at + 16) };
}

/** One extension in Agave's `{extension, state}` form; sizes are the Pod sizes, a mismatch reads as unparseable. */
function parseExtension(type: number, value: Uint8Array): Extension {
  const r = new Reader(value);
  const sized = (size: number, state: () => Record<string, unknown>, extension: string): Extension =>
    value.length === size ? { extension, state: state() } : { extension: "unparseableExtension" };
  switch (type) {
    case 1:
      return sized(108, () => ({
        transferFeeConfigAuthority: r.optionalKey(0),
        withdrawWithheldAuthority: r.optionalKey(32),
        withheldAmount: u64(r.u64(64)),
        olderTransferFee: transferFee(r, 72),
        newerTransferFee: transferFee(r, 90),
      }), "transferFeeConfig");
    case 2:
      return sized(8, () => ({ withheldAmount: u64(r.u64(0)) }), "transferFeeAmount");
    case 3:
      return sized(32, () => ({ closeAuthority: r.optionalKey(0) }), "mintCloseAuthority");
    case 6:
      return sized(1, () => ({ accountState: ACCOUNT_STATES[r.u8(0)] ?? "uninitialized" }), "defaultAccountState");
    case 7:
      return { extension: "immutableOwner" };
    case 8:
      return sized(1, () => ({ requireIncomingTransferMemos: r.u8(0) !== 0 }), "memoTransfer");
    case 9:
      return { extension: "nonTransferable" };
    case 10:
      return sized(52, () => ({
        rateAuthority: r.optionalKey(0),
        initializationTimestamp: r.i64(32),
        preUpdateAverageRate: r.i16(40),
        lastUpdateTimestamp: r.i64(42),
        currentRate: r.i16(50),
      }), "interestBearingConfig");
    case 11:
      return sized(1, () => ({ lockCpi: r.u8(0) !== 0 }), "cpiGuard");
    case 12:
      return sized(32, () => ({ delegate: r.optionalKey(0) }), "permanentDelegate");
    case 13:
      return { extension: "nonTransferableAccount" };
    case 14:
      return sized(64, () => ({ authority: r.optionalKey(0), programId: r.optionalKey(32) }), "transferHook");
    case 15:
      return sized(1, () => ({ transferring: r.u8(0) !== 0 }), "transferHookAccount");
    case 18:
      return sized(64, () => ({ authority: r.optionalKey(0), metadataAddress: r.optionalKey(32) }), "metadataPointer");
    case 19: {
      const state = tokenMetadata(r);
      return state ? { extension: "tokenMetadata", state } : { extension: "unparseableExtension" };
    }
    case 20:
      return sized(64, () => ({ authority: r.optionalKey(0), groupAddress: r.optionalKey(32) }), "groupPointer");
    case 21:
      return sized(80, () => ({ updateAuthority: r.optionalKey(0), mint: r.key(32), size: u64(r.u64(64)), maxSize: u64(r.u64(72)) }), "tokenGroup");
    case 22:
      return sized(64, () => ({ authority: r.optionalKey(0), memberAddress: r.optionalKey(32) }), "groupMemberPointer");
    case 23:
      return sized(72, () => ({ mint: r.key(0), group: r.key(32), memberNumber: u64(r.u64(64)) }), "tokenGroupMember");
    case 25:
      return sized(56, () => ({
        authority: r.optionalKey(0),
        multiplier: String(r.f64(32)),
        newMultiplierEffectiveTimestamp: r.i64(40),
        newMultiplier: String(r.f64(48)),
      }), "scaledUiAmountConfig");
    case 26:
      return sized(33, () => ({ authority: r.optionalKey(0), paused: r.u8(32) !== 0 }), "pausableConfig");
    case 27:
      return { extension: "pausableAccount" };
    default:
      // Confidential-transfer extensions (4, 5, 16, 17, 24) are not decoded here.
      return { extension: "unparseableExtension" };
  }
}

/** Highest ExtensionType id Token-2022 defines; an unknown id makes Agave's `get_extension_types` fail (→ no extensions). */
const MAX_EXTENSION_TYPE = 28;

function parseExtensions(data: Uint8Array): Extension[] {
  const out: Extension[] = [];
  const r = new Reader(data);
  let at = ACCOUNT_LENGTH + 1;
  while (at + 4 <= data.length) {
    const type = r.u16(at);
    const length = r.u16(at + 2);
    if (type === 0) break;
    if (type > MAX_EXTENSION_TYPE || at + 4 + length > data.length) return [];
    out.push(parseExtension(type, data.subarray(at + 4, at + 4 + length)));
    at += 4 + length;
  }
  return out;
}

/** `StateWithExtensions::unpack`'s length/type checks for a base state of `baseLength` and account type `accountType`. */
function extensionLayoutOk(data: Uint8Array, baseLength: number, accountType: number): boolean {
  if (data.length === baseLength) return true;
  if (data.length <= ACCOUNT_LENGTH || data.length === MULTISIG_LENGTH) return false;
  return data[ACCOUNT_LENGTH] === accountType;
}

function parseAccount(data: Uint8Array, decimals: number | undefined): Record<string, unknown> | undefined | "needs-decimals" {
  if (!extensionLayoutOk(data, ACCOUNT_LENGTH, ACCOUNT_TYPE_ACCOUNT)) return undefined;
  const r = new Reader(data);
  const delegate = r.cOptionKey(72);
  const state = r.u8(108);
  const isNative = r.cOptionU64(109);
  const closeAuthority = r.cOptionKey(129);
  if (delegate === undefined || isNative === undefined || closeAuthority === undefined || state === 0 || state > 2) return undefined;
  if (decimals === undefined) return "needs-decimals";
  const info: Record<string, unknown> = {
    mint: r.key(0),
    owner: r.key(32),
    tokenAmount: uiTokenAmount(r.u64(64), decimals),
  };
  if (delegate !== null) info.delegate = delegate;
  info.state = ACCOUNT_STATES[state];
  info.isNative = isNative !== null;
  if (isNative !== null) info.rentExemptReserve = uiTokenAmount(isNative, decimals);
  if (delegate !== null) info.delegatedAmount = uiTokenAmount(r.u64(121), decimals);
  if (closeAuthority !== null) info.closeAuthority = closeAuthority;
  const extensions = data.length > ACCOUNT_LENGTH ? parseExtensions(data) : [];
  if (extensions.length > 0) info.extensions = extensions;
  return info;
}

function parseMint(data: Uint8Array): Record<string, unknown> | undefined {
  if (!extensionLayoutOk(data, MINT_LENGTH, ACCOUNT_TYPE_MINT) || data.length < MINT_LENGTH) return undefined;
  const r = new Reader(data);
  const mintAuthority = r.cOptionKey(0);
  const freezeAuthority = r.cOptionKey(46);
  if (mintAuthority === undefined || freezeAuthority === undefined || r.u8(45) !== 1) return undefined;
  const info: Record<string, unknown> = {
    mintAuthority,
    supply: r.u64(36).toString(),
    decimals: r.u8(44),
    isInitialized: true,
    freezeAuthority,
  };
  const extensions = data.length > ACCOUNT_LENGTH ? parseExtensions(data) : [];
  if (extensions.length > 0) info.extensions = extensions;
  return info;
}

function parseMultisig(data: Uint8Array): Record<string, unknown> | undefined {
  if (data.length !== MULTISIG_LENGTH || data[2] !== 1) return undefined;
  const r = new Reader(data);
  const signers: string[] = [];
  for (let at = 3; at < MULTISIG_LENGTH; at += 32) {
    const signer = r.optionalKey(at);
    if (signer !== null) signers.push(signer);
  }
  return { numRequiredSigners: r.u8(0), numValidSigners: r.u8(1), isInitialized: true, signers };
}

/** Mint address of a token account (bytes 0..32), for looking up decimals before parsing. */
export function tokenAccountMint(data: Uint8Array): string | undefined {
  return extensionLayoutOk(data, ACCOUNT_LENGTH, ACCOUNT_TYPE_ACCOUNT) ? encodeKey(data.subarray(0, 32)) : undefined;
}

/** Decimals of a mint's data, or undefined when it does not unpack as a mint (base checks only: no extension parsing). */
export function mintDecimals(data: Uint8Array): number | undefined {
  if (!extensionLayoutOk(data, MINT_LENGTH, ACCOUNT_TYPE_MINT) || data.length < MINT_LENGTH) return undefined;
  const r = new Reader(data);
  const tagsValid = r.cOptionKey(0) !== undefined && r.cOptionKey(46) !== undefined;
  return tagsValid && r.u8(45) === 1 ? r.u8(44) : undefined;
}

/**
 * Parses token-program account data. Token accounts need the mint's decimals (`decimalsOfMint`); when they are
 * unknown the account does not parse, as Agave's "no mint_decimals provided" error.
 */
export function parseTokenAccountData(
  data: Uint8Array,
  programId: string,
  decimalsOfMint: (mint: string) => number | undefined,
): ParsedAccountJson | undefined {
  const program = programId === TOKEN_2022_PROGRAM_ID ? "spl-token-2022" : "spl-token";
  const space = data.length;
  const mint = tokenAccountMint(data);
  const account = parseAccount(data, mint === undefined ? undefined : decimalsOfMint(mint));
  if (account === "needs-decimals") return undefined;
  if (account) return { program, parsed: { type: "account", info: account }, space };
  const mintInfo = parseMint(data);
  if (mintInfo) return { program, parsed: { type: "mint", info: mintInfo }, space };
  const multisig = parseMultisig(data);
  return multisig && { program, parsed: { type: "multisig", info: multisig }, space };
}
