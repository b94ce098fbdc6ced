/**
 * What every method needs: the ledger, where this node listens (getClusterNodes), and the shared pieces of Agave's
 * request handling: picking the bank for a commitment with the minContextSlot check, the `{context, value}` wrapper,
 * and account encoding with the token-program jsonParsed path.
 */
import { AGAVE_VERSION } from "../chain/cluster-constants.js";
import type { Commitment, Ledger } from "../chain/ledger.js";
import { isTokenProgram, NATIVE_MINT } from "../chain/program-ids.js";
import type { AccountState, Pubkey } from "../chain/types.js";
import { encodeAccountData, uiAccount, type AccountEncoding, type DataSlice } from "./encoding/account-encoding.js";
import { mintDecimals, parseTokenAccountData } from "./encoding/spl-token-parser.js";
import { minContextSlotNotReached } from "./rpc-error.js";

export interface NodeAddress {
  host: string;
  rpcPort: number;
  wsPort: number;
}

export interface RpcContext {
  ledger: Ledger;
  node: NodeAddress;
}

/** Slot of the bank a request reads: Agave's `get_bank_with_config`. */
export function bankSlot(ctx: RpcContext, commitment: Commitment, minContextSlot?: number): number {
  const slot = ctx.ledger.slotAt(commitment);
  if (minContextSlot !== undefined && slot < minContextSlot) throw minContextSlotNotReached(slot);
  return slot;
}

export function withContext<T>(slot: number, value: T): { context: { slot: number; apiVersion: string }; value: T } {
  return { context: { slot, apiVersion: AGAVE_VERSION }, value };
}

/** Decimals for token amounts; the native mint is known without its account, as Agave special-cases it. */
export function decimalsAt(ctx: RpcContext, slot: number): (mint: Pubkey) => number | undefined {
  return (mint) => {
    if (mint === NATIVE_MINT) return 9;
    const account = ctx.ledger.accounts.get(mint, slot);
    return account && mintDecimals(account.data);
  };
}

/** An account in the requested encoding; jsonParsed parses token-program accounts and falls back to base64 for the rest. */
export function encodeAccount(
  ctx: RpcContext,
  slot: number,
  state: AccountState,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
): Record<string, unknown> {
  const parsed = () => (isTokenProgram(state.owner) ? parseTokenAccountData(state.data, state.owner, decimalsAt(ctx, slot)) : undefined);
  return uiAccount(state, encodeAccountData(state, encoding, slice, parsed));
}

/** Token-program accounts in jsonParsed form; those that do not parse are left out (Agave `get_parsed_token_accounts`). */
export function parsedTokenAccounts(ctx: RpcContext, slot: number, accounts: [Pubkey, AccountState][]): { pubkey: Pubkey; account: unknown }[] {
  const decimals = decimalsAt(ctx, slot);
  return accounts.flatMap(([pubkey, state]) => {
    const parsed = parseTokenAccountData(state.data, state.owner, decimals);
    return parsed ? [{ pubkey, account: uiAccount(state, parsed) }] : [];
  });
}
