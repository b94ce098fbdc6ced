/**
 * Mainnet-sized blocks on demand (`POST /__localnet/advance?slots=N&heavy=1`), for benchmarks: ~1,100 transactions, ~70%
 * of them validators' votes (Vote program TowerSync in its compact wire form, one signer paying 5,000 lamports, as
 * mainnet vote transactions) and the rest swaps of every kind (random trades and Jupiter routes), interleaved.
 */
import type { Pubkey } from "../chain/types.js";
import { concat, FixedWriter } from "./core/bytes.js";
import { keyBytes, sha256 } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import { decodeBase58 } from "../chain/base58.js";
import { SYSTEM_PROGRAM, VOTE_PROGRAM } from "./programs.js";
import { w, ws, type Ix, type TxPlan } from "./tx/builder.js";
import type { WorldState } from "./world-state.js";

/** Transactions of a heavy block, and the share of them that are votes (mainnet: ~70% of ~1,000–1,500). */
export const HEAVY_BLOCK_TRANSACTIONS = 1100;
export const HEAVY_VOTE_SHARE = 0.7;
/** Validators voting in a heavy block (each votes once). */
const VALIDATORS = 800;
/** VoteState (VoteStateVersions::Current) account size. */
const VOTE_STATE_SIZE = 3762;
/** VoteInstruction::TowerSync. */
const TOWER_SYNC = 14;
/** Compute units the Vote program's TowerSync costs (its builtin default). */
const VOTE_CU = 2100;

/** LEB128, as serde_varint (lockout offsets) and short_vec (lengths) write it. */
function varint(n: bigint): Uint8Array {
  const out: number[] = [];
  do {
    let b = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) b |= 0x80;
    out.push(b);
  } while (n > 0n);
  return Uint8Array.from(out);
}

/**
 * TowerSync in the compact serialization the vote program reads (`serde_compact_tower_sync`): root, lockout offsets
 * (short_vec of varint offset + confirmation count), bank hash, Option<timestamp>, block id.
 */
export function towerSyncData(slot: number, bankHash: Uint8Array, timestamp: number, blockId: Uint8Array): Uint8Array {
  const depth = Math.min(31, slot - 1);
  const root = BigInt(slot - depth - 1);
  const lockouts: Uint8Array[] = [varint(BigInt(depth))];
  for (let i = 0; i < depth; i++) lockouts.push(varint(1n), Uint8Array.of(depth - i));
  const ts = new FixedWriter(9).u8(0, 1).i64(1, BigInt(timestamp)).bytes;
  return concat(new FixedWriter(4).u32(0, TOWER_SYNC).bytes, new FixedWriter(8).u64(0, root).bytes, ...lockouts, bankHash, ts, blockId);
}

export class HeavySlots {
  private pending = 0;
  private validators: { identity: Pubkey; vote: Pubkey }[] | null = null;

  constructor(private readonly state: WorldState) {}

  /** The next `slots` produced slots are heavy. */
  request(slots: number): void {
    this.pending += slots;
  }

  /** Whether the slot being produced is heavy (consumes one request). */
  take(): boolean {
    if (this.pending === 0) return false;
    this.pending--;
    return true;
  }

  /** Validators' identities (fee payers) and vote accounts, created on first use. */
  private voters(): { identity: Pubkey; vote: Pubkey }[] {
    if (this.validators) return this.validators;
    const { state } = this;
    const { store } = state.ctx;
    this.validators = Array.from({ length: VALIDATORS }, (_, i) => {
      const identity = state.key(`validator:${i}:identity`);
      const vote = state.key(`validator:${i}:vote`);
      store.put(identity, SYSTEM_PROGRAM, new Uint8Array(0), 50_000_000_000n);
      // VoteStateVersions::Current: node_pubkey, authorized_withdrawer, commission (the tower itself is not kept).
      const data = new FixedWriter(VOTE_STATE_SIZE).u32(0, 2).pubkey(4, identity).pubkey(36, identity).u8(68, 10).bytes;
      store.putRentExempt(vote, VOTE_PROGRAM, data);
      return { identity, vote };
    });
    return this.validators;
  }

  /** The vote of validator `i` for the parent bank (`recentBlockhash`), paid by its identity. */
  votePlan(i: number, slot: number, recentBlockhash: string, blockTime: number): TxPlan {
    const voters = this.voters();
    const { identity, vote } = voters[i % voters.length]!;
    const hash = decodeBase58(recentBlockhash);
    const bankHash = hash instanceof Uint8Array && hash.length === 32 ? hash : sha256(recentBlockhash);
    const ix: Ix = {
      program: VOTE_PROGRAM,
      accounts: [w(vote), ws(identity)],
      data: towerSyncData(slot, bankHash, blockTime, sha256(`block-id:${slot}`, keyBytes(vote))),
      steps: [],
      cu: VOTE_CU,
    };
    return { payer: identity, ixs: [ix], cuLimit: 200_000, cuPrice: 0n, version: "legacy", apply: () => {} };
  }

  /** The kinds of the block's transactions in order: `true` = a vote. */
  layout(rng: Rng): boolean[] {
    const votes = Math.round(HEAVY_BLOCK_TRANSACTIONS * HEAVY_VOTE_SHARE);
    return rng.shuffle(Array.from({ length: HEAVY_BLOCK_TRANSACTIONS }, (_, i) => i < votes));
  }
}
