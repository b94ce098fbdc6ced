/**
 * SPL Token / Token-2022 account layouts (VENUES.md §1, §16): 82-byte mints, 165-byte token accounts, and the Token-2022
 * form (zero padding to 165, AccountType byte @165, TLV extensions from @166).
 */
import { FixedWriter, BorshWriter, concat } from "../core/bytes.js";
import type { Pubkey } from "../../chain/types.js";
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, WSOL_MINT } from "../programs.js";

export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;

/** Rent-exempt minimum for `len` bytes of data (lamports_per_byte_year 3480 × 2 years, 128-byte header). */
export function rentExempt(len: number): bigint {
  return BigInt((128 + len) * 6960);
}

export enum ExtensionType {
  TransferFeeConfig = 1,
  TransferFeeAmount = 2,
  ImmutableOwner = 7,
  MetadataPointer = 18,
  TokenMetadata = 19,
}

export interface TransferFee {
  epoch: bigint;
  maximumFee: bigint;
  basisPoints: number;
}

export interface MintState {
  address: Pubkey;
  program: Pubkey;
  decimals: number;
  supply: bigint;
  mintAuthority: Pubkey | null;
  freezeAuthority: Pubkey | null;
  /**
   * Key bytes left behind in a `None` authority slot: SetAuthority(None) only clears the COption tag, so mainnet mints
   * whose authority was revoked (every pump coin) still carry the old authority's bytes.
   */
  revokedMintAuthority?: Pubkey;
  transferFee?: {
    configAuthority: Pubkey | null;
    withdrawAuthority: Pubkey | null;
    /** Withheld fees harvested to the mint (still part of the supply). */
    withheld: bigint;
    older: TransferFee;
    newer: TransferFee;
  };
  metadataPointer?: { authority: Pubkey | null; address: Pubkey };
  tokenMetadata?: {
    updateAuthority: Pubkey | null;
    name: string;
    symbol: string;
    uri: string;
    additional: [string, string][];
  };
}

const ZERO_KEY = "11111111111111111111111111111111";

function tlv(type: ExtensionType, value: Uint8Array): Uint8Array {
  const head = new FixedWriter(4).u16(0, type).u16(2, value.length).bytes;
  return concat(head, value);
}

function transferFeeBytes(w: BorshWriter, f: TransferFee): void {
  w.u64(f.epoch).u64(f.maximumFee).u16(f.basisPoints);
}

export function encodeMint(m: MintState): Uint8Array {
  const base = new FixedWriter(MINT_SIZE);
  if (!m.mintAuthority && m.revokedMintAuthority) base.pubkey(4, m.revokedMintAuthority);
  base
    .coptionPubkey(0, m.mintAuthority)
    .u64(36, m.supply)
    .u8(44, m.decimals)
    .bool(45, true)
    .coptionPubkey(46, m.freezeAuthority);
  const exts: Uint8Array[] = [];
  if (m.transferFee) {
    const f = m.transferFee;
    const w = new BorshWriter()
      .pubkey(f.configAuthority ?? ZERO_KEY)
      .pubkey(f.withdrawAuthority ?? ZERO_KEY)
      .u64(f.withheld);
    transferFeeBytes(w, f.older);
    transferFeeBytes(w, f.newer);
    exts.push(tlv(ExtensionType.TransferFeeConfig, w.done()));
  }
  if (m.metadataPointer) {
    const w = new BorshWriter().pubkey(m.metadataPointer.authority ?? ZERO_KEY).pubkey(m.metadataPointer.address);
    exts.push(tlv(ExtensionType.MetadataPointer, w.done()));
  }
  if (m.tokenMetadata) {
    const t = m.tokenMetadata;
    const w = new BorshWriter()
      .pubkey(t.updateAuthority ?? ZERO_KEY)
      .pubkey(m.address)
      .string(t.name)
      .string(t.symbol)
      .string(t.uri)
      .u32(t.additional.length);
    for (const [k, v] of t.additional) w.string(k).string(v);
    exts.push(tlv(ExtensionType.TokenMetadata, w.done()));
  }
  if (m.program === TOKEN_PROGRAM) {
    if (exts.length) throw new Error("SPL Token mints have no extensions");
    return base.bytes;
  }
  const head = new Uint8Array(TOKEN_ACCOUNT_SIZE + 1);
  head.set(base.bytes, 0);
  head[TOKEN_ACCOUNT_SIZE] = 1; // AccountType::Mint
  return concat(head, ...exts);
}

export interface TokenAccountState {
  address: Pubkey;
  mint: Pubkey;
  owner: Pubkey;
  program: Pubkey;
  amount: bigint;
  delegate: Pubkey | null;
  /** Key bytes left in the delegate slot after a Revoke (only the COption tag is cleared on mainnet). */
  revokedDelegate?: Pubkey;
  delegatedAmount: bigint;
  closeAuthority: Pubkey | null;
  /** Token-2022 only. */
  immutableOwner: boolean;
  /** Token-2022 TransferFeeAmount.withheld_amount (present when the mint has a transfer fee). */
  withheld: bigint | null;
  /** Lamports held (rent + wrapped SOL for native accounts). */
  lamports: bigint;
}

export function tokenAccountSize(program: Pubkey, immutableOwner: boolean, transferFee: boolean): number {
  if (program === TOKEN_PROGRAM) return TOKEN_ACCOUNT_SIZE;
  return TOKEN_ACCOUNT_SIZE + 1 + (immutableOwner ? 4 : 0) + (transferFee ? 12 : 0);
}

export function encodeTokenAccount(a: TokenAccountState): Uint8Array {
  const isNative = a.mint === WSOL_MINT;
  const size = tokenAccountSize(a.program, a.immutableOwner, a.withheld !== null);
  const w = new FixedWriter(size);
  if (!a.delegate && a.revokedDelegate) w.pubkey(76, a.revokedDelegate);
  w.pubkey(0, a.mint)
    .pubkey(32, a.owner)
    .u64(64, a.amount)
    .coptionPubkey(72, a.delegate)
    .u8(108, 1) // AccountState::Initialized
    .coptionU64(109, isNative ? rentExempt(TOKEN_ACCOUNT_SIZE) : null)
    .u64(121, a.delegatedAmount)
    .coptionPubkey(129, a.closeAuthority);
  if (a.program === TOKEN_2022_PROGRAM) {
    w.u8(TOKEN_ACCOUNT_SIZE, 2); // AccountType::Account
    let o = TOKEN_ACCOUNT_SIZE + 1;
    // ATA creation runs InitializeImmutableOwner before InitializeAccount3 adds the mint's required extensions.
    if (a.immutableOwner) {
      w.u16(o, ExtensionType.ImmutableOwner).u16(o + 2, 0);
      o += 4;
    }
    if (a.withheld !== null) {
      w.u16(o, ExtensionType.TransferFeeAmount).u16(o + 2, 8).u64(o + 4, a.withheld);
      o += 12;
    }
  }
  return w.bytes;
}

/** Fee Token-2022 withholds on a transfer of `amount` (ceil(amount·bps/10000), capped). */
export function transferFeeFor(m: MintState, amount: bigint): bigint {
  if (!m.transferFee) return 0n;
  const f = m.transferFee.newer;
  if (f.basisPoints === 0 || amount === 0n) return 0n;
  const fee = (amount * BigInt(f.basisPoints) + 9999n) / 10000n;
  return fee > f.maximumFee ? f.maximumFee : fee;
}
