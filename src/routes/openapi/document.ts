/**
 * The OpenAPI 3.1 document of the worker, made from the operations the routes declare (operation.ts). Named
 * schemas go to `components.schemas` and are referenced; everything else is converted in place. Built on the first
 * `GET /openapi.json` of an isolate, never on a request path that serves data.
 */
import { z } from "zod/mini";
import { componentNames, type Operation, type ResponseSpec, type Schema } from "./operation";

type Json = Record<string, unknown>;

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

/** The three ways to present a key, in the order the worker checks them (docs/api.md). */
const securitySchemes = {
  apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "Checked first." },
  bearer: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <key>` (scheme case-insensitive); checked second." },
  apiKeyQuery: {
    type: "apiKey",
    in: "query",
    name: "x-api-key",
    description: "Checked last; for clients that can only be given a URL. Prefer a header: query strings land in request logs.",
  },
};
const anyKey = [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];

const requestIdHeader = { description: "Our id for this request (a UUID), also sent to the upstream node and logged.", schema: { type: "string" } };

export function buildOpenApiDocument(info: DocumentInfo, operations: readonly Operation[]): Json {
  const converted = z.toJSONSchema(componentNames, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: "any" }).schemas;
  const schemas: Json = {};
  for (const [id, schema] of Object.entries(converted)) schemas[id] = bare(schema);

  const schemaOf = (schema: Schema, io: "input" | "output"): Json => {
    const name = componentNames.get(schema)?.id;
    return name ? { $ref: `#/components/schemas/${name}` } : bare(z.toJSONSchema(schema, { io, unrepresentable: "any" }));
  };

  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const entry: Json = { operationId: op.operationId, summary: op.summary, tags: op.tags };
    if (op.description) entry.description = op.description;
    entry.security = op.authenticated ? anyKey : [];
    if (op.query) entry.parameters = queryParameters(op.query);
    if (op.requestBody) {
      const body = op.requestBody;
      entry.requestBody = { required: true, description: body.description, content: { [body.contentType]: { schema: schemaOf(body.schema, "input"), examples: body.examples } } };
    }
    const responses: Json = {};
    for (const [status, spec] of Object.entries(op.responses)) responses[status] = response(spec, schemaOf);
    entry.responses = responses;
    (paths[op.path] ??= {})[op.method] = entry;
  }

  return {
    openapi: "3.1.0",
    info,
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    paths,
    components: { schemas, securitySchemes },
  };
}

function response(spec: ResponseSpec, schemaOf: (schema: Schema, io: "input" | "output") => Json): Json {
  const out: Json = { description: spec.description, headers: { "x-request-id": requestIdHeader, ...spec.headers } };
  if (spec.contentType || spec.schema) {
    const media: Json = { examples: spec.examples };
    if (spec.schema) media.schema = schemaOf(spec.schema, "output");
    out.content = { [spec.contentType ?? "application/json"]: media };
  }
  return out;
}

/**
 * The JSON Schema of a query's input (an object of text parameters), as the document's parameters and the MCP tools'
 * input schemas (mcp/) both show it: one rendering, so the two cannot differ.
 */
export function queryInputSchema(query: z.ZodMiniObject): { type: "object"; properties: Record<string, Json>; required: string[] } {
  const schema = bare(z.toJSONSchema(query, { io: "input", unrepresentable: "any" }));
  return { type: "object", properties: (schema.properties ?? {}) as Record<string, Json>, required: (schema.required ?? []) as string[] };
}

function queryParameters(query: z.ZodMiniObject): Json[] {
  const { properties, required: names } = queryInputSchema(query);
  const required = new Set(names);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: "query", required: required.has(name), description, schema: rest };
  });
}

/** A converted schema without the document-level keys OpenAPI does not want on a component or an inline schema. */
function bare(schema: object): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema as Json;
  return rest;
}
