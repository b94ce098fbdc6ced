/** Little-endian readers of account bytes for the world tests: written here, apart from both the world and src/. */
import { getAddressDecoder } from "@solana/kit";

const decoder = getAddressDecoder();
export const key = (b: Uint8Array, o: number) => decoder.decode(b.subarray(o, o + 32)) as string;
export const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
export const u64 = (b: Uint8Array, o: number) => view(b).getBigUint64(o, true);
export const u128 = (b: Uint8Array, o: number) => u64(b, o) + (u64(b, o + 8) << 64n);
/** The first 8 bytes (an Anchor discriminator) in hex. */
export const disc = (b: Uint8Array) => Buffer.from(b.subarray(0, 8)).toString("hex");
