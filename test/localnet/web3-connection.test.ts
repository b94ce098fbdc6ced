/**
 * The localnet through @solana/web3.js 1.x `Connection`, whose superstruct validation rejects any response shape that
 * differs from a validator's (number vs string, null vs absent, `context.slot`). Methods web3 lacks go through
 * `_rpcRequest`, as an application would.
 */
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  Message,
  PublicKey,
  SystemProgram,
  Transaction,
  sendAndConfirmTransaction,
  type ParsedAccountData,
  type ParsedInstruction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTinyChain, type TinyChain } from "./helpers/local-chain.js";
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "./helpers/tiny-world.js";

let chain: TinyChain;
let connection: Connection;
let k: Record<string, PublicKey>;

/** web3's raw request, for methods it has no wrapper for. */
type RawRequest = (method: string, args: unknown[]) => Promise<{ result?: any; error?: { code: number; message: string } }>;
const raw = (method: string, args: unknown[]) => (connection as unknown as { _rpcRequest: RawRequest })._rpcRequest(method, args);

beforeAll(async () => {
  chain = await startTinyChain();
  await chain.net.advance(120); // slot 60, used below, is then finalized (web3 reads finalized by default)
  connection = new Connection(chain.net.rpcUrl, { wsEndpoint: chain.net.wsUrl });
  k = Object.fromEntries(Object.entries(chain.world.keys).map(([name, key]) => [name, new PublicKey(key)]));
});

afterAll(() => chain.net.close());

describe("accounts and tokens", () => {
  it("getAccountInfo / getParsedAccountInfo / getMultipleAccountsInfo / getBalance", async () => {
    const mint = await connection.getAccountInfo(k.mint!);
    expect(mint!.owner.toBase58()).toBe(TOKEN_PROGRAM);
    expect(mint!.data.readBigUInt64LE(36)).toBe(1_255_000_000n);
    const parsed = await connection.getParsedAccountInfo(k.mint2022!);
    const data = parsed.value!.data as ParsedAccountData;
    expect(data.program).toBe("spl-token-2022");
    expect(data.parsed.info.decimals).toBe(9);
    const many = await connection.getMultipleAccountsInfo([k.alice!, new PublicKey("11111111111111111111111111111112")]);
    expect(many[0]!.lamports).toBeLessThan(10_000_000_000);
    expect(many[1]).toBeNull();
    expect(await connection.getBalance(k.bob!)).toBe(10_000_000_000);
  });

  it("getProgramAccounts / getParsedProgramAccounts with dataSize + memcmp", async () => {
    const filters = [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: k.carol!.toBase58() } }];
    const rawAccounts = await connection.getProgramAccounts(new PublicKey(TOKEN_PROGRAM), { filters });
    expect(rawAccounts.map((a) => a.pubkey.toBase58())).toEqual([k.carolToken!.toBase58()]);
    const parsedAccounts = await connection.getParsedProgramAccounts(new PublicKey(TOKEN_PROGRAM), { filters });
    expect((parsedAccounts[0]!.account.data as ParsedAccountData).parsed.info.tokenAmount.uiAmountString).toBe("5");
  });

  it("token accounts by owner and delegate, balances, supply, largest accounts", async () => {
    const byMint = await connection.getTokenAccountsByOwner(k.bob!, { mint: k.mint! });
    expect(byMint.value.map((a) => a.pubkey.toBase58())).toEqual([k.bobToken!.toBase58()]);
    const parsed = await connection.getParsedTokenAccountsByOwner(k.alice!, { programId: new PublicKey(TOKEN_2022_PROGRAM) });
    expect(parsed.value[0]!.account.data.parsed.info.tokenAmount.amount).toBe("42000000000");
    const delegated = await raw("getTokenAccountsByDelegate", [k.delegate!.toBase58(), { programId: TOKEN_PROGRAM }, { encoding: "jsonParsed" }]);
    expect(delegated.result.value[0].pubkey).toBe(k.carolToken!.toBase58());
    expect((await connection.getTokenAccountBalance(k.carolToken!)).value.uiAmount).toBe(5);
    expect((await connection.getTokenSupply(k.mint!)).value.amount).toBe("1255000000");
    const largest = await connection.getTokenLargestAccounts(k.mint!);
    expect(largest.value.map((a) => a.address.toBase58())).toEqual([k.aliceToken, k.bobToken, k.carolToken].map((key) => key!.toBase58()));
  });
});

