import { getU16Encoder, getU32Encoder, getUtf8Encoder } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { AccountDecodeError } from "../../../../src/solana/accounts/decode-error";
import {
  parseToken2022MintExtensions,
  transferFeeAtEpoch,
  type TransferFeeConfig,
} from "../../../../src/solana/accounts/token-2022-extensions";
import { loadAccountFixture } from "../../../helpers/fixtures";
import { codeOf, seededRandom } from "./codec-test-kit";

const b4r = loadAccountFixture("token-2022/mint_B4rGSdcB_with_extensions.json");
const btsl = loadAccountFixture("token-2022/mint_BtSLwAFD_with_extensions_vixen.json");
const METEORA_TEST_WALLET = "FXBXnxEEfwZJA1xnyJzKEhhJXmussKXKRdq5cAh19dbC";

// --- synthetic mints: the real B4rGSdcB base (82 B + padding + AccountType=1 @165) followed by our own TLV list ---
const base = b4r.data.slice(0, 166);
const key = (byte: number) => new Uint8Array(32).fill(byte);
const u8 = (value: number) => Uint8Array.of(value);
const u16 = (value: number) => new Uint8Array(getU16Encoder().encode(value));
const u32 = (value: number) => new Uint8Array(getU32Encoder().encode(value));
const borshString = (text: string) => concat(u32(getUtf8Encoder().encode(text).length), new Uint8Array(getUtf8Encoder().encode(text)));
function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}
/** One TLV entry: type u16 LE | length u16 LE | value. */
const tlv = (type: number, ...value: Uint8Array[]) => {
  const bytes = concat(...value);
  return concat(u16(type), u16(bytes.length), bytes);
};
const mintWith = (...entries: Uint8Array[]) => concat(base, ...entries);

describe("parseToken2022MintExtensions on real Token-2022 mints", () => {
  it("B4rGSdcB: TransferFeeConfig + MetadataPointer(self) + TokenMetadata (collector decode, SOURCES.md)", () => {
    const extensions = parseToken2022MintExtensions(b4r.data);
    // SOURCES.md: TransferFeeConfig(50 bps, max fee 5000, epoch 835); both schedules carry the same values.
    const fee = { epoch: 835n, maximumFee: 5000n, transferFeeBasisPoints: 50 };
    expect(extensions.transferFeeConfig).toEqual({
      transferFeeConfigAuthority: METEORA_TEST_WALLET,
      withdrawWithheldAuthority: METEORA_TEST_WALLET,
      withheldAmount: 0n,
      olderTransferFee: fee,
      newerTransferFee: fee,
    });
    expect(extensions.metadataPointer).toEqual({ authority: METEORA_TEST_WALLET, metadataAddress: b4r.address });
    expect(extensions.tokenMetadata).toEqual({
      updateAuthority: METEORA_TEST_WALLET,
      mint: b4r.address,
      name: "TEST_TRF_FEE",
      symbol: "TTF",
      uri: "https://raw.githubusercontent.com/MeteoraAg/token-metadata/refs/heads/main/meteora_lp.json",
      additionalMetadata: [],
    });
    expect(extensions.otherExtensionTypes).toEqual([]);
  });

  it("BtSLwAFD: non-empty extensions (Vixen test) = MetadataPointer(self) + TokenMetadata 'vixen_test'/'VIX' (collector decode)", () => {
    const extensions = parseToken2022MintExtensions(btsl.data);
    expect(extensions.metadataPointer?.metadataAddress).toBe(btsl.address);
    expect(extensions.tokenMetadata).toMatchObject({
      mint: btsl.address,
      name: "vixen_test",
      symbol: "VIX",
      uri: "https://token-metadata.paxos.com/pyusd_metadata/prod/solana/pyusd_metadata.json",
    });
    expect(extensions.transferFeeConfig).toBeUndefined();
  });

  it("an 82-byte mint has no extensions", () => {
    expect(parseToken2022MintExtensions(b4r.data.slice(0, 82))).toEqual({ otherExtensionTypes: [] });
  });
});

