/**
 * Reads real mainnet account fixtures from the shared, read-only `../shared/fixtures` (beside the repo root) at
 * test time; they are never copied into the repo. Handles both wrapper shapes described in SOURCES.md:
 * `{address, owner, data:[b64,"base64"]}` and solana-cli `{pubkey, account:{owner, data:[b64,"base64"]}}`.
 */
import { address, type Address } from "@solana/kit";
import { readFileSync } from "node:fs";
import { AccountDecodeError } from "../../../../src/solana/accounts/decode-error";
import { fileURLToPath } from "node:url";

const FIXTURES_ROOT = fileURLToPath(new URL("../../../../../shared/fixtures/accounts/", import.meta.url));

type Wrapper = { owner: string; data: [string, "base64"] };
type FixtureFile = (Wrapper & { address: string }) | { pubkey: string; account: Wrapper };

export type FixtureAccount = { address: string; owner: Address; data: Uint8Array };

export function loadAccountFixture(relativePath: string): FixtureAccount {
  const file = JSON.parse(readFileSync(FIXTURES_ROOT + relativePath, "utf8")) as FixtureFile;
  const [accountAddress, account] = "account" in file ? [file.pubkey, file.account] : [file.address, file];
  return { address: accountAddress, owner: address(account.owner), data: new Uint8Array(Buffer.from(account.data[0], "base64")) };
}

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
