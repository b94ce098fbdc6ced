import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../solana/well-known";

/**
 * Which getProgramAccounts calls this endpoint serves. The spec asks for filters; filters that exist but select
 * nothing (`{"dataSize":165}` or `{"memcmp":{"offset":0,"bytes":""}}` on the Token program) would still have a
 * node walk — and send back — every account of a program with hundreds of millions of them. So:
 * - a memcmp with empty bytes is refused on any program: it matches every account;
 * - on the programs listed here, one memcmp must pin a field that selects few accounts: a 32-byte value at one of
 *   the listed offsets.
 * Other programs may use any filters: the answer byte cap (`upstreamAnswerCapBytes`) bounds what comes back.
 */

/** A field whose exact value selects few of a program's accounts. */
export interface SelectiveField {
  name: string;
  offset: number;
  bytes: number;
}

/** SPL Token / Token-2022 token accounts: mint at 0, owner at 32 (Token-2022's extensions come after byte 165). */
const tokenAccountFields: readonly SelectiveField[] = [
  { name: "mint", offset: 0, bytes: 32 },
  { name: "owner", offset: 32, bytes: 32 },
];

/** Programs too big to scan without a selective memcmp, and the fields that make one selective. Add programs here. */
export const hugePrograms: ReadonlyMap<string, readonly SelectiveField[]> = new Map<string, readonly SelectiveField[]>([
  [TOKEN_PROGRAM_ADDRESS, tokenAccountFields],
  [TOKEN_2022_PROGRAM_ADDRESS, tokenAccountFields],
]);

/** A memcmp filter as validated: its offset and its decoded length in bytes. */
export interface MemcmpShape {
  offset: number;
  length: number;
}

/** Why `memcmps` on `program` are not selective enough to serve, or undefined when they are. */
export function unselectiveProblem(program: string, memcmps: readonly MemcmpShape[]): string | undefined {
  if (memcmps.some((m) => m.length === 0)) return "getProgramAccounts memcmp filter with empty bytes matches every account; not allowed on this endpoint";
  const fields = hugePrograms.get(program);
  if (!fields) return undefined;
  if (memcmps.some((m) => fields.some((f) => m.offset === f.offset && m.length === f.bytes))) return undefined;
  const wanted = fields.map((f) => `the ${f.name} (offset ${f.offset}, ${f.bytes} bytes)`).join(" or ");
  return `getProgramAccounts on ${program} requires a memcmp filter on ${wanted}`;
}
