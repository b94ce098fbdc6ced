/** Helpers of the account-codec tests: reproducible fuzz, hostile byte patches, the decode error's reason. */
import { AccountDecodeError } from "../../../../src/solana/accounts/decode-error";

/** A deterministic PRNG so fuzz cases are reproducible from the seed in the test name. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `data` with bytes overwritten at the given offsets (hostile variants of a real account). */
export function patched(data: Uint8Array, patches: Record<number, number[]>): Uint8Array {
  const copy = data.slice();
  for (const [offset, bytes] of Object.entries(patches)) copy.set(bytes, Number(offset));
  return copy;
}

/** The typed decode error reason a decoder throws, "no error" when it decodes; anything else is rethrown. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AccountDecodeError) return error.reason;
    throw error;
  }
  return "no error";
}
