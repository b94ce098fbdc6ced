/**
 * Solana PubSub over WebSocket: JSON-RPC (single or batch) with the *Subscribe / *Unsubscribe methods; answers carry the
 * integer subscription id, notifications arrive as `{jsonrpc, method: "<kind>Notification", params: {result, subscription}}`.
 * A connection's subscriptions end with it. Serves upgrades from any HTTP server (the PubSub port and the RPC port).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { executeRpc, parseRpcBody, type MethodTable } from "../rpc/json-rpc.js";
import { stringifyJson } from "../rpc/json-serialize.js";
import { exactTuple, parse, positional, readUnsigned } from "../rpc/params.js";
import { invalidParams } from "../rpc/rpc-error.js";
import type { RpcContext } from "../rpc/rpc-context.js";
import { Notifier } from "./notifier.js";
import {
  readAccountSubscribe,
  readLogsSubscribe,
  readProgramSubscribe,
  readSignatureSubscribe,
  SubscriptionRegistry,
  type SubscriptionRequest,
} from "./subscriptions.js";

const UNSUBSCRIBE_FOR = {
  accountUnsubscribe: "account",
  programUnsubscribe: "program",
  logsUnsubscribe: "logs",
  signatureUnsubscribe: "signature",
  slotUnsubscribe: "slot",
  rootUnsubscribe: "root",
} as const;

/** The PubSub server of each ledger, for the admin stat (`GET /__localnet/pubsub`) without wiring it through the server. */
const serverOfLedger = new WeakMap<object, PubSubServer>();

/** Live subscriptions and connections of the PubSub server serving `ledger` (none when it has no PubSub server). */
export function pubSubStatsOf(ledger: object): { connections: number; subscriptions: { method: string; params: unknown; count: number }[] } {
  const server = serverOfLedger.get(ledger);
  return { connections: server?.connections ?? 0, subscriptions: server?.subscriptions() ?? [] };
}

export class PubSubServer {
  private readonly registry = new SubscriptionRegistry();
  private readonly notifier: Notifier;
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(private readonly ctx: RpcContext) {
    this.notifier = new Notifier(ctx, this.registry);
    ctx.ledger.onSlot((event) => this.notifier.onSlot(event));
    this.wss.on("connection", (socket) => this.serve(socket));
    serverOfLedger.set(ctx.ledger, this);
  }

  get connections(): number {
    return this.wss.clients.size;
  }

  subscriptions(): { method: string; params: unknown; count: number }[] {
    return this.registry.summary();
  }

  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
  };

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private serve(socket: WebSocket): void {
    const owned = new Set<number>();
    const send = (id: number, method: string, result: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(stringifyJson({ jsonrpc: "2.0", method, params: { result, subscription: id } }));
    };
    const subscribe = (method: string, params: unknown, read: (params: unknown) => SubscriptionRequest): number => {
      const request = read(params);
      if (request.kind === "account") request.lastNotified = this.notifier.accountBaseline(request.pubkey, request.commitment);
      const subscription = this.registry.add(request, { method, params }, send);
      owned.add(subscription.id);
      if (subscription.kind === "signature") this.checkSignatureNow(subscription.id);
      return subscription.id;
    };
    const methods: MethodTable = {
      accountSubscribe: (params) => subscribe("accountSubscribe", params, readAccountSubscribe),
      programSubscribe: (params) => subscribe("programSubscribe", params, readProgramSubscribe),
      logsSubscribe: (params) => subscribe("logsSubscribe", params, readLogsSubscribe),
      signatureSubscribe: (params) => subscribe("signatureSubscribe", params, readSignatureSubscribe),
      slotSubscribe: (params) => subscribe("slotSubscribe", params, (p) => parse(() => (positional(p, 0, 0), { kind: "slot" }))),
      rootSubscribe: (params) => subscribe("rootSubscribe", params, (p) => parse(() => (positional(p, 0, 0), { kind: "root" }))),
    };
    for (const [name, kind] of Object.entries(UNSUBSCRIBE_FOR)) {
      methods[name] = (params) => {
        const [id] = parse(() => exactTuple(params, 1).map((v) => readUnsigned(v)));
        if (!owned.has(id!) || this.registry.get(id!)?.kind !== kind) throw invalidParams("Invalid subscription id.");
        owned.delete(id!);
        return this.registry.remove(id!);
      };
    }
    socket.on("message", (data) => {
      const answer = executeRpc(parseRpcBody(data.toString()), methods);
      if (answer !== undefined) socket.send(answer);
    });
    socket.on("close", () => {
      for (const id of owned) this.registry.remove(id);
    });
    socket.on("error", () => socket.terminate());
  }

  /** A signature already committed at the requested level notifies right after the subscribe answer. */
  private checkSignatureNow(id: number): void {
    setImmediate(() => {
      const sub = this.registry.get(id);
      if (sub?.kind !== "signature") return;
      const found = this.ctx.ledger.findTransaction(sub.signature);
      if (found && found.block.slot <= this.ctx.ledger.slotAt(sub.commitment)) {
        this.notifier.notifySignature(sub, found.block.slot, found.block.transactions[found.index]!.meta.err);
      }
    });
  }
}
