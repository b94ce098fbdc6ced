import { describe, expect, it } from "vitest";

import { decodeHoldersCursor, encodeHoldersCursor, rowsAfter } from "../../../src/security/security-service";
import type { CensusRow } from "../../../src/security/holder-census";

const a = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const b = "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv";
const c = "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW";
const row = (owner: string, amount: string): CensusRow => ({ owner, amount, label: "holder", venue: null });

describe("holders cursor", () => {
  it("round-trips the last row's amount and owner, URL-safe", () => {
    const cursor = encodeHoldersCursor({ amount: "18446744073709551615", owner: a });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeHoldersCursor(cursor)).toEqual({ amount: 18446744073709551615n, owner: a });
  });

  it("refuses what it did not make", () => {
    for (const bad of ["", "nope!", btoa("12:not-an-address"), btoa(`x:${a}`), btoa(`${"9".repeat(21)}:${a}`), "A".repeat(201)]) {
      expect(decodeHoldersCursor(bad), bad).toBeUndefined();
    }
  });

  it("continues after the named row in the census order (amount descending, owner ascending), ties included", () => {
    // Given rows ordered as the census orders them: 500 (b), 300 (b < c by address: a tie), 300 (c), 100 (a)
    const rows = [row(b, "500"), row(b, "300"), row(c, "300"), row(a, "100")];
    expect(rowsAfter(rows, undefined)).toEqual(rows);
    expect(rowsAfter(rows, { amount: 500n, owner: b })).toEqual(rows.slice(1));
    expect(rowsAfter(rows, { amount: 300n, owner: b })).toEqual(rows.slice(2));
    expect(rowsAfter(rows, { amount: 100n, owner: a })).toEqual([]);
    // a row that left the census meanwhile: the page goes on after where it stood
    expect(rowsAfter(rows, { amount: 400n, owner: a })).toEqual(rows.slice(1));
  });
});
