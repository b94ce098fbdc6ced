/**
 * Swaps and pool events of one transaction, read from its instructions and balances alone (no I/O).
 *
 * A swap is one swap instruction of one of the listed venues (top level or CPI, any depth) against one pool — or one leg
 * of an instruction that swaps through several pools (Whirlpool's two-hop swaps: the venue's `swapLegs`). Its amounts
 * are what the pool's reserves gained and lost:
 * - a reserve that only this swap names in the transaction: the meta's post − pre balance (token amount, or lamports
 *   for a pump.fun curve), less what visible instructions outside the swap moved (a create that minted the curve's
 *   supply or funded its rent in the same transaction). That is exact, Token-2022 transfer fees included;
 * - a reserve several swaps name (one pool swapped twice, routes): the transfers inside each swap's own CPI subtree,
 *   and for a pump.fun curve's lamports the TradeEvent the swap emitted (a sell debits the curve without any CPI).
 * Base and quote are ranked (pair-orientation.ts); "buy" = base left the pool. The wallet is the user the swap
 * instruction names (its venue's user / payer position) when that user signed the transaction, so two signers swapping
 * in one transaction each get their own trade whoever paid the fees; a user nobody signed for is a program's account (a
 * router acting for the transaction) and the fee payer is the trader. The same read gives the pools swapped
 * (for the pool registry, with the accounts their pricer reads) and the pool events: creates and migrates from their
 * instructions, graduations from the completion event a bonding curve's swap emits. Failed transactions give nothing;
 * a malformed instruction is skipped and never makes the whole transaction throw.
 */
import type { Address } from "@solana/kit";
import { PUMP_PROGRAM_ADDRESS, WELL_KNOWN_DECIMALS, WSOL_MINT } from "../solana/well-known";
import { decodePumpTradeEventInstruction } from "../venues/pump-bonding-curve";
import { base58Bytes } from "../solana/base58";
import type { PoolLifecycle, SwappedPool, SwappedPoolRoles, SwapReserves } from "../venues/types";
import { compareAddressBytes } from "./instruction-data";
import { flattenInstructions, type FlatInstruction } from "./instruction-tree";
import type { JsonTokenBalance, JsonTransaction } from "./json-transaction";
import { baseSideOf } from "./pair-orientation";
import { venueInstructionReaders, type VenueInstructionReaders } from "./pool-legs";
import { reserveMovements, type ReserveMovement } from "./reserve-movements";
import type { PoolEvent, PoolSwap } from "./trade";

/**
 * Every swap, create or migrate instruction read names at least 3 accounts; a venue's Anchor self-CPI events name one
 * (its event authority) and carry hundreds of bytes, so they are skipped before paying for their base58 decoding (a
 * curve's completion event is looked for only inside its swap, by length first: graduations()).
 */
const MIN_READ_ACCOUNTS = 3;

export interface TradePlace {
  slot: number;
  blockTime: number | null;
  txIndex: number;
}

export interface TransactionTrades {
  swaps: PoolSwap[];
  events: PoolEvent[];
  /** each pool swapped (once) whose kind the registry learns from swaps (`VenueInstructionReaders.swappedPool`) */
  pools: SwappedPool[];
}

/** The swaps, pool events and swapped pools of `tx` (signature = its first signature), in execution order. Never throws. */
export function extractTrades(tx: JsonTransaction, at: TradePlace): TransactionTrades {
  const found: TransactionTrades = { swaps: [], events: [], pools: [] };
  try {
    readTransaction(tx, at, found);
  } catch {
    // input malformed beyond what the readers check: keep what was read before it
  }
  return found;
}

interface FoundSwap {
  readonly at: number;
  readonly reserves: SwapReserves;
  readonly readers: VenueInstructionReaders;
  readonly program: string;
  /** the swap instruction's i-th account */
  readonly key: (position: number) => Address | undefined;
}

