import { createDecoder, type FixedSizeDecoder } from "@solana/kit";

/** Field name → [absolute byte offset, kit decoder]. */
export type FieldLayout = Record<string, readonly [offset: number, decoder: FixedSizeDecoder<unknown>]>;

export type DecodedFields<L extends FieldLayout> = {
  -readonly [K in keyof L]: L[K] extends readonly [number, FixedSizeDecoder<infer T>] ? T : never;
};

/**
 * A kit decoder that reads only the listed fields, each at its absolute offset in the account data
 * (discriminator included). Pool accounts are 400–1,500 bytes of which pricing needs a handful of
 * fields: this skips the rest instead of materialising a full struct on the hot path.
 * `fixedSize` is the end of the furthest field, so decoding a shorter buffer fails.
 */
export function getFieldsDecoder<L extends FieldLayout>(layout: L): FixedSizeDecoder<DecodedFields<L>> {
  const fields = Object.entries(layout);
  const fixedSize = Math.max(...fields.map(([, [offset, decoder]]) => offset + decoder.fixedSize));
  return createDecoder({
    fixedSize,
    read(bytes, offset) {
      const value: Record<string, unknown> = {};
      for (const [name, [fieldOffset, decoder]] of fields) {
        value[name] = decoder.read(bytes, offset + fieldOffset)[0];
      }
      return [value as DecodedFields<L>, offset + fixedSize];
    },
  });
}