describe("parseToken2022MintExtensions on synthetic TLV lists", () => {
  it("decodes every extension the overview shows and skips unknown types", () => {
    const data = mintWith(
      tlv(3, key(1)), // MintCloseAuthority: close_authority
      tlv(6, u8(2)), // DefaultAccountState: Frozen
      tlv(7), // ImmutableOwner: not decoded here
      tlv(9), // NonTransferable: no value
      tlv(12, key(0)), // PermanentDelegate: all-zero = none
      tlv(14, key(2), key(3)), // TransferHook: authority | program_id
      tlv(26, key(4), u8(1)), // Pausable: authority | paused
      tlv(25, new Uint8Array(56)), // ScaledUiAmount: not decoded here
      tlv(
        19, // TokenMetadata with one additional pair
        key(0), key(5), borshString("Name"), borshString("SYM"), borshString("https://x.example.com/m.json"),
        u32(1), borshString("k"), borshString("v"),
      ),
    );
    const extensions = parseToken2022MintExtensions(data);
    expect(extensions.mintCloseAuthority?.closeAuthority).toBeTypeOf("string");
    expect(extensions.defaultAccountState).toEqual({ state: "frozen" });
    expect(extensions.nonTransferable).toEqual({});
    expect(extensions.permanentDelegate).toEqual({ delegate: null });
    expect(extensions.transferHook?.programId).toBeTypeOf("string");
    expect(extensions.pausable).toMatchObject({ paused: true });
    expect(extensions.tokenMetadata).toMatchObject({ updateAuthority: null, name: "Name", additionalMetadata: [["k", "v"]] });
    expect(extensions.otherExtensionTypes).toEqual([7, 25]);
  });

  it("stops at type 0 (uninitialized space) and at fewer than 4 bytes left", () => {
    expect(parseToken2022MintExtensions(mintWith(tlv(9), new Uint8Array(20))).nonTransferable).toEqual({});
    expect(parseToken2022MintExtensions(mintWith(tlv(9), Uint8Array.of(7, 0, 0))).otherExtensionTypes).toEqual([]);
  });

  it.each([
    ["an entry whose length runs past the data", () => mintWith(u16(18), u16(64), key(1)), "malformed-tlv"],
    ["a header alone claiming 65535 bytes", () => mintWith(u16(1), u16(65535)), "malformed-tlv"],
    ["a duplicate extension", () => mintWith(tlv(9), tlv(9)), "duplicate-extension"],
    ["MetadataPointer of 63 bytes", () => mintWith(tlv(18, new Uint8Array(63))), "invalid-extension-length"],
    ["TransferFeeConfig of 109 bytes", () => mintWith(tlv(1, new Uint8Array(109))), "invalid-extension-length"],
    ["DefaultAccountState 3", () => mintWith(tlv(6, u8(3))), "invalid-tag"],
    ["Pausable paused = 2", () => mintWith(tlv(26, key(1), u8(2))), "invalid-tag"],
    ["TokenMetadata name of 10 000 bytes", () => mintWith(tlv(19, key(0), key(1), u32(10_000))), "string-too-long"],
    // The inner string claims 40 bytes but the entry has 4: decoding from the entry's slice cannot read the next entry.
    ["TokenMetadata string overrunning its entry", () => mintWith(tlv(19, key(0), key(1), u32(40), u32(0)), tlv(9, new Uint8Array(0)), new Uint8Array(60)), "truncated"],
    ["TokenMetadata with 1000 additional pairs", () => mintWith(tlv(19, key(0), key(1), borshString(""), borshString(""), borshString(""), u32(1000))), "too-many-items"],
    ["more than 64 entries", () => mintWith(...Array.from({ length: 65 }, (_, i) => tlv(1000 + i))), "malformed-tlv"],
    ["AccountType 2 (token account)", () => concat(base.slice(0, 165), u8(2), tlv(9)), "discriminator"],
    ["a size between the base and the type byte", () => base.slice(0, 120), "size"],
  ])("throws a typed error for %s", (_, build, code) => {
    expect(codeOf(() => parseToken2022MintExtensions(build()))).toBe(code);
  });

  it("only ever throws AccountDecodeError on 3000 randomly corrupted B4rGSdcB mints (seed 16)", () => {
    const random = seededRandom(16);
    for (let i = 0; i < 3000; i++) {
      const data = b4r.data.slice(0, 166 + Math.floor(random() * (b4r.data.length - 166 + 1)));
      for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
        data[166 + Math.floor(random() * (data.length - 166))] = Math.floor(random() * 256);
      }
      try {
        parseToken2022MintExtensions(data);
      } catch (error) {
        expect(error).toBeInstanceOf(AccountDecodeError);
      }
    }
  });
});

describe("transferFeeAtEpoch", () => {
  const config: TransferFeeConfig = {
    transferFeeConfigAuthority: null,
    withdrawWithheldAuthority: null,
    withheldAmount: 0n,
    olderTransferFee: { epoch: 700n, maximumFee: 1n, transferFeeBasisPoints: 10 },
    newerTransferFee: { epoch: 835n, maximumFee: 5000n, transferFeeBasisPoints: 50 },
  };
  it("uses the older schedule before the newer one's epoch and the newer one from it on", () => {
    expect(transferFeeAtEpoch(config, 834n).transferFeeBasisPoints).toBe(10);
    expect(transferFeeAtEpoch(config, 835n).transferFeeBasisPoints).toBe(50);
  });
});
