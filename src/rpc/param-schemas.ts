import { z } from "zod/mini";
import { base58DecodedLength } from "../solana/base58";
import { isPlainObject } from "./canonical-json";

/**
 * zod building blocks for Solana RPC params whose error messages read like Agave's.
 *
 * Agave deserializes params with serde (via jsonrpc-core: "Invalid params: <serde error>.") and then checks keys
 * with `verify_pubkey` ("Invalid param: WrongSize" / "Invalid param: Invalid"). Each schema here carries the
 * message a node would give for a wrong value in its place, so a validation failure is the first issue's
 * message, nothing more. Where serde's text depends on Rust type names we use Agave's names.
 * Config objects ignore unknown fields, as Agave's serde structs do (no `deny_unknown_fields`): clients send extra
 * keys (web3.js sends `encoding` with getBlockProduction) and a node answers them, so this endpoint does too —
 * but only the known fields travel upstream.
 */

type Issue = { code: string; input?: unknown; path?: PropertyKey[]; keys?: string[] };

/** serde's `Unexpected` display of a JSON value. */
export function describeUnexpected(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number") return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  return Array.isArray(value) ? "sequence" : "map";
}

/** serde's `OneOf` display of a list of names. */
export function oneOf(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(", ")}`;
}

/** Message for a value of the wrong type (or a missing struct field) where `expected` was wanted. */
function mismatch(expected: string) {
  return (issue: Issue): string =>
    issue.input === undefined
      ? `Invalid params: missing field \`${String(issue.path?.at(-1))}\`.`
      : `Invalid params: invalid type: ${describeUnexpected(issue.input)}, expected ${expected}.`;
}

/** A JSON string. */
export function text() {
  return z.string({ error: mismatch("a string") });
}

/** A JSON boolean. */
export function bool() {
  return z.boolean({ error: mismatch("a boolean") });
}

const unsignedMax = { u8: 255, usize: 2 ** 64 - 1, u64: 2 ** 64 - 1 } as const;

/** An unsigned integer of a Rust type: u8, usize or u64. */
export function unsigned(rustType: keyof typeof unsignedMax) {
  return z.number({ error: mismatch(rustType) }).check(
    z.superRefine((n: number, ctx) => {
      if (!Number.isInteger(n)) ctx.addIssue(`Invalid params: invalid type: floating point \`${n}\`, expected ${rustType}.`);
      else if (n < 0 || n > unsignedMax[rustType]) ctx.addIssue(`Invalid params: invalid value: integer \`${n}\`, expected ${rustType}.`);
    }),
  );
}

/** One of a fixed set of strings (a Rust unit enum). */
export function variant<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue: Issue) =>
      typeof issue.input === "string"
        ? `Invalid params: unknown variant \`${issue.input}\`, expected ${oneOf(values)}.`
        : `Invalid params: invalid type: ${describeUnexpected(issue.input)}, expected string or map.`,
  });
}

/** An optional value that may also be `null` (serde's `Option<T>`). */
export function optional<T extends z.ZodMiniType>(schema: T) {
  return z.optional(z.nullable(schema));
}

/**
 * A JSON object with known, typed fields (a Rust struct, by its Agave name). Other fields are accepted, as serde
 * does, and dropped from the parsed value: they are never forwarded (`forwarded-params.ts`), so a client cannot
 * pad a config to make the upstream request bigger than its own.
 */
export function struct<S extends z.core.$ZodLooseShape>(rustName: string, shape: S) {
  return z.object(shape, { error: mismatch(`struct ${rustName}`) });
}

/** A JSON array of `item`. */
export function sequence<T extends z.ZodMiniType>(item: T) {
  return z.array(item, { error: mismatch("a sequence") });
}

/** Agave's `Pubkey::from_str` outcome: too long or not 32 bytes → WrongSize; bad character or overflow → Invalid. */
export function pubkeyProblem(value: string): "WrongSize" | "Invalid" | undefined {
  if (value.length > 44) return "WrongSize";
  const length = base58DecodedLength(value);
  if (typeof length !== "number" || length > 32) return "Invalid";
  return length === 32 ? undefined : "WrongSize";
}