describe("slots and blocks", () => {
  it("getSlot, getBlockHeight, getEpochInfo, getEpochSchedule, getLatestBlockhash, isBlockhashValid", async () => {
    const { processed, finalized } = chain.net.ledger.commitments;
    expect(await connection.getSlot()).toBe(finalized);
    expect(await connection.getSlot("processed")).toBe(processed);
    expect(await connection.getBlockHeight("processed")).toBe(chain.net.ledger.getBlock(processed)!.blockHeight);
    expect((await connection.getEpochInfo()).absoluteSlot).toBe(finalized);
    expect((await connection.getEpochSchedule()).slotsPerEpoch).toBe(432_000);
    const latest = await connection.getLatestBlockhash();
    expect(latest.blockhash).toBe(chain.net.ledger.getBlock(finalized)!.blockhash);
    expect((await connection.isBlockhashValid(latest.blockhash)).value).toBe(true);
  });

  it("getBlock and getParsedBlock (v0 transactions need maxSupportedTransactionVersion)", async () => {
    const slot = 60; // seed 11: produced, holds a v0 transaction (slot % 5 === 0)
    const block = await connection.getBlock(slot, { maxSupportedTransactionVersion: 0 });
    expect(block!.parentSlot).toBe(57);
    expect(block!.transactions[0]!.version).toBe(0);
    expect(block!.transactions[0]!.meta!.fee).toBe(5000);
    expect(block!.rewards![0]!.rewardType).toBe("Fee");
    await expect(connection.getBlock(slot)).rejects.toMatchObject({ code: -32015 });
    const parsed = await connection.getParsedBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: "full" });
    const full = parsed.transactions[0]!.transaction as unknown as { message: { instructions: ParsedInstruction[] } };
    const ix = full.message.instructions[0]!;
    expect(ix.parsed.type).toBe("transfer");
    const accounts = await connection.getBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: "accounts" });
    const accountsTx = accounts!.transactions[0]!.transaction as unknown as { accountKeys: { pubkey: PublicKey }[] };
    expect(accountsTx.accountKeys[0]!.pubkey.toBase58()).toBe(k.alice!.toBase58());
    const none = await connection.getBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: "none", rewards: false });
    expect(none!.blockhash).toBe(chain.net.ledger.getBlock(slot)!.blockhash);
    expect((await connection.getBlockSignatures(slot)).signatures).toHaveLength(1);
  });

  it("getBlocks, getBlocksWithLimit, getBlockTime, getBlockCommitment, getBlockProduction, getFirstAvailableBlock", async () => {
    expect(await connection.getBlocks(55, 62)).toEqual([55, 56, 57, 60, 61, 62]);
    expect((await raw("getBlocksWithLimit", [55, 4])).result).toEqual([55, 56, 57, 60]);
    const t = await connection.getBlockTime(60);
    expect(t).toBe(chain.net.ledger.getBlock(60)!.blockTime);
    const commitment = await raw("getBlockCommitment", [chain.net.ledger.slotAt("processed")]);
    expect(commitment.result.commitment).toHaveLength(32);
    const production = await connection.getBlockProduction();
    expect(production.value.byIdentity[chain.net.ledger.identity]![0]).toBe(chain.net.ledger.slotAt("finalized") + 1);
    expect(await connection.getFirstAvailableBlock()).toBe(0);
  });
});

