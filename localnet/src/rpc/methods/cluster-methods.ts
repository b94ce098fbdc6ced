/**
 * Node and cluster methods: slots, blockhashes, health, version, epoch, rent, identity, cluster nodes, supply, leaders,
 * prioritization fees. One node is the whole cluster: it leads every slot and holds all the stake.
 */
import { parseBase58Fixed } from "../../chain/base58.js";
import { AGAVE_VERSION, FEATURE_SET, MAX_PROCESSING_AGE, minimumBalanceForRentExemption, SLOTS_PER_EPOCH } from "../../chain/cluster-constants.js";
import type { MethodTable } from "../json-rpc.js";
import { u64 } from "../json-serialize.js";
import {
  commitmentParam,
  exactTuple,
  field,
  flattenedCommitment,
  noParams,
  parse,
  positional,
  readBool,
  readConfig,
  readContextConfig,
  readString,
  readStringArray,
  readUnsigned,
  readUnsignedExact,
  verifyPubkey,
} from "../params.js";
import { invalidParams, invalidRequest } from "../rpc-error.js";
import { bankSlot, withContext, type RpcContext } from "../rpc-context.js";

/** Agave MAX_PERMITTED_DATA_LENGTH (10 MiB), MAX_GET_SLOT_LEADERS, MAX_TX_ACCOUNT_LOCKS (prioritization-fee keys). */
const MAX_PERMITTED_DATA_LENGTH = 10 * 1024 * 1024;
const MAX_GET_SLOT_LEADERS = 5000;
const MAX_PRIORITIZATION_FEE_KEYS = 128;

