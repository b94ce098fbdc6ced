/**
 * Contract between the chain (ledger, blocks, RPC, PubSub) and the world (tokens, venues, swaps).
 * The chain owns time and storage; the world owns what the accounts mean and which transactions happen.
 * Keys are base58 strings; amounts are bigint; account data is raw bytes in the programs' real layouts.
 */
export type Pubkey = string;

export interface AccountState {
  lamports: bigint;
  owner: Pubkey;
  data: Uint8Array;
  executable: boolean;
  rentEpoch: bigint;
}

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

export interface TokenBalance {
  accountIndex: number;
  mint: Pubkey;
  owner: Pubkey;
  programId: Pubkey;
  uiTokenAmount: UiTokenAmount;
}

export interface CompiledInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight?: number | null;
}

export interface TxMessage {
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  accountKeys: Pubkey[];
  recentBlockhash: string;
  instructions: CompiledInstruction[];
}

export interface TxMeta {
  err: null | Record<string, unknown>;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  innerInstructions: { index: number; instructions: CompiledInstruction[] }[];
  logMessages: string[];
  computeUnitsConsumed: bigint;
}

/** A transaction as it sits in a block. `signatures[0]` is the transaction id. */
export interface TxRecord {
  signatures: string[];
  message: TxMessage;
  meta: TxMeta;
  version: "legacy" | 0;
}

export interface Reward {
  pubkey: Pubkey;
  lamports: bigint;
  postBalance: bigint;
  rewardType: "fee" | "rent" | "staking" | "voting";
  commission: number | null;
}

export interface Block {
  slot: number;
  parentSlot: number;
  blockhash: string;
  previousBlockhash: string;
  blockTime: number;
  blockHeight: number;
  transactions: TxRecord[];
  rewards: Reward[];
}

/** What the world may do to the ledger while it builds genesis or a slot. */
export interface LedgerWriter {
  readonly slot: number;
  /** Unix seconds of the block being built. */
  readonly blockTime: number;
  /** Latest blockhash (base58), for `recentBlockhash` of new transactions. */
  readonly recentBlockhash: string;
  getAccount(pubkey: Pubkey): AccountState | undefined;
  /** Writes an account at the current slot (versioned: older commitments still see the old state). */
  setAccount(pubkey: Pubkey, state: AccountState): void;
  deleteAccount(pubkey: Pubkey): void;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
  /** Delay before answering, for the "slow" broken metadata URI. */
  delayMs?: number;
}

export interface World {
  /**
   * Account fixtures about to be loaded over the world at genesis: a world may take over some of them (shared
   * addresses it keeps updating) so that its state and theirs agree. Called once, before `genesis`.
   */
  adopt?(fixtures: ReadonlyMap<Pubkey, AccountState>): void;
  /** Writes every account of the world at slot 0. */
  genesis(ledger: LedgerWriter): void;
  /** Called once per produced (not skipped) slot: mutate accounts and return the slot's transactions. */
  produceSlot(ledger: LedgerWriter): TxRecord[];
  /** What the world holds, for `/__localnet/world` (the world defines its shape: world/manifest.ts). */
  manifest(): unknown;
  /** The blocks below `slot` were pruned: the world drops what it kept about them (its ground truth of trades). */
  prune?(slot: number): void;
  /** The swaps of slots `from`..`to` inclusive, as executed (`GET /__localnet/trades`); a world without it has none. */
  trades?(from: number, to: number): unknown[];
  /** The next `slots` produced slots are mainnet-sized (`POST /__localnet/advance?heavy=1`); a world without it ignores it. */
  heavySlots?(slots: number): void;
  /**
   * `POST /__localnet/launch?kind=`: the next produced slot creates a new pool of `kind`. A string is why not (the
   * admin route answers it as a 400); a world without it has no such control.
   */
  launchPool?(kind: string): WorldRequest | string;
  /** `POST /__localnet/graduate?mint=`: the next produced slot buys out a bonding curve (any when `mint` is undefined). */
  graduateCurve?(mint: string | undefined): WorldRequest | string;
  /** The world's own admin routes under `/__localnet/` (e.g. the security tokens'); undefined = not one of them. */
  admin?(method: string, url: URL): { status: number; body: unknown } | undefined;
  /** Serves off-chain metadata JSON and images under `/meta/...` on the RPC HTTP port; undefined = not ours. */
  http(path: string): HttpReply | undefined;
  /**
   * `POST /__localnet/simulate-swap`: the world's own venue code swaps `amountIn` on the current state, nothing applied;
   * what it would pay out (the world defines the shape: world/swap-simulation.ts), or why it cannot.
   */
  simulateSwap?(pool: string, side: "buy" | "sell", amountIn: bigint, time?: number): object | string;
  /**
   * `POST /__localnet/drop-next?pool=&sol=`: the transactions of a block the cluster will abandon (Ledger.dropNext) — a
   * buy of `sol` SOL's worth on `pool` (none without a pool), written to the fork slot's ledger writer while the world's
   * own state stays as it was. A string says why not.
   */
  forkBlock?(pool: string | undefined, sol: number): ((writer: LedgerWriter) => TxRecord[]) | string;
}

/** What an admin control asked of the next produced slot: what was queued now, and what the slot made of it. */
export interface WorldRequest {
  /** what is queued (kind, mint, ...), as the admin route answers at once */
  queued: Record<string, unknown>;
  /** settles when a produced slot ran the request: what it made (slot, signature, mint, pool, ...) or `{error}` */
  done: Promise<Record<string, unknown>>;
}