describe("transactions and node", () => {
  it("getSignaturesForAddress, getTransaction, getParsedTransaction, getSignatureStatuses", async () => {
    const sigs = await connection.getSignaturesForAddress(k.aliceToken!, { limit: 3 });
    expect(sigs).toHaveLength(3);
    expect(sigs[0]!.confirmationStatus).toBe("finalized");
    const tx = await connection.getTransaction(sigs[0]!.signature, { maxSupportedTransactionVersion: 0 });
    expect(tx!.slot).toBe(sigs[0]!.slot);
    expect(tx!.meta!.preTokenBalances![0]!.mint).toBe(k.mint!.toBase58());
    const parsed = await connection.getParsedTransaction(sigs[1]!.signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed!.transaction.message.accountKeys[0]!.signer).toBe(true);
    const statuses = await connection.getSignatureStatuses([sigs[2]!.signature]);
    expect(statuses.value[0]!.confirmationStatus).toBe("finalized");
  });

  it("getClusterNodes, getVersion, getGenesisHash, getHealth, getIdentity, rent, supply, fees, transaction count", async () => {
    const [node] = await connection.getClusterNodes();
    expect(node!.rpc).toBe(`127.0.0.1:${chain.net.port}`);
    expect((await connection.getVersion())["solana-core"]).toMatch(/^2\./);
    expect(await connection.getGenesisHash()).toBe(chain.net.ledger.genesisHash);
    expect((await raw("getHealth", [])).result).toBe("ok");
    expect((await raw("getIdentity", [])).result.identity).toBe(chain.net.ledger.identity);
    expect(await connection.getMinimumBalanceForRentExemption(82)).toBe(1_461_600);
    const supply = await connection.getSupply();
    expect(supply.value.nonCirculating).toBe(50_000_000 * LAMPORTS_PER_SOL);
    expect(supply.value.nonCirculatingAccounts.map((key) => key.toBase58())).toEqual([...chain.net.ledger.nonCirculatingAccounts]);
    expect(supply.value.circulating).toBe(supply.value.total - supply.value.nonCirculating);
    expect((await connection.getRecentPrioritizationFees()).length).toBeGreaterThan(0);
    expect(await connection.getTransactionCount()).toBe(chain.net.ledger.transactionCountAt(chain.net.ledger.slotAt("finalized")));
    expect(await connection.getSlotLeader()).toBe(chain.net.ledger.identity);
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new Message({
      header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
      accountKeys: [k.alice!.toBase58(), "11111111111111111111111111111111"],
      recentBlockhash: blockhash,
      instructions: [],
    });
    expect((await connection.getFeeForMessage(message)).value).toBe(5000);
  });

  it("leaders, vote accounts, inflation, stake minimum, performance samples, ledger bounds (web3's own shape checks)", async () => {
    const identity = chain.net.ledger.identity;
    expect((await connection.getSlotLeaders(0, 4)).map((key) => key.toBase58())).toEqual([identity, identity, identity, identity]);
    const schedule = await connection.getLeaderSchedule();
    expect(schedule[identity]).toHaveLength(432_000);
    const votes = await connection.getVoteAccounts();
    expect(votes.current[0]).toMatchObject({ nodePubkey: identity, activatedStake: 400_000_000_000_000, epochVoteAccount: true, commission: 0 });
    expect(votes.current[0]!.lastVote).toBe(chain.net.ledger.slotAt("finalized"));
    expect(votes.delinquent).toEqual([]);
    expect(await connection.getInflationGovernor()).toEqual({ initial: 0.08, terminal: 0.015, taper: 0.15, foundation: 0.05, foundationTerm: 7 });
    expect((await connection.getInflationRate()).epoch).toBe(0);
    expect(await connection.getStakeMinimumDelegation()).toMatchObject({ value: 1 });
    const samples = await connection.getRecentPerformanceSamples(2);
    expect(samples).toHaveLength(1); // 120 slots: one (short) window
    expect(samples[0]).toMatchObject({ slot: chain.net.ledger.slotAt("processed"), numSlots: chain.net.ledger.slotAt("processed") });
    expect(await connection.getMinimumLedgerSlot()).toBe(0);
    expect((await raw("getHighestSnapshotSlot", [])).error).toEqual({ code: -32008, message: "No snapshot" });
    expect((await raw("getMaxRetransmitSlot", [])).result).toBe(chain.net.ledger.slotAt("processed"));
    expect((await raw("getMaxShredInsertSlot", [])).result).toBe(chain.net.ledger.slotAt("processed"));
  });

  it("getSignatureStatuses with searchTransactionHistory, getGenesisHash, getEpochSchedule", async () => {
    const [sig] = await connection.getSignaturesForAddress(k.aliceToken!, { limit: 1 });
    const statuses = await connection.getSignatureStatuses([sig!.signature], { searchTransactionHistory: true });
    expect(statuses.value[0]).toMatchObject({ slot: sig!.slot, confirmations: null, err: null, confirmationStatus: "finalized" });
    expect((await connection.getEpochSchedule()).leaderScheduleSlotOffset).toBe(432_000);
  });
});

