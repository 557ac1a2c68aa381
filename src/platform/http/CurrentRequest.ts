/**
 * The request being served, as a service: the pipeline (src/surfaces/server/pipeline.ts)
 * provides one `CurrentRequest` to everything that runs for a request (docs/pipeline.md).
 *
 * - `id`, `operation` and `deadlineMs` are decided before the work starts and never change.
 * - `notes` is a request-scoped `Ref` for what only inner layers learn and what the request log
 *   and the answer's headers need: the caller and its quota (the Auth middleware), how a cache
 *   served the answer (CT, WAF). Inner layers only write notes; nothing decides anything from
 *   them (the caller reaches handlers as the `Caller` service the Auth middleware provides).
 *
 * Outside an HTTP request (MCP over stdio) there is no `CurrentRequest`, and notes go nowhere.
 */
import { Context, Effect, Option, Ref } from "effect"
import type { CallerShape } from "../../kernel/Caller"
import type { OperationInfo } from "./Operation"

export type CacheOutcome = "hit" | "miss" | "stale" | "bypass"

/** A quota decision as the `X-RateLimit-*` headers state it. */
export interface RateLimit {
  readonly limit: number
  readonly remaining: number
  /** Unix seconds of the next quota period's start. */
  readonly resetAt: number
}

export interface RequestNotes {
  readonly caller: CallerShape | undefined
  readonly rateLimit: RateLimit | undefined
  readonly cache: CacheOutcome | undefined
}

export const emptyNotes: RequestNotes = { caller: undefined, rateLimit: undefined, cache: undefined }

export interface CurrentRequestShape {
  /** The caller's X-Request-Id when sane, else a fresh UUID (`requestIdFrom`). */
  readonly id: string
  /** The operation the router serves for this method and path; undefined for none. */
  readonly operation: OperationInfo | undefined
  /** How long the work may run, from receipt (OPERATION_DEADLINE_MS or the operation's own). */
  readonly deadlineMs: number
  readonly notes: Ref.Ref<RequestNotes>
}

export class CurrentRequest extends Context.Tag("domain-intel/CurrentRequest")<CurrentRequest, CurrentRequestShape>() {}

/** The caller's X-Request-Id when it is a sane token, else a fresh UUID. */
export const requestIdFrom = (incoming: string | null | undefined): string =>
  incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : crypto.randomUUID()

const note = (f: (notes: RequestNotes) => RequestNotes): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(CurrentRequest), (current) => (Option.isSome(current) ? Ref.update(current.value.notes, f) : Effect.void))

/** How a cache served this request's answer (the request log and the cache analytics). */
export const noteCache = (cache: CacheOutcome): Effect.Effect<void> => note((n) => ({ ...n, cache }))

/** Who is calling and, once counted, where their quota stands (the request log, `X-RateLimit-*`). */
export const noteCaller = (caller: CallerShape, rateLimit: RateLimit | undefined): Effect.Effect<void> =>
  note((n) => ({ ...n, caller, rateLimit }))
