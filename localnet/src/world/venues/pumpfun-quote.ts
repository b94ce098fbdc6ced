/**
 * pump.fun coins quoted in another token (`quote_mint` @83 of the BondingCurve; VENUES.md §2, pump-fun/pump-public-docs
 * `BUY.md` and idl/pump.json at 1b822158): the same constant product on virtual reserves, the quote in the curve's ATA of
 * the quote mint, fees (the fee config's schedule for the quote: USDC's market-cap tiers, another token's flat rate;
 * pump-fees.ts) paid in the quote to the fee recipient's and the creator vault's ATAs. Trades use buy_exact_quote_in_v2 and sell_v2 with their account positions (base_mint 1,
 * quote_mint 2, bonding_curve 10, associated base/quote 11/12, user 13, user base/quote 14/15); TradeEvent carries
 * quote_mint, quote_amount and the virtual/real quote reserves after ix_name. The kind stays "pumpfun" (one venue: the
 * descriptor of pumpfun.ts reads the quote side from `quoteMint`).
 */
import type { Pubkey } from "../../chain/types.js";
import { hex } from "../core/bytes.js";
import { ata } from "../core/keys.js";
import { ceilDiv } from "../core/math.js";
import type { Draft, WorldContext } from "../context.js";
import { ATA_PROGRAM, PUMP_FEE_PROGRAM, PUMP_PROGRAM, SYSTEM_PROGRAM } from "../programs.js";
import { r, w, ws, type Ix } from "../tx/builder.js";
import { borsh, eventCpi, tokenTransferChecked } from "../tx/common.js";
import { anchorFailure } from "../tx/errors.js";
import { pumpFeeConfig } from "./pump-fees.js";
import { PUMP_FEE_RECIPIENTS, creatorVault, curveFees, pumpEventAuthority, pumpGlobal, type PumpCurve } from "./pumpfun.js";
import type { PoolRef, PoolVenue, Side, SwapResult } from "./types.js";

const BUY_EXACT_QUOTE_IN_V2 = hex("c2ab1c46684d5b2f");
const SELL_V2 = hex("5df6823ce7e940b2");
const TRADE_EVENT = hex("bddb7fd34ee661ee");

/** A quote curve is its own pool ref: the manifest's "pumpfun" pool with a quote mint other than SOL. */
export type PumpQuoteCurve = PumpCurve & PoolRef & { quoteMint: Pubkey; quoteAta: Pubkey };

export class PumpQuoteCurveVenue implements PoolVenue<PumpQuoteCurve> {
  constructor(
    private readonly ctx: WorldContext,
    /** pumpfun.ts's curve writer (one encoder for every curve) */
    private readonly writeCurve: (c: PumpCurve) => void,
  ) {}

  price(c: PumpQuoteCurve): number {
    return Number(c.vqr) / Number(c.vtr);
  }

  /** The fee recipients' and the creator vault's ATAs of the quote (the program pays fees into them). */
  feeAccounts(c: PumpQuoteCurve): { recipient: Pubkey; recipientAta: Pubkey; vault: Pubkey; vaultAta: Pubkey } {
    const program = this.ctx.book.mint(c.quoteMint).program;
    const recipient = PUMP_FEE_RECIPIENTS[this.ctx.clock.slot % PUMP_FEE_RECIPIENTS.length]!;
    const vault = creatorVault(c.creator);
    return { recipient, recipientAta: ata(recipient, c.quoteMint, program), vault, vaultAta: ata(vault, c.quoteMint, program) };
  }

  /** Creates the fee accounts of every recipient and the creator vault for the curve's quote (genesis). */
  openFeeAccounts(c: PumpQuoteCurve): void {
    const program = this.ctx.book.mint(c.quoteMint).program;
    for (const owner of [...PUMP_FEE_RECIPIENTS, creatorVault(c.creator)]) {
      if (!this.ctx.book.account(ata(owner, c.quoteMint, program))) this.ctx.createTokenAccount(owner, c.quoteMint, 0n);
    }
  }