interface TokenBalance {
  pre?: bigint;
  post?: bigint;
  mint?: string;
  decimals?: number;
}

/** One reserve, as the pool saw it in one swap. */
interface Leg {
  readonly account: Address;
  readonly mint: string;
  readonly decimals: number;
  /** + = into the pool */
  readonly delta: bigint;
}

function readTransaction(tx: JsonTransaction, place: TradePlace, out: TransactionTrades): void {
  if (typeof tx !== "object" || tx === null) return;
  const meta = tx.meta;
  if (typeof meta !== "object" || meta === null || (meta.err !== null && meta.err !== undefined)) return;
  const message = tx.transaction?.message;
  if (!message || !Array.isArray(message.accountKeys)) return;
  const loaded = meta.loadedAddresses;
  const keys: string[] =
    loaded && (loaded.writable?.length || loaded.readonly?.length)
      ? [...message.accountKeys, ...(loaded.writable ?? []), ...(loaded.readonly ?? [])]
      : message.accountKeys;
  if (!keys.some((k) => venueInstructionReaders.has(k))) return;

  const flat = flattenInstructions(tx);
  const found: FoundSwap[] = [];
  const lifecycles: { at: number; event: PoolLifecycle }[] = [];
  for (let i = 0; i < flat.length; i++) {
    const { instruction } = flat[i]!;
    const program = keys[instruction.programIdIndex]!;
    const readers = venueInstructionReaders.get(program);
    const accounts = instruction.accounts;
    if (!readers || !Array.isArray(accounts) || accounts.length < MIN_READ_ACCOUNTS) continue;
    const data = base58Bytes(instruction.data);
    if (!data) continue;
    const key = (position: number): Address | undefined => {
      const index = accounts[position];
      return typeof index === "number" ? (keys[index] as Address | undefined) : undefined;
    };
    try {
      // a venue whose instructions may swap several of its pools (two-hop) gives every leg; each is a swap of its own
      const legs = readers.swapLegs ? readers.swapLegs(data, key, accounts.length) : [readers.swapReserves(data, key, accounts.length)].filter((r) => r !== undefined);
      if (legs.length > 0) for (const reserves of legs) found.push({ at: i, reserves, readers, program, key });
      else for (const event of readers.lifecycle(data, key, accounts.length)) lifecycles.push({ at: i, event });
    } catch {
      // a truncated or inconsistent instruction: not a swap we can read
    }
  }
  if (found.length === 0 && lifecycles.length === 0) return;
  const signature = typeof tx.transaction.signatures?.[0] === "string" ? tx.transaction.signatures[0] : "";
  if (found.length > 0) {
    readSwaps(tx, keys, flat, found, place, signature, out);
    lifecycles.push(...graduations(flat, keys, found));
    lifecycles.sort((a, b) => a.at - b.at);
  }
  pushEvents(lifecycles, place, signature, out.events);
}

/** Curves completed by a swap: the venue's completion event among its own instructions in the swap's CPI subtree. */
function graduations(flat: readonly FlatInstruction[], keys: readonly string[], found: readonly FoundSwap[]): { at: number; event: PoolLifecycle }[] {
  const out: { at: number; event: PoolLifecycle }[] = [];
  for (const { at, reserves, readers, program } of found) {
    if (!readers.graduation) continue;
    for (let i = at + 1; i < flat[at]!.end; i++) {
      const { instruction } = flat[i]!;
      if (keys[instruction.programIdIndex] !== program) continue;
      const event = readers.graduation(instruction.data, reserves);
      if (event) out.push({ at: i, event });
    }
  }
  return out;
}

