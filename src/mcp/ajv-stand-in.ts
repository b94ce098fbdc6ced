/**
 * Stands in for `ajv` and `ajv-formats` in the worker bundle (wrangler.toml `[alias]`). The MCP SDK's server module
 * imports its Ajv-based JSON Schema validator at load time, but ours passes its own validator (mcp-route.ts: no client
 * schemas are ever validated) and Ajv compiles with `new Function`, which Workers refuse anyway; leaving it out keeps
 * ~60 KB (gzipped) of code nothing runs out of the bundle. Constructing it is a bug, said so loudly.
 */
export default class AjvStandIn {
  constructor() {
    throw new Error("Ajv is not part of the worker bundle");
  }
}
export { AjvStandIn as Ajv };
