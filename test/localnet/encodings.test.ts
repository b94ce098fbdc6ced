/**
 * Encodings checked against independent decoders: base58 against kit's codec, `base64+zstd` against the fzstd decoder, the
 * transaction wire bytes against kit's transaction decoders, and jsonParsed against real mainnet Token-2022 bytes from
 * test/fixtures (provenance in test/fixtures/SOURCES.md).
 */
import { randomBytes } from "node:crypto";
import { getBase58Decoder, getBase58Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import { decompress } from "fzstd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeBase58, encodeBase58 } from "../../localnet/src/chain/base58.js";
import { zstdRawFrame } from "../../localnet/src/rpc/encoding/zstd-raw-frame.js";
import { call, startTinyChain, type TinyChain } from "./helpers/local-chain.js";
import { fixturePath } from "../helpers/fixtures";

const TOKEN_2022_FIXTURES = fixturePath("accounts/token-2022/");
/** An independent zstd decoder (fzstd, pure JS): the frames must decode with a real implementation, not ours. */
function unzstd(frame: Uint8Array): Buffer {
  return Buffer.from(decompress(frame));
}

let chain: TinyChain;

beforeAll(async () => {
  chain = await startTinyChain({ accountsDirs: [TOKEN_2022_FIXTURES] });
  await chain.net.advance(50);
});

afterAll(() => chain.net.close());

describe("base58", () => {
  it("matches kit's codec both ways, leading zeros included", () => {
    const kitText = getBase58Decoder();
    const kitBytes = getBase58Encoder();
    for (let n = 0; n < 500; n++) {
      const bytes = randomBytes(n % 150);
      if (n % 5 === 0 && bytes.length > 2) bytes.fill(0, 0, 2);
      const text = encodeBase58(bytes);
      expect(text).toBe(kitText.decode(bytes));
      expect(Buffer.from(decodeBase58(text) as Uint8Array)).toEqual(Buffer.from(kitBytes.encode(text)));
    }
    expect(decodeBase58("abc0")).toEqual({ invalidAt: 3 });
  });
});

describe("base64+zstd", () => {
  it("is a zstd frame an independent decoder decodes to the account bytes (and to any size, across 128 KiB blocks)", async () => {
    const [plain, packed] = await Promise.all(
      ["base64", "base64+zstd"].map(async (encoding) => (await call(chain.net.rpcUrl, "getAccountInfo", [chain.world.keys.mint2022, { encoding }])).result.value.data),
    );
    expect(packed[1]).toBe("base64+zstd");
    expect(unzstd(Buffer.from(packed[0], "base64"))).toEqual(Buffer.from(plain[0], "base64"));
    for (const size of [0, 255, 256, 65_791, 65_792, 300_000]) {
      const content = randomBytes(size);
      expect(unzstd(zstdRawFrame(content))).toEqual(content);
    }
  });

  it("honours dataSlice before framing", async () => {
    const sliced = await call(chain.net.rpcUrl, "getAccountInfo", [chain.world.keys.mint, { encoding: "base64+zstd", dataSlice: { offset: 36, length: 9 } }]);
    const frame = Buffer.from(sliced.result.value.data[0], "base64");
    // magic, single-segment header with a 1-byte content size, one raw last block of 9 bytes, then the content
    expect([...frame.subarray(0, 9)]).toEqual([0x28, 0xb5, 0x2f, 0xfd, 0x20, 9, (9 << 3) | 1, 0, 0]);
    expect(frame.subarray(9).readBigUInt64LE(0)).toBe(1_255_000_000n);
  });
});

describe("transaction encodings", () => {
  it("base64 and base58 carry the same wire bytes, which kit decodes back to the json form; binary is bare base58", async () => {
    const [latest] = (await call(chain.net.rpcUrl, "getSignaturesForAddress", [chain.world.keys.alice, { limit: 1 }])).result;
    const get = async (encoding: string) =>
      (await call(chain.net.rpcUrl, "getTransaction", [latest.signature, { encoding, maxSupportedTransactionVersion: 0 }])).result.transaction;
    const [json, b64, b58, binary] = await Promise.all(["json", "base64", "base58", "binary"].map(get));
    const wire = Buffer.from(b64[0], "base64");
    expect(Buffer.from(getBase58Encoder().encode(b58[0]))).toEqual(wire);
    expect(binary).toBe(b58[0]);
    const decoded = getTransactionDecoder().decode(wire);
    expect(Object.keys(decoded.signatures)[0]).toBe(json.message.accountKeys[0]);
    const message = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes);
    expect(message.staticAccounts).toEqual(json.message.accountKeys);
    expect(message.header).toEqual({
      numSignerAccounts: json.message.header.numRequiredSignatures,
      numReadonlySignerAccounts: json.message.header.numReadonlySignedAccounts,
      numReadonlyNonSignerAccounts: json.message.header.numReadonlyUnsignedAccounts,
    });
    if (message.version === 1) throw new Error("the localnet writes legacy and v0 messages only");
    expect(encodeBase58(Uint8Array.from(message.instructions[0]!.data!))).toBe(json.message.instructions[0].data);
  });
});

describe("jsonParsed accounts", () => {
  it("falls back to base64 for owners without a parser (a wallet here)", async () => {
    const wallet = await call(chain.net.rpcUrl, "getAccountInfo", [chain.world.keys.alice, { encoding: "jsonParsed" }]);
    expect(wallet.result.value.data).toEqual(["", "base64"]);
  });

  it("parses a real mainnet Token-2022 mint with transfer-fee, metadata-pointer and token-metadata extensions", async () => {
    // Given mint B4rGSdcB (MeteoraAg dlmm-sdk test fixture; SOURCES.md: name TEST_TRF_FEE) loaded as a fixture account
    const mint = "B4rGSdcBrmLEPUQXpZa91PMsRE3GqNcjLd6EMvM3yaj2";
    const { result } = await call(chain.net.rpcUrl, "getAccountInfo", [mint, { encoding: "jsonParsed" }]);
    const { program, parsed, space } = result.value.data;
    // Then Agave's parsed shape comes back, with the extensions in TLV order
    expect(program).toBe("spl-token-2022");
    expect(space).toBe(535);
    expect(parsed.type).toBe("mint");
    expect(parsed.info.extensions.map((e: { extension: string }) => e.extension)).toEqual(["transferFeeConfig", "metadataPointer", "tokenMetadata"]);
    const metadata = parsed.info.extensions[2].state;
    expect(metadata).toMatchObject({ mint, name: "TEST_TRF_FEE", symbol: "TTF", additionalMetadata: [] });
    expect(parsed.info.extensions[1].state.metadataAddress).toBe(mint);
  });
});