function readSwaps(
  tx: JsonTransaction,
  keys: readonly string[],
  flat: readonly FlatInstruction[],
  found: readonly FoundSwap[],
  place: TradePlace,
  signature: string,
  { swaps, pools }: TransactionTrades,
): void {
  const meta = tx.meta!;
  const seenPools = new Set<string>();
  const keyIndex = new Map<string, number>();
  for (let i = keys.length - 1; i >= 0; i--) keyIndex.set(keys[i]!, i);
  const tokens = tokenBalances(meta.preTokenBalances, meta.postTokenBalances);
  // A swap's user that signed the transaction is its trader; a user no key signed for is a program's own account (a
  // router's or a bot's PDA, signing by CPI) trading for the transaction, whose fee payer it acts for.
  const payer = keys[0] ?? "";
  const signerCount = tx.transaction.message.header?.numRequiredSignatures;
  const signers = new Set(typeof signerCount === "number" ? keys.slice(0, signerCount) : [payer]);

  // which swaps name each reserve account
  const reserveIndexes: ([number, number] | undefined)[] = found.map(({ reserves }) => {
    const a = keyIndex.get(reserves.reserves[0].account);
    const b = keyIndex.get(reserves.reserves[1].account);
    return a === undefined || b === undefined || a === b ? undefined : [a, b];
  });
  const namedBy = new Map<number, number>();
  for (const pair of reserveIndexes) for (const account of pair ?? []) namedBy.set(account, (namedBy.get(account) ?? 0) + 1);
  const movements = netOfTransferFees(reserveMovements(flat, keys, new Set(namedBy.keys())), namedBy, tokens);

  for (let s = 0; s < found.length; s++) {
    const pair = reserveIndexes[s];
    if (!pair) continue;
    const { at, reserves, readers, key } = found[s]!;
    const end = flat[at]!.end;
    const legs: Leg[] = [];
    for (let r = 0; r < 2; r++) {
      const reserve = reserves.reserves[r]!;
      const account = pair[r]!;
      const balance = tokens.get(account);
      const mint = reserve.lamports ? WSOL_MINT : (balance?.mint ?? reserve.mint);
      if (!mint || (reserve.mint && balance?.mint && reserve.mint !== balance.mint)) break;
      const decimals = reserve.lamports ? 9 : (balance?.decimals ?? decimalsOfMint(tokens, mint));
      if (decimals === undefined) break;
      const metaDelta = reserve.lamports ? lamportDelta(meta.preBalances, meta.postBalances, account) : tokenDelta(balance);
      const where = { account, lamports: reserve.lamports === true };
      let delta: bigint;
      if (namedBy.get(account) === 1 && metaDelta !== undefined) delta = metaDelta - moved(movements, where, at, end, false);
      else if (reserve.lamports) delta = pumpEventLamports(flat, keys, at, end, legs[0]?.mint) ?? moved(movements, where, at, end, true);
      else delta = moved(movements, where, at, end, true);
      legs.push({ account: reserve.account, mint, decimals, delta });
    }
    if (legs.length !== 2) continue;
    let own = legs as [Leg, Leg];
    if (reserves.order === "mint-bytes" && compareAddressBytes(own[0].mint, own[1].mint) > 0) own = [own[1], own[0]];
    const baseSide = baseSideOf(own[0].mint, own[1].mint);
    const base = own[baseSide];
    const quote = own[1 - baseSide]!;
    if (base.mint === quote.mint) continue;
    const roles = readers.swappedPool;
    if (roles && !seenPools.has(reserves.pool)) {
      const pool = swappedPool(reserves, roles, key, own, base, quote);
      if (pool) pools.push(pool);
      seenPools.add(reserves.pool);
    }
    if (base.delta === 0n || quote.delta === 0n || base.delta > 0n === quote.delta > 0n) continue;
    swaps.push({
      slot: place.slot,
      txIndex: place.txIndex,
      ordinal: swaps.length,
      signature,
      blockTime: place.blockTime,
      pool: reserves.pool,
      kind: reserves.kind,
      baseMint: base.mint,
      quoteMint: quote.mint,
      side: base.delta < 0n ? "buy" : "sell",
      baseAmount: base.delta < 0n ? -base.delta : base.delta,
      quoteAmount: quote.delta < 0n ? -quote.delta : quote.delta,
      baseDecimals: base.decimals,
      quoteDecimals: quote.decimals,
      wallet: signers.has(reserves.user) ? reserves.user : payer,
    });
  }
}

