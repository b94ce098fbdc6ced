/**
 * A route described once: its path, query schema, body and every answer (schema + examples). The same object
 * registers the handler's query validation (`validQuery`) and becomes the route's entry in `GET /openapi.json`
 * (document.ts), so what is validated, typed and documented cannot drift apart. Schemas are zod/mini; the document
 * is made from them with zod's own JSON Schema converter (OpenAPI 3.1 speaks JSON Schema 2020-12).
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod/mini";
import type { AppContext } from "../../app-context";
import { ApiError, errorEnvelope, errorEnvelopeSchema, errorStatus, genericMessages, type ErrorCode } from "../../errors/api-error";
import { limits } from "../../limits";

/** Any zod schema (mini or classic share this core type). */
export type Schema = z.core.$ZodType;

/** Schemas shown under their own name in `components.schemas` (and referenced from every answer that uses them). */
export const componentNames = z.registry<{ id: string }>();

/** Names a schema for the document; returns it unchanged. */
export function named<S extends Schema>(id: string, schema: S): S {
  componentNames.add(schema, { id });
  return schema;
}

export interface Example {
  summary: string;
  value: unknown;
}

export interface ResponseSpec {
  description: string;
  /** The JSON body; none for bodies that are not JSON (HTML, a WebSocket upgrade, empty). */
  schema?: Schema;
  /** Default `application/json`. */
  contentType?: string;
  /** At least one per answer: the test suite checks each against `schema`. */
  examples: Record<string, Example>;
  headers?: Record<string, { description: string; schema: { type: "string" | "integer" } }>;
}

export interface Operation {
  method: "get" | "post";
  /** The public path, as clients call it. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Needs an API key (header `x-api-key`, `Authorization: Bearer`, or query `x-api-key`). */
  authenticated: boolean;
  /** Query parameters; each field's registered metadata (`description`, `examples`) documents it. */
  query?: z.ZodMiniObject;
  requestBody?: { description: string; contentType: string; schema: Schema; examples: Record<string, Example> };
  responses: Record<number, ResponseSpec>;
}

/**
 * Validates the query against the operation's schema before the handler; the handler reads the typed result with
 * `c.req.valid("query")`. Refusals are the spec's 400 envelope naming the parameter, with the messages of params.ts.
 * Undeclared parameters (`x-api-key` among them) are not read.
 */
export function validQuery<S extends z.ZodMiniObject>(schema: S): MiddlewareHandler<AppContext, string, { in: { query: Record<string, string> }; out: { query: z.output<S> } }> {
  // Only the declared parameters are read, each with one scan of the URL (as the handlers did before): no object of
  // every parameter is built on the warm price path.
  const names = Object.keys(schema._zod.def.shape);
  return async (c, next) => {
    const query: Record<string, string | undefined> = {};
    for (const name of names) query[name] = c.req.query(name);
    const parsed = schema.safeParse(query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const name = String(issue.path[0]);
      throw new ApiError(
        "BAD_REQUEST",
        c.req.query(name) === undefined ? `Missing required query parameter: ${name}` : `Invalid query parameter ${name}: ${issueText(issue)}`,
      );
    }
    c.req.addValidatedData("query", parsed.data as object);
    await next();
  };
}

/**
 * zod/mini carries no locale (that keeps ~100 KB of messages out of the bundle), so its own text is "Invalid input":
 * say what was expected instead. A message given in the schema (`z.regex(re, "…")`) wins.
 */
function issueText(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== "Invalid input") return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_format":
      return issue.format === "regex" && "pattern" in issue ? `must match ${String(issue.pattern)}` : `expected ${issue.format}`;
    case "too_small":
      return `must be at least ${String(issue.minimum)}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    default:
      return "invalid";
  }
}

/** An error answer documented with the envelope schema and one example per listed message. */
export function errorResponse(code: ErrorCode, description: string, messages: Record<string, string> = {}): ResponseSpec {
  const status = errorStatus[code];
  const entries = Object.entries(messages);
  const examples: Record<string, Example> = {};
  if (entries.length === 0) examples[code.toLowerCase()] = { summary: description, value: errorEnvelope(status, genericMessages[code] ?? code) };
  for (const [name, message] of entries) examples[name] = { summary: message, value: errorEnvelope(status, message) };
  return { description, schema: errorEnvelopeSchema, examples };
}

named("ErrorEnvelope", errorEnvelopeSchema);

/** The answers every authenticated REST route can give whatever its input, besides its own. */
export const restErrors = {
  401: errorResponse("UNAUTHORIZED", "Missing, malformed, unknown or revoked API key (the same body in every case, decided before any upstream call)"),
  413: errorResponse("PAYLOAD_TOO_LARGE", `A request body over ${limits.maxRestBodyBytes} bytes (REST routes take none)`, {
    tooLarge: `Request body larger than ${limits.maxRestBodyBytes} bytes`,
  }),
  414: errorResponse("URI_TOO_LONG", `URL longer than ${limits.maxUrlLength} characters`, { tooLong: `Request URL longer than ${limits.maxUrlLength} characters` }),
  500: errorResponse("INTERNAL", "Anything unexpected; the message is always generic"),
  503: errorResponse("UPSTREAM_UNAVAILABLE", "The upstream Solana RPC failed (5xx, 429, garbage, every circuit open); `Retry-After` when the upstream gave one"),
  504: errorResponse("UPSTREAM_TIMEOUT", "The upstream did not answer in time, or the request passed its 15 s deadline"),
} satisfies Record<number, ResponseSpec>;

/**
 * The 404 of a route that reads one mint (`ca`): no such account, or an account that is not an initialized mint;
 * `messages` adds examples beside the missing account's.
 */
export function unknownMintError(messages: Record<string, string> = {}): ResponseSpec {
  return errorResponse("NOT_FOUND", "`ca` is no account, or not an (initialized) token mint", {
    noAccount: "Unknown mint 11111111111111111111111111111112: no such account",
    ...messages,
  });
}
