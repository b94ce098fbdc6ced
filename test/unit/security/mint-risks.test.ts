/**
 * Extensions that can hurt a holder, from mint bytes: a real Token-2022 mint with a transfer fee (B4rGSdcB, values in
 * test/fixtures/SOURCES.md), and that mint's base followed by our own TLV entries for the other extensions, each
 * written in spl-token-2022's layout (type ids from its append-only `ExtensionType` enum).
 */
import { address, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { decodeOverviewMint } from "../../../src/overview/token-profile";
import { extensionRisks } from "../../../src/security/mint-risks";
import { parseToken2022MintExtensions } from "../../../src/solana/accounts/token-2022-extensions";
import { loadAccountFixture } from "../../helpers/fixtures";

const b4r = loadAccountFixture("token-2022/mint_B4rGSdcB_with_extensions.json");
const mint = b4r.address!;
const raw = (data: Uint8Array) => ({ owner: b4r.owner, lamports: 1n, data });
const authority = address("FXBXnxEEfwZJA1xnyJzKEhhJXmussKXKRdq5cAh19dbC");
const other = address("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");
const keyBytes = (a: string) => new Uint8Array(getAddressEncoder().encode(address(a)));
const tlv = (type: number, value: Uint8Array) => Uint8Array.from([type & 0xff, type >> 8, value.length & 0xff, value.length >> 8, ...value]);
const withEntries = (...entries: Uint8Array[]) => Uint8Array.from([...b4r.data.slice(0, 166), ...entries.flatMap((e) => [...e])]);

describe("extension risks", () => {
  it("B4rGSdcB: a 0.50% transfer fee (max 5000) with its authority; pending only before epoch 835", () => {
    const decoded = decodeOverviewMint(mint, raw(b4r.data));
    const [now] = extensionRisks(decoded, 900n);
    expect(now).toMatchObject({
      id: "transferFee",
      params: { currentBasisPoints: "50", currentMaximumFee: "5000", pendingBasisPoints: null, pendingMaximumFee: null, pendingFromEpoch: null, authority },
    });
    expect(now!.message).toMatch(/0\.50%/);
    // Before epoch 835 the older schedule is in force and the newer one is pending (here with the same values)
    const [before] = extensionRisks(decoded, 834n);
    expect(before!.params).toMatchObject({ pendingBasisPoints: "50", pendingFromEpoch: "835" });
  });

  it("every other harmful extension, with its parameters, in a fixed order", () => {
    const data = withEntries(
      tlv(3, keyBytes(other)), // MintCloseAuthority
      tlv(4, Uint8Array.from([...keyBytes(authority), 1, ...new Uint8Array(32)])), // ConfidentialTransferMint: authority, auto-approve, no auditor
      tlv(6, Uint8Array.of(2)), // DefaultAccountState: frozen
      tlv(9, new Uint8Array(0)), // NonTransferable
      tlv(12, keyBytes(other)), // PermanentDelegate
      tlv(14, Uint8Array.from([...keyBytes(authority), ...keyBytes(other)])), // TransferHook: authority, program
      tlv(26, Uint8Array.from([...keyBytes(authority), 1])), // Pausable: paused
    );
    const risks = extensionRisks(decodeOverviewMint(mint, raw(data)), 0n);
    expect(risks.map((r) => [r.id, r.params])).toEqual([
      ["transferHook", { programId: other, authority }],
      ["permanentDelegate", { delegate: other }],
      ["defaultAccountState", { state: "frozen" }],
      ["nonTransferable", {}],
      ["pausable", { paused: true, authority }],
      ["mintCloseAuthority", { closeAuthority: other }],
      ["confidentialTransfers", { authority, autoApproveNewAccounts: true, auditor: null }],
    ]);
    for (const r of risks) expect(r.message.length, r.id).toBeGreaterThan(20);
  });

  it("harmless settings are no risk: default state initialized, no hook program, no delegate, an SPL mint", () => {
    const zero = new Uint8Array(32);
    const data = withEntries(tlv(6, Uint8Array.of(1)), tlv(14, Uint8Array.from([...keyBytes(authority), ...zero])), tlv(12, zero));
    expect(extensionRisks(decodeOverviewMint(mint, raw(data)), 0n)).toEqual([]);
  });

  it("a ConfidentialTransferMint entry of the wrong length is malformed, not read", () => {
    expect(() => parseToken2022MintExtensions(withEntries(tlv(4, new Uint8Array(64))))).toThrow(/confidentialTransferMint/);
    expect(parseToken2022MintExtensions(withEntries(tlv(4, new Uint8Array(65)))).confidentialTransferMint).toEqual({
      authority: null,
      autoApproveNewAccounts: false,
      auditorElGamalPubkey: null,
    });
  });
});