describe("airdrop and System transfers (as solana-test-validator)", () => {
  /** Slots keep coming while web3 waits for confirmations, as on a running validator. */
  async function whileSlotsRun<T>(work: () => Promise<T>): Promise<T> {
    let running = true;
    const driver = (async () => {
      while (running) {
        await chain.net.advance(1);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      return await work();
    } finally {
      running = false;
      await driver;
    }
  }

  it("requestAirdrop credits the address in the next slot and its signature becomes confirmed", async () => {
    const payer = Keypair.generate();
    const signature = await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
    // Nothing yet: the airdrop lands in the next produced slot
    expect((await connection.getSignatureStatus(signature)).value).toBeNull();
    await whileSlotsRun(async () => {
      const latest = await connection.getLatestBlockhash();
      await connection.confirmTransaction({ signature, ...latest }, "confirmed");
    });
    expect(await connection.getBalance(payer.publicKey, "confirmed")).toBe(2 * LAMPORTS_PER_SOL);
    const status = await connection.getSignatureStatus(signature);
    expect(["confirmed", "finalized"]).toContain(status.value!.confirmationStatus);
    const tx = await connection.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(tx!.transaction.message.staticAccountKeys[0]!.toBase58()).toBe(chain.net.ledger.faucet);
    expect(tx!.meta!.err).toBeNull();
  });

  it("sendAndConfirmTransaction of a System Program transfer lands: balances, fee, status, transaction", async () => {
    const payer = Keypair.generate();
    const recipient = Keypair.generate();
    const airdrop = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    const transfer = () => new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 250_000_000 }));
    const signature = await whileSlotsRun(async () => {
      await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) }, "confirmed");
      return sendAndConfirmTransaction(connection, transfer(), [payer], { commitment: "confirmed" });
    });
    expect(await connection.getBalance(recipient.publicKey, "confirmed")).toBe(250_000_000);
    expect(await connection.getBalance(payer.publicKey, "confirmed")).toBe(LAMPORTS_PER_SOL - 250_000_000 - 5000);
    const tx = await connection.getParsedTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    // The System Program's account holds 1 lamport, as on a validator
    expect(tx!.meta).toMatchObject({ err: null, fee: 5000, preBalances: [LAMPORTS_PER_SOL, 0, 1], postBalances: [LAMPORTS_PER_SOL - 250_005_000, 250_000_000, 1] });
    const system = await connection.getAccountInfo(SystemProgram.programId);
    expect(system).toMatchObject({ lamports: 1, executable: true, data: Buffer.from("system_program") });
    expect(system!.owner.toBase58()).toBe("NativeLoader1111111111111111111111111111111");
    const ix = tx!.transaction.message.instructions[0] as ParsedInstruction;
    expect(ix).toMatchObject({ program: "system", parsed: { type: "transfer", info: { lamports: 250_000_000 } } });
    const sigs = await connection.getSignaturesForAddress(recipient.publicKey, undefined, "confirmed");
    expect(sigs.map((s) => s.signature)).toEqual([signature]);
  });

  it("preflight refuses a transfer above the balance (-32002, the System Program's error) and a bad signature (-32003)", async () => {
    const poor = Keypair.generate();
    const airdrop = await connection.requestAirdrop(poor.publicKey, 1_000_000);
    await whileSlotsRun(async () => connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) }, "confirmed"));
    const { blockhash } = await connection.getLatestBlockhash("processed");
    const tooMuch = new Transaction({ feePayer: poor.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 2_000_000 }),
    );
    tooMuch.sign(poor);
    const wire = tooMuch.serialize().toString("base64");
    const refused = await raw("sendTransaction", [wire, { encoding: "base64", preflightCommitment: "processed" }]);
    expect(refused.error).toMatchObject({ code: -32002, message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1" });
    const simulated = await raw("simulateTransaction", [wire, { encoding: "base64", commitment: "processed" }]);
    expect(simulated.result.value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    const forged = Buffer.from(wire, "base64");
    forged[1] = forged[1]! ^ 0xff; // first signature byte
    const badSig = await raw("sendTransaction", [forged.toString("base64"), { encoding: "base64" }]);
    expect(badSig.error).toEqual({ code: -32003, message: "Transaction signature verification failure" });
  });
});
