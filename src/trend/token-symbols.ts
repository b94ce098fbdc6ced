/**
 * Symbols of traded mints for trend entries: read once per mint (mint + Metaplex metadata account, the overview's own
 * decoding: Token-2022 metadata first) and kept in D1 `token_symbols`. A mint without metadata gets "".
 */
import type { Address } from "@solana/kit";
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { findMetaplexMetadataAddress } from "../solana/accounts/metaplex-metadata";
import { buildOnchainIdentity, decodeOverviewMint } from "../overview/token-profile";
import { limits } from "../limits";

/** Symbols of `mints`: from D1, and for the ones not known yet from the chain (stored for next time). */
export async function symbolsOf(db: D1Database, rpc: AccountRpc, mints: readonly string[]): Promise<Map<string, string>> {
  const symbols = new Map<string, string>();
  if (mints.length === 0) return symbols;
  const { results } = await db
    .prepare("SELECT mint, symbol FROM token_symbols WHERE mint IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(mints))
    .all<{ mint: string; symbol: string }>();
  for (const r of results) symbols.set(r.mint, r.symbol);
  const unknown = mints.filter((m) => !symbols.has(m)).slice(0, limits.tradeIngest.symbolReadsPerRun) as Address[];
  if (unknown.length === 0) return symbols;
  const metadata = await Promise.all(unknown.map((m) => findMetaplexMetadataAddress(m)));
  const { accounts } = await readAccounts(rpc, [...unknown, ...metadata]);
  const rows: [string, string, number | null][] = [];
  unknown.forEach((mint, i) => {
    let symbol = "";
    let decimals: number | null = null;
    try {
      const identity = buildOnchainIdentity(mint, decodeOverviewMint(mint, accounts.get(mint)), accounts.get(metadata[i]!));
      symbol = identity.symbol;
      decimals = identity.decimals;
    } catch {
      // not a mint we can read: no symbol (the entry still ranks by its volume)
    }
    symbols.set(mint, symbol);
    rows.push([mint, symbol, decimals]);
  });
  await db
    .prepare(
      `INSERT INTO token_symbols (mint, symbol, decimals) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
       FROM json_each(?1) WHERE true ON CONFLICT(mint) DO UPDATE SET symbol = excluded.symbol, decimals = excluded.decimals`,
    )
    .bind(JSON.stringify(rows))
    .run();
  return symbols;
}
