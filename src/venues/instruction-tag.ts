/** The first 8 bytes of instruction data as hex: an Anchor instruction's discriminator, compared with set lookups. */
export function instructionTag(data: Uint8Array): string {
  let out = "";
  for (let i = 0; i < 8 && i < data.length; i++) out += data[i]!.toString(16).padStart(2, "0");
  return out;
}

/** The instruction's accounts at `positions`, or undefined when one of them is missing (malformed instruction). */
export function accountsAt<T>(key: (position: number) => T | undefined, positions: readonly number[]): T[] | undefined {
  const out: T[] = [];
  for (const p of positions) {
    const k = key(p);
    if (k === undefined) return undefined;
    out.push(k);
  }
  return out;
}
