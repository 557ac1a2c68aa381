/**
 * POST /v1/advanced/mcp with the MCP server built on its first request: the server's modules
 * (the tools, RDAP with its bootstrap file, certificate inspection and the x509 stack) are
 * loaded with `import()` and its layers built then, once, in the server's scope, over the
 * services the server already built. A start-up that serves no MCP request pays for none of
 * it (docs/operating.md, "The binary").
 */
import { Effect, Layer } from "effect"
import type { ApiRouter } from "../../platform/http/Operation"
import type { Bearer } from "../../product/auth/Auth"
import type { McpToolsLive } from "./http"
import { MCP_PATH } from "./route"

/** What the MCP server needs from the server's own services. */
type Shared = Layer.Layer.Context<typeof McpToolsLive> | Bearer

export const mcpLazyRoute = (router: ApiRouter) =>
  Effect.gen(function*() {
    const shared = yield* Effect.context<Shared>()
    const scope = yield* Effect.scope
    const handlers = yield* Effect.cached(
      Effect.gen(function*() {
        const mcp = yield* Effect.promise(() => import("./http"))
        const services = yield* Layer.buildWithScope(mcp.McpToolsLive, scope)
        return yield* Effect.provide(mcp.makeMcpHandlers, services)
      }).pipe(Effect.provide(shared))
    )
    yield* router.post(MCP_PATH, Effect.flatMap(handlers, (h) => h.post))
  })
