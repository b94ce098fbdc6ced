/**
 * A small, fully known world for the chain's tests: an SPL mint, a Token-2022 mint with transfer-fee, metadata-pointer and
 * token-metadata extensions, three wallets with token accounts (one delegated), and one token transfer per produced slot
 * (every 5th slot as a v0 transaction). Byte layouts are the programs' real ones, written field by field.
 */
import { createHash } from "node:crypto";
import { decodeBase58, encodeBase58 } from "../../../localnet/src/chain/base58.js";
import type { AccountState, LedgerWriter, TxRecord, World } from "../../../localnet/src/chain/types.js";
import type { WorldManifest } from "../../../localnet/src/world/manifest.js";

export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const RENT_EXEMPT = 18_446_744_073_709_551_615n;

export function keyOf(name: string): string {
  return encodeBase58(createHash("sha256").update(`tiny-world:${name}`).digest());
}

function signatureOf(name: string): string {
  return encodeBase58(createHash("sha512").update(`sig:${name}`).digest());
}

const keyBytesCache = new Map<string, Uint8Array>();

function bytesOf(key: string): Uint8Array {
  let bytes = keyBytesCache.get(key);
  if (!bytes) keyBytesCache.set(key, (bytes = decodeBase58(key) as Uint8Array));
  return bytes;
}

class Bytes {
  readonly data: Uint8Array;
  private readonly view: DataView;
  constructor(size: number) {
    this.data = new Uint8Array(size);
    this.view = new DataView(this.data.buffer);
  }
  key(at: number, key: string): this {
    this.data.set(bytesOf(key), at);
    return this;
  }
  u8(at: number, v: number): this {
    this.data[at] = v;
    return this;
  }
  u16(at: number, v: number): this {
    this.view.setUint16(at, v, true);
    return this;
  }
  u32(at: number, v: number): this {
    this.view.setUint32(at, v, true);
    return this;
  }
  u64(at: number, v: bigint): this {
    this.view.setBigUint64(at, v, true);
    return this;
  }
}

/** spl-token Mint (82 bytes): COption mint authority @0, supply @36, decimals @44, initialized @45, COption freeze @46. */
export function mintData(supply: bigint, decimals: number, mintAuthority: string | null): Uint8Array {
  const b = new Bytes(82).u64(36, supply).u8(44, decimals).u8(45, 1);
  if (mintAuthority) b.u32(0, 1).key(4, mintAuthority);
  return b.data;
}

/** spl-token Account (165 bytes): mint @0, owner @32, amount @64, COption delegate @72, state @108, delegated @121. */
export function tokenAccountData(mint: string, owner: string, amount: bigint, delegate?: { key: string; amount: bigint }, size = 165): Uint8Array {
  const b = new Bytes(size).key(0, mint).key(32, owner).u64(64, amount).u8(108, 1);
  if (delegate) b.u32(72, 1).key(76, delegate.key).u64(121, delegate.amount);
  if (size > 165) b.u8(165, 2);
  return b.data;
}

function borshString(text: string): Uint8Array {
  const utf8 = Buffer.from(text, "utf8");
  const out = new Uint8Array(4 + utf8.length);
  new DataView(out.buffer).setUint32(0, utf8.length, true);
  out.set(utf8, 4);
  return out;
}

/** Token-2022 mint: 82-byte base, zero padding to 165, AccountType 1 @165, TLV extensions from @166. */
export function token2022MintData(opts: { supply: bigint; decimals: number; authority: string; mint: string; name: string; symbol: string; uri: string }): Uint8Array {
  const base = mintData(opts.supply, opts.decimals, opts.authority);
  const transferFee = new Bytes(108).key(0, opts.authority).key(32, opts.authority).u64(64, 7n).u64(72, 0n).u64(80, 5_000n).u16(88, 25).u64(90, 1n).u64(98, 6_000n).u16(106, 30);
  const pointer = new Bytes(64).key(0, opts.authority).key(32, opts.mint);
  const metadata = Buffer.concat([bytesOf(opts.authority), bytesOf(opts.mint), borshString(opts.name), borshString(opts.symbol), borshString(opts.uri), Buffer.from([1, 0, 0, 0]), borshString("site"), borshString("example.org")]);
  const tlv = (type: number, value: Uint8Array) => {
    const head = new Bytes(4).u16(0, type).u16(2, value.length).data;
    return Buffer.concat([head, value]);
  };
  const extensions = Buffer.concat([tlv(1, transferFee.data), tlv(18, pointer.data), tlv(19, metadata)]);
  const out = new Uint8Array(166 + extensions.length);
  out.set(base, 0);
  out[165] = 1;
  out.set(extensions, 166);
  return out;
}

const KEY_NAMES = [
  "mint",
  "mint2022",
  "authority",
  "alice",
  "bob",
  "carol",
  "delegate",
  "aliceToken",
  "bobToken",
  "carolToken",
  "alice2022",
  "bigAccount",
] as const;
export type TinyKeyName = (typeof KEY_NAMES)[number];

export interface TinyWorld extends World {
  keys: Record<TinyKeyName, string>;
  /** Transactions produced so far, newest last. */
  produced: TxRecord[];
}

