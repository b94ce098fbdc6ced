/**
 * The on-chain identity of a token, pure: mint base (decimals, authorities, program), Token-2022 extensions, and
 * name/symbol/uri/update authority/creators from whichever metadata the mint trusts (VENUES.md §15, §16).
 */
import type { Address } from "@solana/kit";

import { ApiError } from "../errors/api-error";
import type { RawAccount } from "../solana/account-reader";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { decodeMetaplexMetadataAccount, type MetaplexMetadata } from "../solana/accounts/metaplex-metadata";
import { decodeMint, type Mint } from "../solana/accounts/spl-token";
import { parseToken2022MintExtensions, type Token2022MintExtensions } from "../solana/accounts/token-2022-extensions";
import { TOKEN_2022_PROGRAM_ADDRESS } from "../solana/well-known";
import type { OverviewCreator, OverviewTransferFee } from "./overview-schema";

/** A decoded mint: the base, and the Token-2022 extensions (null for SPL Token mints or unreadable extensions). */
export type DecodedMint = Mint & { isToken2022: boolean; extensions: Token2022MintExtensions | null };

/** Where name, symbol and uri came from. */
export type MetadataSource = "token-2022" | "metaplex" | "none";

/** Everything about a token that changes rarely or never; JSON-safe so it can be cached. */
export type OnchainIdentity = {
  decimals: number;
  isToken2022: boolean;
  mintAuthority: Address | null;
  freezeAuthority: Address | null;
  name: string;
  symbol: string;
  /** The off-chain metadata URI as written on chain (untrusted); null when there is none. */
  uri: string | null;
  updateAuthority: Address | null;
  creators: OverviewCreator[];
  transferFee: OverviewTransferFee | null;
  metadataSource: MetadataSource;
};

/**
 * Decodes the mint account of `mint`. Throws `ApiError` NOT_FOUND when the account does not exist, is not a mint
 * of either token program, or is not initialized. A malformed Token-2022 extension only costs the extensions.
 */
export function decodeOverviewMint(mint: Address, raw: RawAccount | null | undefined): DecodedMint {
  if (!raw) throw new ApiError("NOT_FOUND", `Unknown mint ${mint}: no such account`);
  let decoded: Mint;
  try {
    decoded = decodeMint(raw);
  } catch (error) {
    if (error instanceof AccountDecodeError) throw new ApiError("NOT_FOUND", `${mint} is not a token mint`);
    throw error;
  }
  if (!decoded.isInitialized) throw new ApiError("NOT_FOUND", `${mint} is not an initialized token mint`);
  const isToken2022 = decoded.tokenProgram === TOKEN_2022_PROGRAM_ADDRESS;
  return { ...decoded, isToken2022, extensions: isToken2022 ? readExtensions(raw.data) : null };
}

function readExtensions(data: Uint8Array): Token2022MintExtensions | null {
  try {
    return parseToken2022MintExtensions(data);
  } catch (error) {
    if (error instanceof AccountDecodeError) return null;
    throw error;
  }
}

/**
 * The Token-2022 metadata the mint carries itself, trusted only when its metadata pointer points at the mint
 * (anyone can write a TokenMetadata extension into their own mint naming another token; the pointer is what the
 * mint's authority vouches for).
 */
function selfMetadata(mint: Address, decoded: DecodedMint) {
  const ext = decoded.extensions;
  if (!ext?.tokenMetadata || ext.metadataPointer?.metadataAddress !== mint) return undefined;
  return ext.tokenMetadata.mint === mint ? ext.tokenMetadata : undefined;
}

function readMetaplex(mint: Address, raw: RawAccount | null | undefined): MetaplexMetadata | undefined {
  if (!raw) return undefined;
  try {
    const metadata = decodeMetaplexMetadataAccount(raw);
    return metadata.mint === mint ? metadata : undefined;
  } catch (error) {
    if (error instanceof AccountDecodeError) return undefined;
    throw error;
  }
}

/**
 * Builds the identity from the decoded mint and the account at its Metaplex metadata PDA (null/undefined when
 * absent). Precedence: the mint's own Token-2022 metadata (pointer → mint), else the Metaplex account, else none.
 */
export function buildOnchainIdentity(mint: Address, decoded: DecodedMint, metaplexAccount: RawAccount | null | undefined): OnchainIdentity {
  const base = {
    decimals: decoded.decimals,
    isToken2022: decoded.isToken2022,
    mintAuthority: decoded.mintAuthority,
    freezeAuthority: decoded.freezeAuthority,
    transferFee: transferFeeOf(decoded.extensions),
  };
  const own = selfMetadata(mint, decoded);
  if (own) {
    return {
      ...base,
      name: own.name,
      symbol: own.symbol,
      uri: nonEmpty(own.uri),
      updateAuthority: own.updateAuthority,
      creators: [],
      metadataSource: "token-2022",
    };
  }
  const metaplex = readMetaplex(mint, metaplexAccount);
  if (metaplex) {
    return {
      ...base,
      name: metaplex.name,
      symbol: metaplex.symbol,
      uri: nonEmpty(metaplex.uri),
      updateAuthority: metaplex.updateAuthority,
      creators: (metaplex.creators ?? []).map((c) => ({ address: c.address, verified: c.verified, share: String(c.share) })),
      metadataSource: "metaplex",
    };
  }
  return { ...base, name: "", symbol: "", uri: null, updateAuthority: null, creators: [], metadataSource: "none" };
}

function nonEmpty(uri: string): string | null {
  return uri.trim() === "" ? null : uri;
}

/** The newer fee schedule: the one in force now or from its epoch on (the current epoch would cost another call). */
function transferFeeOf(extensions: Token2022MintExtensions | null): OverviewTransferFee | null {
  const config = extensions?.transferFeeConfig;
  if (!config) return null;
  const fee = config.newerTransferFee;
  return { basisPoints: String(fee.transferFeeBasisPoints), maximumFee: fee.maximumFee.toString(), fromEpoch: fee.epoch.toString() };
}
