/**
 * The overview's metadata step: the untrusted off-chain JSON at a token's `uri`, reduced to image, description and
 * socials. All I/O goes through the guarded fetch (URI policy on every hop, deadline, byte cap, strict UTF-8), and
 * every failure yields the empty profile: the overview answers without metadata rather than not at all.
 */
import { fetchMetadataJson, type GuardedFetchOptions, type MetadataFetchFailure } from "../metadata/guarded-fetch";
import type { MetadataUriPolicy } from "../metadata/uri-policy";
import type { OverviewSocials } from "./overview-schema";

export type OffchainProfile = { image: string | null; description: string | null; socials: OverviewSocials };

/** What an overview shows when there is no usable off-chain metadata. */
export const EMPTY_OFFCHAIN_PROFILE: OffchainProfile = Object.freeze({ image: null, description: null, socials: Object.freeze({}) });

/** `none`: the token has no URI. Otherwise the guarded fetch's own outcome. */
export type OffchainOutcome = "ok" | "none" | MetadataFetchFailure;

/** Failures that may well succeed on the next try, so their empty profile is cached only briefly. */
const TRANSIENT: ReadonlySet<OffchainOutcome> = new Set<OffchainOutcome>(["timeout", "network_error", "http_status"]);

/** True when `outcome` should be retried soon rather than remembered for the full profile TTL. */
export function isTransientOffchainOutcome(outcome: OffchainOutcome): boolean {
  return TRANSIENT.has(outcome);
}

/**
 * Fetches and reduces the off-chain metadata at `uri` (null: none). Never throws; anything but a valid document
 * from an allowed target gives {@link EMPTY_OFFCHAIN_PROFILE} and says why in `outcome`.
 */
export async function fetchOffchainProfile(
  uri: string | null,
  policy: MetadataUriPolicy,
  options: GuardedFetchOptions = {},
): Promise<{ profile: OffchainProfile; outcome: OffchainOutcome }> {
  if (uri === null) return { profile: EMPTY_OFFCHAIN_PROFILE, outcome: "none" };
  const fetched = await fetchMetadataJson(uri, policy, options);
  if (!fetched.ok) return { profile: EMPTY_OFFCHAIN_PROFILE, outcome: fetched.reason };
  const { image, description, socials } = fetched.value;
  return {
    profile: {
      image,
      description,
      socials: {
        ...(socials.twitter !== undefined && { twitter: socials.twitter }),
        ...(socials.website !== undefined && { website: socials.website }),
        ...(socials.telegram !== undefined && { telegram: socials.telegram }),
      },
    },
    outcome: "ok",
  };
}
