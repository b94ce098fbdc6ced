/**
 * The world derives every address with a synchronous port of kit's PDA algorithm. These tests pin it to kit itself and
 * to real mainnet addresses from the fixtures (test/fixtures) (pools, vaults, configs, authorities, metadata, oracle).
 */
import { address, getAddressDecoder, getProgramDerivedAddress, isOffCurveAddress } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { isOnCurve, isOnCurveByDecompression } from "../../../localnet/src/world/core/ed25519.js";
import { ata, findPda, keyBytes, pda, sha256, u16le } from "../../../localnet/src/world/core/keys.js";
import * as P from "../../../localnet/src/world/programs.js";
import { ammV4Address } from "../../../localnet/src/world/venues/raydium-amm-v4.js";
import { cpmmConfigAddress, cpmmPoolAddress } from "../../../localnet/src/world/venues/raydium-cpmm.js";
import { clmmConfigAddress, clmmPoolAddress } from "../../../localnet/src/world/venues/raydium-clmm.js";
import { bondingCurveAddress, metaplexMetadataAddress, pumpEventAuthority, pumpGlobal, pumpMintAuthority } from "../../../localnet/src/world/venues/pumpfun.js";
import { canonicalPumpSwapPool, pumpSwapGlobalConfig } from "../../../localnet/src/world/venues/pumpswap.js";
import { dammV2PoolAddress } from "../../../localnet/src/world/venues/meteora-damm-v2.js";
import { dbcPoolAddress } from "../../../localnet/src/world/venues/meteora-dbc.js";
import { dlmmPresetParameter2 } from "../../../localnet/src/world/venues/meteora-dlmm.js";
import { fixtureAccount, fixtureTransaction } from "./fixtures.js";

const decoder = getAddressDecoder();
const key = (b: Uint8Array, o: number) => decoder.decode(b.subarray(o, o + 32)) as string;
const u16 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getUint16(o, true);
const sorted = (a: string, b: string) => (Buffer.compare(keyBytes(a), keyBytes(b)) < 0 ? [a, b] : [b, a]);

describe("curve check and PDA derivation match kit", () => {
  it("classifies 3000 random points exactly like kit's isOffCurveAddress", () => {
    // Given random 32-byte strings; When both implementations classify them; Then they agree on every one
    for (let i = 0; i < 3000; i++) {
      const h = sha256(`point:${i}`);
      const offCurve = isOffCurveAddress(address(decoder.decode(h)));
      expect(isOnCurve(h)).toBe(!offCurve);
      expect(isOnCurveByDecompression(h)).toBe(!offCurve);
    }
  });

  it("derives the same PDA and bump as getProgramDerivedAddress for mixed seeds", async () => {
    for (let i = 0; i < 40; i++) {
      const seeds = [`seed-${i}`, sha256(`s${i}`), u16le(i * 37)];
      const program = decoder.decode(sha256(`program:${i % 5}`)) as string;
      const [k, bump] = await getProgramDerivedAddress({ programAddress: address(program), seeds });
      expect(findPda(seeds, program)).toEqual([k, bump]);
    }
  });
});

