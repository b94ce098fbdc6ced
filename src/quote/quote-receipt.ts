/**
 * The receipt of a quote (`receipt=true`): per pool quoted, every account its quote was computed from — what pricing
 * reads for the pool and what the swap walk read besides (fee configs, tick and bin arrays), found by running the pool's
 * quoter again over a recording lookup — with the formula and program version, and the SOL/USD source. Built only when
 * asked; see pricing/price-receipt.ts for the account entries.
 */
import type { Address } from "@solana/kit";
import { z } from "zod/mini";
import { buildPoolReceipt, buildSolUsdReceipt, capturePoolRead, poolReceiptSchema, solUsdReceiptSchema, type SolUsdSource } from "../pricing/price-receipt";
import { limits } from "../limits";
import type { Lookup } from "./pool-quoter";
import { quoterByKind } from "./quoters";
import type { QuoteAnswer } from "./quote-service";

export const quoteReceiptSchema = z.object({
  /** the quote's slot: the lowest context slot of its reads */
  slot: z.number(),
  /** one per quote, in the order of `quotes`: `swap` says what the walk read */
  pools: z.array(z.extend(poolReceiptSchema, { swap: z.string() })),
  solUsd: solUsdReceiptSchema,
});
export type QuoteReceipt = z.infer<typeof quoteReceiptSchema>;

export async function buildQuoteReceipt(answer: QuoteAnswer): Promise<QuoteReceipt> {
  const { read } = answer;
  const pools = await Promise.all(
    answer.quotes.map(async (q) => {
      const priced = read.priced.find((p) => p.pool === q.pool)!;
      const poolRead = capturePoolRead(priced, answer.mint, read.mintInfo, read.lookup, read.slotOf);
      // The swap again, over a lookup that notes what it reads: the pool gets the user's input less its transfer fee.
      const walked: { role: string; address: Address }[] = [];
      const recording: Lookup = (a) => {
        walked.push({ role: "swap", address: a });
        return read.lookup(a);
      };
      const context = read.contextOf(priced);
      const quoter = quoterByKind[q.kind].build(q.pool, read.lookup(q.pool)!, { ...context, lookup: recording });
      const feeIn = q.fees.find((f) => f.kind === "transfer" && f.mint === q.amountIn.mint)?.amount ?? 0n;
      const again = quoter.exactIn(q.amountIn.mint, q.amountIn.raw - feeIn);
      const note = again.ok ? again.swap.note : undefined;
      // the roles the quoter gives the accounts it read besides pricing's (fee configs) name them in the receipt
      const roleOf = new Map(Object.entries(quoter.roles ?? {}).map(([role, address]) => [address, role]));
      const more = [{ role: "mint", address: answer.mint }, ...walked.map((w) => ({ role: roleOf.get(w.address) ?? w.role, address: w.address }))];
      return { ...(await buildPoolReceipt(poolRead, more, read.lookup, read.slotOf)), swap: note ? `${q.reach}; ${note}` : q.reach };
    }),
  );
  const source: SolUsdSource =
    read.solUsd.source === "pyth"
      ? { source: "pyth", price: read.solUsd.price, publishTime: read.solUsd.publishTime!, maxAgeSeconds: limits.maxOracleAgeSeconds }
      : { source: "pool", price: read.solUsd.price, read: read.solUsd.read! };
  return { slot: answer.slot, pools, solUsd: await buildSolUsdReceipt(source, read.lookup, read.slotOf) };
}
