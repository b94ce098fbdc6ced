/**
 * The world's mirror of every account it writes, written through to the chain's ledger. Accounts are never mutated in
 * place: each write stores a fresh `data` array, so the chain may keep older versions by reference.
 * `TokenBook` keeps mints and token accounts as typed state (amounts, owners, delegates) and re-encodes them on change.
 */
import type { AccountState, LedgerWriter, Pubkey } from "../chain/types.js";
import { ata } from "./core/keys.js";
import { readU64 } from "./core/bytes.js";
import { keyFromBytes } from "./core/keys.js";
import {
  ExtensionType,
  TOKEN_ACCOUNT_SIZE,
  encodeMint,
  encodeTokenAccount,
  rentExempt,
  tokenAccountSize,
  transferFeeFor,
  type MintState,
  type TokenAccountState,
} from "./spl/token.js";
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, WSOL_MINT } from "./programs.js";

/** Typed state of a token account from its bytes (the inverse of `encodeTokenAccount`). */
export function decodeTokenAccount(address: Pubkey, program: Pubkey, data: Uint8Array, lamports: bigint): TokenAccountState {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const opt = (o: number) => (view.getUint32(o, true) === 1 ? keyFromBytes(data.subarray(o + 4, o + 36)) : null);
  let immutableOwner = false;
  let withheld: bigint | null = null;
  if (program === TOKEN_2022_PROGRAM) {
    let o = TOKEN_ACCOUNT_SIZE + 1;
    while (o + 4 <= data.length) {
      const type = view.getUint16(o, true);
      const len = view.getUint16(o + 2, true);
      if (type === ExtensionType.ImmutableOwner) immutableOwner = true;
      if (type === ExtensionType.TransferFeeAmount) withheld = view.getBigUint64(o + 4, true);
      if (type === 0) break;
      o += 4 + len;
    }
  }
  const staleDelegate = view.getUint32(72, true) === 0 && data.subarray(76, 108).some((b) => b !== 0);
  return {
    address,
    ...(staleDelegate ? { revokedDelegate: keyFromBytes(data.subarray(76, 108)) } : {}),
    mint: keyFromBytes(data.subarray(0, 32)),
    owner: keyFromBytes(data.subarray(32, 64)),
    program,
    amount: view.getBigUint64(64, true),
    delegate: opt(72),
    delegatedAmount: view.getBigUint64(121, true),
    closeAuthority: opt(129),
    immutableOwner,
    withheld,
    lamports,
  };
}

export const RENT_EPOCH = 18446744073709551615n;

export class Store {
  readonly accounts = new Map<Pubkey, AccountState>();
  private ledger: LedgerWriter | null = null;
  /** Previous versions of the accounts written since `begin()`, for `rollback()`. */
  private journal: Map<Pubkey, AccountState | undefined> | null = null;
  /** Lamports of every account of the mirror: a change over a state change is what it created or destroyed. */
  private totalLamports = 0n;

  begin(): void {
    this.journal = new Map();
  }

  commit(): void {
    this.journal = null;
  }

  /** Restores every account written since `begin()`; returns the keys restored. */
  rollback(): Pubkey[] {
    const journal = this.journal;
    this.journal = null;
    if (!journal) return [];
    for (const [k, prev] of journal) {
      this.totalLamports += (prev?.lamports ?? 0n) - (this.accounts.get(k)?.lamports ?? 0n);
      if (prev) {
        this.accounts.set(k, prev);
        this.ledger?.setAccount(k, prev);
      } else {
        this.accounts.delete(k);
        this.ledger?.deleteAccount(k);
      }
    }
    return [...journal.keys()];
  }

  /**
   * Runs `fn`, then puts the mirror back as it was without writing the ledger: what `fn` wrote stays in the ledger's
   * slot only (a block on a fork the chain abandons: fork-block.ts). Returns `fn`'s value and the keys put back.
   */
  aside<T>(fn: () => T): { value: T; restored: Pubkey[] } {
    const before = new Map(this.accounts);
    const total = this.totalLamports;
    const journal = this.journal;
    const putBack = (): Pubkey[] => {
      const restored: Pubkey[] = [];
      for (const [k, state] of this.accounts) if (before.get(k) !== state) restored.push(k);
      for (const k of before.keys()) if (!this.accounts.has(k)) restored.push(k);
      for (const k of restored) {
        const prev = before.get(k);
        if (prev) this.accounts.set(k, prev);
        else this.accounts.delete(k);
      }
      this.totalLamports = total;
      this.journal = journal;
      return restored;
    };
    let value: T;
    try {
      value = fn();
    } catch (err) {
      putBack();
      throw err;
    }
    return { value, restored: putBack() };
  }

