/** Agave's RpcAccountInfoConfig (shared by every method that returns accounts) and its slice/encoding rule. */
import type { Commitment } from "../../chain/ledger.js";
import { ACCOUNT_ENCODINGS, type AccountEncoding, type DataSlice } from "../encoding/account-encoding.js";
import { field, flattenedCommitment, readConfig, readStruct, readUnsigned, readVariant } from "../params.js";
import { invalidRequest } from "../rpc-error.js";

export interface AccountConfig {
  encoding: AccountEncoding | undefined;
  dataSlice: DataSlice | undefined;
  commitment: Commitment;
  minContextSlot: number | undefined;
}

export function readDataSlice(value: unknown): DataSlice {
  const usize = (v: unknown) => readUnsigned(v, "usize");
  return readStruct(value, "UiDataSliceConfig", { offset: usize, length: usize }, (c) => ({
    offset: c.offset as number,
    length: c.length as number,
  }));
}

export function readAccountConfig(value: unknown, name = "RpcAccountInfoConfig"): AccountConfig {
  const config = readConfig(value, name);
  return {
    encoding: field(config, "encoding", (v) => readVariant(v, ACCOUNT_ENCODINGS)),
    dataSlice: field(config, "dataSlice", readDataSlice),
    commitment: flattenedCommitment(config),
    minContextSlot: field(config, "minContextSlot", readUnsigned),
  };
}

/** Agave `check_slice_and_encoding`: a data slice cannot be combined with jsonParsed. */
export function checkSliceAndEncoding(config: AccountConfig): void {
  if (config.encoding === "jsonParsed" && config.dataSlice) {
    throw invalidRequest("Sliced account data can only be encoded using binary (base 58) or base64 encoding.");
  }
}
