import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { AccountDecodeError } from "../../../../src/solana/accounts/decode-error";
import {
  decodeMetaplexMetadata,
  decodeMetaplexMetadataAccount,
  findMetaplexMetadataAddress,
} from "../../../../src/solana/accounts/metaplex-metadata";
import { METAPLEX_TOKEN_METADATA_PROGRAM_ADDRESS } from "../../../../src/solana/well-known";
import { loadAccountFixture } from "../../../helpers/fixtures";
import { codeOf, patched, seededRandom } from "./codec-test-kit";

const faulty = loadAccountFixture("metaplex/metadata_13gxS4r6_faulty_NFT.json");
const gooberg = loadAccountFixture("metaplex/metadata_Gooberg2235_NFT.json");
const bonk = loadAccountFixture("metaplex/metadata_FDZZbyY9_BONK_fungible.json");

/**
 * Field offsets in the BONK account (no creators), from the layout in VENUES.md §15:
 * key @0 | update_authority @1 | mint @33 | name u32 @65 + 32 B | symbol u32 @101 + 10 B | uri u32 @115 + 200 B |
 * seller_fee u16 @319 | creators Option tag @321 (0) | primary_sale @322 | is_mutable @323 |
 * edition_nonce Option @324..325 | token_standard Option @326..327 | collection/uses/details None @328..330.
 */
const BONK = { nameLen: 65, symbolLen: 101, creatorsTag: 321, primarySale: 322, editionTag: 324, standardTag: 326, standard: 327 };

describe("decodeMetaplexMetadataAccount on real mainnet accounts", () => {
  it("decodes the 'faulty' Boryoku Dragonz NFT despite garbage after edition_nonce (values asserted by mpl-token-metadata's test)", () => {
    // Given the fixture whose bytes after edition_nonce are leftovers of an older layout (0xfa is no Option tag)
    expect(faulty.data[0]).toBe(4); // key = MetadataV1
    // When
    const metadata = decodeMetaplexMetadataAccount(faulty);
    // Then: source-asserted fields
    expect(metadata.name.startsWith("Boryoku Dragonz #515")).toBe(true);
    expect(metadata.symbol.startsWith("BORYOKU")).toBe(true);
    expect(metadata.sellerFeeBasisPoints).toBe(500);
    expect(metadata.primarySaleHappened).toBe(true);
    expect(metadata.isMutable).toBe(true);
    expect(metadata.editionNonce).toBe(255);
    expect(metadata.tokenStandard).toBeNull();
    // and NUL padding is gone (name is NUL-padded to 32 bytes on chain)
    expect(metadata.name).toBe("Boryoku Dragonz #515");
    expect(metadata.symbol).toBe("BORYOKU");
    // Decoded by us (not source-stated): one verified creator holding 100 %, equal to the update authority.
    expect(metadata.creators).toEqual([{ address: metadata.updateAuthority, verified: true, share: 100 }]);
    expect(metadata.uri).toBe("https://arweave.net/fbNnh-SHbpH5LxNrlnMv06K9Wk9oe3Cv5E1wN1XWm1o");
  });

  it("decodes Gooberg #2235 (solana-kmp test asserts MetadataV1 and the name)", () => {
    const metadata = decodeMetaplexMetadataAccount(gooberg);
    expect(metadata.name).toBe("Gooberg #2235");
    expect(metadata.symbol).toBe("TGB"); // per bytes, SOURCES.md
    // Decoded by us: two creators, a programmable NFT.
    expect(metadata.creators?.map((c) => [c.verified, c.share])).toEqual([
      [true, 0],
      [false, 100],
    ]);
    expect(metadata.tokenStandard).toBe("ProgrammableNonFungible");
    expect(metadata.sellerFeeBasisPoints).toBe(750);
  });

  it("decodes BONK's fungible metadata (sava idl-clients test + collector decode)", () => {
    const metadata = decodeMetaplexMetadataAccount(bonk);
    // Source-asserted
    expect(metadata.name).toBe("Bonk");
    expect(metadata.symbol).toBe("Bonk");
    expect(metadata.uri).toBe("https://arweave.net/QPC6FYdUn-3V8ytFNuoCS85S2tHAuiDblh6u3CIZLsw");
    expect(metadata.tokenStandard).not.toBeNull();
    // Collector decode (SOURCES.md `_decoded_by_fixture_collector_NOT_source_stated`)
    expect(metadata).toEqual({
      updateAuthority: "9AhKqLR67hwapvG8SA2JFXaCshXc9nALJjpKaHZrsbkw",
      mint: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263",
      name: "Bonk",
      symbol: "Bonk",
      uri: "https://arweave.net/QPC6FYdUn-3V8ytFNuoCS85S2tHAuiDblh6u3CIZLsw",
      sellerFeeBasisPoints: 0,
      creators: null,
      primarySaleHappened: true,
      isMutable: true,
      editionNonce: 255,
      tokenStandard: "Fungible",
    });
  });

  it("derives BONK's metadata PDA = the fixture address FDZZbyY9", async () => {
    await expect(findMetaplexMetadataAddress(address("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"))).resolves.toBe(bonk.address);
  });
});

