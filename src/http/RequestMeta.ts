/**
 * What the service learns about one request while handling it (who called, which operation,
 * the cache outcome, the quota left). The outer middleware creates it and writes the request
 * log and response headers from it; auth and handlers fill it in.
 */
import { Effect, FiberRef } from "effect"
import { randomUUID } from "node:crypto"
import type { Organization } from "../auth/Keys"
import type { Plan } from "../domain/plans"

export type CacheOutcome = "hit" | "miss" | "stale" | "bypass"

export interface RequestMeta {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly operation: string
  readonly category: string
  /** The plan label of the matched operation; undefined for unauthenticated routes. */
  readonly plan: Plan | undefined
  org: Organization | undefined
  /** An audit token presented instead of an API key (WAF active probe only). */
  auditToken: string | undefined
  cache: CacheOutcome | undefined
  quota: { readonly limit: number; readonly remaining: number } | undefined
}

/** The caller's X-Request-Id when it is a sane token, else a fresh UUID. */
export const requestIdFrom = (incoming: string | null | undefined): string =>
  incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID()

/** The headers every answer carries: its request id and, once the request was counted, the quota left. */
export const trackingHeaders = (
  requestId: string,
  quota: { readonly limit: number; readonly remaining: number } | undefined
): Record<string, string> =>
  quota === undefined
    ? { "x-request-id": requestId }
    : { "x-request-id": requestId, "x-ratelimit-limit": String(quota.limit), "x-ratelimit-remaining": String(quota.remaining) }

export const currentRequestMeta = FiberRef.unsafeMake<RequestMeta | undefined>(undefined)

export const requestMeta: Effect.Effect<RequestMeta | undefined> = FiberRef.get(currentRequestMeta)

/** Record how the response was served from cache, for the request log and cache analytics. */
export const setCacheOutcome = (outcome: CacheOutcome): Effect.Effect<void> =>
  Effect.map(FiberRef.get(currentRequestMeta), (meta) => {
    if (meta) meta.cache = outcome
  })
