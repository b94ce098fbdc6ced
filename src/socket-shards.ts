/**
 * Which Durable Object holds a socket, and under which id the account's meter counts it: a `/ws` socket goes to a
 * stream room by its connection id, an `/rpc` PubSub socket to a hub shard by its account (FNV-1a, 32 bit, modulo the
 * shard count). On the ground floor so the routes, the meter (which tells a socket's holder to close it) and pure
 * tests can name a holder without loading the objects.
 */

/** Connection ids: ours are UUIDs; a client may bring back one it was given (or any of its own) in this shape. */
export const connectionIdPattern = /^[A-Za-z0-9_-]{8,64}$/;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** 12 hex characters from the platform's CSPRNG: the part of a socket id that makes every socket count once. */
function randomTail(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let tail = "";
  for (const b of bytes) tail += b.toString(16).padStart(2, "0");
  return tail;
}

export function shardOfConnection(connectionId: string, shards: number): number {
  return fnv1a(connectionId) % shards;
}

/** The room's name, as `STREAM_ROOM.idFromName` and the chain tail's `setTopics` know it. */
export function roomOfConnection(connectionId: string, shards: number): string {
  return `shard-${shardOfConnection(connectionId, shards)}`;
}
/** Headers the route sets on the request it hands the room (built fresh: nothing of the client's reaches here). */
export const roomHandoff = {
  room: "x-stream-room",
  connectionId: "x-stream-connection-id",
  /** the account of a key checked before the upgrade; absent: the first message must carry one */
  account: "x-stream-account",
  /** the plan's tokens per subscription, with the account (its meter admitted the connection) */
  tokensCap: "x-stream-tokens-cap",
  /** the socket's own id (socketIdOf), under which the account's meter counted it */
  socketId: "x-stream-socket-id",
  /** with the account: the hash of the key checked (hashApiKey), so a key repeated in messages is recognised */
  keyDigest: "x-stream-key-digest",
} as const;

/**
 * One socket's id for the account's meter: the connection id (a client may reuse it, to resume in its room) and a
 * random part, so every socket counts once against the plan's connections whatever id the client sends. `~` is never
 * in a connection id (`connectionIdPattern`), so the room is found again from the id.
 */
export function socketIdOf(connectionId: string): string {
  return `${connectionId}~${randomTail()}`;
}

/** The connection id of a socket id (socketIdOf). */
export function connectionOfSocketId(socketId: string): string {
  const at = socketId.indexOf("~");
  return at < 0 ? socketId : socketId.slice(0, at);
}



/** The name of an /rpc PubSub hub shard: one Durable Object per upstream PubSub URL list (its cluster key) and shard. */
export function hubNameOf(clusterKey: string, shard: number): string {
  return `pubsub:${clusterKey}:${shard}`;
}

/** A socket goes to its account's hub shard, so one account's subscriptions are all counted (and shared) in one object. */
export function hubShardOfAccount(account: string, shards: number): number {
  return fnv1a(account) % shards;
}

/** `rpc~<shard>~<random>`: an /rpc socket as the account's meter counts it (a /ws socket id never starts so: its connection id has 8+ characters before `~`). */
export function rpcSocketIdOf(shard: number): string {
  return `rpc~${shard}~${randomTail()}`;
}

/** The hub shard of an /rpc socket id, or undefined for a /ws socket id. */
export function hubShardOfSocketId(socketId: string): number | undefined {
  const match = /^rpc~(\d+)~/.exec(socketId);
  return match === null ? undefined : Number(match[1]);
}
