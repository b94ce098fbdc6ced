/**
 * JSON-RPC errors with Agave's codes and message formats (rpc-client-api custom_error.rs and jsonrpc-core), so clients
 * that match on codes or messages behave as they would against a validator.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const parseError = () => new RpcError(-32700, "Parse error");
export const invalidRequest = (message = "Invalid request") => new RpcError(-32600, message);
export const methodNotFound = () => new RpcError(-32601, "Method not found");
export const invalidParams = (message: string, data?: unknown) => new RpcError(-32602, message, data);
export const internalError = () => new RpcError(-32603, "Internal error");

export const blockCleanedUp = (slot: number | bigint, firstAvailableBlock: number) =>
  new RpcError(-32001, `Block ${slot} cleaned up, does not exist on node. First available block: ${firstAvailableBlock}`);
export const sendTransactionPreflightFailure = (message: string, data: unknown) => new RpcError(-32002, message, data);
export const blockNotAvailable = (slot: number | bigint) => new RpcError(-32004, `Block not available for slot ${slot}`);
export const longTermStorageSlotSkipped = (slot: number | bigint) =>
  new RpcError(-32009, `Slot ${slot} was skipped, or missing in long-term storage`);
export const unsupportedTransactionVersion = (version: number) =>
  new RpcError(
    -32015,
    `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );
export const minContextSlotNotReached = (contextSlot: number) =>
  new RpcError(-32016, "Minimum context slot has not been reached", { contextSlot });
/** Agave JSON_RPC_SERVER_ERROR_NO_SNAPSHOT: the node has taken no snapshot (the localnet never does). */
export const noSnapshot = () => new RpcError(-32008, "No snapshot");