describe("decodeMetaplexMetadata on hostile or malformed bytes", () => {
  it("refuses an account not owned by the Token Metadata program", () => {
    expect(codeOf(() => decodeMetaplexMetadataAccount({ ...bonk, owner: address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") }))).toBe(
      "owner",
    );
    expect(bonk.owner).toBe(METAPLEX_TOKEN_METADATA_PROGRAM_ADDRESS);
  });

  it("refuses empty data and keys other than MetadataV1", () => {
    expect(codeOf(() => decodeMetaplexMetadata(new Uint8Array()))).toBe("truncated");
    expect(codeOf(() => decodeMetaplexMetadata(patched(bonk.data, { 0: [6] })))).toBe("discriminator"); // MasterEditionV2
  });

  it.each([
    ["name of 33 bytes", { [BONK.nameLen]: [33, 0, 0, 0] }, "string-too-long"],
    ["name of u32::MAX bytes (checked before allocating)", { [BONK.nameLen]: [255, 255, 255, 255] }, "string-too-long"],
    ["symbol of 11 bytes", { [BONK.symbolLen]: [11, 0, 0, 0] }, "string-too-long"],
    ["creators Option tag 2", { [BONK.creatorsTag]: [2] }, "invalid-tag"],
    ["6 creators (limit 5)", { [BONK.creatorsTag]: [1, 6, 0, 0, 0] }, "too-many-items"],
    ["u32::MAX creators", { [BONK.creatorsTag]: [1, 255, 255, 255, 255] }, "too-many-items"],
    ["primary_sale_happened = 2", { [BONK.primarySale]: [2] }, "invalid-tag"],
  ])("throws a typed error for %s", (_, patches, code) => {
    expect(codeOf(() => decodeMetaplexMetadata(patched(bonk.data, patches)))).toBe(code);
  });

  it("needs the whole head but reads the optional tail best-effort", () => {
    // Every cut inside the required head is truncated
    for (let length = 1; length < BONK.editionTag; length++) {
      expect(codeOf(() => decodeMetaplexMetadata(bonk.data.slice(0, length)))).toBe("truncated");
    }
    // A cut right after is_mutable (pre-edition_nonce accounts) decodes with the tail absent
    expect(decodeMetaplexMetadata(bonk.data.slice(0, BONK.editionTag))).toMatchObject({ editionNonce: null, tokenStandard: null });
    // A cut inside token_standard keeps edition_nonce
    expect(decodeMetaplexMetadata(bonk.data.slice(0, BONK.standard))).toMatchObject({ editionNonce: 255, tokenStandard: null });
    // An unknown token_standard index is leftover bytes, not a standard
    expect(decodeMetaplexMetadata(patched(bonk.data, { [BONK.standard]: [9] })).tokenStandard).toBeNull();
  });

  it("turns NUL padding and trailing whitespace into nothing", () => {
    // symbol "Bonk" + 4 spaces + 2 NULs
    const data = patched(bonk.data, { [BONK.symbolLen + 4]: [...Buffer.from("Bonk    "), 0, 0] });
    expect(decodeMetaplexMetadata(data).symbol).toBe("Bonk");
  });

  it("only ever throws AccountDecodeError on 3000 randomly corrupted accounts (seed 15)", () => {
    const random = seededRandom(15);
    const sources = [bonk.data, faulty.data, gooberg.data];
    for (let i = 0; i < 3000; i++) {
      const source = sources[i % sources.length]!;
      const data = source.slice(0, 1 + Math.floor(random() * source.length));
      for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
        data[Math.floor(random() * data.length)] = Math.floor(random() * 256);
      }
      data[0] = random() < 0.9 ? 4 : data[0]!;
      try {
        decodeMetaplexMetadata(data);
      } catch (error) {
        expect(error).toBeInstanceOf(AccountDecodeError);
      }
    }
  });
});
