/**
 * Method + path → operation id, category and plan label, derived from the HttpApi definition
 * itself (endpoint names are the operation ids; plan labels are endpoint annotations), plus the
 * raw routes mounted beside it (MCP).
 */
import { HttpApi, type HttpApiEndpoint } from "@effect/platform"
import { Context, Option } from "effect"
import type { Plan } from "../domain/plans"

export class PlanLabel extends Context.Tag("domain-intel/PlanLabel")<PlanLabel, Plan>() {}

export interface RouteInfo {
  readonly method: string
  readonly pattern: RegExp
  readonly operation: string
  readonly category: string
  readonly plan: Plan | undefined
  /** The HttpApi endpoint and the statuses of its success answers (none for raw routes). */
  readonly endpoint?: { readonly definition: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps; readonly successStatuses: ReadonlyArray<number> }
}

const compile = (path: string) =>
  new RegExp("^" + path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:(\w+)/g, "[^/]+") + "/?$")

export const categoryOf = (path: string): string => {
  const m = /^\/v1\/([^/]+)/.exec(path)
  return m ? m[1] : "system"
}

export interface RawRoute {
  readonly method: string
  readonly path: string
  readonly operation: string
  readonly plan: Plan | undefined
}

export const makeRouteTable = (api: HttpApi.HttpApi.Any, raw: ReadonlyArray<RawRoute> = []) => {
  const routes: Array<RouteInfo> = []
  HttpApi.reflect(api as any, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations, successes }) => {
      routes.push({
        method: endpoint.method,
        pattern: compile(endpoint.path),
        operation: endpoint.name,
        category: categoryOf(endpoint.path),
        plan: Option.getOrUndefined(Context.getOption(mergedAnnotations, PlanLabel)),
        endpoint: {
          definition: endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
          successStatuses: [...successes.keys()]
        }
      })
    }
  })
  for (const r of raw) {
    routes.push({ method: r.method, pattern: compile(r.path), operation: r.operation, category: categoryOf(r.path), plan: r.plan })
  }
  return {
    routes,
    match: (method: string, path: string): RouteInfo | undefined => {
      let samePath: RouteInfo | undefined
      for (const r of routes) {
        if (!r.pattern.test(path)) continue
        if (r.method === method || (method === "HEAD" && r.method === "GET")) return r
        samePath ??= r
      }
      // A known path with another method: still attribute it (the router answers 404/405).
      return samePath
    }
  }
}

export type RouteTable = ReturnType<typeof makeRouteTable>