describe("mainnet addresses", () => {
  it("program singletons: pump Global / mint authority / event authority, PumpSwap GlobalConfig, authorities", () => {
    expect(pumpGlobal()).toBe("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf");
    expect(pumpMintAuthority()).toBe("TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM");
    expect(pumpEventAuthority()).toBe("Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1");
    expect(pumpSwapGlobalConfig()).toBe("ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw");
    expect(pda(["amm authority"], P.RAYDIUM_AMM_V4_PROGRAM)).toBe(P.RAYDIUM_AMM_V4_AUTHORITY);
    expect(pda(["vault_and_lp_mint_auth_seed"], P.RAYDIUM_CPMM_PROGRAM)).toBe(P.RAYDIUM_CPMM_AUTHORITY);
    expect(pda(["pool_authority"], P.METEORA_DAMM_V2_PROGRAM)).toBe(P.DAMM_V2_POOL_AUTHORITY);
    expect(pda(["pool_authority"], P.METEORA_DBC_PROGRAM)).toBe(P.DBC_POOL_AUTHORITY);
  });

  it("CPMM / CLMM configs use the index as u16 big-endian", () => {
    expect(cpmmConfigAddress(0)).toBe("D4FPEruKEHrG5TenZ2mpDGEfu1iUvTiqBxvpU8HLBvC2");
    expect(cpmmConfigAddress(1)).toBe("G95xxie3XbkCqtE39GgQ9Ggc7xBC8Uceve7HFDEFApkc");
    expect(clmmConfigAddress(3)).toBe("A1BBtTYJd4i3xU8D6Tc2FzU6ZN4oXZWXKZnCxwbHXr8x");
    expect(clmmConfigAddress(4)).toBe("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x");
  });

  it("Pyth SOL/USD push feed is PDA([shard 0, feed id]) of the push program; BONK metadata PDA", () => {
    expect(pda([u16le(0), Buffer.from(P.PYTH_SOL_USD_FEED_ID, "hex")], P.PYTH_PUSH_PROGRAM)).toBe(P.PYTH_SOL_USD);
    expect(metaplexMetadataAddress("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263")).toBe("FDZZbyY9XGpL3CNKUZxLk3wFTTQYL3TkDiDzqxrizcPN");
  });

  it("PumpSwap canonical pool of a graduated coin (fixture GUXAutvX) and its vault ATAs", () => {
    const f = fixtureAccount("pumpswap/pool_GUXAutvX.json");
    const base = key(f.data, 43);
    expect(key(f.data, 75)).toBe(P.WSOL_MINT);
    expect(canonicalPumpSwapPool(base)).toBe("GUXAutvXh2Cvv2avGkbY8CfcsN9v2Uiwr8VCCqpn9HiU");
    expect(ata("GUXAutvXh2Cvv2avGkbY8CfcsN9v2Uiwr8VCCqpn9HiU", P.WSOL_MINT, P.TOKEN_PROGRAM)).toBe(key(f.data, 171));
  });

  it("CPMM pool Q2sPHPdU and its vaults; CLMM pools AcPS8Srz and 3ucNos4N", () => {
    const cp = fixtureAccount("raydium-cpmm/pool_state_Q2sPHPdU.json");
    const pool = cpmmPoolAddress(key(cp.data, 8), key(cp.data, 168), key(cp.data, 200));
    expect(pool.startsWith("Q2sPHPdU")).toBe(true);
    expect(pda(["pool_vault", keyBytes(pool), keyBytes(key(cp.data, 168))], P.RAYDIUM_CPMM_PROGRAM)).toBe(key(cp.data, 72));
    for (const [file, want] of [
      ["raydium-clmm/pool_state_AcPS8Srz.json", "AcPS8SrzXDwPxk6LLz2tykwFEsSeD5LtctMLVeh2shq8"],
      ["raydium-clmm/pool_state_3ucNos4N_SOL_USDC.json", "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv"],
    ] as const) {
      const c = fixtureAccount(file);
      const p = clmmPoolAddress(key(c.data, 9), key(c.data, 73), key(c.data, 105));
      expect(p).toBe(want);
      expect(pda(["pool_vault", keyBytes(p), keyBytes(key(c.data, 73))], P.RAYDIUM_CLMM_PROGRAM)).toBe(key(c.data, 137));
    }
  });

  it("AMM v4 pool from its market with the amm_associated_seed form (8WQsKRXN)", () => {
    const f = fixtureAccount("raydium-amm-v4/amm_info_8WQsKRXN_ADSX_WSOL_screenerbot.json");
    expect(ammV4Address(key(f.data, 528))).toBe("8WQsKRXNjTdSpbDpwRAaZJfPxUEBvAEZ6eeQSt4bjACh");
  });

  it("DLMM v2 permissionless (EtAdVRLF) and PresetParameter2 (ESuD7dd6) pairs, reserves", () => {
    const v2 = fixtureAccount("meteora-dlmm/EtAdVRLF_pump_SOL/lb_pair.json");
    const [min, max] = sorted(key(v2.data, 88), key(v2.data, 120));
    const pair = pda([keyBytes(min!), keyBytes(max!), u16le(u16(v2.data, 80)), u16le(u16(v2.data, 8))], P.METEORA_DLMM_PROGRAM);
    expect(pair).toBe("EtAdVRLFH22rjWh3mcUasKFF27WtHhsaCvK27tPFFWig");
    expect(pda([keyBytes(pair), keyBytes(key(v2.data, 88))], P.METEORA_DLMM_PROGRAM)).toBe(key(v2.data, 152));
    const pre = fixtureAccount("meteora-dlmm/lb_pair_ESuD7dd6.json");
    expect(key(pre.data, 784)).toBe(dlmmPresetParameter2(21));
    const [a, b] = sorted(key(pre.data, 88), key(pre.data, 120));
    expect(pda([keyBytes(dlmmPresetParameter2(21)), keyBytes(a!), keyBytes(b!)], P.METEORA_DLMM_PROGRAM)).toBe("ESuD7dd6zKM4JwNBTPiSbodt5pFQT4U2nLG72NAxccXL");
  });

  it("DAMM v2 pool 6CXXieC3 over a DBC migration config (max mint first); token vaults", () => {
    const f = fixtureAccount("meteora-damm-v2/pool_6CXXieC3.json");
    const configs = [
      "7F6dnUcRuyM2TwR8myT1dYypFXpPSxqwKNSFNkxyNESd", "2nHK1kju6XjphBLbNxpM5XRGFj7p9U8vvNzyZiha1z6k", "Hv8Lmzmnju6m7kcokVKvwqz7QPmdX9XfKjJsXz8RXcjp",
      "2c4cYd4reUYVRAB9kUUkrq55VPyy2FNQ3FDL4o12JXmq", "AkmQWebAwFvWk55wBoCr5D62C6VVDTzi84NJuD9H7cFD", "DbCRBj8McvPYHJG1ukj8RE15h2dCNUdTAESG49XpQ44u",
      "A8gMrEPJkacWkcb3DGwtJwTe16HktSEfvwtuDh2MCtck",
    ];
    const derived = configs.map((c) => dammV2PoolAddress(c, key(f.data, 168), key(f.data, 200)));
    expect(derived).toContain("6CXXieC355gteamwofSzJn8DiyrbKyYyXc3eBKmB81CF");
    const pool = "6CXXieC355gteamwofSzJn8DiyrbKyYyXc3eBKmB81CF";
    expect(pda(["token_vault", keyBytes(key(f.data, 168)), keyBytes(pool)], P.METEORA_DAMM_V2_PROGRAM)).toBe(key(f.data, 232));
  });

  it("DBC pool CQLuGpgx from its config and mints (transaction 23BXcBmn)", () => {
    const tx = fixtureTransaction("meteora-dbc/vixen_23BXcBmn_rpcjson.json") as { transaction: { message: { accountKeys: string[] } } };
    const keys = tx.transaction.message.accountKeys;
    // accounts of the swap: pool authority 12, config 13, pool 2, base mint 14, quote (wSOL) 8
    expect(dbcPoolAddress(keys[13]!, keys[14]!, keys[8]!)).toBe(keys[2]);
    expect(pda(["token_vault", keyBytes(keys[14]!), keyBytes(keys[2]!)], P.METEORA_DBC_PROGRAM)).toBe(keys[4]);
  });

  it("pump bonding curve PDA and its ATA, Token-2022 ATAs use the Token-2022 program as a seed", async () => {
    const tx = fixtureTransaction("pumpfun/txparser_pumpfun_create_0.json") as { transaction: { message: { accountKeys: string[] } } };
    const k = tx.transaction.message.accountKeys;
    expect(bondingCurveAddress(k[1]!)).toBe(k[3]);
    expect(ata(k[3]!, k[1]!, P.TOKEN_PROGRAM)).toBe(k[4]);
    const owner = decoder.decode(sha256("owner")) as string;
    const mint = decoder.decode(sha256("mint")) as string;
    const [viaKit] = await getProgramDerivedAddress({
      programAddress: address(P.ATA_PROGRAM),
      seeds: [keyBytes(owner), keyBytes(P.TOKEN_2022_PROGRAM), keyBytes(mint)],
    });
    expect(ata(owner, mint, P.TOKEN_2022_PROGRAM)).toBe(viaKit);
  });
});
