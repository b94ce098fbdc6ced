/**
 * Which PubSub hub shard serves a socket: one Durable Object per upstream PubSub URL list and shard; a socket goes to
 * its account's shard (FNV-1a of the account id), so one account's subscriptions are all counted (and shared) in one
 * object. Kept apart from the hub's class (which imports `cloudflare:workers`) so the route, the meter and pure tests
 * can name a hub without loading the object.
 */
export function hubNameOf(clusterKey: string, shard: number): string {
  return `pubsub:${clusterKey}:${shard}`;
}

export function hubShardOfAccount(account: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < account.length; i++) {
    hash ^= account.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** `rpc~<shard>~<random>`: an /rpc socket as the account's meter counts it (a /ws socket id never starts so: its connection id has 8+ characters before `~`). */
export function rpcSocketIdOf(shard: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let tail = "";
  for (const b of bytes) tail += b.toString(16).padStart(2, "0");
  return `rpc~${shard}~${tail}`;
}

/** The hub shard of an /rpc socket id, or undefined for a /ws socket id. */
export function hubShardOfSocketId(socketId: string): number | undefined {
  const match = /^rpc~(\d+)~/.exec(socketId);
  return match === null ? undefined : Number(match[1]);
}
