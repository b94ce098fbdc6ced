/**
 * Subscription kinds and their parameters, parsed as Agave's rpc_pubsub does (`Invalid Request: Invalid pubkey
 * provided`, `Invalid Request: Only 1 address supported`, ...), plus the registry that hands out integer ids.
 */
import type { Commitment } from "../chain/ledger.js";
import type { AccountEncoding, DataSlice } from "../rpc/encoding/account-encoding.js";
import { readAccountConfig } from "../rpc/methods/account-config.js";
import { readFilters, verifyFilters, type AccountFilter } from "../rpc/methods/program-account-filters.js";
import { parseBase58Fixed } from "../chain/base58.js";
import { flattenedCommitment, parse, positional, readConfig, readString } from "../rpc/params.js";
import { invalidParams } from "../rpc/rpc-error.js";

interface Common {
  id: number;
  send: (method: string, result: unknown) => void;
  /** The subscribe method and params as the client sent them (for the admin stat). */
  asked: { method: string; params: unknown };
}

export type SubscriptionRequest =
  | { kind: "slot" }
  | { kind: "root" }
  | { kind: "account"; pubkey: string; commitment: Commitment; encoding: AccountEncoding; dataSlice?: DataSlice; lastNotified: number }
  | { kind: "program"; programId: string; commitment: Commitment; encoding: AccountEncoding; dataSlice?: DataSlice; filters: AccountFilter[] }
  | { kind: "logs"; mentions: string | undefined; commitment: Commitment }
  | { kind: "signature"; signature: string; commitment: Commitment };

export type Subscription = SubscriptionRequest & Common;

/** Agave's pubsub `param::<T>()` error. */
function checked(text: string, size: 32 | 64, thing: string): string {
  if (typeof parseBase58Fixed(text, size) === "string") throw invalidParams(`Invalid Request: Invalid ${thing} provided`);
  return text;
}

export function readAccountSubscribe(params: unknown): SubscriptionRequest {
  const [pubkey, config] = parse(() => {
    const p = positional(params, 1, 2);
    return [readString(p[0]), readAccountConfig(p[1])] as const;
  });
  return {
    kind: "account",
    pubkey: checked(pubkey, 32, "pubkey"),
    commitment: config.commitment,
    encoding: config.encoding ?? "binary",
    dataSlice: config.dataSlice,
    lastNotified: -1,
  };
}

export function readProgramSubscribe(params: unknown): SubscriptionRequest {
  const [programId, config, filters] = parse(() => {
    const p = positional(params, 1, 2);
    const raw = readConfig(p[1], "RpcProgramAccountsConfig");
    return [readString(p[0]), readAccountConfig(raw), readFilters(raw.filters)] as const;
  });
  checked(programId, 32, "pubkey");
  verifyFilters(filters);
  return { kind: "program", programId, commitment: config.commitment, encoding: config.encoding ?? "binary", dataSlice: config.dataSlice, filters };
}

export function readLogsSubscribe(params: unknown): SubscriptionRequest {
  const [filter, config] = parse(() => {
    const p = positional(params, 1, 2);
    return [p[0], readConfig(p[1], "RpcTransactionLogsConfig")] as const;
  });
  const commitment = flattenedCommitment(config);
  if (filter === "all" || filter === "allWithVotes") return { kind: "logs", mentions: undefined, commitment };
  const mentions = typeof filter === "object" && filter !== null ? (filter as Record<string, unknown>).mentions : undefined;
  if (!Array.isArray(mentions)) {
    const variant = typeof filter === "string" ? filter : Object.keys(filter ?? {})[0];
    throw invalidParams(`Invalid params: unknown variant \`${variant}\`, expected one of \`all\`, \`allWithVotes\`, \`mentions\`.`);
  }
  if (mentions.length !== 1) throw invalidParams("Invalid Request: Only 1 address supported");
  return { kind: "logs", mentions: checked(String(mentions[0]), 32, "pubkey"), commitment };
}

export function readSignatureSubscribe(params: unknown): SubscriptionRequest {
  const [signature, config] = parse(() => {
    const p = positional(params, 1, 2);
    return [readString(p[0]), readConfig(p[1], "RpcSignatureSubscribeConfig")] as const;
  });
  return { kind: "signature", signature: checked(signature, 64, "signature"), commitment: flattenedCommitment(config) };
}

/** All live subscriptions, by id; ids are integers from 1 up, never reused while the server runs. */
export class SubscriptionRegistry {
  private nextId = 1;
  private readonly live = new Map<number, Subscription>();

  add(request: SubscriptionRequest, asked: Subscription["asked"], sendTo: (id: number, method: string, result: unknown) => void): Subscription {
    const id = this.nextId++;
    const subscription: Subscription = { ...request, id, asked, send: (method, result) => sendTo(id, method, result) };
    this.live.set(subscription.id, subscription);
    return subscription;
  }

  remove(id: number): boolean {
    return this.live.delete(id);
  }

  get(id: number): Subscription | undefined {
    return this.live.get(id);
  }

  /** Live subscriptions grouped by method and params (as sent), with how many of each: `GET /__localnet/pubsub`. */
  summary(): { method: string; params: unknown; count: number }[] {
    const groups = new Map<string, { method: string; params: unknown; count: number }>();
    for (const { asked } of this.live.values()) {
      const key = `${asked.method} ${JSON.stringify(asked.params ?? null)}`;
      const group = groups.get(key);
      if (group) group.count++;
      else groups.set(key, { method: asked.method, params: asked.params ?? null, count: 1 });
    }
    return [...groups.values()];
  }

  *ofKind<K extends Subscription["kind"]>(kind: K): Generator<Extract<Subscription, { kind: K }>> {
    for (const subscription of this.live.values()) {
      if (subscription.kind === kind) yield subscription as Extract<Subscription, { kind: K }>;
    }
  }
}
