/**
 * Transaction methods: getTransaction, getSignaturesForAddress, getSignatureStatuses, getFeeForMessage, and
 * sendTransaction / simulateTransaction. The localnet's transactions all come from its world, so submitted transactions
 * are decoded and checked like Agave's preflight does (blockhash, fee payer), then refused: never executed.
 */
import { decodeBase58, encodeBase58 } from "../../chain/base58.js";
import { LAMPORTS_PER_SIGNATURE } from "../../chain/cluster-constants.js";
import { MEMO_PROGRAM_IDS } from "../../chain/program-ids.js";
import type { TxRecord } from "../../chain/types.js";
import { encodeTransactionWithMeta, TRANSACTION_ENCODINGS } from "../encoding/transaction-encoding.js";
import { readWireMessage, readWireTransaction, type WireMessageSummary } from "../encoding/transaction-wire.js";
import type { MethodTable } from "../json-rpc.js";
import {
  field,
  flattenedCommitment,
  parse,
  positional,
  readBool,
  readConfig,
  readContextConfig,
  readString,
  readStringArray,
  readUnsigned,
  readVariant,
  verifySignature,
  verifyPubkey,
} from "../params.js";
import { invalidParams, sendTransactionPreflightFailure } from "../rpc-error.js";
import { bankSlot, withContext, type RpcContext } from "../rpc-context.js";
import { checkAtLeastConfirmed, readEncodingConfigWrapper } from "./transaction-config.js";

/** Agave MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT / MAX_GET_SIGNATURE_STATUSES_QUERY_ITEMS. */
const MAX_SIGNATURES_LIMIT = 1000;
const MAX_SIGNATURE_STATUSES = 256;
/** Slots the status cache remembers (Agave MAX_RECENT_BLOCKHASHES-sized). */
const STATUS_CACHE_SLOTS = 300;
/** Agave PACKET_DATA_SIZE and the longest base58/base64 texts that can decode to it. */
const PACKET_DATA_SIZE = 1232;
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;

/** Agave `extract_and_fmt_memos`: "[len] text" per memo instruction, joined with "; ". */
function memoOf(tx: TxRecord): string | null {
  const memos = tx.message.instructions
    .filter((ix) => MEMO_PROGRAM_IDS.has(tx.message.accountKeys[ix.programIdIndex] ?? ""))
    .map((ix) => `[${ix.data.length}] ${Buffer.from(ix.data).toString("utf8")}`);
  return memos.length === 0 ? null : memos.join("; ");
}