  private remember(pubkey: Pubkey): void {
    if (this.journal && !this.journal.has(pubkey)) this.journal.set(pubkey, this.accounts.get(pubkey));
  }

  attach(ledger: LedgerWriter): void {
    this.ledger = ledger;
  }

  put(pubkey: Pubkey, owner: Pubkey, data: Uint8Array, lamports: bigint, executable = false): void {
    const state: AccountState = { lamports, owner, data, executable, rentEpoch: RENT_EPOCH };
    this.remember(pubkey);
    this.totalLamports += lamports - (this.accounts.get(pubkey)?.lamports ?? 0n);
    this.accounts.set(pubkey, state);
    this.ledger?.setAccount(pubkey, state);
  }

  /** Writes `data` with rent-exempt lamports (kept if the account already holds more). */
  putRentExempt(pubkey: Pubkey, owner: Pubkey, data: Uint8Array): void {
    const prev = this.accounts.get(pubkey);
    const rent = rentExempt(data.length);
    const lamports = prev && prev.lamports > rent ? prev.lamports : rent;
    this.put(pubkey, owner, data, lamports);
  }

  /**
   * Runs `create`, which writes new accounts with their rent (and wrapped SOL) out of nothing, as the world's account
   * builders do, and takes the lamports that appeared from `payer`, as the program's CreateAccount CPIs would.
   */
  payFor(payer: Pubkey, create: () => void): void {
    const before = this.totalLamports;
    create();
    this.addLamports(payer, -(this.totalLamports - before));
  }

  get(pubkey: Pubkey): AccountState | undefined {
    return this.accounts.get(pubkey);
  }

  lamports(pubkey: Pubkey): bigint {
    return this.accounts.get(pubkey)?.lamports ?? 0n;
  }

  setLamports(pubkey: Pubkey, lamports: bigint): void {
    if (lamports < 0n) throw new Error(`negative lamports for ${pubkey}`);
    const prev = this.accounts.get(pubkey);
    if (prev) this.put(pubkey, prev.owner, prev.data, lamports, prev.executable);
    else this.put(pubkey, SYSTEM_PROGRAM, new Uint8Array(0), lamports);
  }

  addLamports(pubkey: Pubkey, delta: bigint): void {
    this.setLamports(pubkey, this.lamports(pubkey) + delta);
  }

  delete(pubkey: Pubkey): void {
    this.remember(pubkey);
    this.totalLamports -= this.accounts.get(pubkey)?.lamports ?? 0n;
    this.accounts.delete(pubkey);
    this.ledger?.deleteAccount(pubkey);
  }
}

export class TokenBook {
  readonly mints = new Map<Pubkey, MintState>();
  readonly accounts = new Map<Pubkey, TokenAccountState>();
  private readonly byMint = new Map<Pubkey, Set<Pubkey>>();

  constructor(private readonly store: Store) {}

  /** Re-reads the typed state of `keys` from the (rolled back) account mirror. */
  reload(keys: Pubkey[]): void {
    for (const k of keys) {
      const acct = this.store.get(k);
      const known = this.accounts.get(k);
      const mint = this.mints.get(k);
      if (mint) {
        if (acct) mint.supply = readU64(acct.data, 36);
        continue;
      }
      if (!acct) {
        if (known) {
          this.accounts.delete(k);
          this.byMint.get(known.mint)?.delete(k);
        }
        continue;
      }
      if (acct.owner !== TOKEN_PROGRAM && acct.owner !== TOKEN_2022_PROGRAM) continue;
      if (acct.data.length < TOKEN_ACCOUNT_SIZE) continue;
      const decoded = decodeTokenAccount(k, acct.owner, acct.data, acct.lamports);
      this.accounts.set(k, decoded);
      let set = this.byMint.get(decoded.mint);
      if (!set) this.byMint.set(decoded.mint, (set = new Set()));
      set.add(k);
    }
  }

