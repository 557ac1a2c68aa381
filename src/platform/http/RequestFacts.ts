/**
 * The per-request channel back to the outermost middleware (src/platform/http/pipeline.ts).
 *
 * The pipeline creates one `RequestFacts` per request and owns it; it travels on the request
 * object itself (`factsKey`), so no FiberRef is set per request (each set copies the fiber's
 * FiberRefs, a measurable cost on the hot path). Inner code only REPORTS into
 * it what the pipeline cannot see from outside the router: the matched operation, the caller
 * (for the request log and the access log), the quota decision (for the X-RateLimit-* headers)
 * and how a cache served the answer. Nothing inside reads decisions back from it: the operation
 * and plan come from the matched route (src/platform/http/Operation.ts), the caller from the `Caller`
 * service the Auth middleware provides.
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Context, Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { Caller } from "../../kernel/Caller"
import type { OperationInfo, Operations } from "./Operation"

export type CacheOutcome = "hit" | "miss" | "stale" | "bypass"

export interface QuotaState {
  readonly limit: number
  readonly remaining: number
  /** Unix seconds of the next quota period's start. */
  readonly resetAt: number
}

export interface RequestFacts {
  readonly requestId: string
  /** performance.now() at receipt. */
  readonly started: number
  /** Epoch ms at receipt. */
  readonly ts: number
  /** Epoch ms by the fiber's Clock at receipt (what deadlines are measured from, so TestClock drives them). */
  readonly clockStart: number
  /** Clock ms past which the request is answered 502 (src/platform/http/pipeline.ts). */
  deadlineAt: number
  operation: OperationInfo | undefined
  caller: Caller["Type"] | undefined
  quota: QuotaState | undefined
  cache: CacheOutcome | undefined
}

/** One request header (the platform's public header record). */
export const headerOf = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => request.headers[name]

/** The caller's X-Request-Id when it is a sane token, else a fresh UUID. */
export const requestIdFrom = (incoming: string | null | undefined): string =>
  incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID()

const factsKey: unique symbol = Symbol.for("domain-intel/RequestFacts")

/** Attaches the pipeline's facts to the request (the pipeline only). */
export const attachFacts = (request: HttpServerRequest.HttpServerRequest, facts: RequestFacts): void => {
  ;(request as unknown as { [factsKey]?: RequestFacts })[factsKey] = facts
}

/** The facts of a request the pipeline saw (undefined otherwise, e.g. MCP over stdio). */
export const factsOf = (request: HttpServerRequest.HttpServerRequest | undefined): RequestFacts | undefined =>
  (request as unknown as { [factsKey]?: RequestFacts } | undefined)?.[factsKey]

export const factsIn = (context: Context.Context<never>): RequestFacts | undefined => {
  const request = Context.getOption(context as Context.Context<HttpServerRequest.HttpServerRequest>, HttpServerRequest.HttpServerRequest)
  return request._tag === "Some" ? factsOf(request.value) : undefined
}

/** Runs `f` on the current request's facts, if any (none outside an HTTP request, e.g. MCP over stdio). */
export const reportFacts = (f: (facts: RequestFacts) => void): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    const facts = factsIn(fiber.currentContext)
    if (facts !== undefined) f(facts)
    return Effect.void
  })

/** `setCacheOutcome` for callers that already hold the fiber's context. */
export const setCacheOutcomeIn = (context: Context.Context<never>, outcome: CacheOutcome): void => {
  const facts = factsIn(context)
  if (facts !== undefined) facts.cache = outcome
}

/** Record how the response was served from cache, for the request log and cache analytics. */
export const setCacheOutcome = (outcome: CacheOutcome): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    setCacheOutcomeIn(fiber.currentContext, outcome)
    return Effect.void
  })

/**
 * The operation of the matched route, reported to the pipeline (attribution, and the deadline
 * when the operation sets its own). Undefined when the route declares no operation. Synchronous
 * form for callers that already hold the fiber's context.
 */
export const attributeIn = (operations: Operations["Type"], context: Context.Context<never>): OperationInfo | undefined => {
  const route = Context.getOption(context as Context.Context<HttpRouter.RouteContext>, HttpRouter.RouteContext)
  const op = route._tag === "Some" ? operations.ofRoute(route.value.route) : undefined
  const facts = factsIn(context)
  if (op === undefined || facts === undefined) return op
  facts.operation = op
  if (op.deadline !== undefined) {
    const query = Context.getOption(context as Context.Context<HttpServerRequest.ParsedSearchParams>, HttpServerRequest.ParsedSearchParams)
    const ms = op.deadline(query._tag === "Some" ? query.value : {})
    if (ms !== undefined) facts.deadlineAt = facts.clockStart + ms
  }
  return op
}

/** `attributeIn` for the current fiber. */
export const attribute = (operations: Operations["Type"]): Effect.Effect<OperationInfo | undefined> =>
  Effect.withFiberRuntime((fiber) => Effect.succeed(attributeIn(operations, fiber.currentContext)))