/** The tiny world; `transfersPerSlot` 0 makes an empty chain (no transactions, no account changes). */
export function createTinyWorld(transfersPerSlot = 1): TinyWorld {
  const keys = Object.fromEntries(KEY_NAMES.map((name) => [name, keyOf(name)])) as Record<TinyKeyName, string>;
  const balances = new Map<string, bigint>([
    [keys.aliceToken, 1_000_000_000n],
    [keys.bobToken, 250_000_000n],
    [keys.carolToken, 5_000_000n],
  ]);
  const owners: Record<string, string> = { [keys.aliceToken]: keys.alice, [keys.bobToken]: keys.bob, [keys.carolToken]: keys.carol };
  const produced: TxRecord[] = [];

  const system = (lamports: bigint, data = new Uint8Array(0)): AccountState => ({ lamports, owner: SYSTEM_PROGRAM, data, executable: false, rentEpoch: RENT_EXEMPT });
  const token = (data: Uint8Array, program = TOKEN_PROGRAM): AccountState => ({ lamports: 2_039_280n, owner: program, data, executable: false, rentEpoch: RENT_EXEMPT });
  const writeTokenAccount = (ledger: LedgerWriter, account: string) => {
    const delegate = account === keys.carolToken ? { key: keys.delegate, amount: 1_000n } : undefined;
    ledger.setAccount(account, token(tokenAccountData(keys.mint, owners[account]!, balances.get(account)!, delegate)));
  };

  return {
    keys,
    produced,
    genesis(ledger) {
      ledger.setAccount(keys.mint, token(mintData(1_255_000_000n, 6, keys.authority)));
      ledger.setAccount(
        keys.mint2022,
        token(token2022MintData({ supply: 42_000_000_000n, decimals: 9, authority: keys.authority, mint: keys.mint2022, name: "Tiny", symbol: "TNY", uri: "http://127.0.0.1/meta/tiny.json" }), TOKEN_2022_PROGRAM),
      );
      for (const wallet of [keys.alice, keys.bob, keys.carol, keys.authority]) ledger.setAccount(wallet, system(10_000_000_000n));
      for (const account of [keys.aliceToken, keys.bobToken, keys.carolToken]) writeTokenAccount(ledger, account);
      ledger.setAccount(keys.alice2022, token(tokenAccountData(keys.mint2022, keys.alice, 42_000_000_000n, undefined, 170), TOKEN_2022_PROGRAM));
      ledger.setAccount(keys.bigAccount, system(1_000_000n, new Uint8Array(200).fill(7)));
    },
    produceSlot(ledger) {
      const txs: TxRecord[] = [];
      for (let i = 0; i < transfersPerSlot; i++) {
        const amount = BigInt(1_000 + (ledger.slot % 97));
        const pre = balances.get(keys.aliceToken)!;
        const preBob = balances.get(keys.bobToken)!;
        balances.set(keys.aliceToken, pre - amount);
        balances.set(keys.bobToken, preBob + amount);
        writeTokenAccount(ledger, keys.aliceToken);
        writeTokenAccount(ledger, keys.bobToken);
        const alice = ledger.getAccount(keys.alice)!;
        ledger.setAccount(keys.alice, { ...alice, lamports: alice.lamports - 5_000n });
        const data = new Uint8Array(9);
        data[0] = 3; // spl-token Transfer
        new DataView(data.buffer).setBigUint64(1, amount, true);
        const ui = (value: bigint) => ({ amount: value.toString(), decimals: 6, uiAmount: Number(value) / 1e6, uiAmountString: String(Number(value) / 1e6) });
        const balance = (index: number, owner: string, value: bigint) => ({ accountIndex: index, mint: keys.mint, owner, programId: TOKEN_PROGRAM, uiTokenAmount: ui(value) });
        const tx: TxRecord = {
          signatures: [signatureOf(`${ledger.slot}:${i}`)],
          message: {
            header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
            accountKeys: [keys.alice, keys.aliceToken, keys.bobToken, TOKEN_PROGRAM],
            recentBlockhash: ledger.recentBlockhash,
            instructions: [{ programIdIndex: 3, accounts: [1, 2, 0], data }],
          },
          meta: {
            err: null,
            fee: 5_000n,
            preBalances: [alice.lamports, 2_039_280n, 2_039_280n, 1n],
            postBalances: [alice.lamports - 5_000n, 2_039_280n, 2_039_280n, 1n],
            preTokenBalances: [balance(1, keys.alice, pre), balance(2, keys.bob, preBob)],
            postTokenBalances: [balance(1, keys.alice, pre - amount), balance(2, keys.bob, preBob + amount)],
            innerInstructions: [],
            logMessages: [`Program ${TOKEN_PROGRAM} invoke [1]`, "Program log: Instruction: Transfer", `Program ${TOKEN_PROGRAM} success`],
            computeUnitsConsumed: 4_644n,
          },
          version: ledger.slot % 5 === 0 ? 0 : "legacy",
        };
        txs.push(tx);
        produced.push(tx);
      }
      return txs;
    },
    manifest(): WorldManifest {
      return {
        seed: 0,
        tokens: [],
        wellKnown: { mint: keys.mint, mint2022: keys.mint2022 },
        wallets: { whales: [keys.alice], delegates: [keys.delegate] },
      };
    },
    http(path) {
      if (path === "/meta/tiny.json") return { status: 200, headers: { "content-type": "application/json" }, body: '{"name":"Tiny"}' };
      if (path === "/meta/slow.json") return { status: 200, headers: { "content-type": "application/json" }, body: "{}", delayMs: 200 };
      return undefined;
    },
  };
}
