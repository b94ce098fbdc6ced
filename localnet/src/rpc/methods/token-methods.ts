/**
 * SPL Token methods: getTokenAccountsByOwner / ByDelegate ({mint} or {programId} filter), getTokenAccountBalance,
 * getTokenSupply, getTokenLargestAccounts, with Agave's error texts for missing or non-token accounts and mints.
 */
import { rawKey } from "../../chain/account-store.js";
import type { Ledger } from "../../chain/ledger.js";
import { isTokenProgram, NATIVE_MINT, TOKEN_PROGRAM_ID } from "../../chain/program-ids.js";
import type { AccountState, Pubkey } from "../../chain/types.js";
import { mintDecimals, parseTokenAccountData, tokenAccountMint } from "../encoding/spl-token-parser.js";
import { uiTokenAmount } from "../../chain/token-amount.js";
import type { MethodTable } from "../json-rpc.js";
import { commitmentParam, parse, positional, readConfig, readString, SerdeError, verifyPubkey } from "../params.js";
import { invalidParams } from "../rpc-error.js";
import { bankSlot, decimalsAt, encodeAccount, parsedTokenAccounts, withContext, type RpcContext } from "../rpc-context.js";
import { checkSliceAndEncoding, readAccountConfig } from "./account-config.js";
import { matchesFilters, type AccountFilter } from "./program-account-filters.js";

/** Agave NUM_LARGEST_ACCOUNTS. */
const NUM_LARGEST_ACCOUNTS = 20;

type TokenFilter = { mint: string } | { programId: string };

/** RpcTokenAccountsFilter: an externally tagged enum, `{"mint": ...}` or `{"programId": ...}`. */
function readTokenFilter(value: unknown): TokenFilter {
  const config = readConfig(value, "RpcTokenAccountsFilter");
  const keys = Object.keys(config);
  if (keys.length !== 1) throw new SerdeError("invalid value: map, expected map with a single key");
  const key = keys[0]!;
  if (key !== "mint" && key !== "programId") throw new SerdeError(`unknown variant \`${key}\`, expected \`mint\` or \`programId\``);
  const text = readString(config[key]);
  return key === "mint" ? { mint: text } : { programId: text };
}

/** Agave `get_mint_owner_and_additional_data`: the mint's program and decimals (the native mint needs no account). */
function mintOwnerAndDecimals(ledger: Ledger, mint: Pubkey, slot: number): { owner: Pubkey; decimals: number } {
  if (mint === NATIVE_MINT) return { owner: TOKEN_PROGRAM_ID, decimals: 9 };
  const account = ledger.accounts.get(mint, slot);
  if (!account) throw invalidParams("Invalid param: could not find mint");
  const decimals = mintDecimals(account.data);
  if (decimals === undefined) throw invalidParams("Invalid param: Token mint could not be unpacked");
  return { owner: account.owner, decimals };
}

/** Agave `get_token_program_id_and_mint`. */
function programAndMint(ledger: Ledger, filter: TokenFilter, slot: number): { programId: Pubkey; mint?: Pubkey } {
  if ("mint" in filter) {
    const { owner } = mintOwnerAndDecimals(ledger, filter.mint, slot);
    if (!isTokenProgram(owner)) throw invalidParams("Invalid param: not a Token mint");
    return { programId: owner, mint: filter.mint };
  }
  if (!isTokenProgram(filter.programId)) throw invalidParams("Invalid param: unrecognized Token program id");
  return { programId: filter.programId };
}