/** Agave `decode_and_deserialize` for submitted transactions and messages. */
function decodeWire(text: string, encoding: "base58" | "base64", what: string): Uint8Array {
  if (encoding === "base58") {
    if (text.length > MAX_BASE58_SIZE) {
      throw invalidParams(`base58 encoded ${what} too large: ${text.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${PACKET_DATA_SIZE})`);
    }
    const bytes = decodeBase58Strict(text);
    if (bytes.length > PACKET_DATA_SIZE) {
      throw invalidParams(`decoded ${what} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
    }
    return bytes;
  }
  if (text.length > MAX_BASE64_SIZE) {
    throw invalidParams(`base64 encoded ${what} too large: ${text.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw invalidParams("invalid base64 encoding: InvalidPadding");
  const bytes = new Uint8Array(Buffer.from(text, "base64"));
  if (bytes.length > PACKET_DATA_SIZE) throw invalidParams(`decoded ${what} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  return bytes;
}

function decodeBase58Strict(text: string): Uint8Array {
  const decoded = decodeBase58(text);
  if (decoded instanceof Uint8Array) return decoded;
  const { invalidAt } = decoded;
  throw invalidParams(`invalid base58 encoding: InvalidCharacter { character: '${text[invalidAt]}', index: ${invalidAt} }`);
}

export function transactionMethods(ctx: RpcContext): MethodTable {
  const { ledger } = ctx;

  /** Why a submitted transaction cannot run here, as Agave's TransactionError JSON and message. */
  function preflight(message: WireMessageSummary, replaceBlockhash: boolean): { err: unknown; text: string } {
    const blockhash = encodeBase58(message.recentBlockhash);
    if (!replaceBlockhash && !ledger.isBlockhashValid(blockhash, ledger.slotAt("processed"))) {
      return { err: "BlockhashNotFound", text: "Blockhash not found" };
    }
    const feePayer = message.accountKeys[0] && ledger.accounts.get(encodeBase58(message.accountKeys[0]), ledger.slotAt("processed"));
    if (!feePayer || feePayer.lamports === 0n) {
      return { err: "AccountNotFound", text: "Attempt to debit an account but found no record of a prior credit." };
    }
    return { err: { InstructionError: [0, "UnsupportedProgramId"] }, text: "Error processing Instruction 0: Unsupported program id" };
  }

  function simulationValue(err: unknown) {
    return {
      err,
      logs: ["localnet: submitted transactions are not executed"],
      accounts: null,
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: null,
      replacementBlockhash: null,
      loadedAccountsDataSize: 0,
    };
  }

  function submitted(params: unknown) {
    const [text, config] = parse(() => {
      const p = positional(params, 1, 2);
      return [readString(p[0]), readConfig(p[1], "RpcSendTransactionConfig")] as const;
    });
    const encoding = parse(() => field(config, "encoding", (v) => readVariant(v, TRANSACTION_ENCODINGS))) ?? "base58";
    if (encoding !== "base58" && encoding !== "base64") {
      throw invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
    }
    const type = "solana_transaction::versioned::VersionedTransaction";
    const message = readWireTransaction(decodeWire(text, encoding, type));
    if (!message) throw invalidParams(`failed to deserialize ${type}: io error: unexpected end of file`);
    return { message, config };
  }

  return {
    getTransaction(params) {
      const [signature, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readString(p[0]), readEncodingConfigWrapper(p[1])] as const;
      });
      verifySignature(signature);
      checkAtLeastConfirmed(config.commitment);
      const found = ledger.findTransaction(signature);
      if (!found || found.block.slot > ledger.slotAt(config.commitment)) return null;
      const tx = found.block.transactions[found.index]!;
      const encoded = encodeTransactionWithMeta(tx, {
        encoding: config.encoding ?? "json",
        maxSupportedTransactionVersion: config.maxSupportedTransactionVersion,
        showRewards: true,
      });
      return { slot: found.block.slot, ...encoded, blockTime: found.block.blockTime, transactionIndex: found.index };
    },

    getSignaturesForAddress(params) {
      const [address, config] = parse(() => {
        const p = positional(params, 1, 2);
        const raw = readConfig(p[1], "RpcSignaturesForAddressConfig");
        return [
          readString(p[0]),
          {
            before: field(raw, "before", readString),
            until: field(raw, "until", readString),
            limit: field(raw, "limit", (v) => readUnsigned(v, "usize")),
            ...readContextConfig(raw),
          },
        ] as const;
      });
      verifyPubkey(address);
      if (config.before !== undefined) verifySignature(config.before);
      if (config.until !== undefined) verifySignature(config.until);
      const limit = config.limit ?? MAX_SIGNATURES_LIMIT;
      if (limit === 0 || limit > MAX_SIGNATURES_LIMIT) throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
      checkAtLeastConfirmed(config.commitment);
      const highest = bankSlot(ctx, config.commitment, config.minContextSlot);
      const finalized = ledger.slotAt("finalized");
      return ledger.signaturesForAddress(address, highest, config.before, config.until, limit).map(({ block, index }) => {
        const tx = block.transactions[index]!;
        return {
          signature: tx.signatures[0],
          slot: block.slot,
          err: tx.meta.err,
          memo: memoOf(tx),
          blockTime: block.blockTime,
          confirmationStatus: block.slot <= finalized ? "finalized" : "confirmed",
        };
      });
    },

    getSignatureStatuses(params) {
      const [signatures, search] = parse(() => {
        const p = positional(params, 1, 2);
        const raw = readConfig(p[1], "RpcSignatureStatusConfig");
        return [readStringArray(p[0]), field(raw, "searchTransactionHistory", readBool) ?? false] as const;
      });
      if (signatures.length > MAX_SIGNATURE_STATUSES) throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      for (const signature of signatures) verifySignature(signature);
      const { processed, confirmed, finalized } = ledger.commitments;
      return withContext(
        processed,
        signatures.map((signature) => {
          const found = ledger.findTransaction(signature);
          if (!found) return null;
          const { slot } = found.block;
          const recent = slot > processed - STATUS_CACHE_SLOTS;
          if (!recent && !(search && slot <= finalized)) return null;
          const err = found.block.transactions[found.index]!.meta.err;
          const rooted = slot <= finalized;
          return {
            slot,
            confirmations: rooted ? null : ledger.producedSlots(slot + 1, processed).length,
            status: err === null ? { Ok: null } : { Err: err },
            err,
            confirmationStatus: rooted ? "finalized" : slot <= confirmed ? "confirmed" : "processed",
          };
        }),
      );
    },

    getFeeForMessage(params) {
      const [text, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readString(p[0]), readContextConfig(p[1])] as const;
      });
      const type = "solana_message::versioned::VersionedMessage";
      const message = readWireMessage(decodeWire(text, "base64", type));
      if (!message) throw invalidParams(`failed to deserialize ${type}: io error: unexpected end of file`);
      const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
      const valid = ledger.isBlockhashValid(encodeBase58(message.recentBlockhash), slot);
      return withContext(slot, valid ? message.numRequiredSignatures * LAMPORTS_PER_SIGNATURE : null);
    },

    sendTransaction(params) {
      const { message } = submitted(params);
      const { err, text } = preflight(message, false);
      throw sendTransactionPreflightFailure(`Transaction simulation failed: ${text}`, simulationValue(err));
    },

    simulateTransaction(params) {
      const { message, config } = submitted(params);
      const replace = parse(() => field(config, "replaceRecentBlockhash", readBool)) ?? false;
      const { err } = preflight(message, replace);
      return withContext(bankSlot(ctx, flattenedCommitment(config)), simulationValue(err));
    },
  };
}
