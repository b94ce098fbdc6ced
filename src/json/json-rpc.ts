/** A JSON-RPC 2.0 error object, as both the upstream node and our own answers carry it. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
