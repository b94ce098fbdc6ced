/**
 * The world's encoders against real mainnet bytes: decode a fixture with the offsets of VENUES.md, re-encode it with the
 * world's encoder, and get the fixture back byte for byte (where the world writes the whole layout); for the large pool
 * layouts, the world's accounts have the fixture's owner, size and discriminator, and decode at the same offsets to the
 * world's own state.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { AccountState } from "../../../localnet/src/chain/types.js";
import { TokenWorld } from "../../../localnet/src/world/index.js";
import * as P from "../../../localnet/src/world/programs.js";
import { encodePriceUpdateV2 } from "../../../localnet/src/world/pyth.js";
import { encodeMetaplexMetadata } from "../../../localnet/src/world/spl/metaplex.js";
import { encodeMint, encodeTokenAccount, type MintState } from "../../../localnet/src/world/spl/token.js";
import { decodeTokenAccount } from "../../../localnet/src/world/store.js";
import { binPriceX64 } from "../../../localnet/src/world/venues/meteora-dlmm.js";
import { encodeBondingCurve } from "../../../localnet/src/world/venues/pumpfun.js";
import { encodePumpSwapPool } from "../../../localnet/src/world/venues/pumpswap.js";
import { encodeClmmConfig } from "../../../localnet/src/world/venues/raydium-clmm.js";
import { encodeCpmmConfig } from "../../../localnet/src/world/venues/raydium-cpmm.js";
import { disc, key, u128, u64, view } from "./byte-readers.js";
import { FakeLedger } from "./fake-ledger.js";
import { fixtureAccount } from "./fixtures.js";

const optKey = (b: Uint8Array, o: number) => (view(b).getUint32(o, true) === 1 ? key(b, o + 4) : null);

function decodeMint(b: Uint8Array, program: string, address = "11111111111111111111111111111111"): MintState {
  const stale = view(b).getUint32(0, true) === 0 && b.subarray(4, 36).some((x) => x !== 0);
  return {
    address,
    program,
    decimals: b[44]!,
    supply: u64(b, 36),
    mintAuthority: optKey(b, 0),
    freezeAuthority: optKey(b, 46),
    ...(stale ? { revokedMintAuthority: key(b, 4) } : {}),
  };
}

describe("byte-exact re-encoding of mainnet accounts", () => {
  it("SPL mints, including a pump coin's revoked authority bytes (Given fixture bytes, When decoded and re-encoded, Then identical)", () => {
    for (const f of ["spl-token/mint_Df6yfrKC_pump.json", "spl-token/mint_FQuMNJ6U_solana_cli.json", "spl-token/mint_3SmPYPvZ_decimals10_vixen.json", "spl-token/mint_wSOL_native_solana_cli.json"]) {
      const a = fixtureAccount(f);
      expect(Buffer.compare(encodeMint(decodeMint(a.data, a.owner!)), a.data), f).toBe(0);
    }
    // pump coins keep the mint-authority PDA's bytes behind a None tag
    expect(key(fixtureAccount("spl-token/mint_Df6yfrKC_pump.json").data, 4)).toBe("TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM");
  });

  it("SPL and Token-2022 token accounts (native wSOL, revoked delegate bytes, TransferFeeAmount extension)", () => {
    for (const f of [
      "spl-token/token_account_DNXgeM9E_wSOL_cpmm_create_pool_fee.json",
      "meteora-dlmm/B5Eia4cE_token2022_SOL/reserve_x_token2022_account.json",
      "meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json",
      "meteora-damm-v1/HcjZvfeS_pool_set/HZeLxbZ9uHtSpwZC3LBr4Nubd14iHwz7bRSghRZf5VCG.json",
    ]) {
      const a = fixtureAccount(f);
      const t = decodeTokenAccount(a.address ?? "11111111111111111111111111111111", a.owner!, a.data, a.lamports ?? 0n);
      expect(Buffer.compare(encodeTokenAccount(t), a.data), f).toBe(0);
    }
  });

  it("Token-2022 mint with TransferFeeConfig + MetadataPointer + TokenMetadata (B4rGSdcB, 535 B)", () => {
    const a = fixtureAccount("token-2022/mint_B4rGSdcB_with_extensions.json");
    const b = a.data;
    const v = view(b);
    const tf = (o: number) => ({ epoch: u64(b, o), maximumFee: u64(b, o + 8), basisPoints: v.getUint16(o + 16, true) });
    const t1 = 170; // TransferFeeConfig value (type 1 TLV header at 166)
    const t18 = 166 + 4 + 108; // MetadataPointer TLV header
    const t19 = t18 + 4 + 64; // TokenMetadata TLV header
    let o = t19 + 4 + 64;
    const str = () => {
      const n = v.getUint32(o, true);
      const s = Buffer.from(b.subarray(o + 4, o + 4 + n)).toString("utf8");
      o += 4 + n;
      return s;
    };
    const [name, symbol, uri] = [str(), str(), str()];
    const m: MintState = {
      ...decodeMint(b, a.owner!, a.address!),
      transferFee: { configAuthority: key(b, t1), withdrawAuthority: key(b, t1 + 32), withheld: u64(b, t1 + 64), older: tf(t1 + 72), newer: tf(t1 + 90) },
      metadataPointer: { authority: key(b, t18 + 4), address: key(b, t18 + 36) },
      tokenMetadata: { updateAuthority: key(b, t19 + 4), name, symbol, uri, additional: [] },
    };
    expect(name).toBe("TEST_TRF_FEE");
    expect(Buffer.compare(encodeMint(m), b)).toBe(0);
  });

  it("Pyth PriceUpdateV2 at 7UVimffx (Full verification, 134 B)", () => {
    const b = fixtureAccount("pyth/price_update_v2_SOL_USD_7UVimffx_push_feed_swig.json").data;
    const v = view(b);
    const o = 41;
    const enc = encodePriceUpdateV2({
      writeAuthority: key(b, 8), price: v.getBigInt64(o + 32, true), conf: u64(b, o + 40), exponent: v.getInt32(o + 48, true),
      publishTime: v.getBigInt64(o + 52, true), prevPublishTime: v.getBigInt64(o + 60, true), emaPrice: v.getBigInt64(o + 68, true),
      emaConf: u64(b, o + 76), postedSlot: u64(b, o + 84),
    });
    expect(Buffer.compare(enc, b)).toBe(0);
  });

  it("Metaplex MetadataV1 of BONK (NUL-padded strings, 679 B)", () => {
    const b = fixtureAccount("metaplex/metadata_FDZZbyY9_BONK_fungible.json").data;
    let o = 65;
    const str = () => {
      const n = view(b).getUint32(o, true);
      const s = Buffer.from(b.subarray(o + 4, o + 4 + n)).toString("utf8").replace(/\0+$/, "");
      o += 4 + n;
      return s;
    };
    const [name, symbol, uri] = [str(), str(), str()];
    const fee = view(b).getUint16(o, true);
    o += 2;
    expect(b[o]).toBe(0); // no creators
    const enc = encodeMetaplexMetadata({
      updateAuthority: key(b, 1), mint: key(b, 33), name, symbol, uri, sellerFeeBasisPoints: fee, creators: null,
      primarySaleHappened: b[o + 1] === 1, isMutable: b[o + 2] === 1, editionNonce: b[o + 3] ? b[o + 4]! : null, tokenStandard: b[o + 5] ? b[o + 6]! : null,
    });
    expect(name).toBe("Bonk");
    expect(Buffer.compare(enc, b)).toBe(0);
  });

  it("pump BondingCurve (150 B) and PumpSwap Pool (300 B)", () => {
    const c = fixtureAccount("pumpfun/bonding_curve_HWxwYxr4.json").data;
    const curve = encodeBondingCurve({
      mint: "", address: "", ata: "", tokenProgram: "", vtr: u64(c, 8), vqr: u64(c, 16), rtr: u64(c, 24), rqr: u64(c, 32), supply: u64(c, 40),
      complete: c[48] === 1, creator: key(c, 49), completedAtSlot: null, migratedPool: null,
    });
    expect(Buffer.compare(curve, c)).toBe(0);
    const p = fixtureAccount("pumpswap/pool_GUXAutvX.json").data;
    const pool = encodePumpSwapPool({
      address: "", bump: p[8]!, index: view(p).getUint16(9, true), creator: key(p, 11), baseMint: key(p, 43), quoteMint: key(p, 75), lpMint: key(p, 107),
      baseVault: key(p, 139), quoteVault: key(p, 171), lpSupply: u64(p, 203), coinCreator: key(p, 211),
      virtualQuoteReserves: BigInt.asIntN(128, u128(p, 245)),
    });
    expect(Buffer.compare(pool, p)).toBe(0);
    // A boost pool writes virtual_quote_reserves as an i128 LE @245, nothing else changes
    const boost = encodePumpSwapPool({
      address: "", bump: p[8]!, index: view(p).getUint16(9, true), creator: key(p, 11), baseMint: key(p, 43), quoteMint: key(p, 75), lpMint: key(p, 107),
      baseVault: key(p, 139), quoteVault: key(p, 171), lpSupply: u64(p, 203), coinCreator: key(p, 211), virtualQuoteReserves: (1n << 64n) + 7n,
    });
    expect([u64(boost, 245), u64(boost, 253)]).toEqual([7n, 1n]);
    expect(Buffer.compare(boost.subarray(0, 245), p.subarray(0, 245))).toBe(0);
    expect(boost.subarray(261).every((b) => b === 0)).toBe(true);
  });

  it("Raydium CPMM AmmConfig (D4FPEruK) and CLMM AmmConfigs (9iFER3bp, A1BBtTYJ)", () => {
    const b = fixtureAccount("raydium-cpmm/amm_config_D4FPEruK_solana_cli.json").data;
    const v = view(b);
    const cp = encodeCpmmConfig(
      { index: v.getUint16(10, true), address: "", bump: b[8]!, tradeFeeRate: u64(b, 12), protocolFeeRate: u64(b, 20), fundFeeRate: u64(b, 28), createPoolFee: u64(b, 36) },
      key(b, 44),
      key(b, 76),
    );
    expect(Buffer.compare(cp, b)).toBe(0);
    for (const f of ["raydium-clmm/amm_config_9iFER3bp.json", "raydium-clmm/amm_config_A1BBtTYJ_vixen.json"]) {
      const c = fixtureAccount(f).data;
      const w = view(c);
      const enc = encodeClmmConfig(
        { index: w.getUint16(9, true), address: "", bump: c[8]!, protocolFeeRate: BigInt(w.getUint32(43, true)), tradeFeeRate: BigInt(w.getUint32(47, true)), tickSpacing: w.getUint16(51, true), fundFeeRate: BigInt(w.getUint32(53, true)) },
        key(c, 11),
        key(c, 61),
      );
      expect(Buffer.compare(enc, c), f).toBe(0);
    }
  });

  it("DLMM bin prices: (1 + bin_step/10⁴)^id in Q64.64, as stored in the EtAdVRLF bin arrays", () => {
    const b = fixtureAccount("meteora-dlmm/EtAdVRLF_pump_SOL/bin_array_E6gur9Jw.json").data;
    const index = Number(view(b).getBigInt64(8, true));
    for (let i = 0; i < 70; i++) {
      const o = 56 + i * 144;
      const stored = u128(b, o + 16);
      if (stored === 0n) continue;
      const mine = binPriceX64(250, index * 70 + i);
      expect(Math.abs(Number(mine - stored)) / Number(stored)).toBeLessThan(1e-12);
    }
  });
});

describe("world accounts have mainnet headers and decode to the world's state", () => {
  let world: TokenWorld;
  let ledger: FakeLedger;
  beforeAll(() => {
    world = new TokenWorld({ seed: 3, metadataBaseUrl: "http://127.0.0.1:8899" });
    ledger = new FakeLedger();
    world.genesis(ledger.writer());
  });
  const acct = (k: string): AccountState => {
    const a = ledger.accounts.get(k);
    if (!a) throw new Error(`missing ${k}`);
    return a;
  };
  const firstPool = (kind: string) => world.manifest().tokens.flatMap((t) => t.pools.map((p) => ({ t, p }))).find((x) => x.p.kind === kind)!;

  it.each([
    ["pumpfun", "pumpfun/bonding_curve_HWxwYxr4.json"],
    ["pumpswap", "pumpswap/pool_GUXAutvX.json"],
    ["raydium-amm-v4", "raydium-amm-v4/amm_info_8WQsKRXN_ADSX_WSOL_screenerbot.json"],
    ["raydium-cpmm", "raydium-cpmm/pool_state_Q2sPHPdU.json"],
    ["raydium-clmm", "raydium-clmm/pool_state_AcPS8Srz.json"],
    ["meteora-dlmm", "meteora-dlmm/lb_pair_ESuD7dd6.json"],
    ["meteora-damm-v1", "meteora-damm-v1/HcjZvfeS_pool_set/HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur.json"],
    ["meteora-damm-v2", "meteora-damm-v2/pool_6CXXieC3.json"],
    ["meteora-dbc", "meteora-dbc/virtual_pool_fee_in_quote.json"],
  ])("%s pool: same owner, size and discriminator as %s", (kind, fixture) => {
    const f = fixtureAccount(fixture);
    const a = acct(firstPool(kind).p.address);
    expect(a.data.length).toBe(f.data.length);
    if (kind !== "raydium-amm-v4") expect(disc(a.data)).toBe(disc(f.data));
    if (f.owner) expect(a.owner).toBe(f.owner);
  });

  it("configs, vaults and globals match their fixtures' headers", () => {
    const m = world.manifest();
    const pairs: [string, string][] = [
      [m.wellKnown.cpmmConfig0!, "raydium-cpmm/amm_config_D4FPEruK_solana_cli.json"],
      [m.wellKnown.clmmConfig4!, "raydium-clmm/amm_config_9iFER3bp.json"],
      [m.wellKnown.dammV2Config0!, "meteora-damm-v2/config_TBuzuEMM.json"],
      [firstPool("meteora-damm-v1").p.related.aVault!, "meteora-damm-v1/HcjZvfeS_pool_set/FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT.json"],
      [(firstPool("meteora-dbc").p.related.config)!, "meteora-dbc/pool_config_fee_in_quote.json"],
      [P.PYTH_SOL_USD, "pyth/price_update_v2_SOL_USD_7UVimffx_push_feed_swig.json"],
    ];
    for (const [k, f] of pairs) {
      const fx = fixtureAccount(f);
      const a = acct(k);
      expect(a.data.length, f).toBe(fx.data.length);
      expect(disc(a.data), f).toBe(disc(fx.data));
    }
    // pump Global: same discriminator and fields where the fixture (older, 512 B) has them
    const g = acct(m.wellKnown.pumpGlobal!).data;
    const fg = fixtureAccount("pumpfun/global_4wTV1Ymi.json").data;
    expect(disc(g)).toBe(disc(fg));
    for (const o of [73, 81, 89, 97, 105]) expect(u64(g, o), `global @${o}`).toBe(u64(fg, o));
    expect(key(g, 41)).toBe(key(fg, 41));
  });

  it("pool accounts decode at VENUES.md offsets to the manifest's mints and vaults", () => {
    for (const t of world.manifest().tokens) {
      for (const p of t.pools) {
        const d = acct(p.address).data;
        const mints = new Set([p.baseMint, p.quoteMint]);
        const check = (a: number, b: number) => expect(new Set([key(d, a), key(d, b)])).toEqual(mints);
        const vaultOf = (k: string, mint: string) => expect(key(acct(k).data, 0)).toBe(mint);
        switch (p.kind) {
          case "pumpswap":
            check(43, 75);
            vaultOf(key(d, 139), key(d, 43));
            vaultOf(key(d, 171), key(d, 75));
            break;
          case "raydium-amm-v4":
            check(400, 432);
            vaultOf(key(d, 336), key(d, 400));
            vaultOf(key(d, 368), key(d, 432));
            expect(u64(d, 0)).toBe(6n);
            break;
          case "raydium-cpmm":
            check(168, 200);
            expect(Buffer.compare(Buffer.from(d.subarray(168, 200)), Buffer.from(d.subarray(200, 232)))).toBe(-1);
            vaultOf(key(d, 72), key(d, 168));
            vaultOf(key(d, 104), key(d, 200));
            break;
          case "raydium-clmm":
            check(73, 105);
            vaultOf(key(d, 137), key(d, 73));
            vaultOf(key(d, 169), key(d, 105));
            break;
          case "meteora-dlmm":
            check(88, 120);
            vaultOf(key(d, 152), key(d, 88));
            vaultOf(key(d, 184), key(d, 120));
            expect(d[82]).toBe(0);
            break;
          case "meteora-damm-v1":
            check(40, 72);
            // curve_type: constant product, but 1 (stable, with its amp @875) for the stable-curve token's pool
            expect(d[874]).toBe(t.tags.includes("stable-curve") ? 1 : 0);
            if (t.tags.includes("stable-curve")) expect(Buffer.from(d).readBigUInt64LE(875) > 0n).toBe(true);
            break;
          case "meteora-damm-v2":
            check(168, 200);
            vaultOf(key(d, 232), key(d, 168));
            vaultOf(key(d, 264), key(d, 200));
            expect(d[481]).toBe(0);
            break;
          case "meteora-dbc":
            expect(key(d, 136)).toBe(t.mint);
            vaultOf(key(d, 168), t.mint);
            break;
          case "pumpfun":
            expect(d.length).toBe(150);
            vaultOf(p.related.associatedBondingCurve!, t.mint);
            break;
        }
      }
    }
  });

  it("mints: pump coins 1e9 tokens at 6 dp without authorities; Metaplex metadata (679 B) for SPL mints, TokenMetadata for Token-2022 ones", () => {
    for (const t of world.manifest().tokens) {
      const m = acct(t.mint);
      expect(m.owner).toBe(t.tokenProgram);
      if (t.tags.includes("pump")) {
        expect(u64(m.data, 36)).toBe(1_000_000_000_000_000n);
        expect(m.data[44]).toBe(6);
        expect(view(m.data).getUint32(0, true)).toBe(0);
        expect(view(m.data).getUint32(46, true)).toBe(0);
      }
      if (t.tokenProgram === P.TOKEN_PROGRAM) {
        const md = acct(world.metadataAddress(t.mint));
        expect(md.owner).toBe(P.METAPLEX_PROGRAM);
        expect(md.data.length).toBe(679);
        expect(md.data[0]).toBe(4);
        expect(key(md.data, 33)).toBe(t.mint);
      } else {
        expect(m.data[165]).toBe(1);
        expect(Buffer.from(m.data).includes(Buffer.from(t.metadataUri!))).toBe(true);
      }
    }
  });
});
