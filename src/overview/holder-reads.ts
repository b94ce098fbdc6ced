/**
 * The I/O behind the holder figures (round trips 2 and 3 of an overview):
 *
 * - 2: the owners of the token accounts. Normally a getMultipleAccounts of the ≤20 largest accounts. When those are 20
 *   (there may be more) and a full scan is allowed, one getProgramAccounts over every token account of the mint
 *   instead, sliced to owner + amount — the only way to know holders 21.. when pools sit among the 20 largest.
 * - 3: the accounts of the owners that their address does not classify, to tell venue-owned pools from wallets.
 *
 * A full scan is cheap on a local chain but hundreds of megabytes for a popular mainnet mint (and refused by many
 * providers), so it runs only where the deployment says so (`HOLDERS_FULL_SCAN=true`); elsewhere `exact` reports whether
 * the 20 largest accounts sufficed.
 */
import type { Address } from "@solana/kit";
import { getBase64Encoder } from "@solana/kit";
import { z } from "zod/mini";

import { limits } from "../limits";
import { readAccounts, type AccountRpc, type RawAccount } from "../solana/account-reader";
import { UpstreamError } from "../solana/upstream";
import { TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE, TOKEN_ACCOUNT_SIZE } from "../solana/accounts/spl-token";
import { TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS } from "../solana/well-known";
import {
  aggregateByOwner,
  LARGEST_ACCOUNTS_LIMIT,
  readHoldingSlice,
  readTokenHolding,
  summarizeHolders,
  type HoldersSummary,
  type HoldingsScope,
  type TokenHolding,
} from "./holders";
import { classifyOwnerByAddress, classifyOwnerByProgram } from "./liquidity-owners";


// Upstream answers are input: validate their shape before any address in them is used.
const largestAccountsSchema = z.object({ value: z.array(z.object({ address: z.string(), amount: z.string() })) });
const scanSchema = z.array(z.object({ pubkey: z.string(), account: z.object({ data: z.tuple([z.string(), z.literal("base64")]) }) }));

const base64 = getBase64Encoder();

/** Parses a getTokenLargestAccounts result into token account addresses, largest first. */
export function parseLargestAccounts(result: unknown): Address[] {
  const parsed = largestAccountsSchema.safeParse(result);
  if (!parsed.success) throw new UpstreamError("bad-response", "getTokenLargestAccounts answer has an unexpected shape");
  return parsed.data.value.map((entry) => entry.address as Address);
}

export interface HolderReadOptions {
  mint: Address;
  tokenProgram: Address;
  supply: bigint;
  decimals: number;
  /** Whether a full getProgramAccounts scan may replace the largest-accounts read (see the module comment). */
  allowScan: boolean;
  requestId?: string;
  /** The scan's byte and time budgets (the token-safety census sets them; past them the upstream call fails with a defined error). */
  scanBudget?: { maxAnswerBytes: number; timeoutMs: number };
}

/** Round trips 2 and 3: holdings, then owner classification, then the summary. */
export async function readHoldersSummary(rpc: AccountRpc, largest: readonly Address[], options: HolderReadOptions): Promise<HoldersSummary> {
  const scan = options.allowScan && largest.length >= LARGEST_ACCOUNTS_LIMIT;
  const scope: HoldingsScope = scan || largest.length < LARGEST_ACCOUNTS_LIMIT ? "all" : "largest";
  const holdings = scan ? await scanHoldings(rpc, options) : await readLargestHoldings(rpc, largest, options);

  // Owners in rank order; only the first ones can affect the figures, so a scan's long tail is not classified.
  const ranked = aggregateByOwner(holdings).filter((o) => o.amount > 0n).map((o) => o.owner);
  const toRead = ranked.slice(0, limits.overviewMaxOwnersClassified).filter((owner) => !classifyOwnerByAddress(owner));
  const ownerAccounts = toRead.length > 0 ? (await readAccounts(rpc, toRead, { requestId: options.requestId })).accounts : new Map<Address, RawAccount | null>();

  return summarizeHolders({
    holdings,
    scope,
    classify: (owner) => {
      const byAddress = classifyOwnerByAddress(owner);
      if (byAddress) return byAddress;
      const account = ownerAccounts.get(owner);
      return account === undefined ? undefined : classifyOwnerByProgram(owner, account?.owner ?? null);
    },
    supply: options.supply,
    decimals: options.decimals,
  });
}

/** The token accounts among `largest` still of the mint, read back for their owners and amounts. */
export async function readLargestHoldings(rpc: AccountRpc, largest: readonly Address[], options: Pick<HolderReadOptions, "mint" | "requestId">): Promise<TokenHolding[]> {
  if (largest.length === 0) return [];
  const read = await readAccounts(rpc, largest, { requestId: options.requestId });
  return largest.flatMap((account) => readTokenHolding(account, read.accounts.get(account), options.mint) ?? []);
}

/** Every token account of the mint, sliced to owner + amount, in one getProgramAccounts (see the module comment for its cost). */
export async function scanHoldings(rpc: AccountRpc, options: Pick<HolderReadOptions, "mint" | "tokenProgram" | "requestId" | "scanBudget">): Promise<TokenHolding[]> {
  const filters: unknown[] = [{ memcmp: { offset: 0, bytes: options.mint } }];
  if (options.tokenProgram === TOKEN_PROGRAM_ADDRESS) filters.push({ dataSize: TOKEN_ACCOUNT_SIZE });
  else if (options.tokenProgram !== TOKEN_2022_PROGRAM_ADDRESS) throw new Error(`not a token program: ${options.tokenProgram}`);
  const { result } = await rpc.call<unknown>(
    "getProgramAccounts",
    [options.tokenProgram, { encoding: "base64", commitment: "confirmed", dataSlice: TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE, filters }],
    { idempotent: true, requestId: options.requestId, ...options.scanBudget },
  );
  const parsed = scanSchema.safeParse(result);
  if (!parsed.success) throw new UpstreamError("bad-response", "getProgramAccounts answer has an unexpected shape");
  return parsed.data.flatMap(({ pubkey, account }) => readHoldingSlice(pubkey as Address, base64.encode(account.data[0]) as Uint8Array) ?? []);
}
