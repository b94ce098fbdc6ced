import { invalidParams, jsonRpcCodes, type RpcErrorObject } from "../errors/rpc-errors";
import { limits } from "../limits";
import { binaryAccountEncodings, isOptionsNotFilter, wrappedConfig, type AllowedMethod, type MethodParams } from "./method-schemas";
import { base58DecodedLength } from "../solana/base58";
import { unselectiveProblem, type MemcmpShape } from "./program-accounts-policy";
import { pubkeyProblem, signatureProblem } from "./param-schemas";

/**
 * Agave's checks that run once params have the right types, in Agave's order and with its exact messages
 * (rpc.rs: `check_is_at_least_confirmed`, `check_slice_and_encoding`, `verify_filter`, the range and count caps),
 * plus the spec's own rule that getProgramAccounts needs filters, and ours that they be selective
 * (`program-accounts-policy.ts`). Each returns the error to answer, or undefined.
 */
type Check<M extends AllowedMethod> = (params: MethodParams<M>) => RpcErrorObject | undefined;

function atLeastConfirmed(commitment: string | null | undefined): RpcErrorObject | undefined {
  return commitment === "processed" ? invalidParams("Method does not support commitment below `confirmed`") : undefined;
}

/** Agave answers this one with -32600, not -32602. */
function sliceNeedsBinaryEncoding(config: { encoding?: string | null; dataSlice?: unknown } | null | undefined): RpcErrorObject | undefined {
  if (!config?.dataSlice || !config.encoding || binaryAccountEncodings.has(config.encoding)) return undefined;
  return { code: jsonRpcCodes.INVALID_REQUEST, message: "Sliced account data can only be encoded using binary (base 58) or base64 encoding." };
}

/** bs58's Debug text for the character it refused. */
function base58DecodeError(value: string, index: number): string {
  const c = value[index]!;
  return c.charCodeAt(0) > 0x7f ? `Base58DecodeError(NonAsciiCharacter { index: ${index} })` : `Base58DecodeError(InvalidCharacter { character: '${c}', index: ${index} })`;
}

function decodedBase64Length(value: string): number | undefined {
  try {
    return atob(value).length;
  } catch {
    return undefined;
  }
}

/**
 * Agave's `RpcFilterType::verify` for a memcmp filter: text length cap, decodability, decoded length cap.
 * The decoded length, or Agave's problem name.
 */
function memcmpLength(memcmp: { bytes: string; encoding?: string | null }): number | { problem: string } {
  const { bytes } = memcmp;
  if (memcmp.encoding === "base64") {
    if (bytes.length > limits.maxMemcmpBase64Chars) return { problem: "DataTooLarge" };
    const size = decodedBase64Length(bytes);
    if (size === undefined) return { problem: "Base64DecodeError" };
    return size > limits.maxMemcmpBytes ? { problem: "DataTooLarge" } : size;
  }
  if (bytes.length > limits.maxMemcmpBase58Chars) return { problem: "DataTooLarge" };
  const length = base58DecodedLength(bytes);
  if (typeof length !== "number") return { problem: base58DecodeError(bytes, length.invalidAt) };
  return length > limits.maxMemcmpBytes ? { problem: "DataTooLarge" } : length;
}

function transactionEncoding(encoding: string | null | undefined): RpcErrorObject | undefined {
  if (!encoding || encoding === "base58" || encoding === "base64" || encoding === "binary") return undefined;
  return invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
}

/** Agave's count cap on a Vec<String> param, then `verify_pubkey` / `verify_signature` on each, in that order. */
function capThenVerify(items: readonly string[], max: number, problemOf: (value: string) => string | undefined): RpcErrorObject | undefined {
  if (items.length > max) return invalidParams(`Too many inputs provided; max ${max}`);
  for (const item of items) {
    const problem = problemOf(item);
    if (problem) return invalidParams(`Invalid param: ${problem}`);
  }
  return undefined;
}

