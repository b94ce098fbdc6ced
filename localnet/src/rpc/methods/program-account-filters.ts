/**
 * getProgramAccounts filters, with Agave's `RpcFilterType` parsing and `verify` limits: at most 4 filters; memcmp bytes
 * base58 (the default), base64, or a byte array, decoded to at most 128 bytes (base58 text ≤ 175, base64 text ≤ 172).
 */
import { hasTokenAccountLayout } from "../../chain/account-store.js";
import { decodeBase58 } from "../../chain/base58.js";
import type { AccountState } from "../../chain/types.js";
import { readConfig, readUnsigned, readVariant, SerdeError } from "../params.js";
import { invalidParams } from "../rpc-error.js";

export type AccountFilter =
  | { kind: "dataSize"; size: number }
  | { kind: "memcmp"; offset: number; encoding: "base58" | "base64" | "bytes"; text: string; bytes?: Uint8Array }
  | { kind: "tokenAccountState" };

const MAX_FILTERS = 4;
const MAX_DATA_SIZE = 128;
const MAX_DATA_BASE58_SIZE = 175;
const MAX_DATA_BASE64_SIZE = 172;

function readMemcmp(value: unknown): AccountFilter {
  const config = readConfig(value, "Memcmp");
  if (config.offset === undefined) throw new SerdeError("missing field `offset`");
  const offset = readUnsigned(config.offset, "usize");
  const encoding = config.encoding === undefined ? "base58" : readVariant(config.encoding, ["base58", "base64", "bytes"] as const);
  if (encoding === "bytes") {
    if (!Array.isArray(config.bytes)) throw new SerdeError("invalid type: expected a sequence");
    const bytes = Uint8Array.from(config.bytes.map((b) => readUnsigned(b, "u8")));
    return { kind: "memcmp", offset, encoding, text: "", bytes };
  }
  if (typeof config.bytes !== "string") throw new SerdeError("missing field `bytes`");
  return { kind: "memcmp", offset, encoding, text: config.bytes };
}

function readFilter(value: unknown): AccountFilter {
  if (value === "tokenAccountState") return { kind: "tokenAccountState" };
  const config = readConfig(value, "RpcFilterType");
  const keys = Object.keys(config);
  if (keys.length !== 1) throw new SerdeError("invalid value: map, expected map with a single key");
  const variant = readVariant(keys[0], ["dataSize", "memcmp", "tokenAccountState"] as const);
  if (variant === "dataSize") return { kind: "dataSize", size: readUnsigned(config.dataSize) };
  if (variant === "memcmp") return readMemcmp(config.memcmp);
  return { kind: "tokenAccountState" };
}

export function readFilters(value: unknown): AccountFilter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SerdeError(`invalid type: map, expected a sequence`);
  return value.map(readFilter);
}

/** Agave `verify_filters`: count limit, then each memcmp's size and decoding; fills in the decoded bytes. */
export function verifyFilters(filters: AccountFilter[]): void {
  if (filters.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  for (const filter of filters) {
    if (filter.kind !== "memcmp") continue;
    if (filter.encoding === "base58") {
      if (filter.text.length > MAX_DATA_BASE58_SIZE) throw invalidParams("Invalid param: DataTooLarge");
      const decoded = decodeBase58(filter.text);
      if (!(decoded instanceof Uint8Array)) {
        const character = filter.text[decoded.invalidAt];
        throw invalidParams(`Invalid param: DecodeError(InvalidCharacter { character: '${character}', index: ${decoded.invalidAt} })`);
      }
      filter.bytes = decoded;
    } else if (filter.encoding === "base64") {
      if (filter.text.length > MAX_DATA_BASE64_SIZE) throw invalidParams("Invalid param: DataTooLarge");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(filter.text) || filter.text.length % 4 === 1) {
        throw invalidParams("Invalid param: Base64DecodeError(InvalidPadding)");
      }
      filter.bytes = new Uint8Array(Buffer.from(filter.text, "base64"));
    }
    if (filter.bytes!.length > MAX_DATA_SIZE) throw invalidParams("Invalid param: DataTooLarge");
  }
}

/** Initialized token account (Agave `Account::valid_account_data`). */
function isTokenAccountState(data: Uint8Array): boolean {
  return hasTokenAccountLayout(data) && data[108] !== 0;
}

export function matchesFilters(state: AccountState, filters: AccountFilter[]): boolean {
  return filters.every((filter) => {
    switch (filter.kind) {
      case "dataSize":
        return state.data.length === filter.size;
      case "tokenAccountState":
        return isTokenAccountState(state.data);
      case "memcmp": {
        const bytes = filter.bytes!;
        if (filter.offset + bytes.length > state.data.length) return false;
        for (let i = 0; i < bytes.length; i++) if (state.data[filter.offset + i] !== bytes[i]) return false;
        return true;
      }
    }
  });
}