export function clusterMethods(ctx: RpcContext): MethodTable {
  const { ledger, node } = ctx;

  /** The bank slot for an optional RpcContextConfig param. */
  function contextSlot(params: unknown): number {
    const config = parse(() => readContextConfig(positional(params, 0, 1)[0]));
    return bankSlot(ctx, config.commitment, config.minContextSlot);
  }

  return {
    getSlot: (params) => contextSlot(params),

    getTransactionCount: (params) => ledger.transactionCountAt(contextSlot(params)),

    getSlotLeader(params) {
      contextSlot(params);
      return ledger.identity;
    },

    getSlotLeaders(params) {
      const [start, limit] = parse(() => {
        const [first, count] = exactTuple(params, 2);
        return [readUnsignedExact(first), readUnsigned(count)] as const;
      });
      if (limit > MAX_GET_SLOT_LEADERS) throw invalidParams(`Invalid limit; max ${MAX_GET_SLOT_LEADERS}`);
      // As Agave, epoch by epoch from the start slot's: the leader schedule cache knows epochs up to the finalized bank's
      // leader-schedule epoch (the next one), so a range reaching past it is refused with the first epoch it lacks.
      if (limit > 0) {
        const perEpoch = BigInt(SLOTS_PER_EPOCH);
        const lastKnown = BigInt(Math.floor(ledger.slotAt("finalized") / SLOTS_PER_EPOCH) + 1);
        const firstEpoch = BigInt(start) / perEpoch;
        const lastEpoch = (BigInt(start) + BigInt(limit) - 1n) / perEpoch;
        if (lastEpoch > lastKnown) {
          const missing = firstEpoch > lastKnown ? firstEpoch : lastKnown + 1n;
          throw invalidParams(`Invalid slot range: leader schedule for epoch ${missing} is unavailable`);
        }
      }
      return new Array<string>(limit).fill(ledger.identity);
    },

    getLatestBlockhash(params) {
      const slot = contextSlot(params);
      const block = ledger.getBlock(slot)!;
      return withContext(slot, { blockhash: block.blockhash, lastValidBlockHeight: block.blockHeight + MAX_PROCESSING_AGE });
    },

    isBlockhashValid(params) {
      const [blockhash, config] = parse(() => {
        const p = positional(params, 1, 2);
        return [readString(p[0]), readContextConfig(p[1])] as const;
      });
      const parsed = parseBase58Fixed(blockhash, 32);
      if (typeof parsed === "string") throw invalidParams(`Invalid param: ${parsed}`);
      const slot = bankSlot(ctx, config.commitment, config.minContextSlot);
      return withContext(slot, ledger.isBlockhashValid(blockhash, slot));
    },

    getHealth(params) {
      noParams(params);
      return "ok";
    },

    getVersion(params) {
      noParams(params);
      return { "solana-core": AGAVE_VERSION, "feature-set": FEATURE_SET };
    },

    getGenesisHash(params) {
      noParams(params);
      return ledger.genesisHash;
    },

    getIdentity(params) {
      noParams(params);
      return { identity: ledger.identity };
    },

    getEpochInfo(params) {
      const slot = contextSlot(params);
      return {
        absoluteSlot: slot,
        blockHeight: ledger.getBlock(slot)!.blockHeight,
        epoch: Math.floor(slot / SLOTS_PER_EPOCH),
        slotIndex: slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: ledger.transactionCountAt(slot),
      };
    },

    getEpochSchedule(params) {
      noParams(params);
      return {
        slotsPerEpoch: SLOTS_PER_EPOCH,
        leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
        warmup: false,
        firstNormalEpoch: 0,
        firstNormalSlot: 0,
      };
    },

    getMinimumBalanceForRentExemption(params) {
      const [length] = parse(() => {
        const p = positional(params, 1, 2);
        return [readUnsigned(p[0], "usize"), commitmentParam(p[1])] as const;
      });
      if (length > MAX_PERMITTED_DATA_LENGTH) throw invalidRequest();
      return minimumBalanceForRentExemption(length);
    },

    getClusterNodes(params) {
      noParams(params);
      // Only the RPC and PubSub endpoints exist; the validator-to-validator ports are reported as absent.
      return [
        {
          pubkey: ledger.identity,
          gossip: null,
          tvu: null,
          tpu: null,
          tpuQuic: null,
          tpuForwards: null,
          tpuForwardsQuic: null,
          tpuVote: null,
          serveRepair: null,
          rpc: `${node.host}:${node.rpcPort}`,
          pubsub: `${node.host}:${node.wsPort}`,
          version: AGAVE_VERSION,
          featureSet: FEATURE_SET,
          shredVersion: 0,
        },
      ];
    },

    getSupply(params) {
      const config = parse(() => {
        const raw = readConfig(positional(params, 0, 1)[0], "RpcSupplyConfig");
        return { commitment: flattenedCommitment(raw), excludeList: field(raw, "excludeNonCirculatingAccountsList", readBool) ?? false };
      });
      const slot = bankSlot(ctx, config.commitment);
      let total = 0n;
      for (const [, state] of ledger.accounts.all(slot)) total += state.lamports;
      // Agave `calculate_non_circulating_supply`: the lamports of the non-circulating accounts, out of the total.
      let nonCirculating = 0n;
      for (const pubkey of ledger.nonCirculatingAccounts) nonCirculating += ledger.accounts.get(pubkey, slot)?.lamports ?? 0n;
      return withContext(slot, {
        total: u64(total),
        circulating: u64(total - nonCirculating),
        nonCirculating: u64(nonCirculating),
        nonCirculatingAccounts: config.excludeList ? [] : [...ledger.nonCirculatingAccounts],
      });
    },

    getRecentPrioritizationFees(params) {
      const keys = parse(() => {
        const p = positional(params, 0, 1);
        return p[0] === undefined || p[0] === null ? [] : readStringArray(p[0]);
      });
      if (keys.length > MAX_PRIORITIZATION_FEE_KEYS) throw invalidParams(`Too many inputs provided; max ${MAX_PRIORITIZATION_FEE_KEYS}`);
      for (const key of keys) verifyPubkey(key);
      const processed = ledger.slotAt("processed");
      // Nothing pays priority fees on the localnet: every recent block reports 0.
      return ledger.producedSlots(Math.max(0, processed - MAX_PROCESSING_AGE + 1), processed).map((slot) => ({ slot, prioritizationFee: 0 }));
    },
  };
}
