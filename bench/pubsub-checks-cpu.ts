// The /rpc WebSocket's plan checks, on one core (npx tsx bench/pubsub-checks-cpu.ts; run by bench/run.sh's streams
// section): what they add per subscribe (selectivity policy, per-socket and per-account caps, the credit check) and
// per notification copy (the unread-bytes bound, the copy count billed to the meter). Each p50 is the median of
// rounds, with and without the checks, over the same PubSubHubState the hub runs (src/pubsub/pubsub-hub-state.ts).
import { performance } from "node:perf_hooks";
import { PubSubHubState, type ClientOwner } from "../src/pubsub/pubsub-hub-state";
import { readPubSubFrame, selectivityProblem } from "../src/pubsub/pubsub-frames";

const SOCKETS = 1000;
const ROUNDS = 30;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const account = "So11111111111111111111111111111111111111112";

function hubOf(withChecks: boolean) {
  const unacked = new Map<number, number>();
  const copies = new Map<string, number>();
  let sent = 0;
  const state = new PubSubHubState<number>({
    toClient: (socket, text, copyOf) => {
      if (withChecks) {
        const n = (unacked.get(socket) ?? 0) + text.length;
        if (n > 4 * 1024 * 1024) return;
        unacked.set(socket, n);
        if (copyOf !== undefined) copies.set(copyOf.account, (copies.get(copyOf.account) ?? 0) + 1);
      }
      sent++;
    },
    toUpstream: () => undefined,
    persist: () => undefined,
    reserveSubIds: () => undefined,
    admitSubscribe: withChecks ? () => undefined : undefined,
  });
  for (let s = 0; s < SOCKETS; s++) {
    const owner: ClientOwner | undefined = withChecks ? { account: `acct_${s % 10}`, perSocket: 100, perAccount: 100_000, socketId: `rpc~0~${s}` } : undefined;
    state.addClient(s, owner);
  }
  state.upstreamOpened();
  return { state, sent: () => sent };
}

const subscribeText = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "accountSubscribe", params: [account, { commitment: "processed", encoding: "base64" }] });
const programText = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "programSubscribe", params: ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", { encoding: "base64", filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" } }] }] });

function perSubscribeUs(withChecks: boolean): number {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { state } = hubOf(withChecks);
    const t0 = performance.now();
    for (let s = 0; s < SOCKETS; s++) state.fromClient(s, subscribeText(s));
    rounds.push(((performance.now() - t0) * 1000) / SOCKETS);
  }
  return median(rounds);
}

function perCopyUs(withChecks: boolean): number {
  const { state } = hubOf(withChecks);
  for (let s = 0; s < SOCKETS; s++) state.fromClient(s, subscribeText(s));
  state.fromUpstream(JSON.stringify({ jsonrpc: "2.0", result: 77, id: 1 }));
  const note = JSON.stringify({ jsonrpc: "2.0", method: "accountNotification", params: { result: { context: { slot: 1 }, value: { lamports: 1, data: ["A".repeat(880), "base64"], owner: account, executable: false, rentEpoch: 0, space: 653 } }, subscription: 77 } });
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS * 3; r++) {
    const t0 = performance.now();
    state.fromUpstream(note);
    rounds.push(((performance.now() - t0) * 1000) / SOCKETS);
  }
  return median(rounds);
}

function policyUs(): number {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) selectivityProblem("programSubscribe", (readPubSubFrame(programText) as { params: unknown[] }).params);
    rounds.push((performance.now() - t0));
  }
  return median(rounds);
}

// warm-up
perSubscribeUs(true);
perSubscribeUs(false);
perCopyUs(true);
perCopyUs(false);
const [subWith, subWithout] = [perSubscribeUs(true), perSubscribeUs(false)];
const [copyWith, copyWithout] = [perCopyUs(true), perCopyUs(false)];
const line = (label: string, text: string) => console.log(`${label.padEnd(64)} ${text}`);
line("  per subscribe (1,000 sockets of 10 accounts on one shard)", `p50 ${subWith.toFixed(2)} µs with the plan checks, ${subWithout.toFixed(2)} µs without: +${(subWith - subWithout).toFixed(2)} µs`);
line("  programSubscribe selectivity policy (Token program, mint memcmp)", `p50 ${policyUs().toFixed(2)} µs per frame (read + policy)`);
line("  per notification copy (fan-out to 1,000 subscribers)", `p50 ${copyWith.toFixed(2)} µs with the byte bound and billing, ${copyWithout.toFixed(2)} µs without: +${(copyWith - copyWithout).toFixed(2)} µs`);
