/**
 * Reads real mainnet accounts and transactions from the project's fixture tree (test/fixtures, provenance in its
 * SOURCES.md). Accepts the fixture wrapper, `solana account --output json` and the Carbon/extracted-literal shapes.
 */
import { readFileSync } from "node:fs";
import { fixturePath } from "../../helpers/fixtures";

export interface FixtureAccount {
  address: string | undefined;
  owner: string | undefined;
  lamports: bigint | undefined;
  data: Uint8Array;
}

type Json = Record<string, unknown>;

function findData(o: unknown): { data: Uint8Array; holder: Json } | undefined {
  if (typeof o !== "object" || o === null) return undefined;
  const j = o as Json;
  const d = j.data;
  if (Array.isArray(d) && d[1] === "base64" && typeof d[0] === "string") return { data: new Uint8Array(Buffer.from(d[0], "base64")), holder: j };
  if (typeof d === "string" && /^[A-Za-z0-9+/=]+$/.test(d) && d.length > 40) return { data: new Uint8Array(Buffer.from(d, "base64")), holder: j };
  for (const v of Object.values(j)) {
    const r = findData(v);
    if (r) return r;
  }
  return undefined;
}

export function fixtureAccount(relativePath: string): FixtureAccount {
  const json = JSON.parse(readFileSync(fixturePath("accounts/" + relativePath), "utf8")) as Json;
  const found = findData(json);
  if (!found) throw new Error(`no account data in ${relativePath}`);
  const h = found.holder;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    address: str(json.address) ?? str(json.pubkey) ?? str(h.address) ?? str(h.pubkey),
    owner: str(h.owner) ?? str(json.owner),
    lamports: typeof h.lamports === "number" ? BigInt(h.lamports) : undefined,
    data: found.data,
  };
}

export function fixtureTransaction(relativePath: string): Json {
  const json = JSON.parse(readFileSync(fixturePath("transactions/" + relativePath), "utf8")) as Json | Json[];
  return Array.isArray(json) ? json[0]! : json;
}
