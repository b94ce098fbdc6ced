/**
 * What the seed decides about slots and hashes: which slots are skipped (~5%, no block, like a leader that missed its
 * turn), each block's hash, the genesis hash and the node identity. All pure functions of (seed, slot) so two runs
 * with the same seed produce the same chain.
 */
import { createHash } from "node:crypto";
import { encodeBase58 } from "./base58.js";

const SKIP_RATE = 0.05;

/** 32-bit mix of (seed, slot) (splitmix-style finaliser); cheap enough to call for every slot of an epoch. */
function mix32(seed: number, slot: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(slot >>> 0, 0xc2b2ae35) ^ Math.floor(slot / 2 ** 32)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Slot 0 (genesis) is never skipped. */
export function isSkippedSlot(seed: number, slot: number): boolean {
  return slot > 0 && mix32(seed, slot) < SKIP_RATE * 2 ** 32;
}

function hash32(...parts: (string | number)[]): Uint8Array {
  return createHash("sha256").update(`localnet:${parts.join(":")}`).digest();
}

export function genesisHashOf(seed: number): string {
  return encodeBase58(hash32(seed, "genesis"));
}

/** Slot 0's blockhash is the genesis hash, as for a real cluster's first bank. */
export function blockhashOf(seed: number, slot: number): string {
  return slot === 0 ? genesisHashOf(seed) : encodeBase58(hash32(seed, "blockhash", slot));
}

/** The node's identity key: the leader of every slot, the receiver of fee rewards, what getIdentity reports. */
export function identityOf(seed: number): string {
  return encodeBase58(hash32(seed, "identity"));
}

/** The node's vote account: getVoteAccounts' only entry, holding all the stake. */
export function voteAccountOf(seed: number): string {
  return encodeBase58(hash32(seed, "vote"));
}

/** The faucet requestAirdrop pays from (solana-test-validator's faucet keypair). */
export function faucetOf(seed: number): string {
  return encodeBase58(hash32(seed, "faucet"));
}

/**
 * A genesis "foundation" account: the localnet's non-circulating supply (getSupply), standing in for the foundation and
 * locked accounts Agave's `non_circulating_accounts()` lists on mainnet.
 */
export function foundationOf(seed: number): string {
  return encodeBase58(hash32(seed, "foundation"));
}
