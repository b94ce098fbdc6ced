/** getAccountInfo, getMultipleAccounts, getBalance, getProgramAccounts. */
import { isTokenProgram } from "../../chain/program-ids.js";
import { u64 } from "../json-serialize.js";
import { field, parse, positional, readBool, readConfig, readContextConfig, readString, readStringArray, verifyPubkey } from "../params.js";
import { invalidParams } from "../rpc-error.js";
import { bankSlot, encodeAccount, parsedTokenAccounts, withContext, type RpcContext } from "../rpc-context.js";
import type { MethodTable } from "../json-rpc.js";
import { checkSliceAndEncoding, readAccountConfig } from "./account-config.js";
import { matchesFilters, readFilters, verifyFilters } from "./program-account-filters.js";

/** Agave MAX_MULTIPLE_ACCOUNTS. */
const MAX_MULTIPLE_ACCOUNTS = 100;

export function accountMethods(ctx: RpcContext): MethodTable {
  const { accounts } = ctx.ledger;
  return {
    getAccountInfo(params) {
      const [pubkey, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readString(p[0]), readAccountConfig(p[1])] as const;
      });
      verifyPubkey(pubkey);
      checkSliceAndEncoding(config);
      const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
      const state = accounts.get(pubkey, slot);
      return withContext(slot, state ? encodeAccount(ctx, slot, state, config.encoding ?? "binary", config.dataSlice) : null);
    },

    getMultipleAccounts(params) {
      const [pubkeys, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readStringArray(p[0]), readAccountConfig(p[1])] as const;
      });
      if (pubkeys.length > MAX_MULTIPLE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      // Keys the ledger holds are valid by construction; only unknown ones need decoding.
      for (const pubkey of pubkeys) if (!accounts.get(pubkey, Infinity)) verifyPubkey(pubkey);
      checkSliceAndEncoding(config);
      const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
      const encoding = config.encoding ?? "base64";
      return withContext(
        slot,
        pubkeys.map((pubkey) => {
          const state = accounts.get(pubkey, slot);
          return state ? encodeAccount(ctx, slot, state, encoding, config.dataSlice) : null;
        }),
      );
    },

    getBalance(params) {
      const [pubkey, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readString(p[0]), readContextConfig(p[1])] as const;
      });
      verifyPubkey(pubkey);
      const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
      return withContext(slot, u64(accounts.get(pubkey, slot)?.lamports ?? 0n));
    },

    getProgramAccounts(params) {
      const [programId, config, filters, withContextFlag] = parse(() => {
        const p = positional(params, 1, 2);
        const raw = readConfig(p[1], "RpcProgramAccountsConfig");
        return [readString(p[0]), readAccountConfig(raw), readFilters(raw.filters), field(raw, "withContext", readBool) ?? false] as const;
      });
      verifyPubkey(programId);
      verifyFilters(filters);
      checkSliceAndEncoding(config);
      const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
      const matching = accounts.ownedBy(programId, slot).filter(([, state]) => matchesFilters(state, filters));
      const encoding = config.encoding ?? "binary";
      const value =
        encoding === "jsonParsed" && isTokenProgram(programId)
          ? parsedTokenAccounts(ctx, slot, matching)
          : matching.map(([pubkey, state]) => ({ pubkey, account: encodeAccount(ctx, slot, state, encoding, config.dataSlice) }));
      return withContextFlag ? withContext(slot, value) : value;
    },
  };
}
