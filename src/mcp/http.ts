/**
 * POST /v1/advanced/mcp as a raw route beside the HttpApi (STYLE.md "MCP as a raw route"):
 * the body is read as text and parsed here so invalid JSON is JSON-RPC -32700, not an empty
 * 400. Authentication, quota and the pro plan are checked with the same bearer logic as the
 * Auth middleware (which does not reach raw routes). GET answers 405: no server-sent stream.
 *
 * Protocol side: an `MCP-Protocol-Version` header naming a version this server does not speak
 * is HTTP 400; a known one decides the batch rule and the result layout (McpServer). The body
 * is read before the quota is taken so the request counts one unit per tools/call it holds.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Layer } from "effect"
import { Bearer, bearerToken } from "../auth/Auth"
import { ContentFreshness } from "../freshness/ContentFreshness"
import { Quota } from "../metering/Quota"
import { WafDetection } from "../waf/WafDetection"
import { QuotaExceeded } from "../domain/errors"
import { errorResponse } from "../http/middleware"
import { requestMeta } from "../http/RequestMeta"
import type { RawRoute } from "../http/RouteTable"
import { CertInspector } from "./CertInspector"
import { McpServer } from "./McpServer"
import { Outbound } from "./Outbound"
import { isSupportedVersion, SUPPORTED_VERSIONS, VERSION_HEADER } from "./protocol"
import { McpCaller } from "./tool"
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

  const quota = yield* Quota

  const post = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const header = request.headers[VERSION_HEADER]
    if (header !== undefined && !isSupportedVersion(header.trim())) {
      return jsonError(400, "invalid_request", `unsupported MCP-Protocol-Version "${header}"; this server speaks ${SUPPORTED_VERSIONS.join(", ")}`)
    }
    const protocolVersion = header === undefined ? undefined : header.trim() as (typeof SUPPORTED_VERSIONS)[number]

    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > MAX_BODY_BYTES) {
      return jsonError(413, "payload_too_large", `request body larger than ${MAX_BODY_BYTES} bytes`)
    }
    const body = yield* request.text.pipe(Effect.either)
    if (body._tag === "Left") return jsonError(400, "invalid_request", "the request body could not be read")
    if (Buffer.byteLength(body.right) > MAX_BODY_BYTES) {
      return jsonError(413, "payload_too_large", `request body larger than ${MAX_BODY_BYTES} bytes`)
    }
    const prepared = server.prepare(body.right, { protocolVersion })

    // One unit per tools/call (at least one per request): the bearer check takes the first.
    const units = Math.max(1, prepared.toolCalls)
    const auth = yield* Effect.either(check(bearerToken(request.headers["authorization"]), { plan: "pro", operation: MCP_OPERATION }))
    if (auth._tag === "Left") return yield* errorResponse(Cause.fail(auth.left))
    for (let i = 1; i < units; i++) {
      const decision = yield* quota.consume(auth.right)
      const meta = yield* requestMeta
      if (meta && decision._tag === "Allowed") meta.quota = { limit: decision.limit, remaining: decision.remaining }
      if (decision._tag === "Exceeded") {
        return yield* errorResponse(Cause.fail(new QuotaExceeded({
          message: `monthly quota of ${decision.limit} requests for the ${auth.right.plan} plan cannot cover the ${units} tool calls of this request`,
          retryAfterSeconds: decision.retryAfterSeconds
        })))
      }
    }

    const answer = yield* prepared.run.pipe(Effect.provideService(McpCaller, { orgId: auth.right.id }))
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

/**
 * Every service the MCP tools need, given the shared services (AppConfig, DnsResolver,
 * HttpProbe, ZoneHygiene, CtAggregator, Keys) and CtHistory. WafDetection and ContentFreshness
 * are the same layer values the REST groups use (layers are shared by reference in one build).
 */
export const McpServicesLive = McpServer.Live.pipe(
  Layer.provideMerge(Tools.Live),
  Layer.provideMerge(Layer.mergeAll(Rdap.Live, CertInspector.Live, ContentFreshness.Live, WafDetection.Live)),
  Layer.provideMerge(Outbound.Live)
)

/** The endpoint with its services: provide AppConfig, DnsResolver, Bearer and CtHistory. */
export const McpLive = McpRouteLive.pipe(Layer.provide(McpServicesLive))
