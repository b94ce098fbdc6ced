/**
 * Transaction methods: getTransaction, getSignaturesForAddress, getSignatureStatuses, getFeeForMessage, requestAirdrop,
 * and sendTransaction / simulateTransaction. Submitted transactions the runtime can execute (System transfers, SPL Token /
 * Token-2022 transfers, associated token account creation, Compute Budget: see chain/transaction-runtime.ts) are checked
 * like Agave's preflight (signatures, blockhash, fee payer, a dry run) and executed in the next produced slot, as
 * requestAirdrop's faucet transfer is; any other submitted transaction is decoded, checked and refused: never executed.
 */
import { decodeBase58, encodeBase58 } from "../../chain/base58.js";
import { LAMPORTS_PER_SIGNATURE, MAX_PROCESSING_AGE } from "../../chain/cluster-constants.js";
import { MEMO_PROGRAM_IDS } from "../../chain/program-ids.js";
import type { TxRecord } from "../../chain/types.js";
import { encodeTransactionWithMeta, TRANSACTION_ENCODINGS } from "../encoding/transaction-encoding.js";
import { readWireMessage, readWireTransaction, readWireTransactionFull, type WireMessageSummary, type WireTransaction } from "../encoding/transaction-wire.js";
import { createPublicKey, randomBytes, verify } from "node:crypto";
import {
  executeTransaction,
  instructionErrorText,
  LOAD_ERROR_TEXT,
  unsupportedInstruction,
  type Outcome,
  type PendingTransaction,
} from "../../chain/transaction-runtime.js";
import { SYSTEM_PROGRAM_ID } from "../../chain/program-ids.js";
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
import { invalidParams, RpcError, sendTransactionPreflightFailure } from "../rpc-error.js";
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

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: node's crypto takes a raw 32-byte key after it. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** Agave's sigverify: one valid Ed25519 signature per required signer, over the message bytes. */
function signaturesVerify(tx: WireTransaction): boolean {
  const { header, accountKeys } = tx.message;
  if (tx.signatures.length !== header.numRequiredSignatures || accountKeys.length < header.numRequiredSignatures) return false;
  return tx.signatures.every((signature, i) => {
    try {
      const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, accountKeys[i]!]), format: "der", type: "spki" });
      return verify(null, tx.messageBytes, key, signature);
    } catch {
      return false;
    }
  });
}

/** A decoded transaction in the ledger's form (base58 keys, signatures and blockhash). */
function pendingOf(tx: WireTransaction): PendingTransaction {
  const { header, accountKeys, recentBlockhash, instructions } = tx.message;
  return {
    signatures: tx.signatures.map(encodeBase58),
    version: tx.version,
    message: { header, accountKeys: accountKeys.map(encodeBase58), recentBlockhash: encodeBase58(recentBlockhash), instructions },
  };
}

/** Agave JSON_RPC_SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE. */
const signatureVerificationFailure = () => new RpcError(-32003, "Transaction signature verification failure");

