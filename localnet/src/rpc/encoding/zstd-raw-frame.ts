/**
 * A valid Zstandard frame that stores its content uncompressed (RFC 8878): magic, a single-segment frame header with
 * the content size, then Raw blocks of at most 128 KiB, no checksum. Node 20's zlib has no zstd compressor; every zstd
 * decoder accepts raw blocks, which is all `base64+zstd` needs (the point is the framing, not the ratio).
 */
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const MAX_BLOCK = 128 * 1024;

function frameHeader(size: number): number[] {
  // Frame_Header_Descriptor: Single_Segment_flag (0x20) + Frame_Content_Size_flag in the top two bits.
  if (size < 256) return [0x20, size];
  if (size < 65_536 + 256) {
    const v = size - 256; // the 2-byte form stores size - 256
    return [0x60, v & 0xff, v >>> 8];
  }
  return [0xa0, size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, size >>> 24];
}

export function zstdRawFrame(content: Uint8Array): Uint8Array {
  const header = [...MAGIC, ...frameHeader(content.length)];
  const blocks = Math.max(1, Math.ceil(content.length / MAX_BLOCK));
  const out = new Uint8Array(header.length + blocks * 3 + content.length);
  out.set(header, 0);
  let at = header.length;
  for (let i = 0; i < blocks; i++) {
    const chunk = content.subarray(i * MAX_BLOCK, (i + 1) * MAX_BLOCK);
    // Block_Header (3 bytes LE): Last_Block bit, Block_Type 0 (Raw) in bits 1-2, Block_Size in bits 3-23.
    const blockHeader = (chunk.length << 3) | (i === blocks - 1 ? 1 : 0);
    out[at++] = blockHeader & 0xff;
    out[at++] = (blockHeader >>> 8) & 0xff;
    out[at++] = (blockHeader >>> 16) & 0xff;
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
