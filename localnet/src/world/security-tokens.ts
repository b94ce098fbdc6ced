/**
 * Tokens that exercise a buyer's safety checks, and the answers the world knows about them (`GET /__localnet/security`):
 *
 * - `extensions-a`: a Token-2022 mint with every extension that can hurt a holder and is compatible with transfers
 *   (transfer fee with a pending raise, transfer hook, permanent delegate, default account state frozen, pausable
 *   (paused), mint close authority, confidential transfers), mint and freeze authorities kept, metadata mutable;
 * - `extensions-b`: a non-transferable Token-2022 mint with a permanent delegate, authorities revoked, metadata immutable;
 * - `lp`: an SPL token whose Raydium CPMM pool (wSOL, config 0) prices it; of the LP, part is burnt with a Burn, part
 *   sent to the incinerator, part locked in a Jupiter Lock escrow, the rest kept by the creator; some of the token
 *   itself sits in a Streamflow escrow and with the incinerator;
 * - `lp-amm-v4`: an SPL token whose Raydium AMM v4 pool (wSOL) prices it; of the LP, 30% burnt with a Burn, 10% sent to
 *   the all-zero key, 35% locked in a UNCX AMM v4 locker's storage account, the rest kept by the creator;
 * - `lp-pumpswap`: an SPL token whose canonical PumpSwap pool prices it (the LP mint is Token-2022, as on mainnet); of
 *   the LP, 50% burnt with a Burn, 20% sent to the incinerator, 10% locked in a Streamflow escrow, the rest kept;
 * - `positions-damm-v2`: a Meteora DAMM v2 pool's positions, locked in place, with a locker, burnt and free;
 * - `positions-clmm`, `positions-whirlpool`, `positions-dlmm` (security-positions.ts): Raydium CLMM, Orca Whirlpool and
 *   Meteora DLMM positions, burnt, locked (a locker, or in place) and free, plus some out of range;
 * - `creator-dbc`: a Meteora DBC curve's token; its creator (the virtual pool's `creator`) buys on the curve in the first
 *   produced slot of the first launch and sells 30% of what it holds two produced slots later;
 * - `creator-launchlab`: a Raydium LaunchLab curve's token, part sold already; its creator (the pool state's `creator`)
 *   received 40% of what was sold by a plain transfer and never trades;
 * - `launch` (on request, `POST /__localnet/security/launch`): a pump.fun coin created with a dev buy and bought in the
 *   same slot by three other signers (a bundle), then by snipers in the next two produced slots; eight produced slots
 *   after the creation a buyer outside any sniper window, a bundler selling half and the creator selling 40%.
 *
 * None of them is tradeable by the world's random traffic, so their holders move only as written here. The truth is
 * computed from the world's own token book and its record of executed swaps, independently of any API.
 */
