import { z } from "zod/mini";
import { bool, externallyTagged, hash, optional, pubkey, scalarOrObject, sequence, signature, struct, text, unsigned, untagged, variant } from "./param-schemas";

/**
 * Params of every allowed method as zod tuples, built once at module load. Shapes and names follow Agave's
 * rpc.rs / rpc_config.rs; the values allowed for enums follow Agave (and the spec where it lists more, e.g. the
 * `json` account encoding of getTokenAccountsByDelegate: forwarded, the node decides).
 * Semantic limits (spans, counts, commitment floors) are in `method-limits.ts`.
 */

/** Commitment levels (CommitmentLevel). */
export const commitmentLevels = ["processed", "confirmed", "finalized"] as const;
/** Account data encodings (UiAccountEncoding; `binary` is Agave's legacy name for base58). */
export const accountEncodings = ["binary", "base58", "base64", "jsonParsed", "base64+zstd"] as const;
/** Encodings that carry raw bytes: the only ones `dataSlice` may be used with. */
export const binaryAccountEncodings: ReadonlySet<string> = new Set(["binary", "base58", "base64", "base64+zstd"]);
/** Transaction encodings (UiTransactionEncoding), plus `base64+zstd` which the spec lists for getBlock. */
export const transactionEncodings = ["binary", "base58", "base64", "base64+zstd", "json", "jsonParsed"] as const;

const commitment = variant(commitmentLevels);
const slot = unsigned("u64");

const commitmentConfig = struct("CommitmentConfig", { commitment: optional(commitment) });
const contextConfig = struct("RpcContextConfig", { commitment: optional(commitment), minContextSlot: optional(slot) });
const dataSlice = struct("UiDataSliceConfig", { offset: unsigned("usize"), length: unsigned("usize") });
const accountConfigShape = {
  commitment: optional(commitment),
  encoding: optional(variant(accountEncodings)),
  dataSlice: optional(dataSlice),
  minContextSlot: optional(slot),
};
const accountInfoConfig = struct("RpcAccountInfoConfig", accountConfigShape);
const tokenAccountsConfig = struct("RpcAccountInfoConfig", { ...accountConfigShape, encoding: optional(variant([...accountEncodings, "json"])) });

const memcmp = struct("Memcmp", {
  offset: unsigned("usize"),
  bytes: text(),
  encoding: optional(variant(["base58", "base64"])),
});
/** `{dataSize}`, `{memcmp}` or the string `tokenAccountState` (RpcFilterType). */
const programAccountsFilter = externallyTagged({ dataSize: unsigned("u64"), memcmp }, ["tokenAccountState"]);
const programAccountsConfig = struct("RpcProgramAccountsConfig", {
  ...accountConfigShape,
  filters: optional(sequence(programAccountsFilter)),
  withContext: optional(bool()),
  sortResults: optional(bool()),
});

/** `{mint}` or `{programId}` (RpcTokenAccountsFilter). */
const tokenAccountsFilter = externallyTagged({ mint: pubkey(), programId: pubkey() });

/** An object that is not a token-accounts filter: in second place, the spec's form (a) options of getTokenAccountsByDelegate. */
export function isOptionsNotFilter<T>(value: T): value is Exclude<T, { mint: string } | { programId: string }> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !("mint" in value) && !("programId" in value);
}

const blockConfig = struct("RpcBlockConfig", {
  commitment: optional(commitment),
  encoding: optional(variant(transactionEncodings)),
  transactionDetails: optional(variant(["full", "accounts", "signatures", "none"])),
  rewards: optional(bool()),
  maxSupportedTransactionVersion: optional(unsigned("u8")),
});
const transactionConfig = struct("RpcTransactionConfig", {
  commitment: optional(commitment),
  encoding: optional(variant(transactionEncodings)),
  maxSupportedTransactionVersion: optional(unsigned("u8")),
});
/** Agave's RpcEncodingConfigWrapper: the current config object, or (deprecated) a bare encoding string. */
function encodingOr<T extends z.ZodMiniType>(config: T) {
  return optional(scalarOrObject(variant(transactionEncodings), config));
}

/** The config object of a parsed RpcEncodingConfigWrapper param (a bare encoding string carries none). */
export function wrappedConfig<C>(param: string | C | null | undefined): C | undefined {
  return typeof param === "object" && param !== null ? param : undefined;
}

const signaturesConfig = struct("RpcSignaturesForAddressConfig", {
  commitment: optional(commitment),
  minContextSlot: optional(slot),
  limit: optional(unsigned("usize")),
  before: optional(signature()),
  until: optional(signature()),
});
const blockProductionConfig = struct("RpcBlockProductionConfig", {
  commitment: optional(commitment),
  identity: optional(pubkey()),
  range: optional(struct("RpcBlockProductionConfigRange", { firstSlot: slot, lastSlot: optional(slot) })),
});
const sendTransactionConfig = struct("RpcSendTransactionConfig", {
  skipPreflight: optional(bool()),
  preflightCommitment: optional(commitment),
  encoding: optional(variant(transactionEncodings)),
  maxRetries: optional(unsigned("usize")),
  minContextSlot: optional(slot),
});
const simulateTransactionConfig = struct("RpcSimulateTransactionConfig", {
  sigVerify: optional(bool()),
  replaceRecentBlockhash: optional(bool()),
  commitment: optional(commitment),
  encoding: optional(variant(transactionEncodings)),
  accounts: optional(struct("RpcSimulateTransactionAccountsConfig", { addresses: sequence(pubkey()), encoding: optional(variant(accountEncodings)) })),
  minContextSlot: optional(slot),
  innerInstructions: optional(bool()),
});

