import { describe, expect, it } from "vitest";
import { extractTrades } from "../../../src/trades/swap-extraction";
import { Buffer } from "node:buffer";
import { base58Bytes } from "../../../src/solana/base58";
import { at, balanceChange, loadTransaction, USDC, WSOL } from "./transaction-fixtures";

/**
 * Every full transaction fixture of the nine pool kinds. For each: the pool, its two reserve accounts (a pump.fun
 * curve's SOL side is the curve's own lamports; a DAMM v1 pool's reserves are its dynamic vaults' token accounts), the
 * ranked pair, and the amounts the fixture's source asserts (SOURCES.md) where it asserts any.
 */
interface Reserve {
  account: string;
  lamports?: boolean;
}
interface Case {
  file: string;
  kind: string;
  pool: string;
  base: Reserve;
  quote: Reserve;
  baseMint: string;
  quoteMint: string;
  side: "buy" | "sell";
  wallet: string;
  asserted?: { baseAmount: bigint; quoteAmount: bigint; source: string };
}

const cases: Case[] = [
  {
    file: "pumpfun/vixen_22K6ixTV_rpcjson.json",
    kind: "pump-bonding-curve",
    pool: "DzEuwnKqiZxfZgeo7MjpZ3FWfZzt5ERRzjkNpx856Ram",
    base: { account: "33GQvG84MH6n2P4kKcd3Me1E12tjgjouvCamVKy7GieG" },
    quote: { account: "DzEuwnKqiZxfZgeo7MjpZ3FWfZzt5ERRzjkNpx856Ram", lamports: true },
    baseMint: "4eLCXkNbDw2bvdrZZVn1cXurtL63H4z9ZfbYCY17pump",
    quoteMint: WSOL,
    side: "buy",
    wallet: "FwjYcbfktK8PC2bzCrqxR6QkUPxmHFbcFGNrz3YAV7ft",
  },
  {
    file: "pumpfun/txparser_pumpfun_buy_0.json",
    kind: "pump-bonding-curve",
    pool: "DizioTk7HKkYcVjiKuB6wdFXtGSisGX57mwG9PFwxXxm",
    base: { account: "CZhVNDfB2q8H9kMkgCZkZ4FmJ78PD6x7cNo4VpGNRWqM" },
    quote: { account: "DizioTk7HKkYcVjiKuB6wdFXtGSisGX57mwG9PFwxXxm", lamports: true },
    baseMint: "D66sbPtYqLnwPYcUqjDktrQtb52CnfF77C3sdpNpR8Si",
    quoteMint: WSOL,
    side: "buy",
    wallet: "EfbbhahGNuhqEraRZXrwETfsaKxScngEttdQixWAW4WE",
    asserted: { baseAmount: 56716561396327n, quoteAmount: 3000000000n, source: "tx-parser: token_amount, sol_in" },
  },
  {
    file: "pumpfun/txparser_pumpfun_buy_1.json",
    kind: "pump-bonding-curve",
    pool: "6g4dVVZFSX4zti3E66qWhaAC8FKR1kFzdTFsnijgV7jC",
    base: { account: "9wNVwU95UHYoghDPBofnPPyCiJ1fcaXvV74wQeZXxVMq" },
    quote: { account: "6g4dVVZFSX4zti3E66qWhaAC8FKR1kFzdTFsnijgV7jC", lamports: true },
    baseMint: "7nYhDYAxQdFn2DRPcjBFPQQz5qb8HeFiJv9o9w6fpump",
    quoteMint: WSOL,
    side: "buy",
    wallet: "4DdrfiDHpmx55i4SPssxVzS9ZaKLb8qr45NKY9Er9nNh",
    asserted: { baseAmount: 34612901212710n, quoteAmount: 1000000000n, source: "tx-parser: token_amount, sol_in" },
  },
  {
    file: "pumpfun/txparser_pumpfun_sell_0.json",
    kind: "pump-bonding-curve",
    pool: "6cSXbsWdUE86Nvwq8UZSQS8X8v4Rz3TP39V6gSb9Rg6f",
    base: { account: "DPRZquLKK921awahujH9AbzpfonDHC2xYJnz8WSAvw5Y" },
    quote: { account: "6cSXbsWdUE86Nvwq8UZSQS8X8v4Rz3TP39V6gSb9Rg6f", lamports: true },
    baseMint: "CnNVDyM7GXBBcH8giuRYm17YCn6kpFTTbnd6Tx4hpump",
    quoteMint: WSOL,
    side: "sell",
    wallet: "4DdrfiDHpmx55i4SPssxVzS9ZaKLb8qr45NKY9Er9nNh",
    asserted: { baseAmount: 592443959000000n, quoteAmount: 37437283903n, source: "tx-parser: token_in, sol_out" },
  },
  {
    file: "pumpswap/vixen_4pCgZ28W_rpcjson.json",
    kind: "pumpswap",
    pool: "89aDWhVE39VYX8XCYT9PSNh7A7txWmkKLXZiSBs9D7ur",
    base: { account: "CgmtSzqZ6PvS7iqBmkUNoboPBcijatdv1dbSup1Ug8Wj" },
    quote: { account: "ETJsii1RzXe8gDhjzQhiLGYpCh8D6WSkhtZggLmCAgM1" },
    baseMint: "MeU6gTPJkV8J5TwWfUArnmM4sD6X5SYmXotcJtYpump",
    quoteMint: WSOL,
    side: "buy",
    wallet: "2QVgwx93rJXm2po3kQpEaU4B23fsUiq58ygkFs3sWPjG",
  },
  {
    // a sell CPI'd by another program (6m2CDdhR…), at stack height 2
    file: "pumpswap/vixen_5gtu6ARV_rpcjson.json",
    kind: "pumpswap",
    pool: "34oYd3R5oM6ymwD4ofskhWtTs3U7hYsDapqVb2ueTrPi",
    base: { account: "3DyHuaSzdVgT5TT31oNjct4k63bvCLRt2yMHSxQwuBaQ" },
    quote: { account: "3254kNvX7iaCTArd4hmCphcoE7XvES6g3Vnqk2KivQcc" },
    baseMint: "CzdpPoGiyWHg62uSziwNswjN2STE4xXDGsVTKZ2BQKGk",
    quoteMint: WSOL,
    side: "sell",
    wallet: "9SnmfKrHuWPw9Xv88W5tYeFL51ukLyCN2hPuXBBQm4iv",
  },
  {
    // 18-account swap_base_in (with the deprecated target_orders)
    file: "raydium-amm-v4/vixen_54MFrVcf_rpcjson.json",
    kind: "raydium-amm-v4",
    pool: "E2LhpiJdbHx6Fbz2zGAcbbrbMPkn88TpMHP4g236oBZi",
    base: { account: "52wPGMAnLNQnrbvWVTd81TVdFYG9YzgUbPNSPcsBGWDV" },
    quote: { account: "3dFDpJ6hih3KP8hbADKdGG8H1mb4QySmVKypruvdv6To" },
    baseMint: "FTScF4TvRPRFKjgVEg9G96CqPrzumLDLmV1Kr7JQzQrg",
    quoteMint: WSOL,
    side: "buy",
    wallet: "e8ywkbPWkwFuKRc6nYtzyqmqXxfhspdrCgHFipqR3dk",
  },
  {
    file: "raydium-amm-v4/txparser_swap_0.json",
    kind: "raydium-amm-v4",
    pool: "9xNtkAhkGNG6fPazLe7ZFmmiJ5Mss37sBx9eoya33o4q",
    base: { account: "4veQuvzFqRiibczQWZj8ZX4QdVLsB4N882b5wBNFxTA8" },
    quote: { account: "2uBUq62d4HcDMTSg9ZuBySw4KGaMZi2mvaWatcXWkj4b" },
    baseMint: "2CrtdajpSb7DpMRLKP4yMtFLbCsWZjMkEvgSTf4Ypump",
    quoteMint: WSOL,
    side: "sell",
    wallet: "Do3UdALe5F7NRXB4uYcBzZtCbAt8ssu4a5kGZVucKhC5",
    asserted: { baseAmount: 836112233953n, quoteAmount: 352936256n, source: "tx-parser: from amount → WSOL out" },
  },
  {
    file: "raydium-amm-v4/txparser_swap_1.json",
    kind: "raydium-amm-v4",
    pool: "2mF8wbzawjPzDoCiGBqoinbaVxMJAwRm5wQ1dtgSLZdD",
    base: { account: "9Y1ecw9HgDLpq6pNbQ94eTgd6qDtiAdVzuX55MuKwS66" },
    quote: { account: "GjFUSKqBvA4GZxmjFfLSm496seqy6WUsemTCC2KPdXH4" },
    baseMint: "E8yBUD4AGdxK7MbQEf85oaAvVBuSoRsGCvX2sMxSpump",
    quoteMint: WSOL,
    side: "buy",
    wallet: "ECvj86nDupkVh1cDgxrJw3zJkw3ahcDiVB3pPTbpskjD",
    asserted: { baseAmount: 43045438075n, quoteAmount: 100000000n, source: "tx-parser: WSOL in → amount out" },
  },
  {
    // 17-account swap_base_in; the pool's coin side is wSOL, so the ranked base is its pc token
    file: "raydium-amm-v4/txparser_swap_2.json",
    kind: "raydium-amm-v4",
    pool: "FrSpBqMa6MbEt4EY9CvPdM6Ycuc5wRYCdNcDMxgSznLz",
    base: { account: "DB7bz74FypSXqwsAh8q2pEp4LjCbi9NpKdViCCof4aim" },
    quote: { account: "DfXYzvmP9JgF7JxMbipDcx9rSoB5fzodAaYEr1ScJ3bG" },
    baseMint: "AaJ6gmTzaQw9zxfK6BD9N89wzZLuSuwTRbi8YrTCpump",
    quoteMint: WSOL,
    side: "sell",
    wallet: "orcACRJYTFjTeo2pV8TfYRTpmqfoYgbVi9GeANXTCc8",
    asserted: { baseAmount: 22254340082n, quoteAmount: 2615124n, source: "tx-parser: amount in → WSOL out" },
  },
  {
    file: "raydium-cpmm/vixen_4RoVbE9H_rpcjson.json",
    kind: "raydium-cpmm",
    pool: "HnrJu2mqgHKUhSmZRnwVPTPUW1GwCxbhggGmuF11oW8G",
    base: { account: "DC1MaB957MXxMUdzBNfgZiMvQ6ag8PjQofVk9Z7Cadux" },
    quote: { account: "6y5spgQ8T66AAE1mRgTvCYdMWbvfpzmQ6KKmjkVrzqX9" },
    baseMint: "68GdL4q2fNAu7acwrHRjCQwtfvPxXQEFkBihzbKfbonk",
    quoteMint: WSOL,
    side: "sell",
    wallet: "BQYLDzRweToQfMTpUztSWZu4wwmdPATL3eJEyxToPzPD",
  },
  {
    file: "raydium-clmm/vixen_nexzRp8Z_rpcjson.json",
    kind: "raydium-clmm",
    pool: "94KAY4LgDHjFggk4hL1QQZ4fMdfvQDsbdRk35iq1HJ9T",
    base: { account: "DD1qeDCwiwrv3n8WYYyavAqTCq81KmJwpY4rMVaimcTf" },
    quote: { account: "DiiQtkXcxZt673nZXZ7hu5xNJBcSjEkhhAJjuYWqCgvS" },
    baseMint: "FURb99Ujvu1XcjYiLQgEfotrsAEb871rgLZvyL3fhfKp",
    quoteMint: WSOL,
    side: "buy",
    wallet: "7tCvgs2AP8qrqzR9TR8RRDgs4sCq84RPhKpLjtoCE7Up",
  },
  {
    // routed: an arbitrage program → Jupiter → another AMM (not ours) and this CLMM pool (stack height 3); SOL/USDC → base SOL
    file: "raydium-clmm/vixen_vRYNRDqs_rpcjson.json",
    kind: "raydium-clmm",
    pool: "CYbD9RaToYMtWKA7QZyoLahnHdWq553Vm62Lh6qWtuxq",
    base: { account: "GviiXg2Xc1xCpyNY36r7h1EAy7uvse5UMkiiyHjRDU6Z" },
    quote: { account: "3bWPj5eepJm8CxUzk5MMFMN2CFJkntxKvbmy4zwwtpJd" },
    baseMint: WSOL,
    quoteMint: USDC,
    side: "buy",
    wallet: "EATRppgyCqBBQmJpjetBjMnQPTZ2ojSazWh1ncnHbXVW",
  },
  {
    file: "meteora-dlmm/vixen_2DfsmTYv_rpcjson.json",
    kind: "meteora-dlmm",
    pool: "HTvjzsfX3yU6BUodCjZ5vZkUrAxMDTrBs3CJaq43ashR",
    base: { account: "H7j5NPopj3tQvDg4N8CxwtYciTn3e8AEV6wSVrxpyDUc" },
    quote: { account: "HbYjRzx7teCxqW3unpXBEcNHhfVZvW2vW9MQ99TkizWt" },
    baseMint: WSOL,
    quoteMint: USDC,
    side: "buy",
    wallet: "MfDuWeqSHEqTFVYZ7LoexgAK9dxk7cy4DFJWjWMGVWa",
  },
  {
    // reserves = the dynamic vaults' token accounts (a_token_vault, b_token_vault)
    file: "meteora-damm-v1/vixen_2mHGPXMz_rpcjson.json",
    kind: "meteora-damm-v1",
    pool: "3LxstoarWCh6iC2NbQG4eXwvrNuSpr8kH7YyFmFu5tKZ",
    base: { account: "GSwiRyE6UorMGrjfCNcVHdKM38QhNscWZsbmpGdSbMg6" },
    quote: { account: "HZeLxbZ9uHtSpwZC3LBr4Nubd14iHwz7bRSghRZf5VCG" },
    baseMint: "4eDf52YYzL6i6gbZ6FXqrLUPXbtP61f1gPSFM66M4XHe",
    quoteMint: WSOL,
    side: "buy",
    wallet: "GCvHhEUYQwTJ8jyf8Lc4bv8jBXyZU4LMMsZCobwEPzvM",
  },
  {
    file: "meteora-damm-v2/vixen_N2jtQtjj_rpcjson.json",
    kind: "meteora-damm-v2",
    pool: "CtNzfCHW6CPXD4d2C7K8PTJjUovK24UG8iJ1CEdGKH4J",
    base: { account: "C9pWgMxRjCE6kBwXUyZQvTDYQ4Hn57xc5JbFtHa5EtNR" },
    quote: { account: "5cS6nNz96WPvuHsMtdYtdsfCpsck7thPu11ngQwwnGBf" },
    baseMint: "DkYf3LhSyryKVKprEnQCDWZFfnBEPsDE6msaECXsJEYn",
    quoteMint: WSOL,
    side: "sell",
    wallet: "662xQjMAajev8gMfddRwp4sv5pBumgkSTyHvciFfvqXM",
  },
  {
    file: "meteora-dbc/vixen_23BXcBmn_rpcjson.json",
    kind: "meteora-dbc",
    pool: "CQLuGpgxg5qmuw5BnHCG8zHquKn3jxXuVrgSLYGBk48t",
    base: { account: "2sZBuSZmjLWaoGmZnWdzHNj4TVtnNdz8tqMn2S6DRuXK" },
    quote: { account: "64RzfvpAwRKTsMwzUCPumjqQDDQW5QbqM5JrqdSNUGRP" },
    baseMint: "EeXMYKCMjVLU1PrjAi4o2fMpC37h9RpuU3y7k4WHBQN9",
    quoteMint: WSOL,
    side: "sell",
    wallet: "H2GjtXqmbhRCedTidoMPbzuvVjgSeWt1KYMrKcaCC2R7",
    asserted: { baseAmount: 47192506267n, quoteAmount: 553679124n, source: "collector-decoded EvtSwap amount_in, output_amount" },
  },
];

