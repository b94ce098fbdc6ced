import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { address, createSolanaRpc, getBase58Encoder, type Address, type Rpc, type SolanaRpcApi } from "@solana/kit";
import { Connection, PublicKey } from "@solana/web3.js";
import { base } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { advance, chainRpc, world } from "../helpers/localnet";
import { rpcUrl } from "../helpers/rpc";

/**
 * Real clients against the worker: `@solana/kit` (its own HTTP transport, unchanged) and `@solana/web3.js` 1.x
 * `Connection`, each run through every method of the spec, once via the worker's `/rpc?x-api-key=…` and once
 * straight at localnet; the answers must be the same.
 *
 * web3.js in workerd: its JSON-RPC helper `jayson/lib/client/browser` is CommonJS that `require`s `uuid`, and the
 * pool resolves `uuid` to its browser ES module, which `require` cannot read (`require('uuid').v4` is undefined).
 * The mock below is a line-for-line equivalent of jayson's browser client (JSON-RPC 2.0 envelope, random id,
 * batch = array); everything else — Connection, its params, fetch, superstruct response checks — is web3.js itself.
 */
vi.mock("jayson/lib/client/browser", () => ({
  default: class JsonRpcBrowserClient {
    constructor(private readonly callServer: (body: string, done: (err: Error | null, text?: string) => void) => void) {}
    request(method: unknown, params: unknown, callback?: (err: Error | null, response?: unknown) => void) {
      const isBatch = Array.isArray(method);
      const request = isBatch ? method : { method, jsonrpc: "2.0", params, id: crypto.randomUUID() };
      const done = (isBatch ? params : callback) as ((err: Error | null, response?: unknown) => void) | undefined;
      if (done) this.callServer(JSON.stringify(request), (err, text) => (err ? done(err) : done(null, JSON.parse(text!))));
      return request;
    }
  },
}));

const tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

/** Runs `read` against the worker and against localnet; a concurrent slot advance gets two more tries. */
async function sameThroughWorker<T>(read: (target: "worker" | "node") => Promise<T>): Promise<T> {
  let pair: [T, T] | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    pair = [await read("worker"), await read("node")];
    if (JSON.stringify(pair[0], (_k, v) => (typeof v === "bigint" ? v.toString() : v)) === JSON.stringify(pair[1], (_k, v) => (typeof v === "bigint" ? v.toString() : v))) break;
  }
  expect(pair![0]).toEqual(pair![1]);
  return pair![0];
}

