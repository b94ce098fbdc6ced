import type { Address } from "@solana/kit";
import { z } from "zod/mini";
import { limits } from "../limits";

/**
 * Candidate pools of a mint are a pure function of the mint (and of this code's list of configs and presets), but cost
 * tens of PDA derivations — the dearest CPU of a never-seen mint. They are kept in the Cache API so each colo derives
 * a mint once, not each isolate. Bump `version` whenever the derivation lists change.
 */
const version = 1;
const ttlSeconds = limits.candidateStoreSeconds;

export interface StoredCandidate {
  pool: Address;
  kind: string;
  alsoRead: Address[];
}

const storedSchema = z.array(z.object({ pool: z.string(), kind: z.string(), alsoRead: z.array(z.string()) }));

const keyOf = (mint: Address) => `https://static-facts.internal/v${version}/candidates/${mint}`;
const cache = (): Cache | undefined => (typeof caches === "undefined" ? undefined : caches.default);

export async function readStoredCandidates(mint: Address): Promise<StoredCandidate[] | undefined> {
  try {
    const res = await cache()?.match(keyOf(mint));
    if (!res) return undefined;
    const parsed = storedSchema.safeParse(await res.json());
    return parsed.success ? (parsed.data as StoredCandidate[]) : undefined;
  } catch {
    return undefined;
  }
}

export function storeCandidates(mint: Address, candidates: StoredCandidate[], waitUntil: (p: Promise<unknown>) => void): void {
  const store = cache();
  if (!store) return;
  const res = new Response(JSON.stringify(candidates), { headers: { "content-type": "application/json", "cache-control": `public, max-age=${ttlSeconds}` } });
  waitUntil(store.put(keyOf(mint), res).catch(() => undefined));
}
