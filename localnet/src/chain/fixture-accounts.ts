/**
 * Loads account fixtures (`--accounts DIR`): every *.json under the directories, recursively, in either
 * `solana account --output json` form `{pubkey, account:{lamports, data:[b64,"base64"], owner, executable, rentEpoch, space}}`
 * or the fixture wrapper `{address, owner, space, data:[b64,"base64"], lamports?, executable?, rentEpoch?}`.
 * Files in neither form (or unreadable) are skipped and counted, not fatal: fixture folders hold notes and other JSON too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseBase58Fixed } from "./base58.js";
import { minimumBalanceForRentExemption, RENT_EXEMPT_EPOCH } from "./cluster-constants.js";
import type { AccountState, Pubkey } from "./types.js";

export interface LoadedFixtures {
  accounts: [Pubkey, AccountState][];
  skipped: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPubkey(value: unknown): value is string {
  return typeof value === "string" && parseBase58Fixed(value, 32) instanceof Uint8Array;
}

function base64Data(value: unknown): Uint8Array | undefined {
  if (!Array.isArray(value) || value[1] !== "base64" || typeof value[0] !== "string") return undefined;
  return new Uint8Array(Buffer.from(value[0], "base64"));
}

/** JSON numbers lose u64::MAX (it parses as 2^64); anything that large means "rent exempt". */
function rentEpochOf(value: unknown): bigint {
  if (typeof value !== "number" || value >= 2 ** 64 - 1) return RENT_EXEMPT_EPOCH;
  return BigInt(Math.max(0, Math.trunc(value)));
}

function lamportsOf(value: unknown, dataLength: number): bigint {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? BigInt(value)
    : BigInt(minimumBalanceForRentExemption(dataLength));
}

export function parseFixtureAccount(json: unknown): [Pubkey, AccountState] | undefined {
  if (!isObject(json)) return undefined;
  const cli = isObject(json.account) ? json.account : undefined;
  const pubkey = cli ? json.pubkey : json.address;
  const fields = cli ?? json;
  const data = base64Data(fields.data);
  if (!isPubkey(pubkey) || !isPubkey(fields.owner) || !data) return undefined;
  return [
    pubkey,
    {
      lamports: lamportsOf(fields.lamports, data.length),
      owner: fields.owner,
      data,
      executable: fields.executable === true,
      rentEpoch: rentEpochOf(fields.rentEpoch),
    },
  ];
}

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsonFilesUnder(path);
    return entry.isFile() && entry.name.endsWith(".json") ? [path] : [];
  });
}

export function loadFixtureAccounts(dirs: string[]): LoadedFixtures {
  const accounts: [Pubkey, AccountState][] = [];
  const skipped: string[] = [];
  for (const dir of dirs) {
    for (const file of jsonFilesUnder(dir)) {
      try {
        const account = parseFixtureAccount(JSON.parse(readFileSync(file, "utf8")));
        if (account) accounts.push(account);
        else skipped.push(file);
      } catch {
        skipped.push(file);
      }
    }
  }
  return { accounts, skipped };
}
