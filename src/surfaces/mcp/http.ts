/**
 * POST /v1/advanced/mcp as a raw route beside the HttpApi (docs/mcp.md):
 * the body is read as text and parsed here so invalid JSON is JSON-RPC -32700, not an empty
 * 400. Authentication, quota and the pro plan are checked by the same `Bearer.check` as the
 * Auth middleware (which does not reach raw routes), for the route the router matched: its
 * plan is declared once, in `mcpRawRoutes`. The body was read within its bound before routing
 * (413 past 1 MiB, src/platform/http/body.ts); other methods are 405 with `Allow: POST`.
 *
 * Protocol side: the body is read and its tools/calls counted before the bearer check, which
 * then takes one quota unit per call (at least one per request). After it, an
 * `MCP-Protocol-Version` header naming a version this server does not speak is HTTP 400; a
 * known one decides the batch rule and the result layout (McpServer).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Bearer, bearerToken } from "../../product/auth/Auth"
import { InvalidRequest } from "../../kernel/errors"
import { ContentFreshness } from "../../analyses/freshness/ContentFreshness"
import { jsonDepth, MAX_JSON_DEPTH } from "../../platform/http/body"
import { MCP_PATH } from "./route"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { CertInspector } from "../../adapters/x509/CertInspector"
import { Monitors } from "../../product/monitors/Monitors"
import { McpServer } from "./McpServer"
import { Outbound } from "../../adapters/probe/Outbound"
import { isSupportedVersion, type ProtocolVersion, SUPPORTED_VERSIONS, VERSION_HEADER, ErrorCode, type JsonRpcResponse } from "./protocol"
import { Rdap } from "../../adapters/rdap/Rdap"
import { McpCaller } from "./tool"
import { DomainAudit } from "../../analyses/audit/DomainAudit"
import { Tools } from "./Tools"

export { MCP_OPERATION, MCP_PATH, mcpRawRoutes } from "./route"

/** The route handler, with its services already in hand. Failures are encoded by the HttpApi. */
export const makeMcpHandlers = Effect.gen(function*() {
  const server = yield* McpServer
  const { check } = yield* Bearer

  const post = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const header = request.headers[VERSION_HEADER]?.trim()
    const versionKnown = header === undefined || isSupportedVersion(header)
    const body = yield* request.text.pipe(
      Effect.mapError(() => new InvalidRequest({ message: "the request body could not be read" }))
    )
    const tooDeep = jsonDepth(body) > MAX_JSON_DEPTH
    const prepared = versionKnown && !tooDeep ? server.prepare(body, { protocolVersion: header as ProtocolVersion | undefined }) : undefined

    // One quota unit per tools/call, at least one per request.
    const caller = yield* check(bearerToken(request.headers["authorization"]), Math.max(1, prepared?.toolCalls ?? 0))

    if (!versionKnown) {
      return yield* new InvalidRequest({
        message: `unsupported MCP-Protocol-Version "${header}"; this server speaks ${SUPPORTED_VERSIONS.join(", ")}`
      })
    }
    if (prepared === undefined) {
      return yield* new InvalidRequest({ message: `the request body nests JSON deeper than ${MAX_JSON_DEPTH} levels` })
    }
    const answer = yield* prepared.run.pipe(Effect.provideService(McpCaller, { orgId: caller.org.id }))
    if (answer._tag === "Accepted") return HttpServerResponse.empty({ status: 202 })
    // A body that is not JSON is the client's fault at the HTTP level too (docs/mcp.md; the
    // official SDK's Streamable HTTP server answers 400 with the -32700 body).
    const single = answer.body as JsonRpcResponse
    const parseError = !Array.isArray(answer.body) && "error" in single && single.error.code === ErrorCode.ParseError
    return HttpServerResponse.unsafeJson(answer.body, { status: parseError ? 400 : 200 })
  })

  return { post }
})

/** Mounts the MCP endpoint on the HttpApi router. */
export const McpRouteLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { post } = yield* makeMcpHandlers
    yield* router.post(MCP_PATH, post)
  })
)

/**
 * The MCP server and its tools, given the shared services (AppConfig, DnsResolver, HttpProbe,
 * ZoneHygiene, CtAggregator, Keys, Bearer), CtHistory, and the analyses the REST groups use too
 * (WafDetection, ContentFreshness): the server builds it on the first MCP request (./lazy.ts)
 * over the instances it already has.
 */
export const McpToolsLive = McpServer.Live.pipe(
  Layer.provideMerge(Tools.Live),
  Layer.provideMerge(Layer.mergeAll(Rdap.Live, CertInspector.Live, Monitors.Default)),
  Layer.provideMerge(Outbound.Live)
)

/**
 * Every service the MCP tools need beyond the shared ones, the analyses included (the stdio
 * command); the security grade and the blocklists the audit runs are shared services.
 */
export const McpServicesLive = McpToolsLive.pipe(Layer.provideMerge(Layer.mergeAll(
  ContentFreshness.Live, WafDetection.Live, DomainAudit.Live
)))

/** The endpoint with its services built with the server: provide the shared services and CtHistory. */
export const McpLive = McpRouteLive.pipe(Layer.provide(McpServicesLive))
