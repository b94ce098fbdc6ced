/**
 * Virtual price of a liquid-staking token (SOL per LST, × 10⁶) from its stake pool's state, as Meteora DAMM v1 depeg
 * pools compute it (MeteoraAg/damm-v1-sdk @02c66a3c `dynamic-amm-quote/src/depeg/{marinade,solido,spl_stake}.rs`,
 * mirrored by dynamic-amm-sdk @b21e2efb `ts-client/src/amm/curve/stable-swap.ts`): integer math, rounded down.
 * Which account a pool reads is fixed by its depeg type; only SPL stake pools are named by the pool (its `stake` field).
 */
import { type Address, address, getAddressDecoder, getBase16Encoder, getU64Decoder } from "@solana/kit";
import { ratio, type Ratio } from "../math/fixed-point";
import {
  LIDO_PROGRAM_ADDRESS,
  LIDO_STATE_ADDRESS,
  MARINADE_PROGRAM_ADDRESS,
  MARINADE_STATE_ADDRESS,
  SPL_STAKE_POOL_PROGRAM_ADDRESSES,
} from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { getFieldsDecoder } from "../solana/accounts/field-layout";

/** DAMM v1 `DepegType` (borsh enum index). */
export const DEPEG_TYPE = { none: 0, marinade: 1, lido: 2, splStake: 3 } as const;
/** `constants::depeg::PRECISION`: virtual prices are SOL per token × 10⁶. */
export const DEPEG_PRECISION = 1_000_000n;

const U64_MAX = (1n << 64n) - 1n;

/** Anchor discriminator of Marinade's `State` (sha256("account:State")[..8]). */
export const MARINADE_STATE_DISCRIMINATOR = getBase16Encoder().encode("d8926b5e684bb6b1");
/** Marinade `State`: msol_price u64 at 512 (after the stake, validator and liquidity-pool systems); it ends at 520. */
export const MARINADE_STATE_MIN_SIZE = 520;
/** `State::PRICE_DENOMINATOR`: msol_price is SOL per mSOL × 2³². */
const MARINADE_PRICE_DENOMINATOR = 1n << 32n;

/**
 * The DAMM v1 program reads Lido's exchange rate as u64s at bytes 73 (st_sol_supply) and 81 (sol_balance): the Lido v1
 * layout (lido_version u8, manager, st_sol_mint, exchange_rate {computed_in_epoch, st_sol_supply, sol_balance}).
 * Lido v2 put an account_type byte first, moving both fields one byte on; read at 73/81 they are then each × 256
 * (the byte before each is the zero top byte of the previous u64), so the ratio, and the program's price, is the same.
 */
export const LIDO_STATE_MIN_SIZE = 89;

/** SPL `StakePool` borsh: account_type u8 (1 = StakePool) … total_lamports u64 @258, pool_token_supply u64 @266. */
export const SPL_STAKE_POOL_MIN_SIZE = 274;
const SPL_STAKE_POOL_ACCOUNT_TYPE = Uint8Array.of(1);

const marinadeDecoder = getFieldsDecoder({ msolPrice: [512, getU64Decoder()] });
const lidoDecoder = getFieldsDecoder({ stSolSupply: [73, getU64Decoder()], solBalance: [81, getU64Decoder()] });
const splStakePoolDecoder = getFieldsDecoder({ totalLamports: [258, getU64Decoder()], poolTokenSupply: [266, getU64Decoder()] });

/**
 * The stake-pool account a depeg pool of `depegType` reads: Marinade's and Lido's state accounts are fixed mainnet
 * addresses (the SDK's CURVE_TYPE_ACCOUNTS), an SPL stake pool is the pool's own `stake` field. None for other types.
 */
export function depegStakeAccountAddress(depegType: number, stake: Address): Address | undefined {
  switch (depegType) {
    case DEPEG_TYPE.marinade:
      return MARINADE_STATE_ADDRESS;
    case DEPEG_TYPE.lido:
      return LIDO_STATE_ADDRESS;
    case DEPEG_TYPE.splStake:
      return stake;
    default:
      return undefined;
  }
}

/** Virtual price (× 10⁶) of the LST behind `depegType`, from its stake-pool account. */
export function stakePoolVirtualPrice(depegType: number, account: AccountBytes): bigint {
  switch (depegType) {
    case DEPEG_TYPE.marinade:
      return marinadeVirtualPrice(account);
    case DEPEG_TYPE.lido:
      return lidoVirtualPrice(account);
    case DEPEG_TYPE.splStake:
      return splStakePoolVirtualPrice(account);
    default:
      throw new AccountDecodeError("DepegStakePool", "value", `no stake pool for depeg type ${depegType}`);
  }
}

/** mSOL: msol_price × 10⁶ / 2³² (floor). */
export function marinadeVirtualPrice(account: AccountBytes): bigint {
  assertAccountShape(account, {
    layout: "MarinadeState",
    owners: [MARINADE_PROGRAM_ADDRESS],
    size: [MARINADE_STATE_MIN_SIZE],
    discriminator: MARINADE_STATE_DISCRIMINATOR,
  });
  const { msolPrice } = marinadeDecoder.decode(account.data);
  return virtualPrice("MarinadeState", msolPrice, MARINADE_PRICE_DENOMINATOR);
}

