/**
 * The fast path: the steady-state case of a few hot, read-only account GETs, answered in one
 * synchronous step, before the HttpApi pipeline.
 *
 * Why: a request through @effect/platform's HttpApi costs about 30 µs of framework work here
 * (fiber, router, middleware chain, response conversion) before any of ours, so an
 * authenticated, metered cheap read could not get near a bare Bun.serve. The fast path does the
 * same work as the full path with the services' synchronous forms instead:
 *
 *   memoised key (Bearer.peekKey) → plan label → quota room (Quota.hasRoom) → the operation's
 *   read (ReadStore) → the endpoint's own success schema → count (Quota.take) → request log
 *   (RequestLog.unsafeRecord) → the same headers as the `observe` middleware.
 *
 * A fast read depends only on the organization, the path parameters and the database, so its
 * encoded body is kept until the next commit to the database (ReadStore `version`, which any
 * commit by any connection moves; the request-log writer commits every 200 ms, or sooner under
 * load).
 *
 * Anything else — not GET, no memoised key, a plan that does not allow the operation, a quota
 * counter not loaded or used up, a path parameter the endpoint's schema refuses, a read that
 * finds nothing or throws — is handed, untouched, to the HttpApi handler (`server.fetch`), which
 * owns every error answer. Nothing is counted or logged before that decision, so a handed-over
 * request is counted once, by the full path. test/api/fast-path.test.ts compares both paths on
 * the same requests byte for byte.
 *
 * The routes are Bun.serve `routes`, matched by Bun before the `fetch` handler that
 * @effect/platform-bun installs; FAST_PATH=false turns them off.
 */
import { Effect, Either, Option, Schema } from "effect"
import { Bearer, bearerToken } from "../auth/Auth"
import type { Organization } from "../auth/Keys"
import { planAllows } from "../domain/plans"
import { Quota } from "../metering/Quota"
import { RequestLog } from "../metering/RequestLog"
import { requestIdFrom, trackingHeaders } from "./RequestMeta"
import type { RouteTable } from "./RouteTable"

/** What a fast read returns when it has no answer for the steady state: the full path decides. */
export const HandOver: unique symbol = Symbol.for("domain-intel/FastPath/HandOver")
export type HandOver = typeof HandOver

export interface FastRoute {
  /** The HttpApi endpoint this answers for (its name is the operation id). */
  readonly operation: string
  /**
   * The endpoint's success value, or HandOver; may throw (the request is then handed over).
   * A function of the organization, the decoded path parameters and the database only.
   */
  readonly read: (org: Organization, path: any) => unknown
}

/** What the fast path did since start: answered, or handed to the HttpApi path. */
export class FastPathStats extends Effect.Service<FastPathStats>()("domain-intel/FastPathStats", {
  sync: () => ({ served: 0, handedOver: 0 })
}) {}

/** Encoded bodies kept between two commits. */
const bodyCapacity = 10_000

interface BunRequest extends Request {
  readonly params?: Record<string, string>
}
interface BunServer {
  fetch(request: Request): Response | Promise<Response>
}
export type BunRouteHandler = (request: BunRequest, server: BunServer) => Response | Promise<Response>

/** The operation's route, if the fast path can reproduce its answer exactly: a GET with path parameters at most, one JSON 200. */
const fastRouteInfo = (table: RouteTable, operation: string) => {
  const info = table.routes.find((r) => r.operation === operation)
  if (info?.endpoint === undefined) throw new Error(`FastPath: no endpoint ${operation}`)
  const { definition, successStatuses } = info.endpoint
  if (
    definition.method !== "GET" || Option.isSome(definition.urlParamsSchema) || Option.isSome(definition.headersSchema) ||
    successStatuses.length !== 1 || successStatuses[0] !== 200
  ) {
    throw new Error(`FastPath: ${operation} is not a plain GET with one 200 answer`)
  }
  return { info, endpoint: definition }
}

/** Bun `routes` for the given fast reads, or none when FAST_PATH is off. */
export const makeFastRoutes = (routes: ReadonlyArray<FastRoute>, table: RouteTable, version: () => number) =>
  Effect.gen(function*() {
    const bearer = yield* Bearer
    const quota = yield* Quota
    const log = yield* RequestLog
    const clock = yield* Effect.clock
    const stats = yield* FastPathStats
    const handOver = (request: BunRequest, server: BunServer) => {
      stats.handedOver++
      return server.fetch(request)
    }
    const handlers: Record<string, BunRouteHandler> = {}
    const bodies = new Map<string, { readonly version: number; readonly body: string }>()

    for (const route of routes) {
      const { info, endpoint } = fastRouteInfo(table, route.operation)
      const encode = Schema.encodeSync(endpoint.successSchema as Schema.Schema<unknown, unknown>)
      const decodePath = Option.map(endpoint.pathSchema, (s) => Schema.decodeUnknownEither(s as Schema.Schema<unknown, unknown>))

      handlers[endpoint.path] = (request, server) => {
        if (request.method !== "GET") return handOver(request, server)
        const started = performance.now()
        const now = clock.unsafeCurrentTimeMillis()
        const org = bearer.peekKey(bearerToken(request.headers.get("authorization") ?? undefined), now)
        if (org === undefined || (info.plan && !planAllows(org.plan, info.plan)) || !quota.hasRoom(org, now)) {
          return handOver(request, server)
        }
        let body: string
        try {
          let path: unknown = undefined
          let key = `${route.operation}\u0000${org.id}`
          if (Option.isSome(decodePath)) {
            const params = request.params ?? {}
            // Bun has decoded the escapes; a "%" still there came from "%25" or a broken escape,
            // which the full path's router may treat differently, so it decides.
            for (const k in params) if (params[k].includes("%")) return handOver(request, server)
            const decoded = decodePath.value(params)
            if (Either.isLeft(decoded)) return handOver(request, server)
            path = decoded.right
            key += `\u0000${JSON.stringify(path)}`
          }
          const v = version()
          const kept = bodies.get(key)
          if (kept !== undefined && kept.version === v) {
            body = kept.body
          } else {
            const value = route.read(org, path)
            if (value === HandOver) return handOver(request, server)
            body = JSON.stringify(encode(value))
            if (bodies.size >= bodyCapacity) bodies.clear()
            bodies.set(key, { version: v, body })
          }
        } catch {
          return handOver(request, server)
        }
        const counted = quota.take(org, now)
        stats.served++
        const url = request.url
        const start = url.indexOf("/", url.indexOf("//") + 2)
        const query = url.indexOf("?", start)
        log.unsafeRecord({
          orgId: org.id,
          operation: info.operation,
          category: info.category,
          method: "GET",
          path: query === -1 ? url.slice(start) : url.slice(start, query),
          status: 200,
          latencyMs: performance.now() - started,
          cache: null,
          ts: now
        })
        return new Response(body, {
          status: 200,
          headers: {
            "content-type": "application/json",
            ...trackingHeaders(requestIdFrom(request.headers.get("x-request-id")), counted)
          }
        })
      }
    }
    return handlers
  })