  mint(address: Pubkey): MintState {
    const m = this.mints.get(address);
    if (!m) throw new Error(`unknown mint ${address}`);
    return m;
  }

  writeMint(m: MintState): void {
    this.mints.set(m.address, m);
    this.store.putRentExempt(m.address, m.program, encodeMint(m));
  }

  account(address: Pubkey): TokenAccountState | undefined {
    return this.accounts.get(address);
  }

  holdersOf(mint: Pubkey): TokenAccountState[] {
    const set = this.byMint.get(mint);
    if (!set) return [];
    const out: TokenAccountState[] = [];
    for (const a of set) {
      const acct = this.accounts.get(a);
      if (acct) out.push(acct);
    }
    return out;
  }

  ataAddress(owner: Pubkey, mint: Pubkey): Pubkey {
    return ata(owner, mint, this.mint(mint).program);
  }

  /** A new (empty) token account state; `write` it to create it. */
  newAccount(address: Pubkey, mint: Pubkey, owner: Pubkey, opts: { immutableOwner?: boolean } = {}): TokenAccountState {
    const m = this.mint(mint);
    const t22 = m.program === TOKEN_2022_PROGRAM;
    const acct: TokenAccountState = {
      address,
      mint,
      owner,
      program: m.program,
      amount: 0n,
      delegate: null,
      delegatedAmount: 0n,
      closeAuthority: null,
      immutableOwner: t22 && (opts.immutableOwner ?? true),
      withheld: t22 && m.transferFee ? 0n : null,
      lamports: 0n,
    };
    acct.lamports = rentExempt(tokenAccountSize(acct.program, acct.immutableOwner, acct.withheld !== null));
    return acct;
  }

  write(acct: TokenAccountState): void {
    this.accounts.set(acct.address, acct);
    let set = this.byMint.get(acct.mint);
    if (!set) this.byMint.set(acct.mint, (set = new Set()));
    set.add(acct.address);
    this.store.put(acct.address, acct.program, encodeTokenAccount(acct), acct.lamports);
  }

  /** Re-points a token account at another mint with a new balance (a vault adopted from fixtures: see DAMM v1). */
  moveToMint(acct: TokenAccountState, mint: Pubkey, amount: bigint): void {
    this.byMint.get(acct.mint)?.delete(acct.address);
    acct.mint = mint;
    acct.amount = amount;
    this.write(acct);
  }

  close(acct: TokenAccountState, destination: Pubkey): void {
    if (acct.amount !== 0n && acct.mint !== WSOL_MINT) throw new Error("closing a non-empty token account");
    this.store.addLamports(destination, acct.lamports);
    this.accounts.delete(acct.address);
    this.byMint.get(acct.mint)?.delete(acct.address);
    this.store.delete(acct.address);
  }

  /** Token transfer with Token-2022 transfer-fee withholding and wrapped-SOL lamport movement. Returns the fee withheld. */
  transfer(from: TokenAccountState, to: TokenAccountState, amount: bigint): bigint {
    if (from.mint !== to.mint) throw new Error("transfer between different mints");
    if (amount > from.amount) throw new Error(`insufficient funds in ${from.address}: ${from.amount} < ${amount}`);
    const m = this.mint(from.mint);
    const fee = transferFeeFor(m, amount);
    from.amount -= amount;
    to.amount += amount - fee;
    if (fee > 0n) to.withheld = (to.withheld ?? 0n) + fee;
    if (from.mint === WSOL_MINT) {
      from.lamports -= amount;
      to.lamports += amount;
    }
    this.write(from);
    this.write(to);
    return fee;
  }

  mintTo(to: TokenAccountState, amount: bigint): void {
    const m = this.mint(to.mint);
    m.supply += amount;
    to.amount += amount;
    this.writeMint(m);
    this.write(to);
  }

  burn(from: TokenAccountState, amount: bigint): void {
    const m = this.mint(from.mint);
    if (amount > from.amount) throw new Error("burn exceeds balance");
    m.supply -= amount;
    from.amount -= amount;
    this.writeMint(m);
    this.write(from);
  }
}
