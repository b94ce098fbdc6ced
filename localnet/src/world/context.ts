/**
 * What the venues share while building genesis and slots: the account mirror, the token book, the clock, the world's
 * random streams, and helpers for the user-side legs every swap transaction carries (ATA creation, SOL wrapping).
 */
import type { Pubkey } from "../chain/types.js";
import { ata } from "./core/keys.js";
import { Rng } from "./core/rng.js";
import { Store, TokenBook } from "./store.js";
import { TOKEN_PROGRAM, WSOL_MINT } from "./programs.js";
import { tokenAccountSize, type TokenAccountState } from "./spl/token.js";
import type { SwapMark } from "./swap-marks.js";
import type { Ix, TxFailure, TxPlan } from "./tx/builder.js";
import {
  ataCreate,
  closeAccount,
  setComputeUnitLimit,
  setComputeUnitPrice,
  syncNative,
  systemTransfer,
} from "./tx/common.js";

export interface Clock {
  slot: number;
  blockTime: number;
}

export class WorldContext {
  readonly store = new Store();
  readonly book = new TokenBook(this.store);
  readonly clock: Clock = { slot: 0, blockTime: 0 };
  /** SOL/USD from the Pyth account, for sizing USD-quoted trades. */
  solUsd = 172.5;

  constructor(readonly seed: number) {}

  rng(label: string): Rng {
    return new Rng(this.seed, label);
  }

  tokenAccount(address: Pubkey): TokenAccountState {
    const a = this.book.account(address);
    if (!a) throw new Error(`no token account ${address}`);
    return a;
  }

  /** Creates a token account directly (genesis): ATA by default. */
  createTokenAccount(owner: Pubkey, mint: Pubkey, amount: bigint, address?: Pubkey): TokenAccountState {
    const m = this.book.mint(mint);
    const addr = address ?? ata(owner, mint, m.program);
    const acct = this.book.newAccount(addr, mint, owner, { immutableOwner: address === undefined });
    acct.amount = amount;
    if (mint === WSOL_MINT) acct.lamports += amount;
    this.book.write(acct);
    return acct;
  }
}

/**
 * A transaction being assembled: instructions in order, each with the state change it causes, applied in the same
 * order once the builder has read the pre-balances.
 */
export class Draft {
  readonly ixs: Ix[] = [];
  private readonly applies: (() => void)[] = [];
  /** The swaps the transaction makes, in instruction order (swap-truth.ts). */
  readonly swaps: SwapMark[] = [];
  fail?: TxFailure;

  constructor(
    private readonly ctx: WorldContext,
    readonly payer: Pubkey,
    readonly cuLimit: number,
    readonly cuPrice: bigint,
    readonly version: "legacy" | 0 = "legacy",
  ) {
    this.ixs.push(setComputeUnitLimit(cuLimit), setComputeUnitPrice(cuPrice));
  }

  add(ix: Ix, apply?: () => void): number {
    this.ixs.push(ix);
    if (apply) this.applies.push(apply);
    return this.ixs.length - 1;
  }

  /** How many state-change steps the draft holds (a mark for `applyFrom`). */
  get applyCount(): number {
    return this.applies.length;
  }

  /** Runs the state-change steps from `mark` on (speculative planning: the caller rolls the state back). */
  applyFrom(mark: number): void {
    for (let i = mark; i < this.applies.length; i++) this.applies[i]!();
  }

  /** Bookkeeping that runs with the state change (after the instructions added so far). */
  onApply(apply: () => void): void {
    this.applies.push(apply);
  }

  /** The user's ATA for `mint`, with a CreateIdempotent instruction first when it does not exist yet. */
  ensureAta(owner: Pubkey, mint: Pubkey): Pubkey {
    const m = this.ctx.book.mint(mint);
    const address = ata(owner, mint, m.program);
    if (this.ctx.book.account(address) || this.pendingCreates.has(address)) return address;
    this.pendingCreates.add(address);
    const size = tokenAccountSize(m.program, m.program !== TOKEN_PROGRAM, !!m.transferFee);
    this.add(ataCreate(this.payer, address, owner, mint, m.program, size), () => {
      const acct = this.ctx.book.newAccount(address, mint, owner);
      this.ctx.store.addLamports(this.payer, -acct.lamports);
      this.ctx.book.write(acct);
    });
    return address;
  }
  private readonly pendingCreates = new Set<Pubkey>();

  /** Temporary wSOL ATA funded with `lamports` (create, transfer, SyncNative), closed again by `unwrapSol`. */
  wrapSol(owner: Pubkey, lamports: bigint): Pubkey {
    const address = this.ensureAta(owner, WSOL_MINT);
    if (lamports > 0n) {
      this.add(systemTransfer(owner, address, lamports), () => {
        this.ctx.store.addLamports(owner, -lamports);
        const a = this.ctx.tokenAccount(address);
        a.lamports += lamports;
        this.ctx.book.write(a);
      });
      this.add(syncNative(address), () => {
        const a = this.ctx.tokenAccount(address);
        a.amount += lamports;
        this.ctx.book.write(a);
      });
    }
    return address;
  }

  unwrapSol(owner: Pubkey): void {
    const address = ata(owner, WSOL_MINT, TOKEN_PROGRAM);
    this.add(closeAccount(address, owner, owner), () => {
      this.ctx.book.close(this.ctx.tokenAccount(address), owner);
    });
  }

  plan(): TxPlan {
    const applies = this.applies;
    // Wallets size their compute-unit limit to what the transaction needs (with headroom), as simulation-based clients do.
    const total = (ix: Ix): number => ix.cu + ix.steps.reduce((a, s) => a + ("cpi" in s ? total(s.cpi) : 0), 0);
    const need = this.ixs.reduce((a, ix) => a + total(ix), 0);
    let cuLimit = this.cuLimit;
    if (need > cuLimit) {
      cuLimit = Math.ceil((need * 1.15) / 1000) * 1000;
      this.ixs[0] = setComputeUnitLimit(cuLimit);
    }
    return {
      payer: this.payer,
      ixs: this.ixs,
      cuLimit,
      cuPrice: this.cuPrice,
      version: this.version,
      apply: () => {
        for (const f of applies) f();
      },
      ...(this.fail ? { fail: this.fail } : {}),
    };
  }
}
