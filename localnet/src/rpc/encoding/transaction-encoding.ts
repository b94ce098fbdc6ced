/**
 * Renders a TxRecord as Agave's transaction-status encoder does for getBlock / getTransaction:
 * - `json`: raw message (accountKeys, header, recentBlockhash, instructions with base58 data and stackHeight 1 at top
 *   level) and the full meta with loadedAddresses;
 * - `jsonParsed`: parsed account list and instructions (see instruction-parser), meta without loadedAddresses and with
 *   parsed inner instructions;
 * - `base58` / `base64`: `[wire bytes, encoding]`; legacy `binary`: a bare base58 string;
 * - transactionDetails `accounts`: signatures + parsed account list, meta reduced to balances/fee/err.
 * `version` is present only when the client sent maxSupportedTransactionVersion; a v0 transaction without it is error -32015.
 */
import { encodeBase58 } from "../../chain/base58.js";
import { RESERVED_ACCOUNT_KEYS } from "../../chain/program-ids.js";
import type { CompiledInstruction, TxMeta, TxRecord } from "../../chain/types.js";
import { u64 } from "../json-serialize.js";
import { unsupportedTransactionVersion } from "../rpc-error.js";
import { parseUiInstruction } from "./instruction-parser.js";
import { transactionWireBytes } from "./transaction-wire.js";

export const TRANSACTION_ENCODINGS = ["binary", "base64", "base58", "json", "jsonParsed"] as const;
export type TransactionEncoding = (typeof TRANSACTION_ENCODINGS)[number];

export interface EncodeOptions {
  encoding: TransactionEncoding;
  maxSupportedTransactionVersion: number | undefined;
  showRewards: boolean;
}

/** Agave's `validate_version`: the `version` field to report, or the -32015 error. */
export function reportedVersion(tx: TxRecord, maxSupported: number | undefined): "legacy" | 0 | undefined {
  if (tx.version === "legacy") return maxSupported === undefined ? undefined : "legacy";
  if (maxSupported === undefined || tx.version > maxSupported) throw unsupportedTransactionVersion(tx.version);
  return tx.version;
}

function withVersion(out: Record<string, unknown>, version: "legacy" | 0 | undefined): Record<string, unknown> {
  if (version !== undefined) out.version = version;
  return out;
}

const balances = (values: bigint[]) => values.map(u64);

function statusOf(meta: TxMeta) {
  return meta.err === null ? { Ok: null } : { Err: meta.err };
}

function compiledJson(ix: CompiledInstruction, stackHeight: number | null) {
  return { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: encodeBase58(ix.data), stackHeight };
}

/** Writable per header, minus reserved keys (builtins, sysvars) and keys invoked as programs (`is_maybe_writable`). */
export function parsedAccountKeys(tx: TxRecord): { pubkey: string; writable: boolean; signer: boolean; source: string }[] {
  const { header, accountKeys, instructions } = tx.message;
  const programs = new Set(instructions.map((ix) => ix.programIdIndex));
  const signed = header.numRequiredSignatures;
  return accountKeys.map((pubkey, i) => {
    const writableByHeader =
      i < signed ? i < signed - header.numReadonlySignedAccounts : i < accountKeys.length - header.numReadonlyUnsignedAccounts;
    return {
      pubkey,
      writable: writableByHeader && !RESERVED_ACCOUNT_KEYS.has(pubkey) && !programs.has(i),
      signer: i < signed,
      source: "transaction",
    };
  });
}

function fullMeta(meta: TxMeta, options: EncodeOptions, accountKeys: string[]): Record<string, unknown> {
  const parsed = options.encoding === "jsonParsed";
  const innerInstructions = meta.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) =>
      parsed ? parseUiInstruction(ix, accountKeys, ix.stackHeight ?? null) : compiledJson(ix, ix.stackHeight ?? null),
    ),
  }));
  const out: Record<string, unknown> = {
    err: meta.err,
    status: statusOf(meta),
    fee: u64(meta.fee),
    preBalances: balances(meta.preBalances),
    postBalances: balances(meta.postBalances),
    innerInstructions,
    logMessages: meta.logMessages,
    preTokenBalances: meta.preTokenBalances,
    postTokenBalances: meta.postTokenBalances,
    rewards: options.showRewards ? [] : null,
  };
  if (!parsed) out.loadedAddresses = { writable: [], readonly: [] };
  out.computeUnitsConsumed = u64(meta.computeUnitsConsumed);
  return out;
}

function transactionBody(tx: TxRecord, encoding: TransactionEncoding): unknown {
  switch (encoding) {
    case "binary":
      return encodeBase58(transactionWireBytes(tx));
    case "base58":
      return [encodeBase58(transactionWireBytes(tx)), "base58"];
    case "base64":
      return [Buffer.from(transactionWireBytes(tx)).toString("base64"), "base64"];
    case "json":
    case "jsonParsed": {
      const { header, accountKeys, recentBlockhash, instructions } = tx.message;
      const message: Record<string, unknown> =
        encoding === "json"
          ? { accountKeys, header, recentBlockhash, instructions: instructions.map((ix) => compiledJson(ix, 1)) }
          : { accountKeys: parsedAccountKeys(tx), recentBlockhash, instructions: instructions.map((ix) => parseUiInstruction(ix, accountKeys, 1)) };
      if (tx.version === 0) message.addressTableLookups = [];
      return { signatures: tx.signatures, message };
    }
  }
}

/** `{transaction, meta, version?}` for transactionDetails "full" (and the body of getTransaction). */
export function encodeTransactionWithMeta(tx: TxRecord, options: EncodeOptions): Record<string, unknown> {
  const version = reportedVersion(tx, options.maxSupportedTransactionVersion);
  return withVersion(
    { transaction: transactionBody(tx, options.encoding), meta: fullMeta(tx.meta, options, tx.message.accountKeys) },
    version,
  );
}

/** transactionDetails "accounts": signatures and parsed account keys, meta limited to fee, err and balances. */
export function encodeTransactionAccounts(tx: TxRecord, options: EncodeOptions): Record<string, unknown> {
  const version = reportedVersion(tx, options.maxSupportedTransactionVersion);
  const { meta } = tx;
  const simpleMeta: Record<string, unknown> = {
    err: meta.err,
    status: statusOf(meta),
    fee: u64(meta.fee),
    preBalances: balances(meta.preBalances),
    postBalances: balances(meta.postBalances),
    preTokenBalances: meta.preTokenBalances,
    postTokenBalances: meta.postTokenBalances,
  };
  if (options.showRewards) simpleMeta.rewards = [];
  return withVersion({ transaction: { signatures: tx.signatures, accountKeys: parsedAccountKeys(tx) }, meta: simpleMeta }, version);
}
