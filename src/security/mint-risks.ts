/**
 * Authorities and Token-2022 extensions of a mint, as facts a holder can act on, pure: each comes with its current
 * parameters and a sentence saying what it lets someone do to a holder. The mint's bytes say it all; the metadata
 * account adds who may rewrite the token's name and image.
 */
import type { Address } from "@solana/kit";

import type { DecodedMint, OnchainIdentity } from "../overview/token-profile";
import type { RawAccount } from "../solana/account-reader";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { decodeMetaplexMetadataAccount } from "../solana/accounts/metaplex-metadata";
import { transferFeeAtEpoch } from "../solana/accounts/token-2022-extensions";
import type { ExtensionRisk, RiskFlag } from "./security-schema";

/** An extension's facts before the answer adds where they were read. */
export type ExtensionFacts = Omit<ExtensionRisk, "source">;

export type AuthorityFacts = {
  mintAuthority: Address | null;
  freezeAuthority: Address | null;
  updateAuthority: Address | null;
  isMutable: boolean | null;
  metadataSource: OnchainIdentity["metadataSource"];
  flags: RiskFlag[];
};

/** Metaplex `is_mutable` of the metadata account, when that account is the one the identity was read from. */
function metaplexIsMutable(mint: Address, account: RawAccount | null | undefined): boolean | null {
  if (!account) return null;
  try {
    const metadata = decodeMetaplexMetadataAccount(account);
    return metadata.mint === mint ? metadata.isMutable : null;
  } catch (error) {
    if (error instanceof AccountDecodeError) return null;
    throw error;
  }
}

/**
 * Mint, freeze and metadata authorities. Token-2022 metadata has no `is_mutable`: it is mutable exactly when it has
 * an update authority. Metaplex metadata with `is_mutable` false cannot be changed even by its update authority.
 */
export function authorityFacts(mint: Address, identity: OnchainIdentity, metaplexAccount: RawAccount | null | undefined): AuthorityFacts {
  const isMutable =
    identity.metadataSource === "metaplex" ? metaplexIsMutable(mint, metaplexAccount) : identity.metadataSource === "token-2022" ? identity.updateAuthority !== null : null;
  const flags: RiskFlag[] = [];
  if (identity.mintAuthority) flags.push({ id: "mintable", message: `${identity.mintAuthority} can mint more tokens, diluting every holder.` });
  if (identity.freezeAuthority) flags.push({ id: "freezable", message: `${identity.freezeAuthority} can freeze any holder's token account, so its tokens cannot be sold.` });
  if (isMutable && identity.updateAuthority) {
    flags.push({ id: "mutable-metadata", message: `${identity.updateAuthority} can change the token's name, symbol and image.` });
  }
  return {
    mintAuthority: identity.mintAuthority,
    freezeAuthority: identity.freezeAuthority,
    updateAuthority: identity.updateAuthority,
    isMutable,
    metadataSource: identity.metadataSource,
    flags,
  };
}

const bps = (n: number) => `${(n / 100).toFixed(2)}%`;

/**
 * The Token-2022 extensions that can hurt a holder, in a fixed order, with their parameters now. `epoch` is the
 * cluster's current epoch (the transfer fee in force depends on it). An SPL Token mint, or a Token-2022 mint whose
 * extensions could not be read, has none (the latter cannot happen for a mint the token program accepted).
 */
export function extensionRisks(decoded: DecodedMint, epoch: bigint): ExtensionFacts[] {
  const ext = decoded.extensions;
  if (!ext) return [];
  const risks: ExtensionFacts[] = [];
  if (ext.transferFeeConfig) {
    const config = ext.transferFeeConfig;
    const current = transferFeeAtEpoch(config, epoch);
    const pending = current === config.newerTransferFee ? null : config.newerTransferFee;
    risks.push({
      id: "transferFee",
      params: {
        currentBasisPoints: String(current.transferFeeBasisPoints),
        currentMaximumFee: current.maximumFee.toString(),
        pendingBasisPoints: pending ? String(pending.transferFeeBasisPoints) : null,
        pendingMaximumFee: pending ? pending.maximumFee.toString() : null,
        pendingFromEpoch: pending ? pending.epoch.toString() : null,
        authority: config.transferFeeConfigAuthority,
      },
      message:
        `Every transfer pays ${bps(current.transferFeeBasisPoints)} of the amount (at most ${current.maximumFee} base units) to the fee authority` +
        (pending ? `; from epoch ${pending.epoch} it becomes ${bps(pending.transferFeeBasisPoints)} (at most ${pending.maximumFee}).` : ".") +
        (config.transferFeeConfigAuthority ? ` ${config.transferFeeConfigAuthority} can raise it (taking effect two epochs later).` : ""),
    });
  }
  if (ext.transferHook?.programId) {
    const hook = ext.transferHook;
    risks.push({
      id: "transferHook",
      params: { programId: hook.programId, authority: hook.authority },
      message: `Every transfer runs program ${hook.programId}, which can refuse it (a sale can be blocked)` + (hook.authority ? `; ${hook.authority} can change the program.` : "."),
    });
  }
  if (ext.permanentDelegate?.delegate) {
    risks.push({
      id: "permanentDelegate",
      params: { delegate: ext.permanentDelegate.delegate },
      message: `${ext.permanentDelegate.delegate} can transfer or burn tokens out of any holder's account, without the holder's signature.`,
    });
  }
  if (ext.defaultAccountState?.state === "frozen") {
    risks.push({
      id: "defaultAccountState",
      params: { state: "frozen" },
      message: "New token accounts start frozen: a buyer's account must be thawed by the freeze authority before its tokens can move.",
    });
  }
  if (ext.nonTransferable) {
    risks.push({ id: "nonTransferable", params: {}, message: "The token cannot be transferred at all: it can be neither sold nor sent." });
  }
  if (ext.pausable) {
    const p = ext.pausable;
    risks.push({
      id: "pausable",
      params: { paused: p.paused, authority: p.authority },
      message: (p.paused ? "Transfers, mints and burns are paused now." : "Transfers, mints and burns can be paused.") + (p.authority ? ` ${p.authority} can pause and resume them.` : ""),
    });
  }
  if (ext.mintCloseAuthority?.closeAuthority) {
    const closer = ext.mintCloseAuthority.closeAuthority;
    risks.push({
      id: "mintCloseAuthority",
      params: { closeAuthority: closer },
      message: `${closer} can close the mint once its supply is zero, and a new mint with other rules can take its address.`,
    });
  }
  if (ext.confidentialTransferMint) {
    const ct = ext.confidentialTransferMint;
    risks.push({
      id: "confidentialTransfers",
      params: { authority: ct.authority, autoApproveNewAccounts: ct.autoApproveNewAccounts, auditor: ct.auditorElGamalPubkey },
      message: "Balances and transfers can be made confidential: holdings moved into confidential balances are invisible to holder figures.",
    });
  }
  return risks;
}
