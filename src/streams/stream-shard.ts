/** Which room shard a connection goes to (FNV-1a, 32 bit, of its connection id, modulo the shard count), and how the route hands it over. */

/** Connection ids: ours are UUIDs; a client may bring back one it was given (or any of its own) in this shape. */
export const connectionIdPattern = /^[A-Za-z0-9_-]{8,64}$/;

export function shardOfConnection(connectionId: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < connectionId.length; i++) {
    hash ^= connectionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
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
} as const;