/** The pool as the registry stores it: its ranked pair, the reserves by their roles in the pool's order, other accounts. */
function swappedPool(
  reserves: SwapReserves,
  roles: SwappedPoolRoles,
  key: (position: number) => Address | undefined,
  own: readonly [Leg, Leg],
  base: Leg,
  quote: Leg,
): SwappedPool | undefined {
  const related: Record<string, Address> = {};
  if (roles.related) {
    const read = roles.related(key);
    if (!read) return undefined;
    Object.assign(related, read);
  }
  if (roles.reserveRoles) {
    related[roles.reserveRoles[0]] = own[0].account;
    related[roles.reserveRoles[1]] = own[1].account;
  }
  return { address: reserves.pool, kind: reserves.kind, baseMint: base.mint as Address, quoteMint: quote.mint as Address, related };
}

/** Pool events in execution order, each pool's event of a type once (a migrate names the pool its CPI also creates). */
function pushEvents(lifecycles: readonly { at: number; event: PoolLifecycle }[], place: TradePlace, signature: string, events: PoolEvent[]): void {
  const seen = new Set<string>();
  for (const { event } of lifecycles) {
    const id = `${event.type} ${event.kind} ${event.pool}`;
    if (seen.has(id) || event.mints[0] === event.mints[1]) continue;
    seen.add(id);
    const baseSide = baseSideOf(event.mints[0], event.mints[1]);
    events.push({
      slot: place.slot,
      txIndex: place.txIndex,
      ordinal: events.length,
      signature,
      type: event.type,
      pool: event.pool,
      kind: event.kind,
      baseMint: event.mints[baseSide],
      quoteMint: event.mints[1 - baseSide]!,
      related: { ...event.related },
    });
  }
}

const DIGITS = /^[0-9]{1,30}$/;

function amountOf(balance: JsonTokenBalance): bigint | undefined {
  const amount = balance.uiTokenAmount?.amount;
  return typeof amount === "string" && DIGITS.test(amount) ? BigInt(amount) : undefined;
}

/** Token balances by account index, pre and post (an account absent before was created in the transaction: 0). */
function tokenBalances(pre: readonly JsonTokenBalance[] | null | undefined, post: readonly JsonTokenBalance[] | null | undefined): Map<number, TokenBalance> {
  const byAccount = new Map<number, TokenBalance>();
  const add = (list: readonly JsonTokenBalance[] | null | undefined, when: "pre" | "post") => {
    if (!Array.isArray(list)) return;
    for (const b of list) {
      if (typeof b !== "object" || b === null || typeof b.accountIndex !== "number") continue;
      const amount = amountOf(b);
      if (amount === undefined) continue;
      let entry = byAccount.get(b.accountIndex);
      if (!entry) byAccount.set(b.accountIndex, (entry = {}));
      entry[when] = amount;
      if (typeof b.mint === "string") entry.mint = b.mint;
      const decimals = b.uiTokenAmount.decimals;
      if (typeof decimals === "number" && Number.isInteger(decimals) && decimals >= 0 && decimals <= 255) entry.decimals = decimals;
    }
  };
  add(pre, "pre");
  add(post, "post");
  return byAccount;
}

function tokenDelta(balance: TokenBalance | undefined): bigint | undefined {
  if (!balance || (balance.pre === undefined && balance.post === undefined)) return undefined;
  return (balance.post ?? 0n) - (balance.pre ?? 0n);
}

function lamportDelta(pre: readonly number[] | null | undefined, post: readonly number[] | null | undefined, account: number): bigint | undefined {
  const before = Array.isArray(pre) ? pre[account] : undefined;
  const after = Array.isArray(post) ? post[account] : undefined;
  if (!Number.isSafeInteger(before) || !Number.isSafeInteger(after)) return undefined;
  return BigInt(after!) - BigInt(before!);
}

