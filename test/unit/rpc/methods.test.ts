import { describe, expect, it } from "vitest";
import { validateCall } from "../../../src/rpc/methods";
import { methodParams } from "../../../src/rpc/method-schemas";
import { limits } from "../../../src/limits";

const key = "So11111111111111111111111111111111111111112";
const sig = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
const keys = (n: number) => Array.from({ length: n }, () => key);
const dataSize = { dataSize: 165 };
const tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const token2022Program = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const notSelective = (program: string) => `getProgramAccounts on ${program} requires a memcmp filter on the mint (offset 0, 32 bytes) or the owner (offset 32, 32 bytes)`;
const emptyMemcmp = "getProgramAccounts memcmp filter with empty bytes matches every account; not allowed on this endpoint";
const params = (code: number, message: string, data?: unknown) => (data === undefined ? { code, message } : { code, message, data });
const invalid = (message: string, data?: unknown) => params(-32602, message, data);

type Case = [name: string, method: string, params: unknown, expected: "ok" | { code: number; message: string; data?: unknown }];

const cases: Case[] = [
  // allowlist
  ["unknown method", "getFooBar", [], params(-32601, "Method not found")],
  ["a real but unlisted method", "requestAirdrop", [key, 1], params(-32601, "Method not found")],
  ["a prototype name", "toString", [], params(-32601, "Method not found")],
  // arity (jsonrpc-derive)
  ["too few params", "getBalance", [], invalid("`params` should have at least 1 argument(s)")],
  ["too many params", "getBalance", [key, null, 1], invalid("Invalid parameters: Expected from 1 to 2 parameters.", JSON.stringify("Got: 3"))],
  ["params where none are taken", "getHealth", [1], invalid("Invalid parameters: No parameters were expected")],
  ["params as an object", "getBalance", { pubkey: key }, invalid("`params` should be an array")],
  ["no params for a no-param method", "getClusterNodes", undefined, "ok"],
  // keys
  ["a valid key", "getAccountInfo", [key], "ok"],
  ["a non-base58 key", "getAccountInfo", ["0OIl" + key.slice(4)], invalid("Invalid param: Invalid")],
  ["a short key", "getAccountInfo", ["So1111"], invalid("Invalid param: WrongSize")],
  ["a 44-char key decoding to 33 bytes", "getAccountInfo", [key + "1"], invalid("Invalid param: Invalid")],
  ["a 45-char key", "getAccountInfo", [key + "11"], invalid("Invalid param: WrongSize")],
  ["a key that is a number", "getBalance", [5], invalid("Invalid params: invalid type: integer `5`, expected a string.")],
  ["a bad signature", "getTransaction", ["abc"], invalid("Invalid param: WrongSize")],
  ["a good signature", "getTransaction", [sig, { maxSupportedTransactionVersion: 0 }], "ok"],
  // u64 / usize / u8
  ["a negative slot", "getBlockTime", [-1], invalid("Invalid params: invalid value: integer `-1`, expected u64.")],
  ["a fractional slot", "getBlockCommitment", [1.5], invalid("Invalid params: invalid type: floating point `1.5`, expected u64.")],
  ["a slot as a string", "getBlock", ["5"], invalid('Invalid params: invalid type: string "5", expected u64.')],
  ["maxSupportedTransactionVersion 255 (u8 max)", "getBlock", [1, { maxSupportedTransactionVersion: 255 }], "ok"],
  ["maxSupportedTransactionVersion 256", "getBlock", [1, { maxSupportedTransactionVersion: 256 }], invalid("Invalid params: invalid value: integer `256`, expected u8.")],
  // config objects: known keys, enums
  ["an unknown config key (ignored, as Agave's serde configs do)", "getBalance", [key, { comitment: "finalized" }], "ok"],
  ["an unknown commitment", "getSlot", [{ commitment: "max" }], invalid("Invalid params: unknown variant `max`, expected one of `processed`, `confirmed`, `finalized`.")],
  ["null config fields mean default", "getSlot", [{ commitment: null, minContextSlot: null }], "ok"],
  ["a config that is a string", "getEpochInfo", ["finalized"], invalid('Invalid params: invalid type: string "finalized", expected struct RpcContextConfig.')],
  ["an unknown transactionDetails", "getBlock", [1, { transactionDetails: "some" }], invalid("Invalid params: unknown variant `some`, expected one of `full`, `accounts`, `signatures`, `none`.")],
  ["getBlock with the deprecated encoding string", "getBlock", [1, "base64"], "ok"],
  ["an unknown account encoding", "getAccountInfo", [key, { encoding: "hex" }], invalid("Invalid params: unknown variant `hex`, expected one of `binary`, `base58`, `base64`, `jsonParsed`, `base64+zstd`.")],
  ["a dataSlice without length", "getAccountInfo", [key, { dataSlice: { offset: 0 } }], invalid("Invalid params: missing field `length`.")],
  // spec limits
  ["getBlock processed", "getBlock", [1, { commitment: "processed" }], invalid("Method does not support commitment below `confirmed`")],
  ["getBlock confirmed", "getBlock", [1, { commitment: "confirmed" }], "ok"],
  ["getBlocks span N", "getBlocks", [10, 10 + limits.maxSlotSpan], "ok"],
  ["getBlocks span N+1", "getBlocks", [10, 11 + limits.maxSlotSpan], invalid("Slot range too large; max 500000")],
  ["getBlocks end before start", "getBlocks", [10, 5], "ok"],
  ["getBlocks with config in second place", "getBlocks", [10, { commitment: "confirmed" }], "ok"],
  ["getBlocks processed", "getBlocks", [10, 20, { commitment: "processed" }], invalid("Method does not support commitment below `confirmed`")],
  ["getBlocksWithLimit limit N", "getBlocksWithLimit", [10, limits.maxSlotSpan], "ok"],
  ["getBlocksWithLimit limit N+1", "getBlocksWithLimit", [10, limits.maxSlotSpan + 1], invalid("Limit too large; max 500000")],
  ["getBlocksWithLimit processed", "getBlocksWithLimit", [10, 5, { commitment: "processed" }], invalid("Method does not support commitment below `confirmed`")],
  ["dataSlice with base64", "getAccountInfo", [key, { encoding: "base64", dataSlice: { offset: 0, length: 8 } }], "ok"],
  ["dataSlice with jsonParsed", "getAccountInfo", [key, { encoding: "jsonParsed", dataSlice: { offset: 0, length: 8 } }], params(-32600, "Sliced account data can only be encoded using binary (base 58) or base64 encoding.")],
  // Agave limits
  ["getMultipleAccounts N", "getMultipleAccounts", [keys(limits.maxAccountsPerCall)], "ok"],
  ["getMultipleAccounts N+1", "getMultipleAccounts", [keys(limits.maxAccountsPerCall + 1)], invalid("Too many inputs provided; max 100")],
  ["getProgramAccounts without filters", "getProgramAccounts", [key], invalid("getProgramAccounts requires filters on this endpoint (dataSize, memcmp or tokenAccountState)")],
  ["getProgramAccounts with empty filters", "getProgramAccounts", [key, { filters: [] }], invalid("getProgramAccounts requires filters on this endpoint (dataSize, memcmp or tokenAccountState)")],
  ["getProgramAccounts filters N", "getProgramAccounts", [key, { filters: Array(4).fill(dataSize) }], "ok"],
  ["getProgramAccounts filters N+1", "getProgramAccounts", [key, { filters: Array(5).fill(dataSize) }], invalid("Too many filters provided; max 4")],
  ["an unknown filter", "getProgramAccounts", [key, { filters: [{ size: 1 }] }], invalid("Invalid params: unknown variant `size`, expected one of `dataSize`, `memcmp`, `tokenAccountState`.")],
  ["memcmp base58 bytes with a bad character", "getProgramAccounts", [key, { filters: [{ memcmp: { offset: 0, bytes: "abc0" } }] }], invalid("Invalid param: Base58DecodeError(InvalidCharacter { character: '0', index: 3 })")],
  ["memcmp 128 bytes (N)", "getProgramAccounts", [key, { filters: [{ memcmp: { offset: 0, bytes: btoa("x".repeat(128)), encoding: "base64" } }] }], "ok"],
  ["memcmp 129 bytes (N+1)", "getProgramAccounts", [key, { filters: [{ memcmp: { offset: 0, bytes: btoa("x".repeat(129)), encoding: "base64" } }] }], invalid("Invalid param: DataTooLarge")],
  // getProgramAccounts: filters must select few accounts on the huge programs (program-accounts-policy.ts)
  ["token program, memcmp mint (offset 0, 32 bytes)", "getProgramAccounts", [tokenProgram, { filters: [dataSize, { memcmp: { offset: 0, bytes: key } }] }], "ok"],
  ["token program, memcmp owner (offset 32, 32 bytes, base64)", "getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 32, bytes: btoa("k".repeat(32)), encoding: "base64" } }] }], "ok"],
  ["Token-2022, memcmp mint", "getProgramAccounts", [token2022Program, { filters: [{ memcmp: { offset: 0, bytes: key } }] }], "ok"],
  ["token program, dataSize only", "getProgramAccounts", [tokenProgram, { filters: [dataSize] }], invalid(notSelective(tokenProgram))],
  ["token program, tokenAccountState only", "getProgramAccounts", [tokenProgram, { filters: ["tokenAccountState", dataSize] }], invalid(notSelective(tokenProgram))],
  ["Token-2022, dataSize only", "getProgramAccounts", [token2022Program, { filters: [dataSize] }], invalid(notSelective(token2022Program))],
  ["token program, memcmp of 31 bytes at the mint", "getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 0, bytes: btoa("k".repeat(31)), encoding: "base64" } }] }], invalid(notSelective(tokenProgram))],
  ["token program, memcmp of 33 bytes at the mint", "getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 0, bytes: btoa("k".repeat(33)), encoding: "base64" } }] }], invalid(notSelective(tokenProgram))],
  ["token program, 32 bytes at offset 1", "getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 1, bytes: key } }] }], invalid(notSelective(tokenProgram))],
  ["token program, 32 bytes at offset 64 (delegate option)", "getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 64, bytes: key } }] }], invalid(notSelective(tokenProgram))],
  ["token program, empty memcmp at the mint", "getProgramAccounts", [tokenProgram, { filters: [{ memcmp: { offset: 0, bytes: "" } }] }], invalid(emptyMemcmp)],
  ["any program, empty memcmp", "getProgramAccounts", [key, { filters: [dataSize, { memcmp: { offset: 0, bytes: "" } }] }], invalid(emptyMemcmp)],
  ["any program, empty base64 memcmp", "getProgramAccounts", [key, { filters: [{ memcmp: { offset: 8, bytes: "", encoding: "base64" } }] }], invalid(emptyMemcmp)],
  ["another program, dataSize only (the answer cap bounds it)", "getProgramAccounts", [key, { filters: [dataSize] }], "ok"],
  ["another program, a one-byte memcmp", "getProgramAccounts", [key, { filters: [{ memcmp: { offset: 0, bytes: "2" } }] }], "ok"],
  ["getSignaturesForAddress limit N", "getSignaturesForAddress", [key, { limit: 1000 }], "ok"],
  ["getSignaturesForAddress limit N+1", "getSignaturesForAddress", [key, { limit: 1001 }], invalid("Invalid limit; max 1000")],
  ["getSignaturesForAddress limit 0", "getSignaturesForAddress", [key, { limit: 0 }], invalid("Invalid limit; max 1000")],
  ["getBlockProduction lastSlot < firstSlot", "getBlockProduction", [{ range: { firstSlot: 9, lastSlot: 8 } }], invalid("lastSlot, 8, cannot be less than firstSlot, 9")],
  ["getBlockProduction with no params", "getBlockProduction", [], "ok"],
  ["getBlockProduction with web3.js's extra encoding", "getBlockProduction", [{ commitment: "finalized", encoding: "base64" }], "ok"],
  ["sendTransaction json encoding", "sendTransaction", ["AQ==", { encoding: "json" }], invalid("unsupported encoding: json. Supported encodings: base58, base64")],
  // getTokenAccountsByDelegate, both forms
  ["delegate form (b) with programId", "getTokenAccountsByDelegate", [key, { programId: key }, { encoding: "jsonParsed" }], "ok"],
  ["delegate form (a) with options", "getTokenAccountsByDelegate", [key, { encoding: "base64", commitment: "confirmed" }], "ok"],
  ["delegate form (a) bare", "getTokenAccountsByDelegate", [key], "ok"],
  ["delegate form (a) slice with default jsonParsed", "getTokenAccountsByDelegate", [key, { dataSlice: { offset: 0, length: 1 } }], params(-32600, "Sliced account data can only be encoded using binary (base 58) or base64 encoding.")],
  ["delegate form (a) with a third param", "getTokenAccountsByDelegate", [key, { encoding: "base64" }, {}], invalid("Invalid parameters: Expected from 1 to 2 parameters.", JSON.stringify("Got: 3"))],
  ["delegate filter with both keys", "getTokenAccountsByDelegate", [key, { mint: key, programId: key }], invalid("Invalid params: invalid value: map, expected map with a single key.")],
  ["owner without a filter", "getTokenAccountsByOwner", [key], invalid("`params` should have at least 2 argument(s)")],
  ["owner with options instead of a filter", "getTokenAccountsByOwner", [key, { encoding: "base64" }], invalid("Invalid params: unknown variant `encoding`, expected `mint` or `programId`.")],
  // issue 9 §3: what clients need to finish a transaction
  ["getSignatureStatuses with searchTransactionHistory", "getSignatureStatuses", [[sig], { searchTransactionHistory: true }], "ok"],
  ["getSignatureStatuses without signatures", "getSignatureStatuses", [], invalid("`params` should have at least 1 argument(s)")],
  ["getSignatureStatuses signatures N", "getSignatureStatuses", [Array(limits.maxSignatureStatuses).fill(sig)], "ok"],
  ["getSignatureStatuses signatures N+1", "getSignatureStatuses", [Array(limits.maxSignatureStatuses + 1).fill(sig)], invalid("Too many inputs provided; max 256")],
  ["getSignatureStatuses N+1 with a bad one: counted before decoded", "getSignatureStatuses", [[...Array(limits.maxSignatureStatuses).fill(sig), "abc"]], invalid("Too many inputs provided; max 256")],
  ["getSignatureStatuses a bad signature", "getSignatureStatuses", [[sig, "abc"]], invalid("Invalid param: WrongSize")],
  ["getSignatureStatuses a non-boolean searchTransactionHistory", "getSignatureStatuses", [[sig], { searchTransactionHistory: "yes" }], invalid('Invalid params: invalid type: string "yes", expected a boolean.')],
  ["getSignatureStatuses a signature that is a number", "getSignatureStatuses", [[5]], invalid("Invalid params: invalid type: integer `5`, expected a string.")],
  ["getGenesisHash", "getGenesisHash", [], "ok"],
  ["getGenesisHash with a param", "getGenesisHash", [1], invalid("Invalid parameters: No parameters were expected")],
  ["getEpochSchedule", "getEpochSchedule", undefined, "ok"],
  ["getFirstAvailableBlock", "getFirstAvailableBlock", [], "ok"],
  ["getTransactionCount with a context config", "getTransactionCount", [{ commitment: "confirmed", minContextSlot: 5 }], "ok"],
  ["getTransactionCount with a bad commitment", "getTransactionCount", [{ commitment: "recent" }], invalid("Invalid params: unknown variant `recent`, expected one of `processed`, `confirmed`, `finalized`.")],
  ["getRecentPrioritizationFees without keys", "getRecentPrioritizationFees", [], "ok"],
  ["getRecentPrioritizationFees keys N", "getRecentPrioritizationFees", [keys(limits.maxPrioritizationFeeKeys)], "ok"],
  ["getRecentPrioritizationFees keys N+1", "getRecentPrioritizationFees", [keys(limits.maxPrioritizationFeeKeys + 1)], invalid("Too many inputs provided; max 128")],
  ["getRecentPrioritizationFees a bad key", "getRecentPrioritizationFees", [[key, "So1111"]], invalid("Invalid param: WrongSize")],
  ["isBlockhashValid", "isBlockhashValid", [key, { commitment: "processed" }], "ok"],
  ["isBlockhashValid without a blockhash", "isBlockhashValid", [], invalid("`params` should have at least 1 argument(s)")],
  ["isBlockhashValid a short blockhash", "isBlockhashValid", ["abc"], invalid("Invalid param: WrongSize")],
  ["isBlockhashValid a non-base58 blockhash", "isBlockhashValid", ["0OIl" + key.slice(4)], invalid("Invalid param: Invalid")],
  ["getSupply with excludeNonCirculatingAccountsList", "getSupply", [{ commitment: "finalized", excludeNonCirculatingAccountsList: true }], "ok"],
  ["getSupply with a non-boolean excludeNonCirculatingAccountsList", "getSupply", [{ excludeNonCirculatingAccountsList: 1 }], invalid("Invalid params: invalid type: integer `1`, expected a boolean.")],
  ["getSlotLeader", "getSlotLeader", [{ commitment: "processed" }], "ok"],
  ["getIdentity", "getIdentity", [], "ok"],
  ["getFeeForMessage", "getFeeForMessage", ["AQABAg==", { commitment: "processed" }], "ok"],
  ["getFeeForMessage without a message", "getFeeForMessage", [], invalid("`params` should have at least 1 argument(s)")],
  ["getFeeForMessage a message that is not a string", "getFeeForMessage", [[1, 2]], invalid("Invalid params: invalid type: sequence, expected a string.")],
  ["getSlotLeaders limit N", "getSlotLeaders", [10, limits.maxSlotLeaders], "ok"],
  ["getSlotLeaders limit N+1", "getSlotLeaders", [10, limits.maxSlotLeaders + 1], invalid("Invalid limit; max 5000")],
  ["getSlotLeaders without a limit", "getSlotLeaders", [10], invalid("`params` should have at least 2 argument(s)")],
  ["getSlotLeaders a negative start", "getSlotLeaders", [-1, 5], invalid("Invalid params: invalid value: integer `-1`, expected u64.")],
  ["getInflationGovernor", "getInflationGovernor", [{ commitment: "finalized" }], "ok"],
  ["getInflationGovernor a commitment config without commitment", "getInflationGovernor", [{}], "ok"],
  ["getInflationRate", "getInflationRate", [], "ok"],
  ["getInflationRate with a param", "getInflationRate", [{}], invalid("Invalid parameters: No parameters were expected")],
  ["getStakeMinimumDelegation", "getStakeMinimumDelegation", [{ commitment: "confirmed", minContextSlot: 1 }], "ok"],
  ["getHighestSnapshotSlot", "getHighestSnapshotSlot", [], "ok"],
  ["minimumLedgerSlot", "minimumLedgerSlot", [], "ok"],
  ["getMaxRetransmitSlot", "getMaxRetransmitSlot", [], "ok"],
  ["getMaxShredInsertSlot", "getMaxShredInsertSlot", [], "ok"],
  ["getRecentPerformanceSamples without a limit", "getRecentPerformanceSamples", [], "ok"],
  ["getRecentPerformanceSamples limit N", "getRecentPerformanceSamples", [limits.maxPerformanceSamples], "ok"],
  ["getRecentPerformanceSamples limit N+1", "getRecentPerformanceSamples", [limits.maxPerformanceSamples + 1], invalid("Invalid limit; max 720")],
  ["getRecentPerformanceSamples a limit that is a string", "getRecentPerformanceSamples", ["5"], invalid('Invalid params: invalid type: string "5", expected usize.')],
  ["getLeaderSchedule bare", "getLeaderSchedule", [], "ok"],
  ["getLeaderSchedule for a slot with a config", "getLeaderSchedule", [5, { identity: key, commitment: "confirmed" }], "ok"],
  ["getLeaderSchedule with the config first", "getLeaderSchedule", [{ identity: key }], "ok"],
  ["getLeaderSchedule a bad identity", "getLeaderSchedule", [null, { identity: "So1111" }], invalid("Invalid param: WrongSize")],
  ["getLeaderSchedule a slot as a string", "getLeaderSchedule", ["5"], invalid('Invalid params: invalid type: string "5", expected u64.')],
  ["getVoteAccounts with every option", "getVoteAccounts", [{ votePubkey: key, commitment: "finalized", keepUnstakedDelinquents: true, delinquentSlotDistance: 128 }], "ok"],
  ["getVoteAccounts a bad votePubkey", "getVoteAccounts", [{ votePubkey: "0OIl" + key.slice(4) }], invalid("Invalid param: Invalid")],
  ["getVoteAccounts a negative delinquentSlotDistance", "getVoteAccounts", [{ delinquentSlotDistance: -1 }], invalid("Invalid params: invalid value: integer `-1`, expected u64.")],
];

describe("method allowlist and params (Agave's messages)", () => {
  it.each(cases)("%s", (_name, method, given, expected) => {
    const outcome = validateCall(method, given);
    if (expected === "ok") expect(outcome).toMatchObject({ ok: true });
    else expect(outcome).toEqual({ ok: false, error: expected });
  });

  it("lists exactly the methods of issues 5 and 9", () => {
    expect(Object.keys(methodParams).sort()).toEqual(
      [
        "getAccountInfo", "getBalance", "getBlock", "getBlockCommitment", "getBlockHeight", "getBlockProduction", "getBlocks",
        "getBlocksWithLimit", "getBlockTime", "getTokenAccountsByDelegate", "getClusterNodes", "getSlot", "getLatestBlockhash",
        "getHealth", "getVersion", "getEpochInfo", "getMultipleAccounts", "getTokenSupply", "getTokenLargestAccounts",
        "getTokenAccountBalance", "getTokenAccountsByOwner", "getSignaturesForAddress", "getTransaction",
        "getMinimumBalanceForRentExemption", "getProgramAccounts", "sendTransaction", "simulateTransaction",
        // issue 9 §3
        "getSignatureStatuses", "getGenesisHash", "getEpochSchedule", "getFirstAvailableBlock", "getTransactionCount",
        "getRecentPrioritizationFees", "isBlockhashValid", "getSupply", "getSlotLeader", "getIdentity", "getFeeForMessage",
        "getSlotLeaders", "getInflationGovernor", "getInflationRate", "getStakeMinimumDelegation", "getHighestSnapshotSlot",
        "minimumLedgerSlot", "getMaxRetransmitSlot", "getMaxShredInsertSlot", "getRecentPerformanceSamples", "getLeaderSchedule",
        "getVoteAccounts",
      ].sort(),
    );
  });
});
