/**
 * Readers of a venue's instructions built from where its IDL puts things, for the venues whose instructions share one
 * shape: a swap naming the pool, both vaults and both mints; a pool creation naming the pool, both mints and both
 * reserves; a completion event naming the curve. Each venue states its positions and layouts beside its pool (VENUES.md).
 */
import type { Address } from "@solana/kit";
import { getAddressDecoder } from "@solana/kit";
import { anchorEventPrefix, readAnchorEvent } from "./anchor-event";
import { accountsAt, instructionTag } from "./instruction-tag";
import type { PoolKind } from "./pool-kind-registry";
import type { PoolGraduationReader, PoolLifecycleReader, SwapReserves, SwapReservesReader } from "./types";

/** Account positions of a swap instruction: the pool, its two vaults, the mint of each and the user (trader). */
export interface SwapAccountPositions {
  readonly pool: number;
  readonly vaults: readonly [number, number];
  readonly mints: readonly [number, number];
  readonly user: number;
}

/** The reader of swaps (Anchor discriminators `tags`) naming their pool, vaults, mints and user at `positions`. */
export function swapReservesAt(kind: PoolKind, tags: ReadonlySet<string>, positions: SwapAccountPositions, order: SwapReserves["order"]): SwapReservesReader {
  const list = [positions.pool, ...positions.vaults, ...positions.mints, positions.user];
  return (data, key) => {
    if (!tags.has(instructionTag(data))) return undefined;
    const at = accountsAt(key, list);
    if (!at) return undefined;
    const [pool, vaultA, vaultB, mintA, mintB, user] = at as [Address, Address, Address, Address, Address, Address];
    return { kind, pool, reserves: [{ account: vaultA, mint: mintA }, { account: vaultB, mint: mintB }], order, user };
  };
}

/**
 * The reader of pool creations: discriminator → positions of [pool, mint a, mint b, ...one account per role] → a
 * created pool, those accounts under `roles` (the roles its pricer and the registry name them by).
 */
export function poolCreationsAt(kind: PoolKind, creations: ReadonlyMap<string, readonly number[]>, roles: readonly string[]): PoolLifecycleReader {
  return (data, key) => {
    const positions = creations.get(instructionTag(data));
    const at = positions && accountsAt(key, positions);
    if (!at) return [];
    const [pool, mintA, mintB, ...accounts] = at as [Address, Address, Address, ...Address[]];
    const related: Record<string, Address> = {};
    roles.forEach((role, i) => (related[role] = accounts[i]!));
    return [{ type: "create", kind, pool, mints: [mintA, mintB], related }];
  };
}

/** Where a curve's completion event (an Anchor event emitted by self-CPI) puts what a graduation needs. */
export interface CompletionEventLayout {
  readonly kind: PoolKind;
  /** sha256("event:<Name>")[0..8], hex */
  readonly discriminator: string;
  /** event data sizes accepted (prefix included) */
  readonly minSize: number;
  readonly maxSize: number;
  /** offset of the curve / pool address in the data */
  readonly poolOffset: number;
  /** offset of the base mint, checked against the swap's when the event names it */
  readonly baseMintOffset?: number;
  /** the accounts the pricer reads besides the pool, from the event's data */
  readonly related: (data: Uint8Array) => Record<string, Address>;
}

/**
 * The reader of a curve's completion event inside one of its swaps → the curve graduated. The pair is the swap's; an
 * event of another pool (a router's other swap) is not this swap's.
 */
export function completionEventReader(layout: CompletionEventLayout): PoolGraduationReader {
  const prefix = anchorEventPrefix(layout.discriminator);
  const decodeAddress = getAddressDecoder();
  return (eventData, swap) => {
    const data = readAnchorEvent(eventData, prefix, layout.minSize, layout.maxSize);
    if (!data || decodeAddress.decode(data, layout.poolOffset) !== swap.pool) return undefined;
    const [base, quote] = swap.reserves;
    if (!base.mint || !quote.mint) return undefined;
    if (layout.baseMintOffset !== undefined && decodeAddress.decode(data, layout.baseMintOffset) !== base.mint) return undefined;
    return { type: "graduate", kind: layout.kind, pool: swap.pool, mints: [base.mint, quote.mint], related: layout.related(data) };
  };
}
