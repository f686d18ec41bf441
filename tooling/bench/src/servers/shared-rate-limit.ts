import {
  type PetStore,
  type RateLimiter,
  type RateLimitSettings,
  rateLimitField,
  rateLimitPolicy,
} from '@animal-store/api';
import { ClusterRateLimiter, MongoPetStore } from '@animal-store/api/mongo';

/** A quota no run reaches: the limit is there for what it costs, never to refuse. */
export const BENCH_RATE_LIMIT: RateLimitSettings = { requests: 1_000_000_000, windowSeconds: 3600 };

/**
 * On MongoDB both servers count requests with the rate limit shared through the database, as
 * the API is deployed (`RATE_LIMIT_SCOPE=cluster`): the report's database commands show its
 * leases (`insert` per request on the read endpoints). In memory, none: the per-process limit
 * is a map update, and the matched servers run without it.
 */
export async function sharedRateLimiter(store: PetStore): Promise<RateLimiter | undefined> {
  if (!(store instanceof MongoPetStore)) return undefined;
  return ClusterRateLimiter.open(store.db, BENCH_RATE_LIMIT);
}

/** The two fields the API sends (draft-ietf-httpapi-ratelimit-headers), for the baseline. */
export function rateLimitFields(limiter: RateLimiter, remaining: number): Record<string, string> {
  return {
    'RateLimit-Policy': rateLimitPolicy(BENCH_RATE_LIMIT),
    RateLimit: rateLimitField(remaining, limiter.resetSeconds()),
  };
}
