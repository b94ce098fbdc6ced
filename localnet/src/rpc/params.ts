/**
 * Parameter readers that fail the way Agave does. Agave's methods are declared with jsonrpc-derive over serde types, so a
 * bad request gets one of a few fixed texts: an arity message from jsonrpc-derive, or `Invalid params: <serde error>.`
 * with serde's wording ("invalid type: integer `5`, expected a string", "unknown variant `x`, expected one of ...",
 * "missing field `offset`"). Reading a value through these helpers reproduces those texts.
 */
import { parseBase58Fixed } from "../chain/base58.js";
import type { Commitment } from "../chain/ledger.js";
import { invalidParams, RpcError } from "./rpc-error.js";

export type Config = Record<string, unknown>;

/** Thrown inside a reader; becomes `Invalid params: <message>.` at the method boundary. */
export class SerdeError extends Error {}

export function asRpcError(err: SerdeError): RpcError {
  return invalidParams(`Invalid params: ${err.message}.`);
}

/** serde's description of a JSON value it did not expect (serde_json `Value::unexpected`). */
function unexpected(value: unknown): string {
  if (value === null || value === undefined) return "unit value";
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number") return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === "bigint") return `integer \`${value}\``;
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  return Array.isArray(value) ? "sequence" : "map";
}

const invalidType = (value: unknown, expected: string) => new SerdeError(`invalid type: ${unexpected(value)}, expected ${expected}`);

function oneOf(variants: readonly string[]): string {
  const quoted = variants.map((v) => `\`${v}\``);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(", ")}`;
}

/**
 * Positional params of a method with `required` leading and `total` params in all (jsonrpc-derive's arity rules for
 * methods with trailing optional params). Missing trailing entries come back as undefined.
 */
export function positional(params: unknown, required: number, total: number): unknown[] {
  if (params !== undefined && params !== null && !Array.isArray(params)) throw invalidParams("`params` should be an array");
  const list = (params as unknown[] | undefined | null) ?? [];
  if (list.length < required) throw invalidParams(`\`params\` should have at least ${required} argument(s)`);
  if (list.length > total) {
    throw invalidParams(`Invalid parameters: Expected from ${required} to ${total} parameters.`, `"Got: ${list.length}"`);
  }
  return list;
}

/** Params of a method whose params are all required: serde parses them as one tuple. */
export function exactTuple(params: unknown, size: number): unknown[] {
  const tuple = `a tuple of size ${size}`;
  if (!Array.isArray(params)) throw asRpcError(invalidType(params, tuple));
  if (params.length < size) throw asRpcError(new SerdeError(`invalid length ${params.length}, expected ${tuple}`));
  if (params.length > size) throw asRpcError(new SerdeError(`invalid length ${params.length}, expected fewer elements in array`));
  return params;
}

export function noParams(params: unknown): void {
  if (params === undefined || params === null || (Array.isArray(params) && params.length === 0)) return;
  throw invalidParams("Invalid parameters: No parameters were expected");
}

export function readString(value: unknown): string {
  if (typeof value !== "string") throw invalidType(value, "a string");
  return value;
}

export function readBool(value: unknown): boolean {
  if (typeof value !== "boolean") throw invalidType(value, "a boolean");
  return value;
}

/**
 * u64 / usize / u8, exactly: serde rejects negatives as "invalid value" and fractions as "invalid type". Integers beyond
 * 2^53 arrive as bigint (see exact-json.ts) and stay bigint, so errors can echo their exact digits.
 */
export function readUnsignedExact(value: unknown, type: "u64" | "usize" | "u8" = "u64"): number | bigint {
  if (typeof value === "bigint") {
    if (value < 0n || value > (type === "u8" ? 255n : 2n ** 64n - 1n)) throw new SerdeError(`invalid value: integer \`${value}\`, expected ${type}`);
    return value;
  }
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalidType(value, type);
  const max = type === "u8" ? 255 : 2 ** 64 - 1;
  if (value < 0 || value > max) throw new SerdeError(`invalid value: integer \`${value}\`, expected ${type}`);
  return value;
}

