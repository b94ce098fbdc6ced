/**
 * Turns an instruction tree (top-level instructions with their CPIs, log lines and events) into a `TxRecord` shaped like
 * mainnet `getTransaction` output: account keys ordered by signer/writable class, compiled instructions, inner
 * instructions with stack heights, `Program … invoke [n]` / `consumed` / `success` logs, fee, and pre/post lamport and
 * token balances read from the world's account mirror before and after the state change is applied.
 */
import type { CompiledInstruction, Pubkey, TokenBalance, TxRecord } from "../../chain/types.js";
import { base64 } from "../core/bytes.js";
import { toUi } from "../core/math.js";
import { encodeBase58 } from "../../chain/base58.js";
import { sha256 } from "../core/keys.js";
import { COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM, VOTE_PROGRAM } from "../programs.js";
import type { Store, TokenBook } from "../store.js";

export interface Meta {
  pubkey: Pubkey;
  signer?: boolean;
  writable?: boolean;
}

export type Step =
  | { log: string }
  | { data: Uint8Array }
  | { ret: Uint8Array }
  | { cpi: Ix };

export interface Ix {
  program: Pubkey;
  accounts: Meta[];
  data: Uint8Array;
  steps: Step[];
  /** Compute units used by this instruction itself (CPIs add their own). */
  cu: number;
}

/** Builtin programs log only `invoke` and `success`. */
const BUILTINS = new Set([SYSTEM_PROGRAM, COMPUTE_BUDGET_PROGRAM, VOTE_PROGRAM]);

export function w(pubkey: Pubkey): Meta {
  return { pubkey, writable: true };
}
export function r(pubkey: Pubkey): Meta {
  return { pubkey };
}
export function ws(pubkey: Pubkey): Meta {
  return { pubkey, writable: true, signer: true };
}
export function rs(pubkey: Pubkey): Meta {
  return { pubkey, signer: true };
}

export interface TxFailure {
  /** Index into `ixs` of the instruction that fails. */
  ixIndex: number;
  code: number;
  /** Log lines the failing program prints before failing. */
  logs: string[];
  /**
   * The instruction fails after its CPIs ran (an aggregator's slippage check after its legs): their logs and inner
   * instructions are kept, as Agave records them for a failed transaction. Otherwise it fails on entry.
   */
  afterCpis?: boolean;
}

export interface TxPlan {
  payer: Pubkey;
  ixs: Ix[];
  cuLimit: number;
  /** micro-lamports per compute unit */
  cuPrice: bigint;
  version: "legacy" | 0;
  /** Applies the state change (not called when the transaction fails). */
  apply(): void;
  fail?: TxFailure;
}

export interface TxContext {
  store: Store;
  book: TokenBook;
  recentBlockhash: string;
  signature: string;
}

interface KeyInfo {
  signer: boolean;
  writable: boolean;
  order: number;
}

function collectKeys(plan: TxPlan): Pubkey[] {
  const info = new Map<Pubkey, KeyInfo>();
  let order = 0;
  const touch = (k: Pubkey, signer: boolean, writable: boolean) => {
    const i = info.get(k);
    if (i) {
      i.signer ||= signer;
      i.writable ||= writable;
    } else info.set(k, { signer, writable, order: order++ });
  };
  touch(plan.payer, true, true);
  const walk = (ix: Ix, top: boolean) => {
    for (const m of ix.accounts) touch(m.pubkey, top && !!m.signer, !!m.writable);
    touch(ix.program, false, false);
    for (const s of ix.steps) if ("cpi" in s) walk(s.cpi, false);
  };
  for (const ix of plan.ixs) walk(ix, true);
  const rank = (k: Pubkey, i: KeyInfo) =>
    k === plan.payer ? -1 : i.signer ? (i.writable ? 0 : 1) : i.writable ? 2 : 3;
  return [...info.entries()]
    .sort((a, b) => rank(a[0], a[1]) - rank(b[0], b[1]) || a[1].order - b[1].order)
    .map(([k]) => k);
}

function header(keys: Pubkey[], plan: TxPlan): TxRecord["message"]["header"] {
  const signers = new Set<Pubkey>([plan.payer]);
  const writable = new Set<Pubkey>([plan.payer]);
  const walk = (ix: Ix, top: boolean) => {
    for (const m of ix.accounts) {
      if (top && m.signer) signers.add(m.pubkey);
      if (m.writable) writable.add(m.pubkey);
    }
    for (const s of ix.steps) if ("cpi" in s) walk(s.cpi, false);
  };
  for (const ix of plan.ixs) walk(ix, true);
  let roSigned = 0;
  let roUnsigned = 0;
  for (const k of keys) {
    if (writable.has(k)) continue;
    if (signers.has(k)) roSigned++;
    else roUnsigned++;
  }
  return { numRequiredSignatures: signers.size, numReadonlySignedAccounts: roSigned, numReadonlyUnsignedAccounts: roUnsigned };
}

