/**
 * Validator and economics methods: getInflationGovernor, getInflationRate, getStakeMinimumDelegation,
 * getHighestSnapshotSlot, getMaxRetransmitSlot, getMaxShredInsertSlot, getRecentPerformanceSamples, getLeaderSchedule,
 * getVoteAccounts. One node is the whole cluster: it leads every slot, votes on every block and holds all the stake.
 * Result shapes are Agave's (rpc_response.rs); values mirror mainnet where it has one.
 */
import { SLOTS_PER_EPOCH, TOTAL_STAKE } from "../../chain/cluster-constants.js";
import { voteAccountOf } from "../../chain/slot-schedule.js";
import type { MethodTable } from "../json-rpc.js";
import {
  commitmentParam,
  field,
  flattenedCommitment,
  noParams,
  parse,
  positional,
  readBool,
  readConfig,
  readContextConfig,
  readString,
  readUnsigned,
  verifyPubkey,
} from "../params.js";
import { invalidParams, noSnapshot } from "../rpc-error.js";
import { bankSlot, withContext, type RpcContext } from "../rpc-context.js";

/** Mainnet's inflation schedule (Agave `Inflation::default`). */
export const INFLATION = { initial: 0.08, terminal: 0.015, taper: 0.15, foundation: 0.05, foundationTerm: 7 } as const;
/** Agave `DEFAULT_SLOTS_PER_YEAR`-style year at 400 ms slots (365.242199 days of 2.5 slots per second). */
const SLOTS_PER_YEAR = (365.242_199 * 24 * 60 * 60) / 0.4;
/** Agave PERFORMANCE_SAMPLES_LIMIT and its sample period (one sample per 60 s, 150 slots at 400 ms). */
const PERFORMANCE_SAMPLES_LIMIT = 720;
const SAMPLE_PERIOD_SECS = 60;
const SAMPLE_SLOTS = 150;
/** Agave DELINQUENT_VALIDATOR_SLOT_DISTANCE. */
const DELINQUENT_SLOT_DISTANCE = 128;
/** The vote account's commission (percent). */
const VOTE_COMMISSION = 0;

/** Agave `Inflation::total` / `validator` / `foundation` at `year` years since genesis. */
export function inflationAt(year: number): { total: number; validator: number; foundation: number } {
  const tapered = INFLATION.initial * (1 - INFLATION.taper) ** year;
  const total = Math.max(tapered, INFLATION.terminal);
  const foundation = year < INFLATION.foundationTerm ? total * INFLATION.foundation : 0;
  return { total, validator: total - foundation, foundation };
}

