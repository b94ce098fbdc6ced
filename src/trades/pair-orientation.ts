/**
 * Which side of a pair is the base (the token traded) and which the quote (what it is paid in): USDC / USDT first, then
 * wSOL, otherwise the pool's own quote side. So SOL/USDC is base SOL, quote USDC, whatever order the pool stores.
 */
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";

const quoteRank = new Map<string, number>([
  [USDC_MINT, 2],
  [USDT_MINT, 2],
  [WSOL_MINT, 1],
]);

/** Which of the pool's own sides (0 = its base, 1 = its quote) is the base: 1 when its own base ranks higher as a quote. */
export function baseSideOf(ownBaseMint: string, ownQuoteMint: string): 0 | 1 {
  return (quoteRank.get(ownBaseMint) ?? 0) > (quoteRank.get(ownQuoteMint) ?? 0) ? 1 : 0;
}