const abs = (v: bigint) => (v < 0n ? -v : v);

describe("extractTrades on real swap transactions of the nine pool kinds", () => {
  for (const c of cases) {
    it(`${c.kind} ${c.file}: one swap whose amounts are the pool reserves' balance changes in the meta`, () => {
      // Given a real mainnet swap transaction
      const tx = loadTransaction(c.file);
      // When its trades are extracted
      const { swaps, events } = extractTrades(tx, at);
      // Then it is one swap against the pool, amounts = what the reserves gained/lost (computed here from the meta)
      expect(events).toEqual([]);
      expect(swaps).toHaveLength(1);
      const swap = swaps[0]!;
      const baseChange = balanceChange(tx, c.base.account, c.base.lamports);
      const quoteChange = balanceChange(tx, c.quote.account, c.quote.lamports);
      expect(baseChange < 0n).toBe(c.side === "buy");
      expect(quoteChange > 0n).toBe(c.side === "buy");
      expect(swap).toMatchObject({
        ...at,
        ordinal: 0,
        signature: tx.transaction.signatures[0],
        pool: c.pool,
        kind: c.kind,
        baseMint: c.baseMint,
        quoteMint: c.quoteMint,
        side: c.side,
        baseAmount: abs(baseChange),
        quoteAmount: abs(quoteChange),
        wallet: c.wallet,
      });
      // and the decimals are those the token balances state (lamports: 9)
      const decimals = (mint: string) =>
        mint === WSOL ? 9 : [...(tx.meta!.postTokenBalances ?? [])].find((b) => b.mint === mint)!.uiTokenAmount.decimals;
      expect([swap.baseDecimals, swap.quoteDecimals]).toEqual([decimals(c.baseMint), decimals(c.quoteMint)]);
    });
    if (c.asserted) {
      const asserted = c.asserted;
      it(`${c.kind} ${c.file}: amounts equal those its source asserts (${asserted.source})`, () => {
        const { swaps } = extractTrades(loadTransaction(c.file), at);
        expect({ base: swaps[0]?.baseAmount, quote: swaps[0]?.quoteAmount }).toEqual({ base: asserted.baseAmount, quote: asserted.quoteAmount });
      });
    }
  }

  it("pump.fun create + buy in one transaction: a create event for the curve and one buy net of the minted supply and the curve's rent", () => {
    // Given tx-parser's create fixture (asserts mint 5dNYcC…, bonding_curve CQrqvW…), which also buys with the creator
    const tx = loadTransaction("pumpfun/txparser_pumpfun_create_0.json");
    // When extracted
    const { swaps, events } = extractTrades(tx, at);
    // Then the curve is created ...
    expect(events).toEqual([
      {
        slot: at.slot,
        txIndex: at.txIndex,
        ordinal: 0,
        signature: tx.transaction.signatures[0],
        type: "create",
        pool: "CQrqvWERJtEjw2rCCQV6EqfM6V6jzTuKjhJjKNFmGB7r",
        kind: "pump-bonding-curve",
        baseMint: "5dNYcCZXEGfGgbdUdq7MMR7KLsNJLLLgL83wLH8Fpump",
        quoteMint: WSOL,
        related: { global: "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf" },
      },
    ]);
    // ... and the buy gives the buyer what their token account gained, for the 1 SOL its TradeEvent reports (the curve's
    // lamports also gained the rent the create paid, and its token account the supply the create minted: not trades)
    const buyerTokens = balanceChange(tx, "CBcxvAtecE3kqrr5x6jFbZTfV5DXpUimwkgmLF4ZiSFb");
    expect(swaps).toHaveLength(1);
    expect(swaps[0]).toMatchObject({ kind: "pump-bonding-curve", side: "buy", baseAmount: buyerTokens, quoteAmount: 1_000_000_000n });
    expect(balanceChange(tx, "CQrqvWERJtEjw2rCCQV6EqfM6V6jzTuKjhJjKNFmGB7r", true)).toBeGreaterThan(1_000_000_000n);
    // the creator (fee payer) traded; the mint keypair also signed
    expect(swaps[0]!.wallet).toBe("6xo262KbDXepWbF3vPTrFXysr5vJwk3mozBXmXk3hmMx");
  });

  const notOurs = [
    "generic/carbon_core_simple_tx.json",
    "generic/carbon_core_cpi_tx.json",
    "generic/carbon_core_nested_cpi_tx.json",
  ];
  /** The token accounts `owner` holds in the transaction (its meta's token balances name their owners), by mint. */
  const accountsOwnedBy = (tx: ReturnType<typeof loadTransaction>, owner: string): Map<string, string> => {
    const keys = [...tx.transaction.message.accountKeys, ...(tx.meta!.loadedAddresses?.writable ?? []), ...(tx.meta!.loadedAddresses?.readonly ?? [])];
    const out = new Map<string, string>();
    for (const b of [...(tx.meta!.preTokenBalances ?? []), ...(tx.meta!.postTokenBalances ?? [])]) if (b.owner === owner) out.set(b.mint, keys[b.accountIndex]!);
    return out;
  };

  it("orca-whirlpool/vixen_N5qR3Dcv: a Whirlpool swap — the pool's vaults' changes, the signer's wallet, the pool registered with its vaults", () => {
    const tx = loadTransaction("orca-whirlpool/vixen_N5qR3Dcv_rpcjson.json");
    const POOL = "4NRNNzycXvMUaZ9GibE7jzZC18hL2QEfQQSA81m3bfvr";
    const TOKEN = "AgMqsVtcjZ2sYuDvoaijyzENN3NMqGYnhqhb224pCCNu";
    // a Whirlpool's vaults are token accounts the pool itself owns
    const vaults = accountsOwnedBy(tx, POOL);
    const tokenVault = vaults.get(TOKEN)!;
    const usdcVault = vaults.get(USDC)!;
    expect(balanceChange(tx, tokenVault)).toBeLessThan(0n); // the token left the pool: a buy paid in USDC
    const { swaps, events, pools } = extractTrades(tx, at);
    expect(swaps).toEqual([
      expect.objectContaining({
        kind: "orca-whirlpool",
        pool: POOL,
        baseMint: TOKEN,
        quoteMint: USDC,
        side: "buy",
        baseAmount: -balanceChange(tx, tokenVault),
        quoteAmount: balanceChange(tx, usdcVault),
        wallet: tx.transaction.message.accountKeys[0],
      }),
    ]);
    expect(events).toEqual([]);
    // mint A sorts first by bytes: its vault is vaultA
    const [vaultA, vaultB] = Buffer.compare(Buffer.from(base58Bytes(TOKEN)!), Buffer.from(base58Bytes(USDC)!)) < 0 ? [tokenVault, usdcVault] : [usdcVault, tokenVault];
    expect(pools).toEqual([{ address: POOL, kind: "orca-whirlpool", baseMint: TOKEN, quoteMint: USDC, related: { vaultA, vaultB } }]);
  });

  it("raydium-launchlab/vixen_5LzhiGZB: a LaunchLab pool created and bought in one transaction — the buy's vault changes, the creator's wallet, the new pair", () => {
    const tx = loadTransaction("raydium-launchlab/vixen_5LzhiGZB_rpcjson.json");
    const POOL = "C9HhQft4MTfnboDfpqS5Vy1zdkxPzL9qscWarUMtA999";
    const TOKEN = "54y4DV6shhwvojpRCCqwvgRTPd45UGrCEghpsa9pBj7F";
    const GLOBAL_CONFIG = "6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX";
    // LaunchLab's vaults are owned by the program's vault authority (WLHv2…)
    const vaults = accountsOwnedBy(tx, "WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh");
    const { swaps, events, pools } = extractTrades(tx, at);
    // the create minted the sale supply into the base vault: the buy is what left it after, which the buyer's
    // token account received (it did not exist before the transaction)
    const buyer = [...tx.meta!.postTokenBalances!].find((b) => b.mint === TOKEN && b.owner === tx.transaction.message.accountKeys[0])!;
    expect(swaps).toEqual([
      expect.objectContaining({
        kind: "raydium-launchlab",
        pool: POOL,
        baseMint: TOKEN,
        quoteMint: WSOL,
        side: "buy",
        baseAmount: BigInt(buyer.uiTokenAmount.amount),
        quoteAmount: balanceChange(tx, vaults.get(WSOL)!),
        baseDecimals: 6,
        quoteDecimals: 9,
        // two signers (the creator and the mint keypair): the swap names the creator as its payer
        wallet: "7hnTzCVKCa3ToiKC8wgFHzc2s5jRBVDwwg5DpffUKjUu",
      }),
    ]);
    expect(events).toEqual([expect.objectContaining({ type: "create", kind: "raydium-launchlab", pool: POOL, baseMint: TOKEN, quoteMint: WSOL, related: { globalConfig: GLOBAL_CONFIG } })]);
    expect(pools).toEqual([{ address: POOL, kind: "raydium-launchlab", baseMint: TOKEN, quoteMint: WSOL, related: { globalConfig: GLOBAL_CONFIG } }]);
  });

  for (const file of notOurs) {
    it(`${file} (not one of the nine kinds): no swap, no event`, () => {
      expect(extractTrades(loadTransaction(file), at)).toEqual({ swaps: [], events: [], pools: [] });
    });
  }
});
