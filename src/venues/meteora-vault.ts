/**
 * Meteora dynamic vault (program 24Uqj9JC…): one vault per mint, shared by every DAMM v1 pool of that
 * mint. Pools own vault LP shares; a share is worth the vault's unlocked amount / LP supply.
 */
import { getAddressDecoder, getBase16Encoder, getU64Decoder, type Address } from "@solana/kit";
import { METEORA_VAULT_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { getFieldsDecoder } from "../solana/accounts/field-layout";

export { METEORA_VAULT_PROGRAM_ADDRESS };

export const METEORA_VAULT_DISCRIMINATOR = getBase16Encoder().encode("d308e82b02987577");
/** Fields end with the locked-profit tracker at 1227; accounts are allocated 10,240 bytes. */
export const METEORA_VAULT_MIN_SIZE = 1227;
const LOCKED_PROFIT_DEGRADATION_DENOMINATOR = 1_000_000_000_000n;

export interface MeteoraVault {
  readonly totalAmount: bigint;
  readonly tokenMint: Address;
  /** the vault's LP mint; stored, because some (wSOL, USDC) are not the ["lp_mint", vault] PDA */
  readonly lpMint: Address;
  readonly lastUpdatedLockedProfit: bigint;
  readonly lastReport: bigint;
  readonly lockedProfitDegradation: bigint;
}

const vaultDecoder = getFieldsDecoder({
  totalAmount: [11, getU64Decoder()],
  tokenMint: [83, getAddressDecoder()],
  lpMint: [115, getAddressDecoder()],
  lastUpdatedLockedProfit: [1203, getU64Decoder()],
  lastReport: [1211, getU64Decoder()],
  lockedProfitDegradation: [1219, getU64Decoder()],
});

/** Decodes a dynamic Vault. */
export function decodeMeteoraVault(account: AccountBytes): MeteoraVault {
  assertAccountShape(account, {
    layout: "MeteoraVault",
    owners: [METEORA_VAULT_PROGRAM_ADDRESS],
    size: [METEORA_VAULT_MIN_SIZE],
    discriminator: METEORA_VAULT_DISCRIMINATOR,
  });
  return vaultDecoder.decode(account.data);
}

/**
 * Amount the vault can pay out at `nowSeconds`: total minus the profit still locked. Strategy profit
 * unlocks linearly (locked × (1 − elapsed × degradation / 10¹²)), so it cannot be sandwiched.
 */
export function meteoraVaultUnlockedAmount(vault: MeteoraVault, nowSeconds: bigint): bigint {
  const elapsed = nowSeconds > vault.lastReport ? nowSeconds - vault.lastReport : 0n;
  const ratio = elapsed * vault.lockedProfitDegradation;
  const locked =
    ratio > LOCKED_PROFIT_DEGRADATION_DENOMINATOR
      ? 0n
      : (vault.lastUpdatedLockedProfit * (LOCKED_PROFIT_DEGRADATION_DENOMINATOR - ratio)) /
        LOCKED_PROFIT_DEGRADATION_DENOMINATOR;
  return vault.totalAmount > locked ? vault.totalAmount - locked : 0n;
}

/** Underlying tokens behind `shares` vault LP tokens out of `lpSupply` (rounded down, as the program does). */
export function meteoraVaultAmountByShare(vault: MeteoraVault, nowSeconds: bigint, shares: bigint, lpSupply: bigint): bigint {
  return lpSupply === 0n ? 0n : (meteoraVaultUnlockedAmount(vault, nowSeconds) * shares) / lpSupply;
}
