/** Failure logs shaped like mainnet Anchor / native program errors, for the rare failed swap. */
import type { TxFailure } from "./builder.js";

export function anchorFailure(ixIndex: number, file: string, line: number, code: number, name: string, message: string): TxFailure {
  return {
    ixIndex,
    code,
    logs: [`AnchorError thrown in ${file}:${line}. Error Code: ${name}. Error Number: ${code}. Error Message: ${message}.`],
  };
}

export function nativeFailure(ixIndex: number, code: number, message: string): TxFailure {
  return { ixIndex, code, logs: [message] };
}
