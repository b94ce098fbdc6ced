/**
 * Pyth pull-oracle PriceUpdateV2 accounts (owned by the receiver program, also used by the sponsored
 * push feeds). verification_level is a Borsh enum: Partial{num_signatures: u8} takes 2 bytes, Full 1,
 * so every later field sits one byte further in partially verified updates.
 */
import {
  fixDecoderSize,
  getAddressDecoder,
  getBase16Decoder,
  getBase16Encoder,
  getI32Decoder,
  getI64Decoder,
  getU64Decoder,
  type Address,
} from "@solana/kit";
import { PYTH_RECEIVER_PROGRAM_ADDRESS } from "../well-known";
import { assertAccountShape, type AccountBytes } from "./account-shape";
import { AccountDecodeError } from "./decode-error";
import { getFieldsDecoder } from "./field-layout";

export { PYTH_RECEIVER_PROGRAM_ADDRESS };

export const PRICE_UPDATE_V2_DISCRIMINATOR = getBase16Encoder().encode("22f123639d7ef4cd");
/** Allocated for the larger (Partial) variant: 8 + 32 + 2 + 92. */
export const PRICE_UPDATE_V2_SIZE = 134;
const VERIFICATION_LEVEL_OFFSET = 40;
const PARTIAL = 0;
const FULL = 1;

export type VerificationLevel = { readonly kind: "full" } | { readonly kind: "partial"; readonly numSignatures: number };

export interface PriceUpdateV2 {
  readonly writeAuthority: Address;
  readonly verificationLevel: VerificationLevel;
  /** 32-byte feed id, lower-case hex */
  readonly feedId: string;
  /** value = price × 10^exponent */
  readonly price: bigint;
  readonly conf: bigint;
  readonly exponent: number;
  readonly publishTime: bigint;
  readonly prevPublishTime: bigint;
  readonly emaPrice: bigint;
  readonly emaConf: bigint;
  readonly postedSlot: bigint;
}

/** Message fields laid out for a Full update (starting at 41); read one byte later for Partial. */
const messageDecoder = getFieldsDecoder({
  feedId: [41, fixDecoderSize(getBase16Decoder(), 32)],
  price: [73, getI64Decoder()],
  conf: [81, getU64Decoder()],
  exponent: [89, getI32Decoder()],
  publishTime: [93, getI64Decoder()],
  prevPublishTime: [101, getI64Decoder()],
  emaPrice: [109, getI64Decoder()],
  emaConf: [117, getU64Decoder()],
  postedSlot: [125, getU64Decoder()],
});
const writeAuthorityDecoder = getAddressDecoder();

/**
 * Decodes a PriceUpdateV2 of either verification level. `receiverProgram` is the expected owner:
 * the canonical receiver unless a deployment of its own is being read.
 */
export function decodePriceUpdateV2(
  account: AccountBytes,
  receiverProgram: Address = PYTH_RECEIVER_PROGRAM_ADDRESS,
): PriceUpdateV2 {
  assertAccountShape(account, {
    layout: "PriceUpdateV2",
    owners: [receiverProgram],
    size: PRICE_UPDATE_V2_SIZE,
    discriminator: PRICE_UPDATE_V2_DISCRIMINATOR,
  });
  const data = account.data;
  const tag = data[VERIFICATION_LEVEL_OFFSET];
  let verificationLevel: VerificationLevel;
  if (tag === FULL) verificationLevel = { kind: "full" };
  else if (tag === PARTIAL) verificationLevel = { kind: "partial", numSignatures: data[VERIFICATION_LEVEL_OFFSET + 1] as number };
  else throw new AccountDecodeError("PriceUpdateV2", "value", `verification level tag ${tag}`);
  const [message] = messageDecoder.read(data, tag === FULL ? 0 : 1);
  return { writeAuthority: writeAuthorityDecoder.decode(data, 8), verificationLevel, ...message };
}
