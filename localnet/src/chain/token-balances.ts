/**
 * Agave's `collect_token_balances`: for every key of a transaction that is not an invoked program, a token-program
 * account in the token account layout (initialized) gives `{accountIndex, mint, uiTokenAmount, owner, programId}`, with
 * the decimals of its mint (the native mint is known without its account). Accounts whose mint cannot be read are left out.
 */
import { hasTokenAccountLayout } from "./account-store.js";
import { encodeBase58 } from "./base58.js";
import { isTokenProgram, NATIVE_MINT } from "./program-ids.js";
import { uiTokenAmount } from "./token-amount.js";
import type { AccountState, Pubkey, TokenBalance } from "./types.js";
import { mintDecimals } from "../rpc/encoding/spl-token-parser.js";

/** Token account layout: mint @0, owner @32, amount @64 (u64 LE), state @108 (0 = uninitialized). */
const STATE_OFFSET = 108;

export function tokenBalancesOf(
  states: readonly (AccountState | undefined)[],
  invoked: ReadonlySet<number>,
  mintAccount: (mint: Pubkey) => AccountState | undefined,
): TokenBalance[] {
  const out: TokenBalance[] = [];
  states.forEach((state, accountIndex) => {
    if (!state || invoked.has(accountIndex) || !isTokenProgram(state.owner) || !hasTokenAccountLayout(state.data)) return;
    if (state.data[STATE_OFFSET] === 0) return;
    const mint = encodeBase58(state.data.subarray(0, 32));
    const mintData = mint === NATIVE_MINT ? undefined : mintAccount(mint)?.data;
    const decimals = mint === NATIVE_MINT ? 9 : mintData && mintDecimals(mintData);
    if (decimals === undefined) return;
    const amount = new DataView(state.data.buffer, state.data.byteOffset).getBigUint64(64, true);
    out.push({
      accountIndex,
      mint,
      uiTokenAmount: uiTokenAmount(amount, decimals),
      owner: encodeBase58(state.data.subarray(32, 64)),
      programId: state.owner,
    });
  });
  return out;
}
