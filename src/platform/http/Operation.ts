/**
 * What the router serves, as the one source of a request's operation name, category, plan
 * label and deadline (docs/pipeline.md).
 *
 * - Each HttpApiEndpoint carries its plan as an annotation (`PlanLabel`) and, when it is not
 *   `OPERATION_DEADLINE_MS`, its deadline (`OperationDeadline`). Raw routes mounted beside the
 *   HttpApi (MCP) declare the same facts in a `RawRoute`.
 * - `Operations` indexes those facts by route (method + path template, exactly as declared).
 *   `ofRoute` answers for the route the router matched (`HttpRouter.RouteContext`): the plan
 *   check reads it, and a route missing from the index is refused (fail closed). `match`
 *   answers for a method and path before routing, with the router's own matcher and rules
 *   (find-my-way-ts, `routerConfig`), for what must be known before the work starts: its
 *   deadline and the request log's attribution; 405's `Allow` comes from the same matcher.
 * - `routerConfig` makes the router match exactly: case-sensitive, no trailing-slash or
 *   duplicate-slash folding. The outermost middleware refuses spellings the router would still
 *   fold (percent-encoded unreserved characters, `;params`): see `canonicalPath`.
 */
import { HttpApi, type HttpApiBuilder, type HttpApiGroup, type HttpRouter } from "@effect/platform"
import { Context, Option } from "effect"
import * as FindMyWay from "find-my-way-ts"
import type { Plan } from "../../kernel/plans"

/**
 * The least plan an endpoint requires; absent: no authentication. Stated once per group
 * (`HttpApiGroup.annotate`), an endpoint that differs states its own (it wins).
 */
export class PlanLabel extends Context.Tag("domain-intel/PlanLabel")<PlanLabel, Plan>() {}

/**
 * An endpoint's own deadline in ms, from its raw query parameters (the default is
 * `OPERATION_DEADLINE_MS`). Used by http-check: its `timeout` plus a margin.
 */
export class OperationDeadline extends Context.Tag("domain-intel/OperationDeadline")<
  OperationDeadline,
  (query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) => number | undefined
>() {}

/** An endpoint's `by_category` key when it is not the path's first segment after `/v1/`. */
export class OperationCategory extends Context.Tag("domain-intel/OperationCategory")<OperationCategory, string>() {}

export interface OperationInfo {
  /** The operation id (the endpoint's name). */
  readonly operation: string
  readonly category: string
  readonly method: string
  /** The route as declared, e.g. `/v1/alerts/rules/:id`. */
  readonly path: string
  /** Undefined: an unauthenticated route (health, readiness, documentation). */
  readonly plan: Plan | undefined
  readonly deadline: OperationDeadline["Type"] | undefined
}

/** A route mounted beside the HttpApi (raw handler), with what the HttpApi states in annotations. */
export interface RawRoute {
  readonly method: string
  readonly path: string
  readonly operation: string
  readonly plan: Plan | undefined
}

/**
 * The router the HttpApi is served from, as the routes beside it (MCP, /metrics, /openapi.json,
 * /docs, /console) receive it: each surface registers its routes on it, and the server mounts
 * them all in one layer (src/surfaces/server/Http.ts), since every layer costs start-up time.
 */
export type ApiRouter = Context.Tag.Service<typeof HttpApiBuilder.Router>

/** The router's matching rules, shared by the HttpApi router and the 405 lookup below. */
export const routerConfig = {
  caseSensitive: true,
  ignoreTrailingSlash: false,
  // The router would otherwise fold "//" in the whole request target, query string included,
  // turning ?url=http://x//path into http:/x/path.
  ignoreDuplicateSlashes: false
} as const

export const categoryOf = (path: string): string => {
  const m = /^\/v1\/([^/]+)/.exec(path)
  return m ? m[1] : "system"
}

const keyOf = (method: string, path: string) => `${method} ${path}`

/** The operation a request is for, with its query as the router parses it. */
export interface Matched {
  readonly info: OperationInfo
  readonly searchParams: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
}

export const makeOperations = (api: HttpApi.HttpApi.Any, raw: ReadonlyArray<RawRoute> = []) => {
  const byRoute = new Map<string, OperationInfo>()
  const router = FindMyWay.make<OperationInfo>(routerConfig)
  const add = (info: OperationInfo) => {
    byRoute.set(keyOf(info.method, info.path), info)
    router.on(info.method, info.path as FindMyWay.PathInput, info)
  }
  HttpApi.reflect(api as HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.Any>, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) =>
      add({
        operation: endpoint.name,
        category: Option.getOrElse(Context.getOption(mergedAnnotations, OperationCategory), () => categoryOf(endpoint.path)),
        method: endpoint.method,
        path: endpoint.path,
        plan: Option.getOrUndefined(Context.getOption(mergedAnnotations, PlanLabel)),
        deadline: Option.getOrUndefined(Context.getOption(mergedAnnotations, OperationDeadline))
      })
  })
  for (const r of raw) {
    add({ operation: r.operation, category: categoryOf(r.path), method: r.method, path: r.path, plan: r.plan, deadline: undefined })
  }
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const
  return {
    all: [...byRoute.values()] as ReadonlyArray<OperationInfo>,
    /** The operation of a route the router matched (undefined: not declared anywhere). */
    ofRoute: (route: HttpRouter.Route<any, any>): OperationInfo | undefined => byRoute.get(keyOf(route.method, route.path)),
    /**
     * The operation the router will serve for `method` and `url` (path and query), as the
     * router finds it (HEAD served by GET); undefined when it serves none.
     */
    match: (method: string, url: string): Matched | undefined => {
      const found = router.find(method, url) ?? (method === "HEAD" ? router.find("GET", url) : undefined)
      return found === undefined ? undefined : { info: found.handler, searchParams: found.searchParams }
    },
    /**
     * For a request the router did not match: the methods its path is declared with (the `Allow`
     * header of a 405), by the same matcher and rules as the router. Empty: unknown path.
     */
    allowedMethods: (path: string): ReadonlyArray<string> => {
      const allowed: Array<string> = []
      for (const m of methods) if (router.find(m, path) !== undefined) allowed.push(m)
      if (allowed.includes("GET")) allowed.push("HEAD")
      return allowed
    }
  }
}

/** The deadline of a matched operation in ms: its own, else `fallbackMs`. */
export const deadlineOf = (matched: Matched | undefined, fallbackMs: number): number =>
  matched?.info.deadline?.(matched.searchParams) ?? fallbackMs

export class Operations extends Context.Tag("domain-intel/Operations")<Operations, ReturnType<typeof makeOperations>>() {}

// RFC 3986 unreserved characters, which a canonical URI never percent-encodes.
const encodedUnreserved = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2D|2E|5F|7E)/i

/**
 * Whether a raw request path (no query) is spelled the one way the router matches exactly.
 * The router decodes escapes before matching and stops at ';', so `/v1/analytics/%70erformance`
 * and `/v1/analytics/performance;x` would otherwise reach `/v1/analytics/performance`; it also
 * folds a leading `//`, and `/v1/alerts/rules/` would match `/v1/alerts/rules/:id` with an
 * empty id. No declared path has an empty segment.
 */
export const canonicalPath = (path: string): boolean =>
  !path.includes(";") && !path.includes("//") && (path.length === 1 || !path.endsWith("/")) && !encodedUnreserved.test(path)
