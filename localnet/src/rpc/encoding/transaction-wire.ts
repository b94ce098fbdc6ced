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
