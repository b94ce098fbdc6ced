/**
 * The config param of getBlock and getTransaction: Agave's `RpcEncodingConfigWrapper`, an untagged enum of the
 * deprecated bare encoding string and the config object. Untagged means any error inside either form reads the same:
 * "data did not match any variant of untagged enum RpcEncodingConfigWrapper".
 */
import type { Commitment } from "../../chain/ledger.js";
import { TRANSACTION_ENCODINGS, type TransactionEncoding } from "../encoding/transaction-encoding.js";
import { field, flattenedCommitment, readBool, readConfig, readUnsigned, readVariant, SerdeError, type Config } from "../params.js";
import { invalidParams } from "../rpc-error.js";

export const TRANSACTION_DETAILS = ["full", "signatures", "none", "accounts"] as const;
export type TransactionDetails = (typeof TRANSACTION_DETAILS)[number];

export interface TransactionConfig {
  encoding: TransactionEncoding | undefined;
  transactionDetails: TransactionDetails | undefined;
  rewards: boolean | undefined;
  commitment: Commitment;
  maxSupportedTransactionVersion: number | undefined;
}

function readTransactionConfig(config: Config): TransactionConfig {
  return {
    encoding: field(config, "encoding", (v) => readVariant(v, TRANSACTION_ENCODINGS)),
    transactionDetails: field(config, "transactionDetails", (v) => readVariant(v, TRANSACTION_DETAILS)),
    rewards: field(config, "rewards", readBool),
    commitment: flattenedCommitment(config),
    maxSupportedTransactionVersion: field(config, "maxSupportedTransactionVersion", (v) => readUnsigned(v, "u8")),
  };
}

export function readEncodingConfigWrapper(value: unknown): TransactionConfig {
  try {
    if (typeof value === "string") return readTransactionConfig({ encoding: value });
    return readTransactionConfig(readConfig(value, "RpcEncodingConfigWrapper"));
  } catch (err) {
    if (err instanceof SerdeError) throw new SerdeError("data did not match any variant of untagged enum RpcEncodingConfigWrapper");
    throw err;
  }
}

/** Agave `check_is_at_least_confirmed`. */
export function checkAtLeastConfirmed(commitment: Commitment): void {
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
}
