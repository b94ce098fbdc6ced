/** The JSON-RPC method table the HTTP endpoint serves. */
import type { MethodTable } from "../json-rpc.js";
import type { RpcContext } from "../rpc-context.js";
import { accountMethods } from "./account-methods.js";
import { blockMethods } from "./block-methods.js";
import { clusterMethods } from "./cluster-methods.js";
import { tokenMethods } from "./token-methods.js";
import { transactionMethods } from "./transaction-methods.js";
import { validatorMethods } from "./validator-methods.js";

export function createMethodTable(ctx: RpcContext): MethodTable {
  return {
    ...accountMethods(ctx),
    ...tokenMethods(ctx),
    ...blockMethods(ctx),
    ...transactionMethods(ctx),
    ...clusterMethods(ctx),
    ...validatorMethods(ctx),
  };
}
