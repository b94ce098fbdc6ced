/**
 * Submitted transactions: SPL Token / Token-2022 transfers and associated token account creation, and the fee payer's
 * checks, sent through sendTransaction / simulateTransaction, built and signed
 * with @solana/web3.js (instructions written by hand: @solana/spl-token is not a dependency) and read back through
 * web3's Connection and kit's RPC. Oracles: web3's `PublicKey.findProgramAddressSync` for associated addresses, the
 * programs' account layouts for balances, and a mainnet ATA Create + TransferChecked log (20,545 / 6,199 units).
 */
import { createSolanaRpc, signature as toSignature } from "@solana/kit";
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  type ParsedInstruction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountState, World } from "../../localnet/src/chain/types.js";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";
import { call } from "./helpers/local-chain.js";
import { createTinyWorld, mintData, token2022MintData, tokenAccountData, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "./helpers/tiny-world.js";

const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
const RENT_EXEMPT = 18_446_744_073_709_551_615n;
const TOKEN_ACCOUNT_RENT = 2_039_280;

const payer = Keypair.generate();
const stranger = Keypair.generate();
const delegate = Keypair.generate();
/** Holds 4,000 lamports: less than one signature's fee. */
const poor = Keypair.generate();
const mintAuthority = Keypair.generate();
const mint = Keypair.generate().publicKey;
const mint2022 = Keypair.generate().publicKey;
const feeMint2022 = Keypair.generate().publicKey;

const ata = (wallet: PublicKey, tokenMint: PublicKey, program = TOKEN_PROGRAM) =>
  PublicKey.findProgramAddressSync([wallet.toBuffer(), new PublicKey(program).toBuffer(), tokenMint.toBuffer()], new PublicKey(ATA_PROGRAM))[0];
const payerToken = ata(payer.publicKey, mint);
const payerToken2022 = ata(payer.publicKey, mint2022, TOKEN_2022_PROGRAM);
const payerFeeToken = Keypair.generate().publicKey;
const strangerFeeToken = Keypair.generate().publicKey;
const strangerToken = ata(stranger.publicKey, mint);
/** A frozen account of the payer's, and an account owned by a 2-of-3 multisig. */
const frozenToken = Keypair.generate().publicKey;
const multisig = Keypair.generate().publicKey;
const multisigSigners = [Keypair.generate(), Keypair.generate(), Keypair.generate()];
const multisigToken = Keypair.generate().publicKey;

/** spl-token Multisig (355 bytes): m @0, n @1, initialized @2, signers from @3 (32 bytes each, 11 slots). */
function multisigData(m: number, signers: PublicKey[]): Uint8Array {
  const data = new Uint8Array(355);
  data[0] = m;
  data[1] = signers.length;
  data[2] = 1;
  signers.forEach((signer, i) => data.set(signer.toBuffer(), 3 + 32 * i));
  return data;
}

/** Token-2022 mint (decimals 9) with one passive extension: MetadataPointer (type 18, 64 bytes) after AccountType 1 @165. */
function metadataPointerMint(authority: string, self: string): Uint8Array {
  const out = new Uint8Array(166 + 4 + 64);
  out.set(mintData(5_000_000_000n, 9, authority), 0);
  out[165] = 1;
  new DataView(out.buffer).setUint16(166, 18, true);
  new DataView(out.buffer).setUint16(168, 64, true);
  out.set(new PublicKey(authority).toBuffer(), 170);
  out.set(new PublicKey(self).toBuffer(), 202);
  return out;
}

/** A Token-2022 associated token account: 165-byte base, AccountType 2 @165, an empty ImmutableOwner TLV (type 7). */
function token2022Account(tokenMint: string, owner: string, amount: bigint): Uint8Array {
  const data = tokenAccountData(tokenMint, owner, amount, undefined, 170);
  data[166] = 7;
  return data;
}

/** The tiny world without its per-slot transfers, plus accounts these tests hold the keys of. */
function worldWithWallets(): World {
  const tiny = createTinyWorld(0);
  const system = (lamports: bigint): AccountState => ({ lamports, owner: SYSTEM_PROGRAM, data: new Uint8Array(0), executable: false, rentEpoch: RENT_EXEMPT });
  const token = (data: Uint8Array, program = TOKEN_PROGRAM): AccountState => ({ lamports: 2_039_280n, owner: program, data, executable: false, rentEpoch: RENT_EXEMPT });
  const key = (k: PublicKey) => k.toBase58();
  return {
    ...tiny,
    genesis(ledger) {
      tiny.genesis(ledger);
      for (const wallet of [payer, stranger, delegate]) ledger.setAccount(key(wallet.publicKey), system(10_000_000_000n));
      ledger.setAccount(key(poor.publicKey), system(4_000n));
      ledger.setAccount(key(mint), { ...token(mintData(1_000_000_000n, 6, key(mintAuthority.publicKey))), lamports: 1_461_600n });
      ledger.setAccount(key(payerToken), token(tokenAccountData(key(mint), key(payer.publicKey), 1_000_000_000n, { key: key(delegate.publicKey), amount: 300n })));
      const frozen = tokenAccountData(key(mint), key(payer.publicKey), 10n);
      frozen[108] = 2;
      ledger.setAccount(key(frozenToken), token(frozen));
      ledger.setAccount(key(multisig), token(multisigData(2, multisigSigners.map((k) => k.publicKey))));
      ledger.setAccount(key(multisigToken), token(tokenAccountData(key(mint), key(multisig), 1_000n)));
      for (const signer of multisigSigners) ledger.setAccount(key(signer.publicKey), system(1_000_000_000n));
      ledger.setAccount(key(mint2022), token(metadataPointerMint(key(mintAuthority.publicKey), key(mint2022)), TOKEN_2022_PROGRAM));
      ledger.setAccount(key(payerToken2022), { ...token(token2022Account(key(mint2022), key(payer.publicKey), 7_000_000_000n), TOKEN_2022_PROGRAM), lamports: 2_074_080n });
      const feeMint = token2022MintData({ supply: 1n, decimals: 9, authority: key(mintAuthority.publicKey), mint: key(feeMint2022), name: "Fee", symbol: "FEE", uri: "" });
      ledger.setAccount(key(feeMint2022), token(feeMint, TOKEN_2022_PROGRAM));
      ledger.setAccount(key(payerFeeToken), token(token2022Account(key(feeMint2022), key(payer.publicKey), 1n), TOKEN_2022_PROGRAM));
      ledger.setAccount(key(strangerFeeToken), token(token2022Account(key(feeMint2022), key(stranger.publicKey), 0n), TOKEN_2022_PROGRAM));
    },
  };
}

let net: Localnet;
let connection: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 11, world: worldWithWallets() });
  await net.advance(3);
  connection = new Connection(net.rpcUrl, "confirmed");
});