/**
 * u64 / usize / u8 as a number. A value beyond 2^53 is rounded, which only matters where it is echoed (use
 * readUnsignedExact there): every such slot, limit or amount is beyond anything the localnet holds.
 */
export function readUnsigned(value: unknown, type: "u64" | "usize" | "u8" = "u64"): number {
  return Number(readUnsignedExact(value, type));
}

export function readStringArray(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalidType(value, "a sequence");
  return value.map(readString);
}

/** A config struct; `undefined`/`null` (an absent `Option<Config>`) reads as {}. */
export function readConfig(value: unknown, name: string): Config {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidType(value, `struct ${name}`);
  return value as Config;
}

/** An optional field: absent or null is undefined, anything else goes through `read`. */
export function field<T>(config: Config, key: string, read: (value: unknown) => T): T | undefined {
  const value = config[key];
  return value === undefined || value === null ? undefined : read(value);
}

/** A fieldless enum: serde accepts only its variant names (strings). */
export function readVariant<T extends string>(value: unknown, variants: readonly T[]): T {
  if (typeof value !== "string") throw invalidType(value, "string or map");
  if (!(variants as readonly string[]).includes(value)) throw new SerdeError(`unknown variant \`${value}\`, expected ${oneOf(variants)}`);
  return value as T;
}

export function readStruct<T>(value: unknown, name: string, fields: Record<string, (value: unknown) => unknown>, build: (config: Config) => T): T {
  const config = readConfig(value, name);
  for (const key of Object.keys(fields)) {
    if (config[key] === undefined) throw new SerdeError(`missing field \`${key}\``);
    fields[key]!(config[key]);
  }
  return build(config);
}

const COMMITMENTS = ["processed", "confirmed", "finalized"] as const;

/**
 * `commitment` flattened into a config (`#[serde(flatten)] commitment: Option<CommitmentConfig>`): serde turns a
 * flattened Option that fails to parse into None, so an unknown value silently means the default, as on Agave.
 */
export function flattenedCommitment(config: Config, fallback: Commitment = "finalized"): Commitment {
  const value = config.commitment;
  return typeof value === "string" && (COMMITMENTS as readonly string[]).includes(value) ? (value as Commitment) : fallback;
}

/** Agave's RpcContextConfig: flattened commitment and minContextSlot. */
export function readContextConfig(value: unknown, name = "RpcContextConfig"): { commitment: Commitment; minContextSlot: number | undefined } {
  const config = readConfig(value, name);
  return { commitment: flattenedCommitment(config), minContextSlot: field(config, "minContextSlot", readUnsigned) };
}

/** A bare `Option<CommitmentConfig>` param (getTokenSupply etc.): strict, `{commitment}` is a required field. */
export function commitmentParam(value: unknown): Commitment {
  if (value === undefined || value === null) return "finalized";
  return readStruct(value, "CommitmentConfig", { commitment: (v) => readVariant(v, COMMITMENTS) }, (c) => c.commitment as Commitment);
}

/** Agave's `verify_pubkey`: `Invalid param: WrongSize` / `Invalid param: Invalid`. */
export function verifyPubkey(text: string): Uint8Array {
  const parsed = parseBase58Fixed(text, 32);
  if (typeof parsed === "string") throw invalidParams(`Invalid param: ${parsed}`);
  return parsed;
}

export function verifySignature(text: string): Uint8Array {
  const parsed = parseBase58Fixed(text, 64);
  if (typeof parsed === "string") throw invalidParams(`Invalid param: ${parsed}`);
  return parsed;
}

/** Runs a reader, turning serde failures into Agave's invalid-params error. */
export function parse<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof SerdeError) throw asRpcError(err);
    throw err;
  }
}
