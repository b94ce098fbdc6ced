/**
 * Which PubSub hub serves a cluster: one Durable Object per upstream PubSub URL list. Kept apart from the hub's class
 * (which imports `cloudflare:workers`) so the route and pure tests can name a hub without loading the object.
 */
export function hubNameOf(clusterKey: string): string {
  return `pubsub:${clusterKey}`;
}