afterAll(() => net.close());

const transferData = (amount: bigint, decimals?: number) => {
  const data = Buffer.alloc(decimals === undefined ? 9 : 10);
  data[0] = decimals === undefined ? 3 : 12;
  data.writeBigUInt64LE(amount, 1);
  if (decimals !== undefined) data[9] = decimals;
  return data;
};
const meta = (pubkey: PublicKey, isSigner: boolean, isWritable: boolean) => ({ pubkey, isSigner, isWritable });

function transferIx(source: PublicKey, destination: PublicKey, authority: PublicKey, amount: bigint, program = TOKEN_PROGRAM) {
  return new TransactionInstruction({
    programId: new PublicKey(program),
    keys: [meta(source, false, true), meta(destination, false, true), meta(authority, true, false)],
    data: transferData(amount),
  });
}

function transferCheckedIx(source: PublicKey, tokenMint: PublicKey, destination: PublicKey, authority: PublicKey, amount: bigint, decimals: number, program = TOKEN_PROGRAM) {
  return new TransactionInstruction({
    programId: new PublicKey(program),
    keys: [meta(source, false, true), meta(tokenMint, false, false), meta(destination, false, true), meta(authority, true, false)],
    data: transferData(amount, decimals),
  });
}

function createAtaIx(funder: PublicKey, wallet: PublicKey, tokenMint: PublicKey, idempotent: boolean, program = TOKEN_PROGRAM, address = ata(wallet, tokenMint, program)) {
  return new TransactionInstruction({
    programId: new PublicKey(ATA_PROGRAM),
    keys: [
      meta(funder, true, true),
      meta(address, false, true),
      meta(wallet, false, false),
      meta(tokenMint, false, false),
      meta(SystemProgram.programId, false, false),
      meta(new PublicKey(program), false, false),
    ],
    data: Buffer.from(idempotent ? [1] : [0]),
  });
}

