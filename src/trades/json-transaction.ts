/**
 * A transaction as `getBlock` / `getTransaction` return it with `encoding: "json"` and `maxSupportedTransactionVersion: 0`
 * (solana-foundation developer-content docs/rpc/json-structures.mdx). Only what trade extraction reads is typed; an
 * answer is untrusted input, so every field a reader touches is checked where it is read, never assumed.
 */

/** An instruction: the program and accounts as indexes into the transaction's keys (static, then ALT writable, then readonly). */
export interface JsonInstruction {
  programIdIndex: number;
  accounts: number[];
  /** base58 */
  data: string;
  /** 1 = top level, 2 = its CPI, ...; null/absent in transactions recorded before the field existed */
  stackHeight?: number | null;
}

export interface JsonInnerInstructions {
  /** the top-level instruction these ran under */
  index: number;
  instructions: JsonInstruction[];
}

export interface JsonTokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  programId?: string;
  uiTokenAmount: { amount: string; decimals: number };
}

export interface JsonTransactionMeta {
  err: unknown;
  preBalances?: number[] | null;
  postBalances?: number[] | null;
  innerInstructions?: JsonInnerInstructions[] | null;
  preTokenBalances?: JsonTokenBalance[] | null;
  postTokenBalances?: JsonTokenBalance[] | null;
  loadedAddresses?: { writable: string[]; readonly: string[] } | null;
}

export interface JsonTransaction {
  transaction: {
    signatures: string[];
    message: {
      header?: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
      accountKeys: string[];
      instructions: JsonInstruction[];
    };
  };
  meta: JsonTransactionMeta | null;
}
