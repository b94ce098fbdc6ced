/**
 * The wire form of a transaction (what `bincode::serialize(VersionedTransaction)` gives and what `base58`/`base64`
 * transaction encodings carry): compact-u16 counted signatures, then the message (v0 prefixed by 0x80): header,
 * account keys, recent blockhash, instructions, and for v0 the (empty) address table lookups.
 */
import { decodeBase58 } from "../../chain/base58.js";
import type { TxRecord } from "../../chain/types.js";

class WireWriter {
  private readonly bytes: number[] = [];

  byte(value: number): void {
    this.bytes.push(value & 0xff);
  }

  compactU16(value: number): void {
    let rest = value;
    for (;;) {
      const low = rest & 0x7f;
      rest >>>= 7;
      if (rest === 0) {
        this.byte(low);
        return;
      }
      this.byte(low | 0x80);
    }
  }

  raw(data: ArrayLike<number>): void {
    for (let i = 0; i < data.length; i++) this.bytes.push(data[i]!);
  }

  /** A base58 value of a fixed size; a malformed one (never produced by the world) is written as zeros. */
  base58(text: string, size: number): void {
    const decoded = decodeBase58(text);
    this.raw(decoded instanceof Uint8Array && decoded.length === size ? decoded : new Uint8Array(size));
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

export function transactionWireBytes(tx: TxRecord): Uint8Array {
  const w = new WireWriter();
  w.compactU16(tx.signatures.length);
  for (const signature of tx.signatures) w.base58(signature, 64);
  const { header, accountKeys, recentBlockhash, instructions } = tx.message;
  if (tx.version === 0) w.byte(0x80);
  w.byte(header.numRequiredSignatures);
  w.byte(header.numReadonlySignedAccounts);
  w.byte(header.numReadonlyUnsignedAccounts);
  w.compactU16(accountKeys.length);
  for (const key of accountKeys) w.base58(key, 32);
  w.base58(recentBlockhash, 32);
  w.compactU16(instructions.length);
  for (const ix of instructions) {
    w.byte(ix.programIdIndex);
    w.compactU16(ix.accounts.length);
    w.raw(ix.accounts);
    w.compactU16(ix.data.length);
    w.raw(ix.data);
  }
  if (tx.version === 0) w.compactU16(0);
  return w.done();
}

/** The parts of a wire message the localnet looks at when a client submits one. */
export interface WireMessageSummary {
  numRequiredSignatures: number;
  accountKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
}

/** Reads a message's header, keys and blockhash; undefined when the bytes are not a legacy or v0 message. */
export function readWireMessage(bytes: Uint8Array, start = 0): WireMessageSummary | undefined {
  let at = start;
  const compactU16 = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) return undefined;
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  const prefix = bytes[at];
  if (prefix === undefined) return undefined;
  if (prefix & 0x80) {
    if ((prefix & 0x7f) !== 0) return undefined;
    at++;
  }
  const numRequiredSignatures = bytes[at];
  at += 3;
  const keyCount = compactU16();
  if (numRequiredSignatures === undefined || keyCount === undefined || at + keyCount * 32 + 32 > bytes.length) return undefined;
  const accountKeys = Array.from({ length: keyCount }, (_, i) => bytes.subarray(at + i * 32, at + (i + 1) * 32));
  at += keyCount * 32;
  return { numRequiredSignatures, accountKeys, recentBlockhash: bytes.subarray(at, at + 32) };
}

/** A wire transaction: its signatures' count and its message, or undefined when malformed. */
export function readWireTransaction(bytes: Uint8Array): WireMessageSummary | undefined {
  const count = bytes[0];
  if (count === undefined || count > 0x7f) return undefined;
  return readWireMessage(bytes, 1 + count * 64);
}

/** A submitted transaction read whole: signatures, the message as the ledger stores it, and the signed message bytes. */
export interface WireTransaction {
  signatures: Uint8Array[];
  version: "legacy" | 0;
  message: {
    header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
    accountKeys: Uint8Array[];
    recentBlockhash: Uint8Array;
    instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array }[];
    /** v0 address-table lookups (the localnet has no tables: any lookup makes the transaction unsupported). */
    lookups: number;
  };
  messageBytes: Uint8Array;
}

/** Reads a legacy or v0 wire transaction in full; undefined when the bytes are malformed or have trailing data. */
export function readWireTransactionFull(bytes: Uint8Array): WireTransaction | undefined {
  let at = 0;
  const compactU16 = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) return undefined;
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  const take = (n: number): Uint8Array | undefined => {
    if (at + n > bytes.length) return undefined;
    const out = bytes.subarray(at, at + n);
    at += n;
    return out;
  };
  const sigCount = compactU16();
  if (sigCount === undefined) return undefined;
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < sigCount; i++) {
    const sig = take(64);
    if (!sig) return undefined;
    signatures.push(sig);
  }
  const messageStart = at;
  let version: "legacy" | 0 = "legacy";
  if ((bytes[at] ?? 0) & 0x80) {
    if ((bytes[at]! & 0x7f) !== 0) return undefined;
    version = 0;
    at++;
  }
  const head = take(3);
  const keyCount = compactU16();
  if (!head || keyCount === undefined) return undefined;
  const accountKeys: Uint8Array[] = [];
  for (let i = 0; i < keyCount; i++) {
    const key = take(32);
    if (!key) return undefined;
    accountKeys.push(key);
  }
  const recentBlockhash = take(32);
  const ixCount = compactU16();
  if (!recentBlockhash || ixCount === undefined) return undefined;
  const instructions: WireTransaction["message"]["instructions"] = [];
  for (let i = 0; i < ixCount; i++) {
    const programIdIndex = take(1)?.[0];
    const accountCount = compactU16();
    if (programIdIndex === undefined || accountCount === undefined) return undefined;
    const accounts = take(accountCount);
    const dataLength = compactU16();
    if (!accounts || dataLength === undefined) return undefined;
    const data = take(dataLength);
    if (!data) return undefined;
    instructions.push({ programIdIndex, accounts: [...accounts], data: data.slice() });
  }
  let lookups = 0;
  if (version === 0) {
    const count = compactU16();
    if (count === undefined) return undefined;
    lookups = count;
    for (let i = 0; i < count; i++) {
      if (!take(32)) return undefined;
      for (let j = 0; j < 2; j++) {
        const n = compactU16();
        if (n === undefined || !take(n)) return undefined;
      }
    }
  }
  if (at !== bytes.length) return undefined;
  const header = { numRequiredSignatures: head[0]!, numReadonlySignedAccounts: head[1]!, numReadonlyUnsignedAccounts: head[2]! };
  return { signatures, version, message: { header, accountKeys, recentBlockhash, instructions, lookups }, messageBytes: bytes.subarray(messageStart) };
}