const signatureStatusConfig = struct("RpcSignatureStatusConfig", { searchTransactionHistory: optional(bool()) });
const supplyConfig = struct("RpcSupplyConfig", { commitment: optional(commitment), excludeNonCirculatingAccountsList: optional(bool()) });
const leaderScheduleConfig = struct("RpcLeaderScheduleConfig", { identity: optional(pubkey()), commitment: optional(commitment) });
const voteAccountsConfig = struct("RpcGetVoteAccountsConfig", {
  votePubkey: optional(pubkey()),
  commitment: optional(commitment),
  keepUnstakedDelinquents: optional(bool()),
  delinquentSlotDistance: optional(unsigned("u64")),
});

/**
 * Positional params: the first `required` must be there, the rest may be omitted or null. `min`/`max` give the
 * arity errors Agave's jsonrpc-derive words before any type is looked at.
 */
function positional<const T extends readonly [z.ZodMiniType, ...z.ZodMiniType[]]>(required: number, items: T) {
  return { schema: z.tuple(items), min: required, max: items.length };
}
const none = { schema: z.tuple([]), min: 0, max: 0 };

/** Positional params per method. Trailing `optional(...)` elements may be omitted or null. */
export const methodParams = {
  getAccountInfo: positional(1, [pubkey(), optional(accountInfoConfig)]),
  getBalance: positional(1, [pubkey(), optional(contextConfig)]),
  getBlock: positional(1, [slot, encodingOr(blockConfig)]),
  getBlockCommitment: positional(1, [slot]),
  getBlockHeight: positional(0, [optional(contextConfig)]),
  getBlockProduction: positional(0, [optional(blockProductionConfig)]),
  // Agave's RpcBlocksConfigWrapper: the second param is the end slot, or (without one) the config.
  getBlocks: positional(1, [slot, optional(scalarOrObject(slot, contextConfig)), optional(contextConfig)]),
  getBlocksWithLimit: positional(2, [slot, unsigned("usize"), optional(contextConfig)]),
  getBlockTime: positional(1, [slot]),
  getClusterNodes: none,
  getEpochInfo: positional(0, [optional(contextConfig)]),
  getEpochSchedule: none,
  getFeeForMessage: positional(1, [text(), optional(contextConfig)]),
  getFirstAvailableBlock: none,
  getGenesisHash: none,
  getHighestSnapshotSlot: none,
  getIdentity: none,
  getInflationGovernor: positional(0, [optional(commitmentConfig)]),
  getInflationRate: none,
  // Agave's RpcLeaderScheduleConfigWrapper: the first param is a slot, or (without one) the config; the second config wins.
  getLeaderSchedule: positional(0, [optional(scalarOrObject(slot, leaderScheduleConfig)), optional(leaderScheduleConfig)]),
  getMaxRetransmitSlot: none,
  getMaxShredInsertSlot: none,
  getHealth: none,
  getLatestBlockhash: positional(0, [optional(contextConfig)]),
  getMinimumBalanceForRentExemption: positional(1, [unsigned("usize"), optional(commitmentConfig)]),
  getMultipleAccounts: positional(1, [sequence(pubkey()), optional(accountInfoConfig)]),
  getProgramAccounts: positional(1, [pubkey(), optional(programAccountsConfig)]),
  getRecentPerformanceSamples: positional(0, [optional(unsigned("usize"))]),
  // Keys and signatures are Vec<String> in Agave, counted before any is decoded (`method-limits.ts`).
  getRecentPrioritizationFees: positional(0, [optional(sequence(text()))]),
  getSignatureStatuses: positional(1, [sequence(text()), optional(signatureStatusConfig)]),
  getSignaturesForAddress: positional(1, [pubkey(), optional(signaturesConfig)]),
  getSlot: positional(0, [optional(contextConfig)]),
  getSlotLeader: positional(0, [optional(contextConfig)]),
  getSlotLeaders: positional(2, [slot, unsigned("u64")]),
  getStakeMinimumDelegation: positional(0, [optional(contextConfig)]),
  getSupply: positional(0, [optional(supplyConfig)]),
  // The spec's two forms: (b) [delegate, {mint}|{programId}, config?] as in Agave, and (a) [delegate, options?]
  // (all token programs, jsonParsed by default), which `upstream-plan.ts` turns into form (b) calls.
  getTokenAccountsByDelegate: positional(1, [pubkey(), optional(untagged(tokenAccountsFilter, tokenAccountsConfig, isOptionsNotFilter)), optional(tokenAccountsConfig)]),
  getTokenAccountsByOwner: positional(2, [pubkey(), tokenAccountsFilter, optional(tokenAccountsConfig)]),
  getTokenAccountBalance: positional(1, [pubkey(), optional(commitmentConfig)]),
  getTokenLargestAccounts: positional(1, [pubkey(), optional(commitmentConfig)]),
  getTokenSupply: positional(1, [pubkey(), optional(commitmentConfig)]),
  getTransaction: positional(1, [signature(), encodingOr(transactionConfig)]),
  getTransactionCount: positional(0, [optional(contextConfig)]),
  getVersion: none,
  getVoteAccounts: positional(0, [optional(voteAccountsConfig)]),
  isBlockhashValid: positional(1, [hash(), optional(contextConfig)]),
  minimumLedgerSlot: none,
  sendTransaction: positional(1, [text(), optional(sendTransactionConfig)]),
  simulateTransaction: positional(1, [text(), optional(simulateTransactionConfig)]),
} as const;

/** Every method we forward. */
export type AllowedMethod = keyof typeof methodParams;

/** Parsed params of `M`. */
export type MethodParams<M extends AllowedMethod> = z.infer<(typeof methodParams)[M]["schema"]>;