/** stSOL: sol_balance × 10⁶ / st_sol_supply (floor), at the program's byte offsets (see LIDO_STATE_MIN_SIZE). */
export function lidoVirtualPrice(account: AccountBytes): bigint {
  assertAccountShape(account, { layout: "LidoState", owners: [LIDO_PROGRAM_ADDRESS], size: [LIDO_STATE_MIN_SIZE] });
  const { stSolSupply, solBalance } = lidoDecoder.decode(account.data);
  return virtualPrice("LidoState", solBalance, stSolSupply);
}

/** SPL stake pool LST: total_lamports × 10⁶ / pool_token_supply (floor). */
export function splStakePoolVirtualPrice(account: AccountBytes): bigint {
  assertAccountShape(account, {
    layout: "SplStakePool",
    owners: SPL_STAKE_POOL_PROGRAM_ADDRESSES,
    size: [SPL_STAKE_POOL_MIN_SIZE],
    discriminator: SPL_STAKE_POOL_ACCOUNT_TYPE,
  });
  const { totalLamports, poolTokenSupply } = splStakePoolDecoder.decode(account.data);
  return virtualPrice("SplStakePool", totalLamports, poolTokenSupply);
}

/** numerator × PRECISION / denominator in u128, None (here: an error) on a zero denominator or a u64 overflow. */
function virtualPrice(layout: string, numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new AccountDecodeError(layout, "value", "zero supply");
  const price = (numerator * DEPEG_PRECISION) / denominator;
  if (price > U64_MAX) throw new AccountDecodeError(layout, "value", "virtual price overflows u64");
  return price;
}

/**
 * Liquid-staking tokens whose SOL value is their stake pool's own exchange rate: a pool quoted in one of them is priced
 * through that rate (read in the same account batch as the pool), not through the LST's market. The table names the
 * stake-pool account of each mint; an SPL stake pool's account must also name the mint as its `pool_mint` (@162), so
 * a wrong row refuses rather than misprices (the LST is then priced through its own deepest pool).
 * Sources: JitoSOL (Jito4APy…, owner SPoo1Ku8…, checked against a mainnet capture, test/fixtures), mSOL (Marinade's
 * State 8szGkuLT…, the account DAMM v1 depeg pools read), bSOL (BlazeStake's SPL stake pool stk9ApL5…).
 */
export const STAKE_POOL_LSTS: ReadonlyMap<Address, { readonly kind: "spl" | "marinade"; readonly account: Address }> = new Map<Address, { kind: "spl" | "marinade"; account: Address }>([
  [address("J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn"), { kind: "spl", account: address("Jito4APyf642JPZPx3hGc6WWJ8zPKtRbRs4P815Awbb") }],
  [address("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So"), { kind: "marinade", account: MARINADE_STATE_ADDRESS }],
  [address("bSo13r4TkiE4KumL71LsHTPpL2euBYLFx6h9HP3piy1"), { kind: "spl", account: address("stk9ApL5HeVAwPLr3TLhDXdZS8ptVu7zp6ov8HFDuMi") }],
]);

const splPoolMintDecoder = getFieldsDecoder({ poolMint: [162, getAddressDecoder()] });

/**
 * SOL per LST (human units: the LSTs above have SOL's 9 decimals), exact, from the stake-pool account of `mint`:
 * total_lamports / pool_token_supply for an SPL stake pool, msol_price / 2³² for Marinade. Throws `AccountDecodeError`
 * for a mint not in the table, an account of another program or another mint, or an empty pool.
 */
export function lstSolRate(mint: Address, account: AccountBytes): Ratio {
  const lst = STAKE_POOL_LSTS.get(mint);
  if (!lst) throw new AccountDecodeError("StakePool", "value", `${mint} is not a stake-pool token we read`);
  if (lst.kind === "marinade") {
    assertAccountShape(account, { layout: "MarinadeState", owners: [MARINADE_PROGRAM_ADDRESS], size: [MARINADE_STATE_MIN_SIZE], discriminator: MARINADE_STATE_DISCRIMINATOR });
    const { msolPrice } = marinadeDecoder.decode(account.data);
    if (msolPrice === 0n) throw new AccountDecodeError("MarinadeState", "value", "zero mSOL price");
    return ratio(msolPrice, MARINADE_PRICE_DENOMINATOR);
  }
  assertAccountShape(account, { layout: "SplStakePool", owners: SPL_STAKE_POOL_PROGRAM_ADDRESSES, size: [SPL_STAKE_POOL_MIN_SIZE], discriminator: SPL_STAKE_POOL_ACCOUNT_TYPE });
  const { poolMint } = splPoolMintDecoder.decode(account.data);
  if (poolMint !== mint) throw new AccountDecodeError("SplStakePool", "mismatch", `stake pool mints ${poolMint}, not ${mint}`);
  const { totalLamports, poolTokenSupply } = splStakePoolDecoder.decode(account.data);
  if (poolTokenSupply === 0n || totalLamports === 0n) throw new AccountDecodeError("SplStakePool", "value", "empty stake pool");
  return ratio(totalLamports, poolTokenSupply);
}
