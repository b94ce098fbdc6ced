/** Headers the route sets on the upgrade it hands a hub shard (built fresh: nothing of the client's but the upgrade). */
export const hubHandoff = {
  /** the key record the route authenticated (its hash, never the key): the plan's caps and the meter's terms */
  record: "x-pubsub-key-record",
  /** the socket's id as the account's meter counted it (rpcSocketIdOf) */
  socketId: "x-pubsub-socket-id",
} as const;
