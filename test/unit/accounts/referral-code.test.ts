import { describe, expect, it } from "vitest";
import { generateReferralCode, normalizedReferralCode } from "../../../src/accounts/referral-code";

describe("referral codes", () => {
  it("are 10 characters of Crockford's base32 (no I, L, O, U), different every time", () => {
    const codes = Array.from({ length: 2000 }, generateReferralCode);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(new Set(codes).size).toBe(codes.length);
    // every symbol of the alphabet turns up (the byte → symbol mapping is not biased away from any)
    expect(new Set(codes.join("")).size).toBe(32);
  });

  it.each([
    ["as generated", "7K3M9QWX2P", "7K3M9QWX2P"],
    ["lower case, spaces around", "  7k3m9qwx2p ", "7K3M9QWX2P"],
    ["too short", "7K3M9QWX2", null],
    ["too long", "7K3M9QWX2PP", null],
    ["a letter Crockford leaves out", "7K3M9QWX2O", null],
    ["markup", "<b>x</b>", null],
    ["absent", undefined, null],
  ])("normalizedReferralCode: %s", (_, raw, code) => {
    expect(normalizedReferralCode(raw)).toBe(code);
  });
});