function tokenBalances(keys: Pubkey[], book: TokenBook): TokenBalance[] {
  const out: TokenBalance[] = [];
  keys.forEach((k, accountIndex) => {
    const a = book.account(k);
    if (!a) return;
    const decimals = book.mint(a.mint).decimals;
    const ui = toUi(a.amount, decimals);
    out.push({
      accountIndex,
      mint: a.mint,
      owner: a.owner,
      programId: a.program,
      uiTokenAmount: { amount: a.amount.toString(), decimals, uiAmount: Number(ui), uiAmountString: ui },
    });
  });
  return out;
}

export function priorityFee(cuLimit: number, cuPrice: bigint): bigint {
  return (BigInt(cuLimit) * cuPrice + 999_999n) / 1_000_000n;
}

export function executeTx(plan: TxPlan, ctx: TxContext): TxRecord {
  const keys = collectKeys(plan);
  const index = new Map(keys.map((k, i) => [k, i]));
  const hdr = header(keys, plan);
  const fee = 5000n * BigInt(hdr.numRequiredSignatures) + priorityFee(plan.cuLimit, plan.cuPrice);

  const preBalances = keys.map((k) => ctx.store.lamports(k));
  const preTokenBalances = tokenBalances(keys, ctx.book);
  if (ctx.store.lamports(plan.payer) < fee) throw new Error(`fee payer ${plan.payer} cannot pay the fee`);
  ctx.store.begin();
  try {
    ctx.store.addLamports(plan.payer, -fee);
    if (!plan.fail) plan.apply();
    ctx.store.commit();
  } catch (err) {
    // Never leave half a state change behind: restore the accounts and their typed state, and drop the transaction.
    ctx.book.reload(ctx.store.rollback());
    throw err;
  }
  const postBalances = keys.map((k) => ctx.store.lamports(k));
  const postTokenBalances = tokenBalances(keys, ctx.book);

  const compile = (ix: Ix, stackHeight: number | null): CompiledInstruction => ({
    programIdIndex: index.get(ix.program)!,
    accounts: ix.accounts.map((m) => index.get(m.pubkey)!),
    data: ix.data,
    ...(stackHeight === null ? {} : { stackHeight }),
  });

  const logs: string[] = [];
  const innerInstructions: { index: number; instructions: CompiledInstruction[] }[] = [];
  let spent = 0;
  const emit = (ix: Ix, depth: number, inner: CompiledInstruction[]): void => {
    const available = plan.cuLimit - spent;
    const start = spent;
    logs.push(`Program ${ix.program} invoke [${depth}]`);
    const half = Math.floor(ix.cu / 2);
    spent += half;
    for (const s of ix.steps) {
      if ("log" in s) logs.push(`Program log: ${s.log}`);
      else if ("data" in s) logs.push(`Program data: ${base64(s.data)}`);
      else if ("ret" in s) logs.push(`Program return: ${ix.program} ${base64(s.ret)}`);
      else {
        inner.push(compile(s.cpi, depth + 1));
        emit(s.cpi, depth + 1, inner);
      }
    }
    spent += ix.cu - half;
    if (!BUILTINS.has(ix.program)) logs.push(`Program ${ix.program} consumed ${spent - start} of ${available} compute units`);
    logs.push(`Program ${ix.program} success`);
  };

  let err: TxRecord["meta"]["err"] = null;
  for (let i = 0; i < plan.ixs.length; i++) {
    const ix = plan.ixs[i]!;
    const inner: CompiledInstruction[] = [];
    if (plan.fail && plan.fail.ixIndex === i) {
      const available = plan.cuLimit - spent;
      const start = spent;
      logs.push(`Program ${ix.program} invoke [1]`);
      if (plan.fail.afterCpis) {
        for (const s of ix.steps) {
          if ("log" in s) logs.push(`Program log: ${s.log}`);
          else if ("data" in s) logs.push(`Program data: ${base64(s.data)}`);
          else if ("cpi" in s) {
            inner.push(compile(s.cpi, 2));
            emit(s.cpi, 2, inner);
          }
        }
        if (inner.length) innerInstructions.push({ index: i, instructions: inner });
      } else {
        const first = ix.steps[0];
        if (first && "log" in first) logs.push(`Program log: ${first.log}`);
      }
      for (const l of plan.fail.logs) logs.push(`Program log: ${l}`);
      spent += Math.floor(ix.cu / 3);
      const used = spent - start;
      logs.push(`Program ${ix.program} consumed ${used} of ${available} compute units`);
      logs.push(`Program ${ix.program} failed: custom program error: 0x${plan.fail.code.toString(16)}`);
      err = { InstructionError: [i, { Custom: plan.fail.code }] };
      break;
    }
    emit(ix, 1, inner);
    if (inner.length) innerInstructions.push({ index: i, instructions: inner });
  }

  return {
    signatures: Array.from({ length: hdr.numRequiredSignatures }, (_, i) =>
      i === 0 ? ctx.signature : encodeBase58(new Uint8Array([...sha256(ctx.signature, `:${i}:a`), ...sha256(ctx.signature, `:${i}:b`)])),
    ),
    message: {
      header: hdr,
      accountKeys: keys,
      recentBlockhash: ctx.recentBlockhash,
      instructions: plan.ixs.map((ix) => compile(ix, null)),
    },
    meta: {
      err,
      fee,
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances,
      innerInstructions,
      logMessages: logs,
      computeUnitsConsumed: BigInt(spent),
    },
    version: plan.version,
  };
}