export function tokenMethods(ctx: RpcContext): MethodTable {
  const { ledger } = ctx;

  function tokenAccountsBy(kind: "owner" | "delegate", params: unknown) {
    const [key, filter, config] = parse(() => {
      const p = positional(params, 2, 3);
      return [readString(p[0]), readTokenFilter(p[1]), readAccountConfig(p[2])] as const;
    });
    const keyBytes = verifyPubkey(key);
    verifyPubkey("mint" in filter ? filter.mint : filter.programId);
    checkSliceAndEncoding(config);
    const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
    const { programId, mint } = programAndMint(ledger, filter, slot);
    const filters: AccountFilter[] = [{ kind: "tokenAccountState" }];
    if (kind === "delegate") {
      // COption<Pubkey> delegate at 72: tag 1 (u32 LE), then the key at 76.
      filters.push({ kind: "memcmp", offset: 72, encoding: "bytes", text: "", bytes: Uint8Array.of(1, 0, 0, 0) });
      filters.push({ kind: "memcmp", offset: 76, encoding: "bytes", text: "", bytes: keyBytes });
    }
    const candidates =
      kind === "owner"
        ? ledger.accounts.tokenAccountsByOwner(keyBytes, slot)
        : mint !== undefined
          ? ledger.accounts.tokenAccountsByMint(verifyPubkey(mint), slot)
          : ledger.accounts.ownedBy(programId, slot);
    const matching = candidates.filter(
      ([, state]) => state.owner === programId && (mint === undefined || tokenAccountMint(state.data) === mint) && matchesFilters(state, filters),
    );
    const encoding = config.encoding ?? "binary";
    const value =
      encoding === "jsonParsed"
        ? parsedTokenAccounts(ctx, slot, matching)
        : matching.map(([pubkey, state]) => ({ pubkey, account: encodeAccount(ctx, slot, state, encoding, config.dataSlice) }));
    return withContext(slot, value);
  }

  /** `[pubkey, commitment?]` of the single-account token methods. */
  function keyAndCommitment(params: unknown) {
    const [key, commitment] = parse(() => {
      const p = positional(params, 1, 2);
      return [readString(p[0]), commitmentParam(p[1])] as const;
    });
    verifyPubkey(key);
    return { key, slot: bankSlot(ctx, commitment) };
  }

  function tokenAccount(state: AccountState | undefined): AccountState {
    if (!state) throw invalidParams("Invalid param: could not find account");
    if (!isTokenProgram(state.owner) || tokenAccountMint(state.data) === undefined || state.data[108] === 0) {
      throw invalidParams("Invalid param: not a Token account");
    }
    return state;
  }

  return {
    getTokenAccountsByOwner: (params) => tokenAccountsBy("owner", params),
    getTokenAccountsByDelegate: (params) => tokenAccountsBy("delegate", params),

    getTokenAccountBalance(params) {
      const { key, slot } = keyAndCommitment(params);
      const state = tokenAccount(ledger.accounts.get(key, slot));
      const { decimals } = mintOwnerAndDecimals(ledger, tokenAccountMint(state.data)!, slot);
      const amount = new DataView(state.data.buffer, state.data.byteOffset).getBigUint64(64, true);
      return withContext(slot, uiTokenAmount(amount, decimals));
    },

    getTokenSupply(params) {
      const { key, slot } = keyAndCommitment(params);
      const state = ledger.accounts.get(key, slot);
      if (!state) throw invalidParams("Invalid param: could not find account");
      if (!isTokenProgram(state.owner)) throw invalidParams("Invalid param: not a Token mint");
      const parsed = parseTokenAccountData(state.data, state.owner, decimalsAt(ctx, slot));
      if (parsed?.parsed.type !== "mint") throw invalidParams("Invalid param: mint could not be unpacked");
      const info = parsed.parsed.info;
      return withContext(slot, uiTokenAmount(BigInt(info.supply as string), info.decimals as number));
    },

    getTokenLargestAccounts(params) {
      const { key, slot } = keyAndCommitment(params);
      const { owner, decimals } = mintOwnerAndDecimals(ledger, key, slot);
      if (!isTokenProgram(owner)) throw invalidParams("Invalid param: not a Token mint");
      const balances = ledger.accounts
        .tokenAccountsByMint(verifyPubkey(key), slot)
        .filter(([, state]) => state.owner === owner && matchesFilters(state, [{ kind: "tokenAccountState" }]))
        .map(([address, state]) => ({
          address,
          amount: new DataView(state.data.buffer, state.data.byteOffset).getBigUint64(64, true),
          order: rawKey(verifyPubkey(address)),
        }));
      // Largest first; ties by key bytes, larger first (Agave's BinaryHeap over (amount, Pubkey)).
      balances.sort((a, b) => (a.amount !== b.amount ? (a.amount > b.amount ? -1 : 1) : a.order > b.order ? -1 : a.order < b.order ? 1 : 0));
      return withContext(
        slot,
        balances.slice(0, NUM_LARGEST_ACCOUNTS).map(({ address, amount }) => ({ address, ...uiTokenAmount(amount, decimals) })),
      );
    },
  };
}
