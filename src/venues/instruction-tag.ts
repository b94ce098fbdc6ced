/** The first 8 bytes of instruction data as hex: an Anchor instruction's discriminator, compared with set lookups. */
export function instructionTag(data: Uint8Array): string {
  let out = "";
  for (let i = 0; i < 8 && i < data.length; i++) out += data[i]!.toString(16).padStart(2, "0");
  return out;
}
