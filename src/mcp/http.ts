/**
 * POST /v1/advanced/mcp as a raw route beside the HttpApi (STYLE.md "MCP as a raw route"):
 * the body is read as text and parsed here so invalid JSON is JSON-RPC -32700, not an empty
 * 400. Authentication, quota and the pro plan are checked with the same bearer logic as the
 * Auth middleware (which does not reach raw routes). GET answers 405: no server-sent stream.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Layer } from "effect"
import { Bearer, bearerToken } from "../auth/Auth"
import { errorResponse } from "../http/middleware"
import type { RawRoute } from "../http/RouteTable"
import { CertInspector } from "./CertInspector"
import { McpServer } from "./McpServer"
import { Outbound } from "./Outbound"
import { Rdap } from "./Rdap"
import { Tools } from "./Tools"

export const MCP_PATH = "/v1/advanced/mcp"
export const MCP_OPERATION = "mcpServer"
/** Request bodies above this are refused (413). */
export const MAX_BODY_BYTES = 1024 * 1024

/** For `makeRouteTable(api, raw)`: attribution, category and plan label of the raw route. */
export const mcpRawRoutes: ReadonlyArray<RawRoute> = [
  { method: "POST", path: MCP_PATH, operation: MCP_OPERATION, plan: "pro" },
  { method: "GET", path: MCP_PATH, operation: MCP_OPERATION, plan: "pro" }
]

const jsonError = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson({ error: { code, message } }, { status, headers })

/** The route handlers, with their services already in hand. */
export const makeMcpHandlers = Effect.gen(function*() {
  const server = yield* McpServer
  const { check } = yield* Bearer

  const post = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const auth = yield* Effect.either(check(bearerToken(request.headers["authorization"]), { plan: "pro", operation: MCP_OPERATION }))
    if (auth._tag === "Left") return yield* errorResponse(Cause.fail(auth.left))

    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > MAX_BODY_BYTES) {
      return jsonError(413, "invalid_request", `request body larger than ${MAX_BODY_BYTES} bytes`)
    }
    const body = yield* request.text.pipe(Effect.either)
    if (body._tag === "Left") return jsonError(400, "invalid_request", "the request body could not be read")
    if (Buffer.byteLength(body.right) > MAX_BODY_BYTES) {
      return jsonError(413, "invalid_request", `request body larger than ${MAX_BODY_BYTES} bytes`)
    }
    const answer = yield* server.handle(body.right)
    if (answer._tag === "Accepted") return HttpServerResponse.empty({ status: 202 })
    return HttpServerResponse.unsafeJson(answer.body, { status: 200 })
  })

  const get = Effect.succeed(
    jsonError(405, "method_not_allowed", "this MCP endpoint has no server-sent event stream; send JSON-RPC with POST", { allow: "POST" })
  )

  return { post, get }
})

/** Mounts the MCP endpoint on the HttpApi router. */
export const McpRouteLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { get, post } = yield* makeMcpHandlers
    yield* router.post(MCP_PATH, post)
    yield* router.get(MCP_PATH, get)
  })
)

/** Every service the MCP endpoint needs, given AppConfig, DnsResolver, Bearer and CtHistory. */
export const McpServicesLive = McpServer.Live.pipe(
  Layer.provideMerge(Tools.Live),
  Layer.provideMerge(Layer.mergeAll(Rdap.Live, CertInspector.Live)),
  Layer.provideMerge(Outbound.Live)
)

/** The endpoint with its services: provide AppConfig, DnsResolver, Bearer and CtHistory. */
export const McpLive = McpRouteLive.pipe(Layer.provide(McpServicesLive))