  swap(d: Draft, c: PumpQuoteCurve, user: Pubkey, side: Side, amountIn: bigint, userBase: Pubkey, userQuote: Pubkey, fail: boolean): SwapResult | null {
    if (c.complete || amountIn <= 0n) return null;
    const { ctx } = this;
    const base = ctx.book.mint(c.mint);
    const quote = ctx.book.mint(c.quoteMint);
    const bps = curveFees(c);
    const totalBps = 10000n + bps.protocol + bps.creator;
    const buy = side === "buy";
    let tokens: bigint;
    let quoteNet: bigint; // into (buy) or out of (sell) the curve's real quote reserve
    if (buy) {
      const quoteIn = (amountIn * 10000n) / totalBps - 2n;
      if (quoteIn <= 0n) return null;
      tokens = (c.vtr * quoteIn) / (c.vqr + quoteIn);
      if (tokens >= c.rtr) return null; // the world never completes a quote curve (its migration is not modelled)
      quoteNet = (c.vqr * tokens) / (c.vtr - tokens) + 1n;
    } else {
      tokens = amountIn;
      quoteNet = (c.vqr * tokens) / (c.vtr + tokens);
      if (quoteNet > c.rqr) return null;
    }
    if (tokens <= 0n || quoteNet <= 0n) return null;
    const fee = ceilDiv(quoteNet * bps.protocol, 10000n);
    const creatorFee = ceilDiv(quoteNet * bps.creator, 10000n);
    const userQuoteAmount = buy ? quoteNet + fee + creatorFee : quoteNet - fee - creatorFee;
    if (userQuoteAmount <= 0n) return null;
    const f = this.feeAccounts(c);
    const after = buy
      ? { vtr: c.vtr - tokens, vqr: c.vqr + quoteNet, rtr: c.rtr - tokens, rqr: c.rqr + quoteNet }
      : { vtr: c.vtr + tokens, vqr: c.vqr - quoteNet, rtr: c.rtr + tokens, rqr: c.rqr - quoteNet };
    const event = borsh()
      .bytes(TRADE_EVENT)
      .pubkey(c.mint).u64(quoteNet).u64(tokens).bool(buy).pubkey(user).i64(BigInt(ctx.clock.blockTime))
      .u64(after.vqr).u64(after.vtr).u64(after.rqr).u64(after.rtr)
      .pubkey(f.recipient).u64(bps.protocol).u64(fee).pubkey(c.creator).u64(bps.creator).u64(creatorFee)
      .bool(false).u64(0n).u64(0n).u64(0n).i64(0n)
      .string(buy ? "buy_exact_quote_in_v2" : "sell_v2")
      .bool(false).u64(0n).u64(0n).u64(0n).u64(0n).u32(0)
      .pubkey(c.quoteMint).u64(quoteNet).u64(after.vqr).u64(after.rqr)
      .done();
    const limit = buy ? (fail ? tokens + tokens / 40n + 1n : (tokens * 95n) / 100n) : fail ? userQuoteAmount + userQuoteAmount / 40n + 1n : (userQuoteAmount * 95n) / 100n;
    const moves = buy
      ? [
          tokenTransferChecked(quote.program, userQuote, quote.address, c.quoteAta, user, quoteNet, quote.decimals),
          tokenTransferChecked(quote.program, userQuote, quote.address, f.recipientAta, user, fee, quote.decimals),
          tokenTransferChecked(quote.program, userQuote, quote.address, f.vaultAta, user, creatorFee, quote.decimals),
          tokenTransferChecked(base.program, c.ata, base.address, userBase, c.address, tokens, base.decimals),
        ]
      : [
          tokenTransferChecked(base.program, userBase, base.address, c.ata, user, tokens, base.decimals),
          tokenTransferChecked(quote.program, c.quoteAta, quote.address, userQuote, c.address, userQuoteAmount, quote.decimals),
          tokenTransferChecked(quote.program, c.quoteAta, quote.address, f.recipientAta, c.address, fee, quote.decimals),
          tokenTransferChecked(quote.program, c.quoteAta, quote.address, f.vaultAta, c.address, creatorFee, quote.decimals),
        ];
    const ix: Ix = {
      program: PUMP_PROGRAM,
      accounts: [
        r(pumpGlobal()), r(c.mint), r(c.quoteMint), r(base.program), r(quote.program), r(f.recipient), w(f.recipientAta), w(f.vault), w(f.vaultAta), r(pumpFeeConfig()),
        w(c.address), w(c.ata), w(c.quoteAta), ws(user), w(userBase), w(userQuote),
        r(SYSTEM_PROGRAM), r(ATA_PROGRAM), r(pumpEventAuthority()), r(PUMP_PROGRAM), r(PUMP_FEE_PROGRAM),
      ],
      data: borsh().bytes(buy ? BUY_EXACT_QUOTE_IN_V2 : SELL_V2).u64(buy ? amountIn : tokens).u64(limit).done(),
      steps: [{ log: buy ? "Instruction: BuyExactQuoteInV2" : "Instruction: SellV2" }, ...moves.map((cpi) => ({ cpi })), { data: event }, { cpi: eventCpi(PUMP_PROGRAM, pumpEventAuthority(), event) }],
      cu: 62000,
    };
    const index = d.add(ix, () => {
      const t = (from: Pubkey, to: Pubkey, amount: bigint) => ctx.book.transfer(ctx.tokenAccount(from), ctx.tokenAccount(to), amount);
      if (buy) {
        t(userQuote, c.quoteAta, quoteNet);
        t(userQuote, f.recipientAta, fee);
        t(userQuote, f.vaultAta, creatorFee);
        t(c.ata, userBase, tokens);
      } else {
        t(userBase, c.ata, tokens);
        t(c.quoteAta, userQuote, userQuoteAmount);
        t(c.quoteAta, f.recipientAta, fee);
        t(c.quoteAta, f.vaultAta, creatorFee);
      }
      Object.assign(c, after);
      this.writeCurve(c);
    });
    if (fail) d.fail = anchorFailure(index, "programs/pump/src/lib.rs", buy ? 531 : 612, buy ? 6002 : 6003, buy ? "TooMuchSolRequired" : "TooLittleSolReceived", buy ? "slippage: Too much SOL required to buy the given amount of tokens." : "slippage: Too little SOL received to sell the given amount of tokens.");
    return buy ? { base: tokens, quote: userQuoteAmount } : { base: tokens, quote: userQuoteAmount };
  }
}
