/**
 * Shape of untrusted off-chain token metadata JSON (the document a metadata URI points at). Pure: no I/O.
 *
 * Real token JSON is loosely structured: socials appear top-level (`twitter`, `website`, `telegram` — pump.fun
 * style), under `extensions` (token-list style), under `properties.links`, or under `links`. A field of the wrong
 * type is treated as absent rather than failing the document, because one odd field should not hide the rest.
 * Display text is cleaned (control and bidi-override characters removed, trimmed) and capped; every URL
 * (image and socials) must pass the metadata URI policy unmodified, so clients never receive `javascript:`/`data:` links or
 * links to private hosts, and `ipfs://`/`ar://` come back rewritten onto the gateways.
 *
 * Handles: `"@name"` (only with the `@`) is expanded to `https://x.com/name` for twitter and
 * `https://t.me/name` for telegram; any other non-URL value is dropped.
 */
import * as z from "zod/mini";

import { checkMetadataUri, type MetadataUriPolicy } from "./uri-policy";

/** Display-text caps (code points): long enough for real tokens, short enough to keep responses small. */
export const OFFCHAIN_TEXT_LIMITS = { name: 200, symbol: 50, description: 2000 } as const;

export type OffchainSocials = { twitter?: string; website?: string; telegram?: string; discord?: string };

/** What the token overview takes from off-chain metadata. */
export type OffchainMetadata = {
  name?: string;
  symbol?: string;
  /** Normalised https URL, or null when absent or refused by the URI policy. */
  image: string | null;
  description: string | null;
  socials: OffchainSocials;
};

// C0/C1 controls except tab and newline, plus bidi embedding/override/isolate marks that can disguise text.
const UNSAFE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function cleanText(value: string, maxCodePoints: number): string | undefined {
  const cleaned = Array.from(value.replace(UNSAFE_TEXT, "").trim()).slice(0, maxCodePoints).join("").trim();
  return cleaned === "" ? undefined : cleaned;
}

/** An optional string field; anything that is not a string reads as absent. */
const optionalText = (maxCodePoints: number) =>
  z.catch(
    z.optional(z.pipe(z.string(), z.transform((value) => cleanText(value, maxCodePoints)))),
    undefined,
  );
// URLs are neither cleaned nor truncated (a cut or "repaired" URL is a different URL): the URI policy sees them raw
// and refuses control characters and lengths over its cap; the body cap already bounds their size here.
const optionalUrlText = () => z.catch(z.optional(z.string()), undefined);

const linkFields = {
  twitter: optionalUrlText(),
  x: optionalUrlText(),
  website: optionalUrlText(),
  telegram: optionalUrlText(),
  discord: optionalUrlText(),
};
const linkBag = z.catch(z.optional(z.object(linkFields)), undefined);

/** Top level must be a JSON object; unknown keys are dropped. */
export const offchainMetadataJsonSchema = z.object({
  name: optionalText(OFFCHAIN_TEXT_LIMITS.name),
  symbol: optionalText(OFFCHAIN_TEXT_LIMITS.symbol),
  description: optionalText(OFFCHAIN_TEXT_LIMITS.description),
  image: optionalUrlText(),
  ...linkFields,
  extensions: linkBag,
  links: linkBag,
  properties: z.catch(z.optional(z.object({ links: linkBag })), undefined),
});
export type OffchainMetadataJson = z.infer<typeof offchainMetadataJsonSchema>;
type LinkBag = Partial<Record<keyof typeof linkFields, string>>;

const HANDLE_EXPANSIONS: Partial<Record<keyof OffchainSocials, { pattern: RegExp; base: string }>> = {
  twitter: { pattern: /^@([A-Za-z0-9_]{1,15})$/, base: "https://x.com/" },
  telegram: { pattern: /^@([A-Za-z0-9_]{5,32})$/, base: "https://t.me/" },
};

function toLink(kind: keyof OffchainSocials, value: string | undefined, policy: MetadataUriPolicy): string | undefined {
  if (value === undefined) return undefined;
  const expansion = HANDLE_EXPANSIONS[kind];
  const handle = expansion?.pattern.exec(value)?.[1];
  if (expansion && handle) return `${expansion.base}${handle}`;
  const checked = checkMetadataUri(value, policy);
  return checked.ok ? checked.url.href : undefined;
}

/**
 * Validates parsed JSON and normalises it into {@link OffchainMetadata}. Returns null when the document is not a
 * JSON object. Socials: the first usable value wins, in the order top level, `extensions`, `properties.links`, `links`.
 */
export function normalizeOffchainMetadata(json: unknown, policy: MetadataUriPolicy): OffchainMetadata | null {
  const parsed = offchainMetadataJsonSchema.safeParse(json);
  if (!parsed.success) return null;
  const doc = parsed.data;
  const bags: LinkBag[] = [doc, doc.extensions ?? {}, doc.properties?.links ?? {}, doc.links ?? {}];

  const socials: OffchainSocials = {};
  for (const kind of ["twitter", "website", "telegram", "discord"] as const) {
    for (const bag of bags) {
      const link = toLink(kind, bag[kind] ?? (kind === "twitter" ? bag.x : undefined), policy);
      if (link) {
        socials[kind] = link;
        break;
      }
    }
  }

  const image = doc.image === undefined ? null : checkMetadataUri(doc.image, policy);
  return {
    ...(doc.name !== undefined && { name: doc.name }),
    ...(doc.symbol !== undefined && { symbol: doc.symbol }),
    image: image?.ok ? image.url.href : null,
    description: doc.description ?? null,
    socials,
  };
}
