/**
 * A genesis token of the catalog: its creator, mint (SPL + Metaplex metadata, or Token-2022 with its metadata
 * extensions), off-chain metadata, its pools (genesis-pools.ts) or pump.fun curve, incinerated share and holders.
 */
import type { Pubkey } from "../chain/types.js";
import type { TokenSpec } from "./catalog.js";
import { ata } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import { createExtraPool, createPrimaryPool } from "./genesis-pools.js";
import { createPumpQuoteCurve } from "./world-extras.js";
import { INCINERATOR, METAPLEX_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "./programs.js";
import { encodeMetaplexMetadata } from "./spl/metaplex.js";
import type { MintState } from "./spl/token.js";
import { PUMP, metaplexMetadataAddress } from "./venues/pumpfun.js";
import type { TokenEntry, WorldState } from "./world-state.js";

/** Creates the token of `spec` with every account it has at genesis, and lists it in `state.tokens`. */
export function createGenesisToken(state: WorldState, spec: TokenSpec): void {
  const { ctx } = state;
  const rng = ctx.rng(`token:${spec.key}`);
  const mint = state.key(`mint:${spec.key}`);
  const creator = state.key(`creator:${spec.key}`);
  ctx.store.put(creator, SYSTEM_PROGRAM, new Uint8Array(0), BigInt(Math.floor(rng.logUniform(2, 80) * 1e9)));
  const p = spec.primary;
  const tokenProgram = spec.token2022 ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
  const fields = { key: spec.key, mint, name: spec.name, symbol: spec.symbol, decimals: spec.decimals, tokenProgram, creator, venues: [], details: {} };
  const entry = state.newToken(fields, spec.tags);
  state.tokens.set(mint, entry);
  entry.tags.add(p.venue === "pumpfun" || p.venue === "pumpswap" ? "pump" : "pool");
  state.registerMetadata(entry, spec, rng);

  let circulating: bigint;
  let supply: bigint;
  let price = 0; // quote atoms per base atom of the primary pool

  if (p.venue === "pumpfun" && p.quote !== undefined && p.quote !== "SOL") {
    // A coin quoted in another token: its curve is its own pool (world-extras.ts).
    entry.decimals = PUMP.decimals;
    const info = { mint, name: entry.name, symbol: entry.symbol, uri: entry.metadataUri!, creator, tokenProgram };
    ({ circulating, price } = createPumpQuoteCurve(state, entry, info, p));
    supply = PUMP.tokenTotalSupply;
  } else if (p.venue === "pumpfun" || p.venue === "pumpswap") {
    entry.decimals = PUMP.decimals;
    const info = { mint, name: entry.name, symbol: entry.symbol, uri: entry.metadataUri!, creator, tokenProgram };
    const res =
      p.venue === "pumpfun"
        ? state.pumpfun.createAtGenesis(info, p.progress)
        : state.pumpfun.graduatedAtGenesis(
            info,
            BigInt(Math.floor(p.baseShare * Number(PUMP.tokenTotalSupply))),
            BigInt(Math.floor(p.quoteSol * 1e9)),
            BigInt(Math.floor((p.virtualQuoteSol ?? 0) * 1e9)),
          );
    if (p.venue === "pumpfun" && p.curveSize) {
      res.curve.size = p.curveSize;
      state.pumpfun.writeCurve(res.curve);
    }
    entry.curve = res.curve;
    circulating = res.circulating;
    supply = PUMP.tokenTotalSupply;
    state.addCurvePool(entry, res.curve);
    if (p.venue === "pumpswap") {
      const pool = state.pumpswap.pools.get(res.curve.migratedPool!)!;
      state.addPumpSwapPool(entry, pool);
      price = state.pumpswap.price(pool);
      entry.venues = ["pumpswap"];
    } else {
      entry.venues = ["pumpfun"];
      price = state.pumpfun.price(res.curve);
    }
    if (p.venue === "pumpfun" && res.curve.complete) entry.details.stuck = "complete curve, not migrated";
  } else {
    const tokens = rng.pick([100_000_000, 1_000_000_000, 1_000_000_000, 10_000_000_000]);
    const original = BigInt(tokens) * 10n ** BigInt(spec.decimals);
    supply = spec.burnedShare ? original - BigInt(Math.floor(Number(original) * spec.burnedShare)) : original;
    if (spec.burnedShare) entry.details.burned = (original - supply).toString();
    if (p.venue === "meteora-dbc" || p.venue === "raydium-launchlab") supply = 1_000_000_000n * 10n ** BigInt(spec.decimals);
    writeTokenMint(state, spec, entry, supply, rng);
    const res = createPrimaryPool(state, entry, p, supply);
    circulating = res.circulating;
    price = res.price;
  }

  for (const extra of spec.extra) {
    const used = createExtraPool(state, entry, extra, price);
    circulating -= used;
  }

  // Incinerated tokens sit in the incinerator's ATA (a real token account nobody can move).
  if (spec.incineratedShare) {
    const amount = BigInt(Math.floor(Number(circulating) * spec.incineratedShare));
    ctx.createTokenAccount(INCINERATOR, mint, amount);
    circulating -= amount;
    entry.details.incinerated = amount.toString();
  }
  distributeHolders(state, entry, circulating, rng, spec);
  entry.details.supply = supply.toString();
}

/** SPL mint (+ Metaplex metadata) or Token-2022 mint (+ MetadataPointer/TokenMetadata, optional transfer fee). */
function writeTokenMint(state: WorldState, spec: TokenSpec, entry: TokenEntry, supply: bigint, rng: Rng): void {
  const { ctx } = state;
  const authority = entry.creator;
  const m: MintState = {
    address: entry.mint,
    program: entry.tokenProgram,
    decimals: spec.decimals,
    supply,
    mintAuthority: spec.mintAuthority ? authority : null,
    freezeAuthority: spec.freezeAuthority ? authority : null,
  };
  if (entry.tokenProgram === TOKEN_2022_PROGRAM) {
    if (spec.transferFeeBps) {
      const fee = { epoch: 700n, maximumFee: 10n ** BigInt(spec.decimals + 6), basisPoints: spec.transferFeeBps };
      m.transferFee = { configAuthority: authority, withdrawAuthority: authority, withheld: 0n, older: fee, newer: fee };
    }
    m.metadataPointer = { authority, address: entry.mint };
    m.tokenMetadata = { updateAuthority: authority, name: entry.name, symbol: entry.symbol, uri: entry.metadataUri!, additional: rng.chance(0.5) ? [["category", "meme"]] : [] };
    ctx.book.writeMint(m);
    return;
  }
  ctx.book.writeMint(m);
  const twoCreators = rng.chance(0.4);
  const cosigner = state.key(`cosigner:${spec.key}`);
  ctx.store.putRentExempt(
    metaplexMetadataAddress(entry.mint),
    METAPLEX_PROGRAM,
    encodeMetaplexMetadata({
      updateAuthority: authority,
      mint: entry.mint,
      name: entry.name,
      symbol: entry.symbol,
      uri: entry.metadataUri!,
      sellerFeeBasisPoints: 0,
      creators: twoCreators
        ? [
            { address: authority, verified: true, share: 60 },
            { address: cosigner, verified: false, share: 40 },
          ]
        : [{ address: authority, verified: true, share: 100 }],
      primarySaleHappened: rng.chance(0.3),
      isMutable: rng.chance(0.6),
      editionNonce: rng.int(250, 255),
      tokenStandard: 2,
    }),
  );
}

/** 2–5 whales, the dev, and a long tail of small holders (Pareto-like), summing exactly to `circulating`. */
function distributeHolders(state: WorldState, entry: TokenEntry, circulating: bigint, rng: Rng, spec: TokenSpec): void {
  const { ctx } = state;
  if (circulating <= 0n) return;
  const fresh = spec.tags.includes("fresh");
  const shares: [Pubkey, number][] = [];
  const whaleCount = fresh ? rng.int(1, 2) : rng.int(2, 5);
  const whales = rng.shuffle([...state.whales]).slice(0, whaleCount);
  let whaleTotal = 0;
  for (const w of whales) {
    const s = 0.03 + rng.next() * 0.09;
    whaleTotal += s;
    shares.push([w, s]);
  }
  const dev = 0.01 + rng.next() * 0.04;
  shares.push([entry.creator, dev]);
  const rest = Math.max(0.2, 1 - whaleTotal - dev);
  const small = fresh ? rng.int(3, 12) : rng.int(30, 120);
  const holders = rng.shuffle([...state.wallets]).slice(0, small);
  const weights = holders.map(() => Math.pow(1 - rng.next() * 0.999, -1 / 1.1));
  const wsum = weights.reduce((a, b) => a + b, 0);
  holders.forEach((h, i) => shares.push([h, (rest * weights[i]!) / wsum]));
  const total = shares.reduce((a, [, s]) => a + s, 0);
  let left = circulating;
  shares.forEach(([owner, s], i) => {
    const amount = i === shares.length - 1 ? left : (circulating * BigInt(Math.floor((s / total) * 1e12))) / 1_000_000_000_000n;
    if (amount <= 0n) return;
    left -= amount;
    const existing = ctx.book.account(ata(owner, entry.mint, entry.tokenProgram));
    if (existing) {
      existing.amount += amount;
      ctx.book.write(existing);
    } else ctx.createTokenAccount(owner, entry.mint, amount);
  });
}