function decimalsOfMint(tokens: ReadonlyMap<number, TokenBalance>, mint: string): number | undefined {
  for (const b of tokens.values()) if (b.mint === mint && b.decimals !== undefined) return b.decimals;
  return WELL_KNOWN_DECIMALS.get(mint as Address);
}

/** What visible instructions moved in or out of the reserve, inside the swap's CPI subtree [at, end) or outside it. */
/**
 * A token reserve several swaps name takes its amounts from the transfers in each swap's subtree. A Token-2022 mint with
 * a transfer fee withholds part of every incoming transfer in the receiving account, so the transfers overstate what the
 * reserve gained; the meta's balance change says by how much in all (visible transfers − balance change). That total is
 * split back over the incoming transfers as the program computes fees — ceil(amount · bps / 10,000) — with the one fee
 * rate that reproduces it exactly, else in proportion to the amounts (a maximum-fee cap). Reserves named once need none
 * of this: their amount is the meta's balance change itself.
 */
function netOfTransferFees(movements: ReserveMovement[], namedBy: ReadonlyMap<number, number>, tokens: ReadonlyMap<number, TokenBalance>): ReserveMovement[] {
  const out = movements;
  for (const [account, count] of namedBy) {
    if (count < 2) continue;
    const change = tokenDelta(tokens.get(account));
    if (change === undefined) continue;
    const mine = out.map((m, i) => [m, i] as const).filter(([m]) => m.account === account && !m.lamports);
    const withheld = mine.reduce((a, [m]) => a + m.amount, 0n) - change;
    const incoming = mine.filter(([m]) => m.amount > 0n);
    if (withheld <= 0n || incoming.length === 0) continue;
    const fees = transferFees(incoming.map(([m]) => m.amount), withheld);
    incoming.forEach(([m, i], k) => (out[i] = { ...m, amount: m.amount - fees[k]! }));
  }
  return out;
}

/** Per-transfer fees summing to `total`: the Token-2022 formula at the one rate that gives it, else proportional. */
export function transferFees(amounts: readonly bigint[], total: bigint): bigint[] {
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  for (let bps = 1n; bps <= 10_000n; bps++) {
    const fees = amounts.map((a) => ceilDiv(a * bps, 10_000n));
    const sum = fees.reduce((x, y) => x + y, 0n);
    if (sum === total) return fees;
    if (sum > total) break;
  }
  const all = amounts.reduce((x, y) => x + y, 0n);
  const fees = amounts.map((a) => (total * a) / all);
  fees[0] = fees[0]! + total - fees.reduce((x, y) => x + y, 0n);
  return fees;
}

function moved(movements: readonly ReserveMovement[], reserve: { account: number; lamports: boolean }, at: number, end: number, inside: boolean): bigint {
  let sum = 0n;
  for (const m of movements) {
    if (m.account !== reserve.account || m.lamports !== reserve.lamports) continue;
    if ((m.at > at && m.at < end) === inside) sum += m.amount;
  }
  return sum;
}

/** The curve's lamport change a pump swap reports in its TradeEvent self-CPI (for the swap's mint), if it emitted one. */
function pumpEventLamports(flat: readonly FlatInstruction[], keys: readonly string[], at: number, end: number, mint: string | undefined): bigint | undefined {
  for (let i = at + 1; i < end; i++) {
    const { instruction } = flat[i]!;
    if (keys[instruction.programIdIndex] !== PUMP_PROGRAM_ADDRESS) continue;
    const data = base58Bytes(instruction.data);
    const event = data && decodePumpTradeEventInstruction(data);
    if (event && event.mint === mint) return event.isBuy ? event.solAmount : -event.solAmount;
  }
  return undefined;
}