/** Signs with `signers` (the first pays) over the processed blockhash, base64 wire bytes. */
async function wire(signers: Keypair[], ...ixs: TransactionInstruction[]): Promise<string> {
  const { blockhash } = await connection.getLatestBlockhash("processed");
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, recentBlockhash: blockhash }).add(...ixs);
  tx.sign(...signers);
  return tx.serialize().toString("base64");
}

/** sendTransaction with preflight at processed, then two slots so the transaction is confirmed. */
async function send(text: string, config: Record<string, unknown> = {}) {
  const reply = await call(net.rpcUrl, "sendTransaction", [text, { encoding: "base64", preflightCommitment: "processed", ...config }]);
  if (reply.result) await net.advance(2);
  return reply;
}

const amountOf = async (account: PublicKey) => (await connection.getTokenAccountBalance(account)).value.amount;
const rawAmount = async (account: PublicKey) => (await connection.getAccountInfo(account))!.data.readBigUInt64LE(64);

describe("SPL Token transfers through sendTransaction", () => {
  it("CreateIdempotent + TransferChecked to a new wallet: account created, amounts moved in the bytes, mainnet-shaped logs and meta", async () => {
    // Given a payer holding 1,000 tokens (6 decimals) and a stranger without a token account
    const payerLamports = await connection.getBalance(payer.publicKey);
    const sent = await send(await wire([payer], createAtaIx(payer.publicKey, stranger.publicKey, mint, true), transferCheckedIx(payerToken, mint, strangerToken, payer.publicKey, 5_000_000n, 6)));
    // Then the transaction lands, the stranger's associated account exists with the tokens, the payer paid fee + rent
    expect(sent.error).toBeUndefined();
    const signature = sent.result as string;
    expect(await amountOf(strangerToken)).toBe("5000000");
    expect(await rawAmount(payerToken)).toBe(995_000_000n);
    const created = (await connection.getAccountInfo(strangerToken))!;
    expect(created.owner.toBase58()).toBe(TOKEN_PROGRAM);
    expect(created.lamports).toBe(TOKEN_ACCOUNT_RENT);
    expect(created.data.length).toBe(165);
    expect(new PublicKey(created.data.subarray(32, 64)).toBase58()).toBe(stranger.publicKey.toBase58());
    expect(await connection.getBalance(payer.publicKey)).toBe(payerLamports - 5_000 - TOKEN_ACCOUNT_RENT);

    const tx = (await connection.getParsedTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }))!;
    const keys = tx.transaction.message.accountKeys.map((a) => a.pubkey.toBase58());
    const index = (key: PublicKey) => keys.indexOf(key.toBase58());
    const ui = (amount: string, uiAmount: number, uiAmountString: string) => ({ amount, decimals: 6, uiAmount, uiAmountString });
    expect(tx.meta!.err).toBeNull();
    expect(tx.meta!.fee).toBe(5_000);
    expect(tx.meta!.preTokenBalances).toEqual([
      { accountIndex: index(payerToken), mint: mint.toBase58(), owner: payer.publicKey.toBase58(), programId: TOKEN_PROGRAM, uiTokenAmount: ui("1000000000", 1000, "1000") },
    ]);
    expect(tx.meta!.postTokenBalances).toEqual(
      [
        { accountIndex: index(payerToken), mint: mint.toBase58(), owner: payer.publicKey.toBase58(), programId: TOKEN_PROGRAM, uiTokenAmount: ui("995000000", 995, "995") },
        { accountIndex: index(strangerToken), mint: mint.toBase58(), owner: stranger.publicKey.toBase58(), programId: TOKEN_PROGRAM, uiTokenAmount: ui("5000000", 5, "5") },
      ].sort((a, b) => a.accountIndex - b.accountIndex),
    );
    // The runtime's log lines, units as in a mainnet ATA Create + TransferChecked (there: 600,000-unit budget; here 400,000)
    const [A, T, S] = [ATA_PROGRAM, TOKEN_PROGRAM, SYSTEM_PROGRAM];
    expect(tx.meta!.logMessages).toEqual([
      `Program ${A} invoke [1]`,
      "Program log: CreateIdempotent",
      `Program ${T} invoke [2]`,
      "Program log: Instruction: GetAccountDataSize",
      `Program ${T} consumed 1622 of 394408 compute units`,
      `Program return: ${T} pQAAAAAAAAA=`,
      `Program ${T} success`,
      `Program ${S} invoke [2]`,
      `Program ${S} success`,
      "Program log: Initialize the associated token account",
      `Program ${T} invoke [2]`,
      "Program log: Instruction: InitializeImmutableOwner",
      "Program log: Please upgrade to SPL Token 2022 for immutable owner support",
      `Program ${T} consumed 1405 of 387918 compute units`,
      `Program ${T} success`,
      `Program ${T} invoke [2]`,
      "Program log: Instruction: InitializeAccount3",
      `Program ${T} consumed 4241 of 384034 compute units`,
      `Program ${T} success`,
      `Program ${A} consumed 20545 of 400000 compute units`,
      `Program ${A} success`,
      `Program ${T} invoke [1]`,
      "Program log: Instruction: TransferChecked",
      `Program ${T} consumed 6199 of 379455 compute units`,
      `Program ${T} success`,
    ]);
    expect(tx.meta!.computeUnitsConsumed).toBe(20_545 + 6_199);
    // Inner instructions as web3 parses them: the ATA program's four invocations
    const inner = tx.meta!.innerInstructions![0]!;
    expect(inner.index).toBe(0);
    expect(inner.instructions.map((ix) => (ix as ParsedInstruction).parsed.type)).toEqual(["getAccountDataSize", "createAccount", "initializeImmutableOwner", "initializeAccount3"]);
    expect((inner.instructions[1] as ParsedInstruction).parsed.info).toMatchObject({ lamports: TOKEN_ACCOUNT_RENT, space: 165, owner: TOKEN_PROGRAM, newAccount: strangerToken.toBase58() });
    const status = (await createSolanaRpc(net.rpcUrl).getSignatureStatuses([toSignature(signature)]).send()).value[0];
    expect(status).toMatchObject({ err: null, confirmationStatus: "confirmed" });
  });

  it("Transfer above the balance: preflight -32002 with the token program's InsufficientFunds; skipPreflight records it failed, fee charged", async () => {
    const before = await rawAmount(payerToken);
    const text = await wire([payer], transferIx(payerToken, strangerToken, payer.publicKey, before + 1n));
    const refused = await send(text);
    const failedLogs = [
      `Program ${TOKEN_PROGRAM} invoke [1]`,
      "Program log: Instruction: Transfer",
      "Program log: Error: insufficient funds",
      `Program ${TOKEN_PROGRAM} consumed 4644 of 200000 compute units`,
      `Program ${TOKEN_PROGRAM} failed: custom program error: 0x1`,
    ];
    expect(refused.error).toMatchObject({
      code: -32002,
      message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
      data: { err: { InstructionError: [0, { Custom: 1 }] }, logs: failedLogs, unitsConsumed: 4644 },
    });
    const lamports = await connection.getBalance(payer.publicKey);
    const skipped = await send(text, { skipPreflight: true });
    const tx = (await connection.getTransaction(skipped.result as string, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }))!;
    expect(tx.meta).toMatchObject({ err: { InstructionError: [0, { Custom: 1 }] }, fee: 5_000, logMessages: failedLogs });
    expect(await rawAmount(payerToken)).toBe(before);
    expect(await connection.getBalance(payer.publicKey)).toBe(lamports - 5_000);
  });

  it("authority checks: another signer is OwnerMismatch (0x4); the delegate spends its allowance, then InsufficientFunds (0x1)", async () => {
    const wrongOwner = await send(await wire([stranger], transferIx(payerToken, strangerToken, stranger.publicKey, 1n)));
    expect(wrongOwner.error).toMatchObject({ code: -32002, message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x4" });
    expect((wrongOwner.error!.data as { logs: string[] }).logs).toContain("Program log: Error: owner does not match");
    // The delegate (allowance 300) moves 200: the allowance drops to 100
    const strangerBefore = await rawAmount(strangerToken);
    expect((await send(await wire([delegate], transferIx(payerToken, strangerToken, delegate.publicKey, 200n)))).error).toBeUndefined();
    expect(await rawAmount(strangerToken)).toBe(strangerBefore + 200n);
    const parsed = (await connection.getParsedAccountInfo(payerToken)).value!.data as { parsed: { info: { delegatedAmount: { amount: string } } } };
    expect(parsed.parsed.info.delegatedAmount.amount).toBe("100");
    const overAllowance = await send(await wire([delegate], transferIx(payerToken, strangerToken, delegate.publicKey, 101n)));
    expect(overAllowance.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1" });
  });

  it("TransferChecked checks the mint (0x3) and the decimals (0x12); an unsigned authority is MissingRequiredSignature", async () => {
    const wrongDecimals = await send(await wire([payer], transferCheckedIx(payerToken, mint, strangerToken, payer.publicKey, 1n, 9)));
    expect(wrongDecimals.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x12" });
    expect((wrongDecimals.error!.data as { logs: string[] }).logs).toContain("Program log: Error: decimals different from the Mint decimals");
    const wrongMint = await send(await wire([payer], transferCheckedIx(payerToken, mint2022, strangerToken, payer.publicKey, 1n, 9)));
    expect(wrongMint.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x3" });
    // The authority account listed but not signing (the stranger pays and signs)
    const unsigned = new TransactionInstruction({ ...transferIx(payerToken, strangerToken, payer.publicKey, 1n), keys: [meta(payerToken, false, true), meta(strangerToken, false, true), meta(payer.publicKey, false, false)] });
    const missing = await send(await wire([stranger], unsigned));
    expect(missing.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: missing required signature for instruction" });
  });

  it("a frozen account is AccountFrozen (0x11); a multisig owner needs m of its signers (2 of 3)", async () => {
    const frozen = await send(await wire([payer], transferIx(frozenToken, strangerToken, payer.publicKey, 1n)));
    expect(frozen.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x11" });
    expect((frozen.error!.data as { logs: string[] }).logs).toContain("Program log: Error: Account is frozen");
    const [a, , c] = multisigSigners as [Keypair, Keypair, Keypair];
    const byMultisig = (...signers: Keypair[]) =>
      new TransactionInstruction({
        programId: new PublicKey(TOKEN_PROGRAM),
        keys: [meta(multisigToken, false, true), meta(strangerToken, false, true), meta(multisig, false, false), ...signers.map((k) => meta(k.publicKey, true, false))],
        data: transferData(400n),
      });
    const one = await send(await wire([a], byMultisig(a)));
    expect(one.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: missing required signature for instruction" });
    const strangerBefore = await rawAmount(strangerToken);
    expect((await send(await wire([a, c], byMultisig(a, c)))).error).toBeUndefined();
    expect(await rawAmount(multisigToken)).toBe(600n);
    expect(await rawAmount(strangerToken)).toBe(strangerBefore + 400n);
  });

  it("associated accounts: Create over an existing one is IllegalOwner, a wrong address InvalidSeeds, CreateIdempotent of an existing one is a no-op", async () => {
    const again = await send(await wire([payer], createAtaIx(payer.publicKey, stranger.publicKey, mint, false)));
    expect(again.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: Provided owner is not allowed" });
    const wrong = await send(await wire([payer], createAtaIx(payer.publicKey, stranger.publicKey, mint, true, TOKEN_PROGRAM, Keypair.generate().publicKey)));
    expect(wrong.error).toMatchObject({ message: "Transaction simulation failed: Error processing Instruction 0: Provided seeds do not result in a valid address" });
    expect((wrong.error!.data as { logs: string[] }).logs).toContain("Program log: Error: Associated address does not match seed derivation");
    const before = await rawAmount(strangerToken);
    expect((await send(await wire([payer], createAtaIx(payer.publicKey, stranger.publicKey, mint, true)))).error).toBeUndefined();
    expect(await rawAmount(strangerToken)).toBe(before);
  });
});

describe("Token-2022 transfers", () => {
  it("a mint with passive extensions: CreateIdempotent makes a 170-byte account with ImmutableOwner; Transfer and TransferChecked move the amounts", async () => {
    const strangerToken2022 = ata(stranger.publicKey, mint2022, TOKEN_2022_PROGRAM);
    const sent = await send(
      await wire(
        [payer],
        createAtaIx(payer.publicKey, stranger.publicKey, mint2022, true, TOKEN_2022_PROGRAM),
        transferCheckedIx(payerToken2022, mint2022, strangerToken2022, payer.publicKey, 1_500_000_000n, 9, TOKEN_2022_PROGRAM),
        transferIx(payerToken2022, strangerToken2022, payer.publicKey, 500_000_000n, TOKEN_2022_PROGRAM),
      ),
    );
    expect(sent.error).toBeUndefined();
    const created = (await connection.getAccountInfo(strangerToken2022))!;
    expect(created.owner.toBase58()).toBe(TOKEN_2022_PROGRAM);
    expect(created.lamports).toBe(2_074_080);
    expect([...created.data.subarray(165, 170)]).toEqual([2, 7, 0, 0, 0]);
    expect((await connection.getTokenAccountBalance(strangerToken2022)).value).toMatchObject({ amount: "2000000000", uiAmountString: "2" });
    expect(await rawAmount(payerToken2022)).toBe(5_000_000_000n);
    const parsed = (await connection.getParsedAccountInfo(strangerToken2022)).value!.data as { parsed: { info: { extensions: { extension: string }[] } } };
    expect(parsed.parsed.info.extensions).toEqual([{ extension: "immutableOwner" }]);
    const tx = (await connection.getTransaction(sent.result as string, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }))!;
    const keys = tx.transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const post = Object.fromEntries(tx.meta!.postTokenBalances!.map((b) => [keys[b.accountIndex], [b.programId, b.uiTokenAmount.uiAmountString]]));
    expect(post).toEqual({ [payerToken2022.toBase58()]: [TOKEN_2022_PROGRAM, "5"], [strangerToken2022.toBase58()]: [TOKEN_2022_PROGRAM, "2"] });
    expect(tx.meta!.logMessages).toContain(`Program return: ${TOKEN_2022_PROGRAM} qgAAAAAAAAA=`); // 170
  });

  it("a transfer-fee mint is not modelled: refused (UnsupportedProgramId), never executed", async () => {
    const text = await wire([payer], transferCheckedIx(payerFeeToken, feeMint2022, strangerFeeToken, payer.publicKey, 1n, 9, TOKEN_2022_PROGRAM));
    const refused = await send(text);
    expect(refused.error).toMatchObject({ code: -32002, message: "Transaction simulation failed: Error processing Instruction 0: Unsupported program id" });
    const simulated = await call(net.rpcUrl, "simulateTransaction", [text, { encoding: "base64", commitment: "processed" }]);
    expect(simulated.result.value.err).toEqual({ InstructionError: [0, "UnsupportedProgramId"] });
    // skipPreflight: accepted, then dropped at execution (never recorded)
    const skipped = await send(text, { skipPreflight: true });
    expect((await call(net.rpcUrl, "getSignatureStatuses", [[skipped.result], { searchTransactionHistory: true }])).result.value).toEqual([null]);
    expect(await rawAmount(payerFeeToken)).toBe(1n);
  });
});

describe("a fee payer that cannot pay the fee", () => {
  it("preflight fails with InsufficientFundsForFee and no logs; skipPreflight is accepted, then dropped: no status, nothing charged", async () => {
    // Given a payer with 4,000 lamports and a 5,000-lamport fee
    const text = await wire([poor], SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: stranger.publicKey, lamports: 1 }));
    const refused = await send(text);
    expect(refused.error).toEqual({
      code: -32002,
      message: "Transaction simulation failed: Insufficient funds for fee",
      data: expect.objectContaining({ err: "InsufficientFundsForFee", logs: [], unitsConsumed: 0 }),
    });
    const simulated = await call(net.rpcUrl, "simulateTransaction", [text, { encoding: "base64", commitment: "processed" }]);
    expect(simulated.result.value).toMatchObject({ err: "InsufficientFundsForFee", logs: [], unitsConsumed: 0 });
    // Sent without preflight: the leader cannot load it, so it never lands
    const skipped = await send(text, { skipPreflight: true });
    expect(typeof skipped.result).toBe("string");
    await net.advance(3);
    const status = await call(net.rpcUrl, "getSignatureStatuses", [[skipped.result], { searchTransactionHistory: true }]);
    expect(status.result.value).toEqual([null]);
    expect(await connection.getBalance(poor.publicKey, "processed")).toBe(4_000);
    expect(await connection.getTransaction(skipped.result as string, { commitment: "confirmed", maxSupportedTransactionVersion: 0 })).toBeNull();
  });
});

describe("simulateTransaction: sigVerify and replaceRecentBlockhash (Agave 2.x)", () => {
  const simulate = (text: string, config: Record<string, unknown>) => call(net.rpcUrl, "simulateTransaction", [text, { encoding: "base64", ...config }]);
  const transfer = () => SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: stranger.publicKey, lamports: 1_000 });

  it("sigVerify: a good signature simulates; a bad one is -32003 Transaction signature verification failure", async () => {
    const text = await wire([payer], transfer());
    expect((await simulate(text, { sigVerify: true, commitment: "processed" })).result.value).toMatchObject({ err: null, unitsConsumed: 150 });
    const forged = Buffer.from(text, "base64");
    forged[1] = forged[1]! ^ 0xff; // first signature byte
    expect((await simulate(forged.toString("base64"), { sigVerify: true, commitment: "processed" })).error).toEqual({
      code: -32003,
      message: "Transaction signature verification failure",
    });
    // Without sigVerify the signature is not looked at
    expect((await simulate(forged.toString("base64"), { commitment: "processed" })).result.value.err).toBeNull();
  });

  it("replaceRecentBlockhash: an unknown blockhash is replaced by the bank's, answered as replacementBlockhash", async () => {
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(transfer());
    tx.sign(payer);
    const text = tx.serialize().toString("base64");
    expect((await simulate(text, { commitment: "confirmed" })).result.value).toMatchObject({ err: "BlockhashNotFound", replacementBlockhash: null });
    const replaced = await simulate(text, { commitment: "confirmed", replaceRecentBlockhash: true });
    const latest = await call(net.rpcUrl, "getLatestBlockhash", [{ commitment: "confirmed" }]);
    expect(replaced.result.context.slot).toBe(latest.result.context.slot);
    expect(replaced.result.value).toMatchObject({ err: null, replacementBlockhash: latest.result.value });
  });

  it("sigVerify with replaceRecentBlockhash is -32602, as Agave", async () => {
    const text = await wire([payer], transfer());
    expect((await simulate(text, { sigVerify: true, replaceRecentBlockhash: true })).error).toEqual({
      code: -32602,
      message: "sigVerify may not be used with replaceRecentBlockhash",
    });
  });
});
