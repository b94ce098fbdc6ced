/**
 * Block methods: getBlock, getBlocks, getBlocksWithLimit, getBlockTime, getBlockCommitment, getBlockHeight,
 * getBlockProduction, getFirstAvailableBlock, minimumLedgerSlot, following Agave's commitment rules:
 * a block at or below the finalized root is served; above it only with `confirmed` and up to the confirmed slot; a skipped
 * root slot is -32009 (what mainnet's long-term-storage nodes answer), a pruned one -32001, anything newer -32004.
 */
import { SLOTS_PER_EPOCH, TOTAL_STAKE } from "../../chain/cluster-constants.js";
import type { Commitment } from "../../chain/ledger.js";
import type { Block } from "../../chain/types.js";
import { encodeTransactionAccounts, encodeTransactionWithMeta, type EncodeOptions } from "../encoding/transaction-encoding.js";
import type { MethodTable } from "../json-rpc.js";
import { u64 } from "../json-serialize.js";
import {
  exactTuple,
  field,
  flattenedCommitment,
  noParams,
  parse,
  positional,
  readConfig,
  readContextConfig,
  readString,
  readStruct,
  readUnsigned,
  readUnsignedExact,
  verifyPubkey,
} from "../params.js";
import { blockCleanedUp, blockNotAvailable, invalidParams, longTermStorageSlotSkipped } from "../rpc-error.js";
import { bankSlot, withContext, type RpcContext } from "../rpc-context.js";
import { checkAtLeastConfirmed, readEncodingConfigWrapper, type TransactionDetails } from "./transaction-config.js";

/** Agave MAX_GET_CONFIRMED_BLOCKS_RANGE. */
const MAX_BLOCKS_RANGE = 500_000;
/** SlotHistory keeps a bit per slot for this many slots. */
const SLOT_HISTORY_ENTRIES = 1024 * 1024;

const REWARD_TYPES = { fee: "Fee", rent: "Rent", staking: "Staking", voting: "Voting" } as const;

export function rewardsJson(block: Block) {
  return block.rewards.map((r) => ({
    pubkey: r.pubkey,
    lamports: Number(r.lamports),
    postBalance: u64(r.postBalance),
    rewardType: REWARD_TYPES[r.rewardType],
    commission: r.commission,
  }));
}

function encodeBlock(block: Block, details: TransactionDetails, options: EncodeOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    previousBlockhash: block.previousBlockhash,
    blockhash: block.blockhash,
    parentSlot: block.parentSlot,
  };
  if (details === "full") out.transactions = block.transactions.map((tx) => encodeTransactionWithMeta(tx, options));
  else if (details === "accounts") out.transactions = block.transactions.map((tx) => encodeTransactionAccounts(tx, options));
  else if (details === "signatures") out.signatures = block.transactions.map((tx) => tx.signatures[0]);
  if (options.showRewards) out.rewards = rewardsJson(block);
  out.blockTime = block.blockTime;
  out.blockHeight = block.blockHeight;
  return out;
}

