/**
 * Wallet activity of one block: every SOL and token balance change of the watched addresses, read from the transactions'
 * metas (pre/postBalances by account key; pre/postTokenBalances by owner). Failed transactions count too: their fee
 * still moves the payer's lamports. Pure; the block is untrusted input and every field is checked where it is read.
 */
import type { JsonTokenBalance, JsonTransaction } from "../trades/json-transaction";
import type { WalletChange } from "./stream-events";

/** `mint` of a lamport change. */
export const SOL_MINT_WORD = "SOL";
const LAMPORT_DECIMALS = 9;

interface Where {
  slot: number;
  blockTime: number | null;
}

/** The changes of `wallets` in `transactions`, in transaction order; per transaction SOL first, then tokens as listed. */
export function walletChangesOfBlock(transactions: readonly JsonTransaction[], wallets: ReadonlySet<string>, at: Where): WalletChange[] {
  const out: WalletChange[] = [];
  if (wallets.size === 0) return out;
  for (const tx of transactions) {
    try {
      walletChangesOfTransaction(tx, wallets, at, out);
    } catch {
      // a malformed transaction: what it gave before the fault is kept, the block goes on
    }
  }
  return out;
}

function walletChangesOfTransaction(tx: JsonTransaction, wallets: ReadonlySet<string>, at: Where, out: WalletChange[]): void {
  if (typeof tx !== "object" || tx === null) return;
  const meta = tx.meta;
  const message = tx.transaction?.message;
  if (typeof meta !== "object" || meta === null || !message || !Array.isArray(message.accountKeys)) return;
  const signature = typeof tx.transaction.signatures?.[0] === "string" ? tx.transaction.signatures[0] : "";
  const loaded = meta.loadedAddresses;
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  const change = (wallet: string, mint: string, pre: bigint, post: bigint, decimals: number): WalletChange => ({
    wallet, mint, pre: pre.toString(), post: post.toString(), change: (post - pre).toString(), decimals, signature, slot: at.slot, blockTime: at.blockTime,
  });

  const pre = meta.preBalances;
  const post = meta.postBalances;
  if (Array.isArray(pre) && Array.isArray(post)) {
    keys.forEach((key, i) => {
      if (!wallets.has(key)) return;
      const before = pre[i];
      const after = post[i];
      if (!Number.isSafeInteger(before) || !Number.isSafeInteger(after) || before === after) return;
      out.push(change(key, SOL_MINT_WORD, BigInt(before!), BigInt(after!), LAMPORT_DECIMALS));
    });
  }

  // Token balances by (owner, mint), summed over the owner's accounts of that mint; an account opened in the transaction
  // has no pre entry, a closed one no post entry.
  const sums = new Map<string, { owner: string; mint: string; decimals: number; pre: bigint; post: bigint }>();
  const add = (balances: readonly JsonTokenBalance[] | null | undefined, side: "pre" | "post") => {
    if (!Array.isArray(balances)) return;
    for (const b of balances) {
      if (typeof b !== "object" || b === null || typeof b.owner !== "string" || !wallets.has(b.owner) || typeof b.mint !== "string") continue;
      const amount = b.uiTokenAmount?.amount;
      const decimals = b.uiTokenAmount?.decimals;
      if (typeof amount !== "string" || !/^\d{1,30}$/.test(amount) || !Number.isInteger(decimals)) continue;
      const key = `${b.owner}:${b.mint}`;
      const sum = sums.get(key) ?? { owner: b.owner, mint: b.mint, decimals, pre: 0n, post: 0n };
      sum[side] += BigInt(amount);
      sums.set(key, sum);
    }
  };
  add(meta.preTokenBalances, "pre");
  add(meta.postTokenBalances, "post");
  for (const s of sums.values()) if (s.pre !== s.post) out.push(change(s.owner, s.mint, s.pre, s.post, s.decimals));
}
