/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of every route (no key, like /health), built once per isolate from
 * the operations the routes declare. `/docs` is a static page (public/docs.html, served by Workers static assets,
 * never by this code) that renders it with Swagger UI from the worker's own assets: no CDN.
 */
import { Hono } from "hono";
import { z } from "zod/mini";
import type { AppContext } from "../../app-context";
import { buildOpenApiDocument } from "./document";
import type { Operation } from "./operation";

const info = {
  title: "Token market-data API for Solana",
  version: "0.1.0",
  description:
    "Prices, token profiles and a Solana JSON-RPC endpoint. Every REST error is `{\"status\":\"error\",\"error\":{\"code\":<http status>,\"message\":\"...\"}}`; " +
    "every response carries `x-request-id`. Guides: [REST API](/guide/api.md), [token overview](/guide/overview.md), [token safety and holders](/guide/security.md), " +
    "[JSON-RPC](/guide/rpc.md), [streams](/guide/streams.md), [accounts, plans and limits](/guide/accounts.md).",
};

const documentOperation: Operation = {
  method: "get",
  path: "/openapi.json",
  operationId: "openapi",
  summary: "This document (OpenAPI 3.1)",
  tags: ["meta"],
  authenticated: false,
  responses: {
    200: {
      description: "The OpenAPI 3.1 document",
      schema: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
      examples: { head: { summary: "Its first keys", value: { openapi: "3.1.0", info: { title: info.title, version: info.version }, paths: {} } } },
    },
  },
};

const docsOperation: Operation = {
  method: "get",
  path: "/docs",
  operationId: "docs",
  summary: "Interactive documentation of this document (Swagger UI, served from the worker's static assets)",
  tags: ["meta"],
  authenticated: false,
  responses: {
    200: { description: "The HTML page", contentType: "text/html", examples: { page: { summary: "The page", value: "<!doctype html>…" } } },
  },
};

export const openApiOperations = [documentOperation, docsOperation];

/** The route serving the document of `operations` (this route's own included by the caller). */
export function openApiRoutes(operations: readonly Operation[]) {
  let text: string | undefined;
  return new Hono<AppContext>().get(documentOperation.path, (c) => {
    text ??= JSON.stringify(buildOpenApiDocument(info, operations));
    return c.body(text, 200, { "content-type": "application/json; charset=utf-8" });
  });
}
