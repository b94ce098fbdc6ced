/**
 * What a request works with, built once per env object from the parsed config: the upstream client and the price
 * cache. Routes take them from `c.var.services` (middleware/init-services.ts) instead of building their own.
 */
import { configOf, type Config } from "./config";
import type { Env } from "./env";
import { OverviewCaches } from "./overview/overview-service";
import { priceCacheFor, type PriceCache } from "./pricing/price-cache";
import { createUpstream, type Upstream } from "./solana/upstream";

export interface Services {
  config: Config;
  upstream: Upstream;
  priceCache: PriceCache;
  overviewCaches: OverviewCaches;
}

/** One set per isolate: the caches' entries do not depend on the config. */
const overviewCaches = new OverviewCaches();

const byEnv = new WeakMap<object, Services>();

export function servicesOf(env: Env): Services {
  const hit = byEnv.get(env);
  if (hit) return hit;
  const config = configOf(env);
  const services: Services = { config, upstream: createUpstream(config.upstream), priceCache: priceCacheFor(config.priceCacheTtlMs), overviewCaches };
  byEnv.set(env, services);
  return services;
}