describe("real clients through POST /rpc", () => {
  let key: string;
  let delegate: string;
  let account: string;
  let block: number;

  beforeAll(async () => {
    key = await newApiKey();
    await advance(40);
    const manifest = await world();
    delegate = manifest.wallets.delegates[0] ?? "So11111111111111111111111111111111111111112";
    account = manifest.wallets.whales[0] ?? "So11111111111111111111111111111111111111112";
    const finalized = await chainRpc<number>("getSlot", [{ commitment: "finalized" }]);
    const blocks = await chainRpc<number[]>("getBlocks", [0, finalized]);
    block = blocks[blocks.length - 1]!;
    // kit's transport calls the global fetch: requests for the worker's host go to SELF, the rest to the network.
    const networkFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return url.startsWith(base) ? SELF.fetch(url, init) : networkFetch(input, init);
    });
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  describe("@solana/kit createSolanaRpc", () => {
    let rpc: Record<"worker" | "node", Rpc<SolanaRpcApi>>;
    beforeAll(() => {
      rpc = { worker: createSolanaRpc(rpcUrl(key)), node: createSolanaRpc(env.LOCALNET_URL) };
    });
    const kit = (name: string, read: (rpc: Rpc<SolanaRpcApi>) => Promise<unknown>) => it(name, () => sameThroughWorker((target) => read(rpc[target])));

    kit("getAccountInfo", (r) => r.getAccountInfo(address(account), { encoding: "base64" }).send());
    kit("getBalance", (r) => r.getBalance(address(account)).send());
    kit("getBlock", (r) => r.getBlock(BigInt(block), { maxSupportedTransactionVersion: 0, rewards: true, transactionDetails: "full", encoding: "json" }).send());
    kit("getBlockCommitment", (r) => r.getBlockCommitment(BigInt(block)).send());
    kit("getBlockHeight", (r) => r.getBlockHeight({ commitment: "finalized" }).send());
    kit("getBlockProduction", (r) => r.getBlockProduction({ commitment: "finalized", range: { firstSlot: 0n, lastSlot: BigInt(block) } }).send());
    kit("getBlocks", (r) => r.getBlocks(0n, BigInt(block)).send());
    kit("getBlocksWithLimit", (r) => r.getBlocksWithLimit(0n, 10).send());
    kit("getBlockTime", (r) => r.getBlockTime(BigInt(block)).send());
    kit("getTokenAccountsByDelegate", (r) => r.getTokenAccountsByDelegate(address(delegate), { programId: address(tokenProgram) }, { encoding: "jsonParsed", commitment: "finalized" }).send());
    kit("getClusterNodes", (r) => r.getClusterNodes().send());
    // The rest of the allowlist
    kit("getSlot", (r) => r.getSlot({ commitment: "finalized" }).send());
    kit("getVersion", (r) => r.getVersion().send());
    kit("getHealth", (r) => r.getHealth().send());
    kit("getEpochInfo", (r) => r.getEpochInfo({ commitment: "finalized" }).send());
    kit("getMultipleAccounts", (r) => r.getMultipleAccounts([address(account), address(delegate)], { encoding: "base64" }).send());
    kit("getMinimumBalanceForRentExemption", (r) => r.getMinimumBalanceForRentExemption(165n).send());
    kit("getTokenAccountsByOwner", (r) => r.getTokenAccountsByOwner(address(account), { programId: address(tokenProgram) }, { encoding: "base64", commitment: "finalized" }).send());
    kit("getSignaturesForAddress", (r) => r.getSignaturesForAddress(address(account), { limit: 5, commitment: "finalized" }).send());
    kit("getProgramAccounts", (r) =>
      r.getProgramAccounts(address(tokenProgram), { encoding: "base64", commitment: "finalized", filters: [{ dataSize: 165n }, { memcmp: { offset: 32n, bytes: account as Address as never, encoding: "base58" } }] }).send(),
    );

    // issue 9 §3: what clients need to finish a transaction
    kit("getGenesisHash", (r) => r.getGenesisHash().send());
    kit("getEpochSchedule", (r) => r.getEpochSchedule().send());
    kit("getFirstAvailableBlock", (r) => r.getFirstAvailableBlock().send());
    kit("getTransactionCount", (r) => r.getTransactionCount({ commitment: "finalized" }).send());
    kit("getRecentPrioritizationFees", (r) => r.getRecentPrioritizationFees([address(account)]).send());
    kit("getSupply", (r) => r.getSupply({ commitment: "finalized", excludeNonCirculatingAccountsList: true }).send());
    kit("getSlotLeader", (r) => r.getSlotLeader({ commitment: "finalized" }).send());
    kit("getSlotLeaders", (r) => r.getSlotLeaders(0n, 10).send());
    kit("getIdentity", (r) => r.getIdentity().send());
    kit("getInflationGovernor", (r) => r.getInflationGovernor().send());
    kit("getInflationRate", (r) => r.getInflationRate().send());
    kit("getStakeMinimumDelegation", (r) => r.getStakeMinimumDelegation({ commitment: "finalized" }).send());
    kit("minimumLedgerSlot", (r) => r.minimumLedgerSlot().send());
    kit("getMaxRetransmitSlot", (r) => r.getMaxRetransmitSlot().send());
    kit("getMaxShredInsertSlot", (r) => r.getMaxShredInsertSlot().send());
    kit("getRecentPerformanceSamples", (r) => r.getRecentPerformanceSamples(5).send());
    kit("getLeaderSchedule (another identity)", (r) => r.getLeaderSchedule(null, { identity: address(account) }).send());
    kit("getVoteAccounts", (r) => r.getVoteAccounts({ commitment: "finalized" }).send());
    kit("getHighestSnapshotSlot (the node's -32008)", (r) => r.getHighestSnapshotSlot().send().catch((e: { context?: { __code?: number } }) => e.context?.__code));
    kit("getAccountInfo of the Clock sysvar", (r) => r.getAccountInfo(address("SysvarC1ock11111111111111111111111111111111"), { encoding: "base64", commitment: "finalized" }).send());

    it("getSignatureStatuses, isBlockhashValid, getFeeForMessage (a finalized transaction and blockhash)", async () => {
      const signatures = await chainRpc<{ signature: string }[]>("getSignaturesForAddress", [account, { limit: 1, commitment: "finalized" }]);
      const signature = signatures[0]!.signature as never;
      const statuses = await sameThroughWorker((target) => rpc[target].getSignatureStatuses([signature], { searchTransactionHistory: true }).send());
      expect(statuses.value[0]).toMatchObject({ confirmationStatus: "finalized" });
      const { value: latest } = await rpc.node.getLatestBlockhash({ commitment: "finalized" }).send();
      expect((await sameThroughWorker((target) => rpc[target].isBlockhashValid(latest.blockhash, { commitment: "finalized" }).send())).value).toBe(true);
      const message = new Uint8Array([1, 0, 1, 2, ...new Uint8Array(32).fill(7), ...new Uint8Array(32), ...getBase58Encoder().encode(latest.blockhash), 0]);
      const fee = await sameThroughWorker((target) => rpc[target].getFeeForMessage(btoa(String.fromCharCode(...message)) as never, { commitment: "finalized" }).send());
      expect(fee.value).toBe(5000n);
    });

    it("getTransaction (a transaction from a finalized block)", async () => {
      const signatures = await chainRpc<{ signature: string }[]>("getSignaturesForAddress", [account, { limit: 1, commitment: "finalized" }]);
      const signature = signatures[0]?.signature;
      expect(signature).toBeDefined();
      await sameThroughWorker((target) => rpc[target].getTransaction(signature as never, { maxSupportedTransactionVersion: 0, encoding: "jsonParsed" }).send());
    });
  });

  describe("@solana/web3.js Connection", () => {
    let connection: Record<"worker" | "node", Connection>;
    beforeAll(() => {
      connection = {
        worker: new Connection(rpcUrl(key), { fetch: (url, init) => SELF.fetch(url as string, init as RequestInit) as never, disableRetryOnRateLimit: true }),
        node: new Connection(env.LOCALNET_URL, { disableRetryOnRateLimit: true }),
      };
    });
    const web3 = (name: string, read: (c: Connection) => Promise<unknown>) => it(name, () => sameThroughWorker((target) => read(connection[target])));
    /** web3.js has no method for these: its own internal request path (the one its methods use); the result only, ids are random. */
    const raw = async (c: Connection, method: string, args: unknown[]) => {
      const response = await (c as unknown as { _rpcRequest(m: string, a: unknown[]): Promise<{ result?: unknown; error?: unknown }> })._rpcRequest(method, args);
      expect(response.error).toBeUndefined();
      return response.result;
    };

    web3("getAccountInfo", (c) => c.getAccountInfo(new PublicKey(account), "finalized"));
    web3("getBalance", (c) => c.getBalance(new PublicKey(account), "finalized"));
    web3("getBlock", (c) => c.getBlock(block, { maxSupportedTransactionVersion: 0, rewards: true, commitment: "finalized" }));
    web3("getBlockCommitment", (c) => raw(c, "getBlockCommitment", [block]));
    web3("getBlockHeight", (c) => c.getBlockHeight("finalized"));
    web3("getBlockProduction", (c) => c.getBlockProduction({ commitment: "finalized", range: { firstSlot: 0, lastSlot: block } }));
    web3("getBlocks", (c) => c.getBlocks(0, block, "finalized"));
    web3("getBlocksWithLimit", (c) => raw(c, "getBlocksWithLimit", [0, 10]));
    web3("getBlockTime", (c) => c.getBlockTime(block));
    web3("getTokenAccountsByDelegate form (b)", (c) => raw(c, "getTokenAccountsByDelegate", [delegate, { programId: tokenProgram }, { encoding: "jsonParsed", commitment: "finalized" }]));
    web3("getClusterNodes", (c) => c.getClusterNodes());
    web3("getLatestBlockhash", (c) => c.getLatestBlockhash("finalized"));
    web3("getSignatureStatuses", async (c) => {
      const [latest] = await connection.node.getSignaturesForAddress(new PublicKey(account), { limit: 1 }, "finalized");
      return c.getSignatureStatuses([latest!.signature], { searchTransactionHistory: true });
    });
    web3("getGenesisHash", (c) => c.getGenesisHash());
    web3("getEpochSchedule", (c) => c.getEpochSchedule());
    web3("getFirstAvailableBlock", (c) => c.getFirstAvailableBlock());
    web3("getTransactionCount", (c) => c.getTransactionCount("finalized"));
    web3("getRecentPrioritizationFees", (c) => c.getRecentPrioritizationFees({ lockedWritableAccounts: [new PublicKey(account)] }));
    web3("isBlockhashValid", async (c) => c.isBlockhashValid((await connection.node.getLatestBlockhash("finalized")).blockhash, { commitment: "finalized" }));
    web3("getSupply", (c) => c.getSupply({ commitment: "finalized", excludeNonCirculatingAccountsList: true }));
    web3("getSlotLeader", (c) => c.getSlotLeader("finalized"));
    web3("getSlotLeaders", (c) => c.getSlotLeaders(0, 10));
    web3("getIdentity", (c) => raw(c, "getIdentity", []));
    web3("getInflationGovernor", (c) => c.getInflationGovernor("finalized"));
    web3("getInflationRate", (c) => c.getInflationRate());
    web3("getStakeMinimumDelegation", (c) => c.getStakeMinimumDelegation({ commitment: "finalized" }));
    web3("getMinimumLedgerSlot", (c) => c.getMinimumLedgerSlot());
    web3("getMaxRetransmitSlot / getMaxShredInsertSlot", async (c) => [await raw(c, "getMaxRetransmitSlot", []), await raw(c, "getMaxShredInsertSlot", [])]);
    web3("getRecentPerformanceSamples", (c) => c.getRecentPerformanceSamples(5));
    web3("getVoteAccounts", (c) => c.getVoteAccounts("finalized"));
    web3("getParsedTokenAccountsByOwner", (c) => c.getParsedTokenAccountsByOwner(new PublicKey(account), { programId: new PublicKey(tokenProgram) }, "finalized"));

    it("getTokenAccountsByDelegate form (a): what form (b) returns for both token programs", async () => {
      type Accounts = { value: unknown[] };
      const formA = (await raw(connection.worker, "getTokenAccountsByDelegate", [delegate, { commitment: "finalized" }])) as Accounts;
      const classic = (await raw(connection.node, "getTokenAccountsByDelegate", [delegate, { programId: tokenProgram }, { encoding: "jsonParsed", commitment: "finalized" }])) as Accounts;
      const token2022 = (await raw(connection.node, "getTokenAccountsByDelegate", [delegate, { programId: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" }, { encoding: "jsonParsed", commitment: "finalized" }])) as Accounts;
      expect(formA.value).toEqual([...classic.value, ...token2022.value]);
    });
  });
});
