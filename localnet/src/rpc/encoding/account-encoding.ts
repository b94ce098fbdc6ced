/**
 * Account encodings as Agave's `encode_ui_account` writes them: `binary` (legacy: a bare base58 string), `base58`,
 * `base64`, `base64+zstd` (`[text, encoding]` pairs over the optional data slice) and `jsonParsed` (parsed JSON when a
 * parser knows the owner, otherwise the whole data as `[base64, "base64"]`).
 */
import type { AccountState } from "../../chain/types.js";
import { encodeBase58 } from "../../chain/base58.js";
import { u64 } from "../json-serialize.js";
import { invalidRequest } from "../rpc-error.js";
import { zstdRawFrame } from "./zstd-raw-frame.js";

export const ACCOUNT_ENCODINGS = ["binary", "base58", "base64", "jsonParsed", "base64+zstd"] as const;
export type AccountEncoding = (typeof ACCOUNT_ENCODINGS)[number];

export interface DataSlice {
  offset: number;
  length: number;
}

/** Agave MAX_BASE58_BYTES. */
const MAX_BASE58_BYTES = 128;

export function sliceData(data: Uint8Array, slice: DataSlice | undefined): Uint8Array {
  if (!slice) return data;
  if (slice.offset >= data.length) return new Uint8Array(0);
  return data.subarray(slice.offset, Math.min(data.length, slice.offset + slice.length));
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

export function encodeAccountData(
  state: AccountState,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  parsed: () => unknown,
): unknown {
  if (encoding === "jsonParsed") return parsed() ?? [base64(state.data), "base64"];
  const bytes = sliceData(state.data, slice);
  switch (encoding) {
    case "binary":
    case "base58":
      if (bytes.length > MAX_BASE58_BYTES) {
        throw invalidRequest(`Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
      }
      return encoding === "binary" ? encodeBase58(bytes) : [encodeBase58(bytes), "base58"];
    case "base64":
      return [base64(bytes), "base64"];
    case "base64+zstd":
      return [base64(zstdRawFrame(bytes)), "base64+zstd"];
  }
}

export function uiAccount(state: AccountState, data: unknown): Record<string, unknown> {
  return {
    lamports: u64(state.lamports),
    data,
    owner: state.owner,
    executable: state.executable,
    rentEpoch: u64(state.rentEpoch),
    space: state.data.length,
  };
}