/** Checks per method; methods without an entry have none beyond their types. */
export const methodLimits: { [M in AllowedMethod]?: Check<M> } = {
  getAccountInfo: ([, config]) => sliceNeedsBinaryEncoding(config),
  getMultipleAccounts: ([keys, config]) =>
    keys.length > limits.maxAccountsPerCall ? invalidParams(`Too many inputs provided; max ${limits.maxAccountsPerCall}`) : sliceNeedsBinaryEncoding(config),
  getProgramAccounts: ([program, config]) => {
    const filters = config?.filters ?? [];
    if (filters.length === 0) return invalidParams("getProgramAccounts requires filters on this endpoint (dataSize, memcmp or tokenAccountState)");
    if (filters.length > limits.maxProgramAccountFilters) return invalidParams(`Too many filters provided; max ${limits.maxProgramAccountFilters}`);
    const memcmps: MemcmpShape[] = [];
    for (const filter of filters) {
      if (typeof filter !== "object" || !("memcmp" in filter)) continue;
      const length = memcmpLength(filter.memcmp);
      if (typeof length !== "number") return invalidParams(`Invalid param: ${length.problem}`);
      memcmps.push({ offset: filter.memcmp.offset, length });
    }
    // Agave's checks first (its messages for its errors), then ours: filters must select few accounts.
    const unselective = unselectiveProblem(program, memcmps);
    if (unselective) return invalidParams(unselective);
    return sliceNeedsBinaryEncoding(config);
  },
  getTokenAccountsByDelegate: ([, filterOrOptions, config]) => {
    if (filterOrOptions && !isOptionsNotFilter(filterOrOptions)) return sliceNeedsBinaryEncoding(config);
    // Form (a): the options are the second param, there is no third; its default encoding is jsonParsed.
    if (config) return invalidParams("Invalid parameters: Expected from 1 to 2 parameters.", JSON.stringify("Got: 3"));
    const options = filterOrOptions && isOptionsNotFilter(filterOrOptions) ? filterOrOptions : undefined;
    return sliceNeedsBinaryEncoding({ dataSlice: options?.dataSlice, encoding: options?.encoding ?? "jsonParsed" });
  },
  getTokenAccountsByOwner: ([, , config]) => sliceNeedsBinaryEncoding(config),
  getBlock: ([, config]) => atLeastConfirmed(wrappedConfig(config)?.commitment),
  getTransaction: ([, config]) => atLeastConfirmed(wrappedConfig(config)?.commitment),
  getBlocks: ([start, endOrConfig, config]) => {
    // Agave: the third param wins over a config given in second place.
    const commitment = config?.commitment ?? (typeof endOrConfig === "object" ? endOrConfig?.commitment : undefined);
    const tooLow = atLeastConfirmed(commitment);
    if (tooLow) return tooLow;
    if (typeof endOrConfig === "number" && endOrConfig >= start && endOrConfig - start > limits.maxSlotSpan) {
      return invalidParams(`Slot range too large; max ${limits.maxSlotSpan}`);
    }
    return undefined;
  },
  getBlocksWithLimit: ([, limit, config]) =>
    atLeastConfirmed(config?.commitment) ?? (limit > limits.maxSlotSpan ? invalidParams(`Limit too large; max ${limits.maxSlotSpan}`) : undefined),
  getSignaturesForAddress: ([, config]) => {
    const limit = config?.limit;
    if (limit !== undefined && limit !== null && (limit === 0 || limit > limits.maxSignaturesForAddressLimit)) {
      return invalidParams(`Invalid limit; max ${limits.maxSignaturesForAddressLimit}`);
    }
    return atLeastConfirmed(config?.commitment);
  },
  getBlockProduction: ([config]) => {
    const range = config?.range;
    if (range && typeof range.lastSlot === "number" && range.lastSlot < range.firstSlot) {
      return invalidParams(`lastSlot, ${range.lastSlot}, cannot be less than firstSlot, ${range.firstSlot}`);
    }
    return undefined;
  },
  getSignatureStatuses: ([signatures]) => capThenVerify(signatures, limits.maxSignatureStatuses, signatureProblem),
  getRecentPrioritizationFees: ([keys]) => capThenVerify(keys ?? [], limits.maxPrioritizationFeeKeys, pubkeyProblem),
  getRecentPerformanceSamples: ([limit]) =>
    typeof limit === "number" && limit > limits.maxPerformanceSamples ? invalidParams(`Invalid limit; max ${limits.maxPerformanceSamples}`) : undefined,
  getSlotLeaders: ([, limit]) => (limit > limits.maxSlotLeaders ? invalidParams(`Invalid limit; max ${limits.maxSlotLeaders}`) : undefined),
  sendTransaction: ([, config]) => transactionEncoding(config?.encoding),
  simulateTransaction: ([, config]) => transactionEncoding(config?.encoding),
};