export function blockMethods(ctx: RpcContext): MethodTable {
  const { ledger } = ctx;

  /** Agave's answer for a slot at or below the root that has no stored block. */
  function missingRootedBlock(slot: number): never {
    if (slot >= ledger.firstAvailableBlock && ledger.isSkipped(slot)) throw longTermStorageSlotSkipped(slot);
    throw blockCleanedUp(slot, ledger.firstAvailableBlock);
  }

  /** The block at `slot` as seen with `commitment`, or the error Agave gives (a bigint slot is beyond every bank). */
  function committedBlock(exact: number | bigint, commitment: Commitment): Block {
    if (typeof exact === "bigint") throw blockNotAvailable(exact);
    const slot = exact;
    if (slot <= ledger.slotAt("finalized")) return ledger.getBlock(slot) ?? missingRootedBlock(slot);
    const block = commitment === "confirmed" && slot <= ledger.slotAt("confirmed") ? ledger.getBlock(slot) : undefined;
    if (!block) throw blockNotAvailable(slot);
    return block;
  }

  return {
    getBlock(params) {
      const [slot, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readUnsignedExact(p[0]), readEncodingConfigWrapper(p[1])] as const;
      });
      checkAtLeastConfirmed(config.commitment);
      const block = committedBlock(slot, config.commitment);
      const details = config.transactionDetails ?? "full";
      const options: EncodeOptions = {
        encoding: config.encoding ?? "json",
        maxSupportedTransactionVersion: config.maxSupportedTransactionVersion,
        showRewards: config.rewards ?? true,
      };
      return encodeBlock(block, details, options);
    },

    getBlocks(params) {
      const [start, endArg, config] = parse(() => {
        const p = positional(params, 1, 3);
        // RpcBlocksConfigWrapper: the second param is either the end slot or the config.
        const second = p[1];
        const endSlot = typeof second === "number" || typeof second === "bigint" ? readUnsigned(second) : undefined;
        const inline = typeof second === "object" && second !== null ? second : undefined;
        if (second !== undefined && second !== null && endSlot === undefined && inline === undefined) {
          throw invalidParams("Invalid params: data did not match any variant of untagged enum RpcBlocksConfigWrapper.");
        }
        return [readUnsigned(p[0]), endSlot, readContextConfig(inline ?? p[2])] as const;
      });
      checkAtLeastConfirmed(config.commitment);
      // The end is clamped to the commitment's slot before the range check, as in Agave.
      const end = Math.min(endArg ?? start + MAX_BLOCKS_RANGE, bankSlot(ctx, config.commitment, config.minContextSlot));
      if (end < start) return [];
      if (end - start > MAX_BLOCKS_RANGE) throw invalidParams(`Slot range too large; max ${MAX_BLOCKS_RANGE}`);
      return ledger.producedSlots(start, end);
    },

    getBlocksWithLimit(params) {
      const [start, limit, config] = parse(() => {
        const p = positional(params, 2, 3);
        return [readUnsigned(p[0]), readUnsigned(p[1], "usize"), readContextConfig(p[2])] as const;
      });
      checkAtLeastConfirmed(config.commitment);
      if (limit > MAX_BLOCKS_RANGE) throw invalidParams(`Limit too large; max ${MAX_BLOCKS_RANGE}`);
      const ceiling = bankSlot(ctx, config.commitment, config.minContextSlot);
      return ledger.producedSlots(start, ceiling).slice(0, limit);
    },

    getBlockTime(params) {
      const [exact] = parse(() => exactTuple(params, 1).map((v) => readUnsignedExact(v)));
      // Beyond 2^53 is beyond every bank: Agave's BlockNotAvailable, echoing the exact digits.
      if (typeof exact === "bigint") throw blockNotAvailable(exact);
      const slot = exact;
      if (slot! <= ledger.slotAt("finalized")) return (ledger.getBlock(slot!) ?? missingRootedBlock(slot!)).blockTime;
      const block = slot! <= ledger.slotAt("processed") ? ledger.getBlock(slot!) : undefined;
      if (!block) throw blockNotAvailable(slot!);
      return block.blockTime;
    },

    getBlockCommitment(params) {
      const [slot] = parse(() => exactTuple(params, 1).map((v) => readUnsigned(v)));
      const { finalized, processed } = ledger.commitments;
      let commitment: number[] | null = null;
      if (slot! > finalized && slot! <= processed && ledger.getBlock(slot!)) {
        // Depth = blocks built on top of it; all stake sits at that depth (capped at the array's last entry).
        const depth = ledger.producedSlots(slot! + 1, processed).length;
        commitment = new Array<number>(32).fill(0);
        commitment[Math.min(depth, 31)] = TOTAL_STAKE;
      }
      return { commitment, totalStake: TOTAL_STAKE };
    },

    getBlockHeight(params) {
      const config = parse(() => readContextConfig(positional(params, 0, 1)[0]));
      return ledger.getBlock(bankSlot(ctx, config.commitment, config.minContextSlot))!.blockHeight;
    },

    getBlockProduction(params) {
      const config = parse(() => {
        const raw = readConfig(positional(params, 0, 1)[0], "RpcBlockProductionConfig");
        const range = field(raw, "range", (v) =>
          readStruct(v, "RpcBlockProductionConfigRange", { firstSlot: readUnsigned }, (c) => ({
            firstSlot: c.firstSlot as number,
            lastSlot: field(c, "lastSlot", readUnsigned),
          })),
        );
        return { identity: field(raw, "identity", readString), range, commitment: flattenedCommitment(raw) };
      });
      if (config.identity !== undefined) verifyPubkey(config.identity);
      const newest = ledger.slotAt(config.commitment);
      const firstSlot = config.range?.firstSlot ?? Math.floor(newest / SLOTS_PER_EPOCH) * SLOTS_PER_EPOCH;
      const lastSlot = config.range ? (config.range.lastSlot ?? newest) : newest;
      if (lastSlot < firstSlot) throw invalidParams(`lastSlot, ${lastSlot}, cannot be less than firstSlot, ${firstSlot}`);
      const oldest = Math.max(0, newest - SLOT_HISTORY_ENTRIES + 1);
      if (firstSlot < oldest) throw invalidParams(`firstSlot, ${firstSlot}, is too small; min ${oldest}`);
      if (lastSlot > newest) throw invalidParams(`lastSlot, ${lastSlot}, is too large; max ${newest}`);
      const byIdentity: Record<string, [number, number]> = {};
      if (config.identity === undefined || config.identity === ledger.identity) {
        let produced = 0;
        for (let slot = firstSlot; slot <= lastSlot; slot++) if (!ledger.isSkipped(slot)) produced++;
        byIdentity[ledger.identity] = [lastSlot - firstSlot + 1, produced];
      }
      return withContext(newest, { byIdentity, range: { firstSlot, lastSlot } });
    },

    getFirstAvailableBlock(params) {
      noParams(params);
      return ledger.firstAvailableBlock;
    },

    minimumLedgerSlot(params) {
      noParams(params);
      return ledger.firstAvailableBlock;
    },
  };
}