export function validatorMethods(ctx: RpcContext): MethodTable {
  const { ledger } = ctx;
  const votePubkey = voteAccountOf(ledger.seed);
  /** The leader schedule of any epoch: the identity leads each of its slots (relative indices), built once. */
  let allSlots: number[] | undefined;

  /** Transactions in blocks up to `slot` (the newest stored block at or before it). */
  function transactionsUpTo(slot: number): number | undefined {
    const produced = ledger.producedSlots(Math.max(ledger.firstAvailableBlock, slot - SAMPLE_SLOTS), slot);
    const last = produced.at(-1);
    return last === undefined ? undefined : ledger.transactionCountAt(last);
  }

  return {
    getInflationGovernor(params) {
      parse(() => commitmentParam(positional(params, 0, 1)[0]));
      return { ...INFLATION };
    },

    getInflationRate(params) {
      noParams(params);
      const epoch = Math.floor(ledger.slotAt("finalized") / SLOTS_PER_EPOCH);
      return { ...inflationAt((epoch * SLOTS_PER_EPOCH) / SLOTS_PER_YEAR), epoch };
    },

    getStakeMinimumDelegation(params) {
      const config = parse(() => readContextConfig(positional(params, 0, 1)[0]));
      // Mainnet's: 1 lamport (the raise to 1 SOL is not active there).
      return withContext(bankSlot(ctx, config.commitment, config.minContextSlot), 1);
    },

    getHighestSnapshotSlot(params) {
      noParams(params);
      throw noSnapshot();
    },

    getMaxRetransmitSlot(params) {
      noParams(params);
      return ledger.slotAt("processed");
    },

    getMaxShredInsertSlot(params) {
      noParams(params);
      return ledger.slotAt("processed");
    },

    getRecentPerformanceSamples(params) {
      const limit = parse(() => {
        const p = positional(params, 0, 1);
        return p[0] === undefined || p[0] === null ? PERFORMANCE_SAMPLES_LIMIT : readUnsigned(p[0], "usize");
      });
      if (limit > PERFORMANCE_SAMPLES_LIMIT) throw invalidParams(`Invalid limit; max ${PERFORMANCE_SAMPLES_LIMIT}`);
      // One sample per 150 slots (60 s at 400 ms), newest first, back to the oldest stored block; the oldest may be short.
      const samples = [];
      const floor = ledger.firstAvailableBlock;
      for (let end = ledger.slotAt("processed"); end > floor && samples.length < limit; end -= SAMPLE_SLOTS) {
        const start = Math.max(floor, end - SAMPLE_SLOTS);
        const numTransactions = (transactionsUpTo(end) ?? 0) - (transactionsUpTo(start) ?? 0);
        const numSlots = end - start;
        const samplePeriodSecs = Math.round((numSlots * SAMPLE_PERIOD_SECS) / SAMPLE_SLOTS);
        samples.push({ slot: end, numTransactions, numSlots, samplePeriodSecs, numNonVoteTransactions: numTransactions });
      }
      return samples;
    },

    getLeaderSchedule(params) {
      const [slotArg, config] = parse(() => {
        const p = positional(params, 0, 2);
        // RpcLeaderScheduleConfigWrapper: the first param is a slot or (without one) the config; the second config wins.
        const first = p[0];
        const slot = typeof first === "number" || typeof first === "bigint" ? readUnsigned(first) : undefined;
        const inline = typeof first === "object" && first !== null ? first : undefined;
        if (first !== undefined && first !== null && slot === undefined && inline === undefined) {
          throw invalidParams("Invalid params: data did not match any variant of untagged enum RpcLeaderScheduleConfigWrapper.");
        }
        const raw = readConfig(p[1] ?? inline, "RpcLeaderScheduleConfig");
        return [slot, { identity: field(raw, "identity", readString), commitment: flattenedCommitment(raw) }] as const;
      });
      if (config.identity !== undefined) verifyPubkey(config.identity);
      const bank = bankSlot(ctx, config.commitment);
      const epoch = Math.floor((slotArg ?? bank) / SLOTS_PER_EPOCH);
      // The cache holds schedules up to the leader-schedule epoch (the next one); later epochs are unknown.
      if (epoch > Math.floor(bank / SLOTS_PER_EPOCH) + 1) return null;
      if (config.identity !== undefined && config.identity !== ledger.identity) return {};
      allSlots ??= Array.from({ length: SLOTS_PER_EPOCH }, (_, i) => i);
      return { [ledger.identity]: allSlots };
    },

    getVoteAccounts(params) {
      const config = parse(() => {
        const raw = readConfig(positional(params, 0, 1)[0], "RpcGetVoteAccountsConfig");
        return {
          votePubkey: field(raw, "votePubkey", readString),
          keepUnstakedDelinquents: field(raw, "keepUnstakedDelinquents", readBool),
          delinquentSlotDistance: field(raw, "delinquentSlotDistance", readUnsigned) ?? DELINQUENT_SLOT_DISTANCE,
          commitment: flattenedCommitment(raw),
        };
      });
      if (config.votePubkey !== undefined) verifyPubkey(config.votePubkey);
      const slot = bankSlot(ctx, config.commitment);
      if (config.votePubkey !== undefined && config.votePubkey !== votePubkey) return { current: [], delinquent: [] };
      const epoch = Math.floor(slot / SLOTS_PER_EPOCH);
      // The node votes on every block it produces: one credit per block, its last vote the bank's slot.
      const credits = ledger.getBlock(slot)?.blockHeight ?? 0;
      const account = {
        votePubkey,
        nodePubkey: ledger.identity,
        activatedStake: TOTAL_STAKE,
        epochVoteAccount: true,
        commission: VOTE_COMMISSION,
        lastVote: slot,
        epochCredits: [[epoch, credits, 0]],
        rootSlot: ledger.slotAt("finalized"),
      };
      return { current: [account], delinquent: [] };
    },
  };
}
