/** Every pool kind's adapter, from the venue list, in the order the price service tries them on a pool of unknown kind. */
import type { PoolAdapter } from "./pool-adapter";
import type { PoolKind } from "./pool-kind-registry";
import { venueList } from "./venue-list";

export const poolAdapters: readonly PoolAdapter[] = venueList.map((d) => d.adapter);

export const adapterByKind: ReadonlyMap<PoolKind, PoolAdapter> = new Map(poolAdapters.map((a) => [a.kind, a]));
