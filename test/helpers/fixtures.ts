/**
 * The one loader of real mainnet accounts from the project's fixture tree (test/fixtures), in every wrapper shape
 * test/fixtures/SOURCES.md describes (`{address, owner, data}`, solana-cli `{pubkey, account}`, raw base64). SOURCES.md
 * gives each file's provenance and what its source asserts.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { address, getAddressEncoder, type Address } from "@solana/kit";
import type { AccountBytes } from "../../src/solana/accounts/account-shape";

export interface Fixture extends AccountBytes {
  readonly address: Address | undefined;
  /** the whole JSON wrapper, for the values the source (or the collector) states next to the bytes */
  readonly json: Record<string, unknown>;
}

type Wrapper = {
  address?: string | null;
  pubkey?: string;
  owner?: string;
  data?: string | [string, string];
  account?: { owner: string; data: [string, string] };
};

/** The project's fixture tree (test/fixtures/), as a file URL ending in a slash. */
const FIXTURES = new URL("../fixtures/", import.meta.url);

/** A path under the fixture tree (`test/fixtures/<relative>`), e.g. a folder to load into localnet. */
export function fixturePath(relative: string): string {
  return fileURLToPath(new URL(relative, FIXTURES));
}

/** Reads `test/fixtures/accounts/<path>` in any of its wrapper formats (raw, solana-cli, Carbon). */
export function loadAccountFixture(path: string): Fixture {
  const json = JSON.parse(readFileSync(fixturePath(`accounts/${path}`), "utf8")) as Wrapper & Record<string, unknown>;
  const inner = json.account ?? json;
  const data = Array.isArray(inner.data) ? inner.data[0] : inner.data;
  const owner = inner.owner;
  if (data === undefined || owner === undefined) throw new Error(`fixture ${path}: no data/owner`);
  const addressText = json.address ?? json.pubkey;
  return {
    address: typeof addressText === "string" && !addressText.includes(" ") ? address(addressText) : undefined,
    owner: address(owner),
    data: new Uint8Array(Buffer.from(data, "base64")),
    json,
  };
}

/** The same bytes under another owner, to prove decoders check ownership. */
export function withOwner(account: AccountBytes, owner: string): AccountBytes {
  return { owner: address(owner), data: account.data };
}

/** The same bytes with one byte flipped (for discriminator checks) or truncated / extended. */
export function withData(account: AccountBytes, change: (data: Uint8Array) => Uint8Array): AccountBytes {
  return { owner: account.owner, data: change(account.data.slice()) };
}

/** Float of a ratio for independent cross-checks (tests only; production code never uses floats). */
export function ratioToNumber(r: { num: bigint; den: bigint }): number {
  return Number(r.num) / Number(r.den);
}

export { relErr } from "./numbers";

/**
 * A 165-byte SPL token account holding `amount` of `mint`. Only for pools whose fixtures come without
 * their vault accounts: the pool bytes stay real, the balances are stated by the test.
 */
export function syntheticTokenAccount(mint: string, amount: bigint, tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"): AccountBytes {
  const data = new Uint8Array(165);
  data.set(getAddressEncoder().encode(address(mint)), 0);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  data[108] = 1;
  return { owner: address(tokenProgram), data };
}

/** An 82-byte SPL mint with the given decimals and supply. */
export function syntheticMint(decimals: number, supply = 0n): AccountBytes {
  const data = new Uint8Array(82);
  new DataView(data.buffer).setBigUint64(36, supply, true);
  data[44] = decimals;
  data[45] = 1;
  return { owner: address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"), data };
}

/**
 * A field of the decoded JSON a source published next to the bytes (`expected_decoded_from_source`),
 * with Solscan-style `{type, data}` wrappers removed: `sourceField(f, "parameters", "base_factor")`.
 */
export function sourceField(fixture: Fixture, ...path: string[]): unknown {
  let node: unknown = fixture.json.expected_decoded_from_source;
  for (const key of path) {
    node = unwrap(node);
    node = (node as Record<string, unknown>)[key];
  }
  return unwrap(node);
}

function unwrap(node: unknown): unknown {
  return typeof node === "object" && node !== null && "type" in node && "data" in node ? (node as { data: unknown }).data : node;
}

/** The same bytes with every bit of byte `index` inverted (a discriminator, a feed id). */
export function flipByte(account: AccountBytes, index: number): AccountBytes {
  return withData(account, (d) => {
    d[index] = (d[index] as number) ^ 0xff;
    return d;
  });
}