export function transactionMethods(ctx: RpcContext): MethodTable {
  const { ledger } = ctx;

  /** The localnet's refusal of an instruction it does not execute, as an Agave TransactionError and its message. */
  const refusal = (index: number) => ({
    err: { InstructionError: [index, "UnsupportedProgramId"] },
    text: `Error processing Instruction ${index}: Unsupported program id`,
  });

  /** Why a submitted transaction the runtime cannot execute is refused, as Agave's TransactionError JSON and message. */
  function preflight(message: WireMessageSummary, replaceBlockhash: boolean, full: WireTransaction | undefined): { err: unknown; text: string } {
    const blockhash = encodeBase58(message.recentBlockhash);
    if (!replaceBlockhash && !ledger.isBlockhashValid(blockhash, ledger.slotAt("processed"))) {
      return { err: "BlockhashNotFound", text: "Blockhash not found" };
    }
    const feePayer = message.accountKeys[0] && ledger.accounts.get(encodeBase58(message.accountKeys[0]), ledger.slotAt("processed"));
    if (!feePayer || feePayer.lamports === 0n) return { err: "AccountNotFound", text: LOAD_ERROR_TEXT.AccountNotFound };
    return refusal(full && full.message.lookups === 0 ? Math.max(0, unsupportedInstruction(pendingOf(full).message)) : 0);
  }

  /**
   * A simulation result for a transaction that did not run. Failures before execution (BlockhashNotFound, the fee
   * payer's AccountNotFound / InsufficientFundsForFee) carry no logs, as on Agave; the localnet's refusal of an
   * instruction it does not execute says why in its one log line.
   */
  function simulationValue(err: unknown) {
    const refused = typeof err === "object" && err !== null && "InstructionError" in err;
    return {
      err,
      logs: refused ? ["localnet: only System transfers, SPL Token / Token-2022 transfers and associated token account creation are executed"] : [],
      accounts: null,
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: null,
      replacementBlockhash: null as { blockhash: string; lastValidBlockHeight: number } | null,
      loadedAccountsDataSize: 0,
    };
  }

  /** The simulation result of a dry run (an executed record carries its logs and units). */
  function outcomeValue(outcome: Outcome) {
    if (outcome.kind === "unsupported") return simulationValue(refusal(outcome.index).err);
    if (outcome.kind === "dropped") return simulationValue(outcome.err);
    const { meta } = outcome.record;
    return { ...simulationValue(meta.err), logs: meta.logMessages, unitsConsumed: Number(meta.computeUnitsConsumed) };
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
    const bytes = decodeWire(text, encoding, type);
    const message = readWireTransaction(bytes);
    if (!message) throw invalidParams(`failed to deserialize ${type}: io error: unexpected end of file`);
    return { message, config, full: readWireTransactionFull(bytes) };
  }

  /**
   * A submitted transaction made only of instructions the runtime executes, with its dry run against the processed
   * bank; undefined for anything else (refused: never executed).
   */
  function executable(full: WireTransaction | undefined) {
    if (!full || full.message.lookups > 0) return undefined;
    const pending = pendingOf(full);
    if (unsupportedInstruction(pending.message) >= 0) return undefined;
    const slot = ledger.slotAt("processed");
    return { pending, full, dryRun: executeTransaction(pending, (pubkey) => ledger.accounts.get(pubkey, slot)) };
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
      const { message, config, full } = submitted(params);
      const skipPreflight = parse(() => field(config, "skipPreflight", readBool)) ?? false;
      // Agave picks the preflight bank (processed when preflight is skipped) with minContextSlot before anything else.
      const minContextSlot = parse(() => field(config, "minContextSlot", readUnsigned));
      const preflightCommitment = skipPreflight ? "processed" : flattenedCommitment({ commitment: config.preflightCommitment });
      bankSlot(ctx, preflightCommitment, minContextSlot);
      const run = executable(full);
      if (!run) {
        const { err, text } = preflight(message, false, full);
        throw sendTransactionPreflightFailure(`Transaction simulation failed: ${text}`, simulationValue(err));
      }
      const signed = signaturesVerify(run.full);
      // Without preflight a badly signed transaction is accepted and then lost (the leader's sigverify drops it).
      if (skipPreflight && !signed) return run.pending.signatures[0];
      if (!skipPreflight) {
        if (!signed) throw signatureVerificationFailure();
        const blockhashOk = ledger.isBlockhashValid(run.pending.message.recentBlockhash, ledger.slotAt("processed"));
        if (!blockhashOk) throw sendTransactionPreflightFailure("Transaction simulation failed: Blockhash not found", simulationValue("BlockhashNotFound"));
        const { dryRun } = run;
        if (dryRun.kind === "unsupported") {
          throw sendTransactionPreflightFailure(`Transaction simulation failed: ${refusal(dryRun.index).text}`, outcomeValue(dryRun));
        }
        // A fee payer that cannot pay fails before execution: Agave's TransactionError, no logs.
        if (dryRun.kind === "dropped") {
          throw sendTransactionPreflightFailure(`Transaction simulation failed: ${LOAD_ERROR_TEXT[dryRun.err]}`, outcomeValue(dryRun));
        }
        const { err } = dryRun.record.meta;
        if (err !== null) {
          const [index, detail] = (err as { InstructionError: [number, Parameters<typeof instructionErrorText>[0]] }).InstructionError;
          throw sendTransactionPreflightFailure(
            `Transaction simulation failed: Error processing Instruction ${index}: ${instructionErrorText(detail)}`,
            outcomeValue(dryRun),
          );
        }
      }
      ledger.submit(run.pending);
      return run.pending.signatures[0];
    },

    simulateTransaction(params) {
      const { message, config, full } = submitted(params);
      const replace = parse(() => field(config, "replaceRecentBlockhash", readBool)) ?? false;
      const sigVerify = parse(() => field(config, "sigVerify", readBool)) ?? false;
      const slot = bankSlot(ctx, flattenedCommitment(config), parse(() => field(config, "minContextSlot", readUnsigned)));
      // As Agave 2.x: the bank first, then the flags' collision, the blockhash replacement, sigverify (-32003).
      let replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null = null;
      if (replace) {
        if (sigVerify) throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
        const bank = ledger.getBlock(slot)!;
        replacementBlockhash = { blockhash: bank.blockhash, lastValidBlockHeight: bank.blockHeight + MAX_PROCESSING_AGE };
      }
      if (sigVerify && !(full && signaturesVerify(full))) throw signatureVerificationFailure();
      const run = executable(full);
      const { err } = preflight(message, replace, full);
      const value = run && err !== "BlockhashNotFound" ? outcomeValue(run.dryRun) : simulationValue(err);
      return withContext(slot, { ...value, replacementBlockhash });
    },

    requestAirdrop(params) {
      const [to, lamports] = parse(() => {
        const p = positional(params, 2, 3);
        const raw = readConfig(p[2], "RpcRequestAirdropConfig");
        field(raw, "recentBlockhash", readString);
        return [readString(p[0]), readUnsigned(p[1])] as const;
      });
      verifyPubkey(to);
      // The faucet signs a System transfer (a random signature: its key is not on this machine), run in the next slot.
      const data = new Uint8Array(12);
      const view = new DataView(data.buffer);
      view.setUint32(0, 2, true);
      view.setBigUint64(4, BigInt(lamports), true);
      const signature = encodeBase58(randomBytes(64));
      ledger.submit({
        signatures: [signature],
        version: "legacy",
        message: {
          header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
          accountKeys: [ledger.faucet, to, SYSTEM_PROGRAM_ID],
          recentBlockhash: ledger.getBlock(ledger.slotAt("processed"))!.blockhash,
          instructions: [{ programIdIndex: 2, accounts: [0, 1], data }],
        },
      });
      return signature;
    },
  };
}