import { encodeBase58 } from "../chain/base58.js";
import type { Pubkey, WorldRequest } from "../chain/types.js";
import { Draft } from "./context.js";
import { BorshWriter, concat, FixedWriter } from "./core/bytes.js";
import { ata, keyBytes, pda } from "./core/keys.js";
import {
  DBC_POOL_AUTHORITY,
  DAMM_V2_POOL_AUTHORITY,
  INCINERATOR,
  METAPLEX_PROGRAM,
  METEORA_DAMM_V2_PROGRAM,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_CPMM_AUTHORITY,
  RAYDIUM_LAUNCHLAB_AUTHORITY,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from "./programs.js";
import { encodeMetaplexMetadata } from "./spl/metaplex.js";
import { encodeMint, type MintState } from "./spl/token.js";
import type { TradeRecord } from "./swap-truth.js";
import { trackCurveSwap, trackPoolSwap } from "./swap-truth.js";
import { launchlabGlobalConfigAddress } from "./venues/raydium-launchlab.js";
import { dammV2ConfigAddress } from "./venues/meteora-damm-v2.js";
import { metaplexMetadataAddress, PUMP, pumpMintAuthority, type PumpCurve } from "./venues/pumpfun.js";
import { pumpPoolAuthority } from "./venues/pumpswap.js";
import { LAMPORTS, type WorldState } from "./world-state.js";
import { positionsClmmToken, positionsDlmmToken, positionsWhirlpoolToken, type PositionWorld } from "./security-positions.js";
import { JUPITER_LOCK_PROGRAM, STREAMFLOW_PROGRAM, UNCX_AMM_V4_LP_STORAGE, type HolderLabel, type Launchpad, type PlainMint, type SecurityToken, type SecurityTokenRole } from "./security-types.js";

/** DAMM v2 Position: size and discriminator (sha256("account:Position")[..8]; meteora-ag/damm-v2 IDL 0.1.x). */
const DAMM_V2_POSITION_SIZE = 408;
const DAMM_V2_POSITION_DISC = Uint8Array.of(0xaa, 0xbc, 0x8f, 0xe4, 0x7a, 0x40, 0xf7, 0xd0);

/** Token-2022 extension type ids (spl-token-2022 `ExtensionType`, an append-only enum). */
const EXT = { confidentialTransferMint: 4, mintCloseAuthority: 3, defaultAccountState: 6, nonTransferable: 9, permanentDelegate: 12, transferHook: 14, pausable: 26 } as const;
/** Epoch of the pending transfer fee: far enough that the older schedule is the one in force on any local clock. */
const PENDING_FEE_EPOCH = 1_000_000n;
/** Lamports each launch participant starts with. */
const PARTICIPANT_LAMPORTS = 60n * LAMPORTS;

/** What the world knows of one security token, as `GET /__localnet/security?mint=` answers (amounts raw, as strings). */
export interface SecurityTruth {
  role: SecurityTokenRole;
  mint: Pubkey;
  decimals: number;
  tokenProgram: Pubkey;
  supply: string;
  authorities: { mintAuthority: Pubkey | null; freezeAuthority: Pubkey | null; updateAuthority: Pubkey | null; isMutable: boolean };
  extensions: Record<string, Record<string, string | boolean | null>>;
  /** every owner with a positive balance, largest first (ties by address), labelled */
  holders: { owner: Pubkey; amount: string; label: HolderLabel }[];
  liquidity: {
    pool: Pubkey;
    dex: string;
    lpMint: Pubkey;
    lpSupply: string;
    lpMintSupply: string;
    burned: string;
    locked: string;
    lockers: { owner: Pubkey; locker: string; amount: string }[];
  } | null;
  /**
   * the DAMM v2 positions of the pool: their liquidity summed, the part burnt (NFT at a burn address), the part locked
   * (the position's own vested and permanently locked liquidity, and the unlocked liquidity of NFTs held by lockers)
   */
  positions: {
    pool: Pubkey;
    /** what `liquidity` sums: position-liquidity (DAMM v2), in-range-liquidity (CLMM, Whirlpool), bin-shares (DLMM) */
    measure: string;
    count: number;
    liquidity: string;
    burned: string;
    locked: string;
    /** of `locked`: locked in the positions themselves (DAMM v2 vested and permanent, Whirlpool LockConfig) */
    lockedInPlace: string;
    lockers: { owner: Pubkey; locker: string; amount: string }[];
  } | null;
  /** the creator a launchpad account names, what it holds now, and its trades of the token the world executed */
  creator: { address: Pubkey; launchpad: Launchpad; holding: string; trades: { slot: number; side: string; amount: string }[] } | null;
  launch: { creationSlot: number; complete: boolean; trades: { slot: number; wallet: Pubkey; side: string; amount: string }[] } | null;
}

function tlv(type: number, value: Uint8Array): Uint8Array {
  return concat(new FixedWriter(4).u16(0, type).u16(2, value.length).bytes, value);
}

/** A Token-2022 mint's bytes: the book's encoding (base, transfer fee, metadata) plus the extensions it does not write. */
function mintWithExtensions(m: MintState, extra: Uint8Array[]): Uint8Array {
  return concat(encodeMint(m), ...extra);
}

export class SecurityTokens {
  private readonly tokens = new Map<Pubkey, SecurityToken>();
  private pendingLaunch: { resolve(outcome: Record<string, unknown>): void } | null = null;
  private launches = 0;
  private readonly launchResolvers = new Map<Pubkey, (o: Record<string, unknown>) => void>();

  constructor(
    private readonly state: WorldState,
    /** the executed swaps of slots from..to (the slot producer's record) */
    private readonly tradesBetween: (from: number, to: number) => TradeRecord[],
  ) {}

  /** Writes the genesis security tokens (called once, after the rest of genesis). */
  genesis(): void {
    this.extensionsA();
    this.extensionsB();
    this.lpToken();
    this.lpAmmV4Token();
    this.lpPumpSwapToken();
    this.positionsDammV2Token();
    const positionWorld = this.positionWorld();
    positionsClmmToken(positionWorld);
    positionsWhirlpoolToken(positionWorld);
    positionsDlmmToken(positionWorld);
    this.creatorDbcToken();
    this.creatorLaunchLabToken();
  }

  /** The roles and mints of the security tokens, for `GET /__localnet/security`. */
  list(): { role: SecurityTokenRole; mint: Pubkey }[] {
    return [...this.tokens.values()].map((t) => ({ role: t.role, mint: t.mint }));
  }

  /** What security-positions.ts's builders use of this world. */
  private positionWorld(): PositionWorld {
    return {
      state: this.state,
      fund: (label, lamports) => this.fund(label, lamports),
      plainMint: (role, creator, name, symbol, isMutable) => this.plainMint(role, creator, name, symbol, isMutable),
      holderWallets: (role, n) => this.holderWallets(role, n),
      distribute: (mint, amount, owners, weights) => this.distribute(mint, amount, owners, weights),
      register: (token) => void this.tokens.set(token.mint, token),
    };
  }

  private fund(label: string, lamports: bigint): Pubkey {
    const k = this.state.key(label);
    this.state.ctx.store.put(k, SYSTEM_PROGRAM, new Uint8Array(0), lamports);
    return k;
  }

  /** Gives each owner its share of `amount` (weights), the last one the remainder; every account an ATA. */
  private distribute(mint: Pubkey, amount: bigint, owners: Pubkey[], weights: number[]): void {
    const total = weights.reduce((a, b) => a + b, 0);
    let left = amount;
    owners.forEach((owner, i) => {
      const share = i === owners.length - 1 ? left : (amount * BigInt(Math.round((weights[i]! / total) * 1e9))) / 1_000_000_000n;
      left -= share;
      this.state.ctx.createTokenAccount(owner, mint, share);
    });
  }

  private holderWallets(role: string, n: number): Pubkey[] {
    return Array.from({ length: n }, (_, i) => this.fund(`security:${role}:holder:${i}`, LAMPORTS));
  }

  private extensionsA(): void {
    const { ctx } = this.state;
    const mint = this.state.key("security:extensions-a:mint");
    const creator = this.fund("security:extensions-a:creator", 10n * LAMPORTS);
    const delegate = this.state.key("security:extensions-a:permanent-delegate");
    const hookProgram = this.state.key("security:extensions-a:hook-program");
    const closer = this.state.key("security:extensions-a:close-authority");
    const auditor = this.state.key("security:extensions-a:ct-authority");
    const decimals = 6;
    const supply = 1_000_000_000n * 10n ** BigInt(decimals);
    const m: MintState = {
      address: mint,
      program: TOKEN_2022_PROGRAM,
      decimals,
      supply,
      mintAuthority: creator,
      freezeAuthority: creator,
      transferFee: {
        configAuthority: creator,
        withdrawAuthority: creator,
        withheld: 0n,
        older: { epoch: 0n, maximumFee: 5_000n * 10n ** BigInt(decimals), basisPoints: 100 },
        newer: { epoch: PENDING_FEE_EPOCH, maximumFee: 9_000n * 10n ** BigInt(decimals), basisPoints: 250 },
      },
      metadataPointer: { authority: creator, address: mint },
      tokenMetadata: { updateAuthority: creator, name: "Trap Door", symbol: "TRAP", uri: "", additional: [] },
    };
    ctx.book.writeMint(m);
    const extra = [
      tlv(EXT.mintCloseAuthority, new BorshWriter().pubkey(closer).done()),
      tlv(EXT.defaultAccountState, Uint8Array.of(2)),
      tlv(EXT.permanentDelegate, new BorshWriter().pubkey(delegate).done()),
      tlv(EXT.transferHook, new BorshWriter().pubkey(creator).pubkey(hookProgram).done()),
      tlv(EXT.pausable, new BorshWriter().pubkey(creator).bool(true).done()),
      tlv(EXT.confidentialTransferMint, new BorshWriter().pubkey(auditor).bool(true).bytes(new Uint8Array(32)).done()),
    ];
    const escrow = this.state.key("security:extensions-a:streamflow-escrow");
    ctx.store.putRentExempt(escrow, STREAMFLOW_PROGRAM, new Uint8Array(64));
    const holders = this.holderWallets("extensions-a", 12);
    this.distribute(mint, supply, [creator, escrow, INCINERATOR, ...holders], [30, 10, 5, ...holders.map((_, i) => 12 - i)]);
    // Written last: the book's own encoding of the mint (which it rewrites on mint/burn) lacks these extensions.
    ctx.store.putRentExempt(mint, TOKEN_2022_PROGRAM, mintWithExtensions(m, extra));
    this.tokens.set(mint, {
      role: "extensions-a",
      mint,
      decimals,
      tokenProgram: TOKEN_2022_PROGRAM,
      creator,
      updateAuthority: creator,
      isMutable: true,
      extensions: {
        transferFee: {
          currentBasisPoints: "100",
          currentMaximumFee: m.transferFee!.older.maximumFee.toString(),
          pendingBasisPoints: "250",
          pendingMaximumFee: m.transferFee!.newer.maximumFee.toString(),
          pendingFromEpoch: PENDING_FEE_EPOCH.toString(),
          authority: creator,
        },
        transferHook: { programId: hookProgram, authority: creator },
        permanentDelegate: { delegate },
        defaultAccountState: { state: "frozen" },
        pausable: { paused: true, authority: creator },
        mintCloseAuthority: { closeAuthority: closer },
        confidentialTransfers: { authority: auditor, autoApproveNewAccounts: true, auditor: null },
      },
      labels: new Map<Pubkey, HolderLabel>([
        [escrow, "locker"],
        [INCINERATOR, "burn"],
      ]),
      launchpad: null,
    });
  }

  private extensionsB(): void {
    const { ctx } = this.state;
    const mint = this.state.key("security:extensions-b:mint");
    const creator = this.fund("security:extensions-b:creator", LAMPORTS);
    const delegate = this.state.key("security:extensions-b:permanent-delegate");
    const decimals = 9;
    const supply = 21_000_000n * 10n ** BigInt(decimals);
    const m: MintState = {
      address: mint,
      program: TOKEN_2022_PROGRAM,
      decimals,
      supply,
      mintAuthority: null,
      freezeAuthority: null,
      revokedMintAuthority: creator,
      metadataPointer: { authority: null, address: mint },
      tokenMetadata: { updateAuthority: null, name: "Soul Badge", symbol: "SOUL", uri: "", additional: [] },
    };
    ctx.book.writeMint(m);
    const holders = this.holderWallets("extensions-b", 5);
    this.distribute(mint, supply, holders, [5, 4, 3, 2, 1]);
    ctx.store.putRentExempt(mint, TOKEN_2022_PROGRAM, mintWithExtensions(m, [tlv(EXT.nonTransferable, new Uint8Array(0)), tlv(EXT.permanentDelegate, new BorshWriter().pubkey(delegate).done())]));
    this.tokens.set(mint, {
      role: "extensions-b",
      mint,
      decimals,
      tokenProgram: TOKEN_2022_PROGRAM,
      creator,
      updateAuthority: null,
      isMutable: false,
      extensions: { nonTransferable: {}, permanentDelegate: { delegate } },
      labels: new Map(),
      launchpad: null,
    });
  }

  private lpToken(): void {
    const { ctx, cpmm } = this.state;
    const creator = this.fund("security:lp:creator", 400n * LAMPORTS);
    const { mint, supply, token } = this.plainMint("lp", creator, "Locked Lake", "LAKE", false);
    const inPool = (supply * 40n) / 100n;
    const pool = cpmm.create({ configIndex: 0, baseMint: mint, quoteMint: WSOL_MINT, base: inPool, quote: 300n * LAMPORTS, creator });
    // The LP the creator received: 40% burnt (Burn), 25% to the incinerator, 20% into a Jupiter Lock escrow, 15% kept.
    const creatorLp = ctx.book.account(ata(creator, pool.lpMint, TOKEN_PROGRAM))!;
    const lp = creatorLp.amount;
    ctx.book.burn(creatorLp, (lp * 40n) / 100n);
    ctx.book.transfer(creatorLp, ctx.createTokenAccount(INCINERATOR, pool.lpMint, 0n), (lp * 25n) / 100n);
    const escrow = this.state.key("security:lp:jupiter-lock-escrow");
    ctx.store.putRentExempt(escrow, JUPITER_LOCK_PROGRAM, new Uint8Array(288));
    ctx.book.transfer(creatorLp, ctx.createTokenAccount(escrow, pool.lpMint, 0n), (lp * 20n) / 100n);
    // The token outside the pool: creator 10%, a Streamflow escrow 15%, the incinerator 5%, 25 wallets the rest.
    const streamflow = this.state.key("security:lp:streamflow-escrow");
    ctx.store.putRentExempt(streamflow, STREAMFLOW_PROGRAM, new Uint8Array(64));
    const holders = this.holderWallets("lp", 25);
    this.distribute(mint, supply - inPool, [creator, streamflow, INCINERATOR, ...holders], [10, 15, 5, ...holders.map((_, i) => 30 / (i + 2))]);
    this.tokens.set(mint, {
      ...token,
      labels: new Map<Pubkey, HolderLabel>([
        [RAYDIUM_CPMM_AUTHORITY, "pool"],
        [streamflow, "locker"],
        [INCINERATOR, "burn"],
      ]),
      launchpad: null,
      lp: { pool: pool.address, dex: "raydium-cpmm", lpMint: pool.lpMint, lpSupply: pool.lpSupply, lockers: new Map([[escrow, "jupiter-lock"]]) },
    });
  }

  /**
   * An SPL mint with all of `supply` unminted yet (the caller places it), authorities revoked, Metaplex metadata; and
   * the facts of the token's record that follow from it (`token`: the caller adds labels, launchpad, pool).
   */
  private plainMint(role: SecurityTokenRole, creator: Pubkey, name: string, symbol: string, isMutable: boolean): PlainMint {
    const { ctx } = this.state;
    const mint = this.state.key(`security:${role}:mint`);
    const decimals = 6;
    const supply = 1_000_000_000n * 10n ** BigInt(decimals);
    ctx.book.writeMint({ address: mint, program: TOKEN_PROGRAM, decimals, supply, mintAuthority: null, freezeAuthority: null, revokedMintAuthority: creator });
    ctx.store.putRentExempt(
      metaplexMetadataAddress(mint),
      METAPLEX_PROGRAM,
      encodeMetaplexMetadata({
        updateAuthority: creator,
        mint,
        name,
        symbol,
        uri: "",
        sellerFeeBasisPoints: 0,
        creators: [{ address: creator, verified: true, share: 100 }],
        primarySaleHappened: false,
        isMutable,
        editionNonce: 255,
        tokenStandard: 2,
      }),
    );
    return { mint, decimals, supply, token: { role, mint, decimals, tokenProgram: TOKEN_PROGRAM, creator, updateAuthority: creator, isMutable, extensions: {} } };
  }

  /**
   * Splits the LP `holder` received: `burnPct` burnt with a Burn, `sentPct` sent to `burnOwner`, `lockPct` to a
   * locker's account `lockOwner`; the rest stays with `holder`.
   */
  private splitLp(holder: Pubkey, lpMint: Pubkey, split: { burnPct: bigint; burnOwner: Pubkey; sentPct: bigint; lockOwner: Pubkey; lockPct: bigint }): void {
    const { ctx } = this.state;
    const account = ctx.book.account(ata(holder, lpMint, ctx.book.mint(lpMint).program))!;
    const lp = account.amount;
    ctx.book.burn(account, (lp * split.burnPct) / 100n);
    ctx.book.transfer(account, ctx.createTokenAccount(split.burnOwner, lpMint, 0n), (lp * split.sentPct) / 100n);
    ctx.book.transfer(account, ctx.createTokenAccount(split.lockOwner, lpMint, 0n), (lp * split.lockPct) / 100n);
  }

  private lpAmmV4Token(): void {
    const { ammV4 } = this.state;
    const creator = this.fund("security:lp-amm-v4:creator", 400n * LAMPORTS);
    const { mint, supply, token } = this.plainMint("lp-amm-v4", creator, "Old Faithful", "OLDF", true);
    const inPool = (supply * 50n) / 100n;
    const pool = ammV4.create({ market: this.state.key("security:lp-amm-v4:market"), coinMint: mint, pcMint: WSOL_MINT, coin: inPool, pc: 250n * LAMPORTS, owner: creator });
    // UNCX keeps the LP it locks in its storage account (a key with no account of its own here).
    this.splitLp(creator, pool.lpMint, { burnPct: 30n, burnOwner: SYSTEM_PROGRAM, sentPct: 10n, lockOwner: UNCX_AMM_V4_LP_STORAGE, lockPct: 35n });
    const holders = this.holderWallets("lp-amm-v4", 8);
    this.distribute(mint, supply - inPool, [creator, ...holders], [20, ...holders.map((_, i) => 9 - i)]);
    this.tokens.set(mint, {
      ...token,
      labels: new Map<Pubkey, HolderLabel>([[RAYDIUM_AMM_V4_AUTHORITY, "pool"]]),
      launchpad: null,
      lp: { pool: pool.address, dex: "raydium-amm-v4", lpMint: pool.lpMint, lpSupply: pool.lpAmount, lockers: new Map([[UNCX_AMM_V4_LP_STORAGE, "uncx"]]) },
    });
  }

  private lpPumpSwapToken(): void {
    const { ctx, pumpswap } = this.state;
    const creator = this.fund("security:lp-pumpswap:creator", 400n * LAMPORTS);
    const { mint, supply, token } = this.plainMint("lp-pumpswap", creator, "Pumped Pond", "POND", false);
    const inPool = (supply * 60n) / 100n;
    // The canonical pool of the mint (index 0, created by the mint's pool authority), its LP given to the creator.
    const pool = pumpswap.createPool({ index: 0, creator: pumpPoolAuthority(mint), baseMint: mint, coinCreator: creator, base: inPool, quote: 200n * LAMPORTS, lpHolder: creator });
    const escrow = this.state.key("security:lp-pumpswap:streamflow-escrow");
    ctx.store.putRentExempt(escrow, STREAMFLOW_PROGRAM, new Uint8Array(64));
    this.splitLp(creator, pool.lpMint, { burnPct: 50n, burnOwner: INCINERATOR, sentPct: 20n, lockOwner: escrow, lockPct: 10n });
    const holders = this.holderWallets("lp-pumpswap", 6);
    this.distribute(mint, supply - inPool, [creator, ...holders], [15, ...holders.map((_, i) => 7 - i)]);
    this.tokens.set(mint, {
      ...token,
      labels: new Map<Pubkey, HolderLabel>([[pool.address, "pool"]]),
      launchpad: null,
      lp: { pool: pool.address, dex: "pumpswap", lpMint: pool.lpMint, lpSupply: pool.lpSupply, lockers: new Map([[escrow, "streamflow"]]) },
    });
  }

  /**
   * A DAMM v2 pool whose liquidity is split over five positions (408-byte Position accounts, discriminator
   * aabc8fe47a40f7d0, meteora-ag/damm-v2 IDL 0.1.x: pool @8, nft_mint @40, unlocked/vested/permanent_locked liquidity
   * u128 @152/@168/@184), each with its Token-2022 NFT in PDA(["position_nft_account", nft_mint]):
   * 30% permanently locked and 10% vested in place (the creator holds both NFTs), 20% whose NFT sits in a Jupiter Lock
   * escrow, 15% whose NFT was sent to the incinerator, 25% free with a wallet.
   */
  private positionsDammV2Token(): void {
    const { ctx, dammV2 } = this.state;
    const creator = this.fund("security:positions-damm-v2:creator", 400n * LAMPORTS);
    const { mint, supply, token } = this.plainMint("positions-damm-v2", creator, "Ranged Reef", "REEF", true);
    const depth = 150n * LAMPORTS;
    const pool = dammV2.create({ config: dammV2ConfigAddress(0n), feeNumerator: 2_500_000n, baseMint: mint, quoteMint: WSOL_MINT, price: Number(depth) / (Number(supply) * 0.3), quoteDepth: depth, creator });
    const inPool = ctx.tokenAccount(pool.vaultA).amount;
    const escrow = this.state.key("security:positions-damm-v2:jupiter-lock-escrow");
    ctx.store.putRentExempt(escrow, JUPITER_LOCK_PROGRAM, new Uint8Array(288));
    const wallet = this.fund("security:positions-damm-v2:lp-wallet", LAMPORTS);
    const L = pool.liquidity;
    const plan: { pct: bigint; kind: "permanent" | "vested" | "unlocked"; holder: Pubkey; held: "burn" | "locker" | "free"; locker: string | null }[] = [
      { pct: 30n, kind: "permanent", holder: creator, held: "free", locker: null },
      { pct: 10n, kind: "vested", holder: creator, held: "free", locker: null },
      { pct: 20n, kind: "unlocked", holder: escrow, held: "locker", locker: "jupiter-lock" },
      { pct: 15n, kind: "unlocked", holder: INCINERATOR, held: "burn", locker: null },
      { pct: 25n, kind: "unlocked", holder: wallet, held: "free", locker: null },
    ];
    let left = L;
    const rows = plan.map((part, i) => {
      const liquidity = i === plan.length - 1 ? left : (L * part.pct) / 100n;
      left -= liquidity;
      const nftMint = this.state.key(`security:positions-damm-v2:nft:${i}`);
      const address = pda(["position", keyBytes(nftMint)], METEORA_DAMM_V2_PROGRAM);
      const row = {
        address,
        unlocked: part.kind === "unlocked" ? liquidity : 0n,
        vested: part.kind === "vested" ? liquidity : 0n,
        permanent: part.kind === "permanent" ? liquidity : 0n,
        holder: part.holder,
        held: part.held,
        locker: part.locker,
      };
      ctx.book.writeMint({ address: nftMint, program: TOKEN_2022_PROGRAM, decimals: 0, supply: 1n, mintAuthority: null, freezeAuthority: null });
      ctx.createTokenAccount(part.holder, nftMint, 1n, pda(["position_nft_account", keyBytes(nftMint)], METEORA_DAMM_V2_PROGRAM));
      ctx.store.putRentExempt(
        address,
        METEORA_DAMM_V2_PROGRAM,
        new FixedWriter(DAMM_V2_POSITION_SIZE)
          .raw(0, DAMM_V2_POSITION_DISC)
          .pubkey(8, pool.address)
          .pubkey(40, nftMint)
          .u128(152, row.unlocked)
          .u128(168, row.vested)
          .u128(184, row.permanent).bytes,
      );
      return row;
    });
    const holders = this.holderWallets("positions-damm-v2", 6);
    this.distribute(mint, supply - inPool, [creator, ...holders], [25, ...holders.map((_, i) => 8 - i)]);
    this.tokens.set(mint, {
      ...token,
      labels: new Map<Pubkey, HolderLabel>([[DAMM_V2_POOL_AUTHORITY, "pool"]]),
      launchpad: null,
      positions: { pool: pool.address, rows },
    });
  }

  private creatorDbcToken(): void {
    const { dbc } = this.state;
    const creator = this.fund("security:creator-dbc:creator", PARTICIPANT_LAMPORTS);
    const { mint, decimals, supply, token } = this.plainMint("creator-dbc", creator, "Curve Keeper", "CKPR", true);
    const config = dbc.makeConfig(this.state.key("security:creator-dbc:config"), {
      quoteMint: WSOL_MINT,
      feeClaimer: this.state.key("security:creator-dbc:partner"),
      startPrice: (2.8e-8 * 1e9) / 10 ** decimals,
      migrationPrice: (4e-7 * 1e9) / 10 ** decimals,
      threshold: 85n * LAMPORTS,
      feeNumerator: 10_000_000n,
      tokenDecimals: decimals,
    });
    // a DBC base mint starts with its whole supply in the curve's vault: nobody else holds any
    const { pool } = dbc.create({ config, baseMint: mint, creator, baseSupplyInPool: supply, progress: 0 });
    this.tokens.set(mint, {
      ...token,
      labels: new Map<Pubkey, HolderLabel>([[DBC_POOL_AUTHORITY, "curve"]]),
      launchpad: "meteora-dbc",
      dbc: pool,
    });
  }

  private creatorLaunchLabToken(): void {
    const { ctx, launchlab } = this.state;
    const creator = this.fund("security:creator-launchlab:creator", LAMPORTS);
    const { mint, supply, token } = this.plainMint("creator-launchlab", creator, "Lab Rat", "LRAT", false);
    // the curve's global configs and platform, unless the extra world wrote them already
    if (!ctx.store.get(launchlabGlobalConfigAddress(WSOL_MINT, 0))) launchlab.genesis([WSOL_MINT]);
    const { circulating } = launchlab.create({
      baseMint: mint,
      quoteMint: WSOL_MINT,
      curveType: 0,
      migrateType: 1,
      supply,
      totalSell: (supply * 793_100n) / 1_000_000n,
      fundRaising: 85n * LAMPORTS,
      virtualQuote: 30n * LAMPORTS,
      creator,
      progress: 0.3,
    });
    // what earlier buys took from the curve: 40% to the creator (by a plain transfer), the rest to five wallets
    const holders = this.holderWallets("creator-launchlab", 5);
    this.distribute(mint, circulating, [creator, ...holders], [40, ...holders.map((_, i) => 12 + i)]);
    this.tokens.set(mint, {
      ...token,
      labels: new Map<Pubkey, HolderLabel>([[RAYDIUM_LAUNCHLAB_AUTHORITY, "curve"]]),
      launchpad: "raydium-launchlab",
      creatorTradesFrom: 0,
    });
  }

  /** The DBC creator's trades: a buy in the first produced slot of the first launch, a 30% sell two slots later. */
  private dbcCreatorTrades(stage: number, slot: number, run: (plan: () => Draft | null) => void): void {
    const t = [...this.tokens.values()].find((x) => x.role === "creator-dbc");
    if (!t?.dbc) return;
    const { ctx } = this.state;
    if (stage === 1) {
      t.creatorTradesFrom = slot;
      run(() => {
        const d = new Draft(ctx, t.creator, 200_000, 5_000n, "legacy");
        const userBase = d.ensureAta(t.creator, t.mint);
        const userQuote = d.wrapSol(t.creator, 3n * LAMPORTS);
        if (!trackPoolSwap(this.state, d, t.dbc!, this.state.dbc, t.creator, "buy", 3n * LAMPORTS, userBase, userQuote, false)) return null;
        d.unwrapSol(t.creator);
        return d;
      });
    } else if (stage === 3) {
      const held = ctx.book.account(ata(t.creator, t.mint, TOKEN_PROGRAM))?.amount ?? 0n;
      const amount = (held * 30n) / 100n;
      if (amount === 0n) return;
      run(() => {
        const d = new Draft(ctx, t.creator, 200_000, 5_000n, "legacy");
        const userBase = d.ensureAta(t.creator, t.mint);
        const userQuote = d.wrapSol(t.creator, 0n);
        if (!trackPoolSwap(this.state, d, t.dbc!, this.state.dbc, t.creator, "sell", amount, userBase, userQuote, false)) return null;
        d.unwrapSol(t.creator);
        return d;
      });
    }
  }

  /** `POST /__localnet/security/launch`: the next produced slot creates the sniped and bundled coin. */
  requestLaunch(): WorldRequest | string {
    if (this.pendingLaunch || [...this.tokens.values()].some((t) => t.launch && t.launch.doneSlot === null)) return "a launch is already under way";
    if (this.launches >= 4) return "the world made all the security launches it makes";
    let resolve!: (o: Record<string, unknown>) => void;
    const done = new Promise<Record<string, unknown>>((r) => (resolve = r));
    this.pendingLaunch = { resolve };
    return { queued: { what: "security-launch" }, done };
  }

  /** Runs this slot's part of a launch; `run` executes a draft into the slot (a failed one is dropped and logged). */
  runSlot(slot: number, run: (plan: () => Draft | null) => void): void {
    if (this.pendingLaunch) {
      const { resolve } = this.pendingLaunch;
      this.pendingLaunch = null;
      this.startLaunch(slot, run, resolve);
      return;
    }
    for (const t of this.tokens.values()) {
      if (!t.launch || t.launch.doneSlot !== null) continue;
      this.continueLaunch(t, slot, run);
    }
  }

  private startLaunch(slot: number, run: (plan: () => Draft | null) => void, resolve: (o: Record<string, unknown>) => void): void {
    const { state } = this;
    const { ctx } = state;
    const n = this.launches++;
    const mint = state.key(`security:launch:${n}:mint`);
    const creator = this.fund(`security:launch:${n}:creator`, PARTICIPANT_LAMPORTS);
    // bundlers 0-2, snipers 3-5, the late buyer 6
    const participants = Array.from({ length: 7 }, (_, i) => this.fund(`security:launch:${n}:wallet:${i}`, PARTICIPANT_LAMPORTS));
    const info = { mint, name: `Sniped ${n}`, symbol: `SNP${n}`, uri: "", creator, tokenProgram: TOKEN_PROGRAM };
    let curve: PumpCurve | undefined;
    run(() => {
      const d = new Draft(ctx, creator, 300_000, 10_000n, "legacy");
      ctx.book.mints.set(mint, state.pumpfun.mintState(info));
      curve = state.pumpfun.create(d, info);
      trackCurveSwap(state, d, curve, creator, "buy", 2n * LAMPORTS, false);
      return d;
    });
    if (!curve || !ctx.store.get(curve.address)) {
      resolve({ slot, error: "the create transaction failed" });
      return;
    }
    const token: SecurityToken = {
      role: "launch",
      mint,
      decimals: PUMP.decimals,
      tokenProgram: TOKEN_PROGRAM,
      creator,
      // pump.fun's Metaplex metadata: its mint authority updates it, and it is written immutable
      updateAuthority: pumpMintAuthority(),
      isMutable: false,
      extensions: {},
      labels: new Map<Pubkey, HolderLabel>([[curve.address, "curve"]]),
      launchpad: "pumpfun",
      creatorTradesFrom: slot,
      curve,
      launch: { creationSlot: slot, doneSlot: null, participants, stage: 0 },
    };
    this.tokens.set(mint, token);
    this.launchResolvers.set(mint, resolve);
    for (const wallet of participants.slice(0, 3)) this.buy(token, wallet, LAMPORTS + BigInt(participants.indexOf(wallet)) * 250_000_000n, run);
  }

  private buy(t: SecurityToken, wallet: Pubkey, lamports: bigint, run: (plan: () => Draft | null) => void): void {
    run(() => {
      const d = new Draft(this.state.ctx, wallet, 200_000, 5_000n, "legacy");
      return trackCurveSwap(this.state, d, t.curve!, wallet, "buy", lamports, false) ? d : null;
    });
  }

  private sell(t: SecurityToken, wallet: Pubkey, share: bigint, run: (plan: () => Draft | null) => void): void {
    const held = this.state.ctx.book.account(ata(wallet, t.mint, t.tokenProgram))?.amount ?? 0n;
    const amount = (held * share) / 100n;
    if (amount === 0n) return;
    run(() => {
      const d = new Draft(this.state.ctx, wallet, 200_000, 5_000n, "legacy");
      return trackCurveSwap(this.state, d, t.curve!, wallet, "sell", amount, false) ? d : null;
    });
  }

  private continueLaunch(t: SecurityToken, slot: number, run: (plan: () => Draft | null) => void): void {
    const launch = t.launch!;
    const stage = ++launch.stage;
    const p = launch.participants;
    if (this.launches === 1) this.dbcCreatorTrades(stage, slot, run);
    if (stage === 1) {
      this.buy(t, p[3]!, 700_000_000n, run);
      this.buy(t, p[4]!, 900_000_000n, run);
    } else if (stage === 2) {
      this.buy(t, p[5]!, 1_100_000_000n, run);
    } else if (stage >= 8) {
      this.buy(t, p[6]!, 500_000_000n, run);
      this.sell(t, p[0]!, 50n, run);
      this.sell(t, t.creator, 40n, run);
      launch.doneSlot = slot;
      const resolve = this.launchResolvers.get(t.mint);
      this.launchResolvers.delete(t.mint);
      resolve?.({ mint: t.mint, creator: t.creator, curve: t.curve!.address, creationSlot: launch.creationSlot, doneSlot: slot });
    }
  }

  /** The world's answer for `mint`, from its token book now; undefined when it is not a security token. */
  truth(mint: Pubkey): SecurityTruth | undefined {
    const t = this.tokens.get(mint);
    if (!t) return undefined;
    const { book, store } = this.state.ctx;
    const m = book.mint(mint);
    const byOwner = new Map<Pubkey, bigint>();
    for (const a of book.holdersOf(mint)) byOwner.set(a.owner, (byOwner.get(a.owner) ?? 0n) + a.amount);
    const labelOf = (owner: Pubkey): HolderLabel => t.labels.get(owner) ?? (t.launchpad !== null && owner === t.creator ? "creator" : "holder");
    const holders = [...byOwner]
      .filter(([, amount]) => amount > 0n)
      .sort(([a, x], [b, y]) => (x !== y ? (x > y ? -1 : 1) : a < b ? -1 : 1))
      .map(([owner, amount]) => ({ owner, amount: amount.toString(), label: labelOf(owner) }));
    let liquidity: SecurityTruth["liquidity"] = null;
    if (t.lp) {
      const lpMint = book.mint(t.lp.lpMint);
      const lpHeld = (owner: Pubkey) => book.holdersOf(t.lp!.lpMint).filter((a) => a.owner === owner).reduce((s, a) => s + a.amount, 0n);
      const burnedByInstruction = t.lp.lpSupply - lpMint.supply;
      const lockers = [...t.lp.lockers].map(([owner, locker]) => ({ owner, locker, amount: lpHeld(owner).toString() }));
      liquidity = {
        pool: t.lp.pool,
        dex: t.lp.dex,
        lpMint: t.lp.lpMint,
        lpSupply: t.lp.lpSupply.toString(),
        lpMintSupply: lpMint.supply.toString(),
        burned: (burnedByInstruction + lpHeld(INCINERATOR) + lpHeld(SYSTEM_PROGRAM)).toString(),
        locked: lockers.reduce((sum, l) => sum + BigInt(l.amount), 0n).toString(),
        lockers,
      };
    }
    const positions: SecurityTruth["positions"] = t.positions
      ? {
          pool: t.positions.pool,
          measure: t.positions.measure ?? "position-liquidity",
          count: t.positions.rows.length + (t.positions.outOfRange ?? 0),
          liquidity: t.positions.rows.reduce((sum, r) => sum + r.unlocked + r.vested + r.permanent, 0n).toString(),
          burned: t.positions.rows.filter((r) => r.held === "burn").reduce((sum, r) => sum + r.unlocked + r.vested + r.permanent, 0n).toString(),
          locked: t.positions.rows
            .filter((r) => r.held !== "burn")
            .reduce((sum, r) => sum + r.vested + r.permanent + (r.held === "locker" ? r.unlocked : 0n), 0n)
            .toString(),
          lockedInPlace: t.positions.rows
            .filter((r) => r.held !== "burn")
            .reduce((sum, r) => sum + r.vested + r.permanent, 0n)
            .toString(),
          lockers: t.positions.rows.filter((r) => r.held === "locker").map((r) => ({ owner: r.holder, locker: r.locker!, amount: (r.unlocked + r.vested + r.permanent).toString() })),
        }
      : null;
    const launch = t.launch
      ? {
          creationSlot: t.launch.creationSlot,
          complete: t.launch.doneSlot !== null,
          trades: this.tradesBetween(t.launch.creationSlot, t.launch.doneSlot ?? this.state.ctx.clock.slot)
            .filter((r) => r.baseMint === mint && !r.failed)
            .map((r) => ({ slot: r.slot, wallet: r.wallet, side: r.side, amount: (r.side === "buy" ? r.poolOut : r.poolIn).amount })),
        }
      : null;
    return {
      role: t.role,
      mint,
      decimals: t.decimals,
      tokenProgram: t.tokenProgram,
      supply: m.supply.toString(),
      authorities: {
        mintAuthority: readAuthority(store.get(mint)?.data, 0),
        freezeAuthority: readAuthority(store.get(mint)?.data, 46),
        updateAuthority: t.updateAuthority,
        isMutable: t.isMutable,
      },
      extensions: t.extensions,
      holders,
      liquidity,
      positions,
      creator:
        t.launchpad === null
          ? null
          : {
              address: t.creator,
              launchpad: t.launchpad,
              holding: (byOwner.get(t.creator) ?? 0n).toString(),
              trades:
                t.creatorTradesFrom === undefined
                  ? []
                  : this.tradesBetween(t.creatorTradesFrom, this.state.ctx.clock.slot)
                      .filter((r) => r.baseMint === mint && r.wallet === t.creator && !r.failed)
                      .map((r) => ({ slot: r.slot, side: r.side, amount: (r.side === "buy" ? r.poolOut : r.poolIn).amount })),
            },
      launch,
    };
  }
}

/** A COption<Pubkey> authority of the mint as written (the chain's bytes are the truth of what was set). */
function readAuthority(data: Uint8Array | undefined, offset: number): Pubkey | null {
  if (!data || data[offset] !== 1) return null;
  return encodeBase58(data.subarray(offset + 4, offset + 36));
}