/** Agave's `Signature::from_str` outcome (64 bytes, at most 88 base58 characters). */
export function signatureProblem(value: string): "WrongSize" | "Invalid" | undefined {
  if (value.length > 88) return "WrongSize";
  const length = base58DecodedLength(value);
  if (typeof length !== "number") return "Invalid";
  return length === 64 ? undefined : "WrongSize";
}

/** A base58 public key (32 bytes), checked like Agave's `verify_pubkey`. */
export function pubkey() {
  return text().check(
    z.superRefine((value: string, ctx) => {
      const problem = pubkeyProblem(value);
      if (problem) ctx.addIssue(`Invalid param: ${problem}`);
    }),
  );
}

/** A base58 blockhash (32 bytes), checked like Agave's `verify_hash`: `Hash::from_str` fails as `Pubkey::from_str` does. */
export function hash() {
  return pubkey();
}

/** A base58 transaction signature (64 bytes), checked like Agave's `verify_signature`. */
export function signature() {
  return text().check(
    z.superRefine((value: string, ctx) => {
      const problem = signatureProblem(value);
      if (problem) ctx.addIssue(`Invalid param: ${problem}`);
    }),
  );
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** A schema from a hand-written parser, for serde shapes zod's union cannot word like serde (untagged / tagged enums). */
function parsedBy<T>(parse: (input: unknown) => Parsed<T>) {
  return z.pipe(
    z.unknown(),
    z.transform((input: unknown, ctx): T => {
      const parsed = parse(input);
      if (parsed.ok) return parsed.value;
      ctx.issues.push({ code: "custom", message: parsed.message, input });
      return z.NEVER;
    }),
  );
}

function parseWith<T extends z.ZodMiniType>(schema: T, input: unknown): Parsed<z.infer<T>> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: result.error.issues[0]!.message };
}

/** serde's untagged enum of two variants; `isSecond` tells them apart by the raw value's shape. */
export function untagged<A extends z.ZodMiniType, B extends z.ZodMiniType>(first: A, second: B, isSecond: (input: unknown) => boolean) {
  return parsedBy<z.infer<A> | z.infer<B>>((input) => (isSecond(input) ? parseWith(second, input) : parseWith(first, input)));
}

/** An untagged enum whose variants differ by JSON type: objects go to `whenObject`, anything else to `whenScalar`. */
export function scalarOrObject<S extends z.ZodMiniType, O extends z.ZodMiniType>(whenScalar: S, whenObject: O) {
  return untagged(whenScalar, whenObject, isPlainObject);
}

/**
 * serde's externally tagged enum: `{"<variant>": value}` with exactly one key, or a unit variant as a bare string.
 * Output: `{ [variant]: parsed value }` for data variants, the string for unit variants.
 */
export function externallyTagged<V extends Record<string, z.ZodMiniType>, const U extends readonly string[] = []>(variants: V, unitVariants: U = [] as unknown as U) {
  const names = [...Object.keys(variants), ...unitVariants];
  type Out = { [K in keyof V]: { [P in K]: z.infer<V[K]> } }[keyof V] | U[number];
  return parsedBy<Out>((input) => {
    if (typeof input === "string") {
      return unitVariants.includes(input) ? { ok: true, value: input as Out } : { ok: false, message: `Invalid params: unknown variant \`${input}\`, expected ${oneOf(names)}.` };
    }
    if (!isPlainObject(input)) return { ok: false, message: `Invalid params: invalid type: ${describeUnexpected(input)}, expected string or map.` };
    const keys = Object.keys(input);
    if (keys.length !== 1) return { ok: false, message: "Invalid params: invalid value: map, expected map with a single key." };
    const name = keys[0]!;
    const schema = variants[name];
    if (!schema) return { ok: false, message: `Invalid params: unknown variant \`${name}\`, expected ${oneOf(names)}.` };
    const inner = parseWith(schema, input[name]);
    return inner.ok ? { ok: true, value: { [name]: inner.value } as Out } : inner;
  });
}
