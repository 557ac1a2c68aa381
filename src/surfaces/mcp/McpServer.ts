/**
 * The MCP server proper, transport-free: one body (a JSON-RPC message or a batch) in, the
 * JSON-RPC answer out, for the HTTP route (./http.ts) and stdio (./stdio.ts) alike.
 *
 * - Versions (./protocol.ts): initialize answers the client's version when supported, else the
 *   latest; a batch is refused (-32600) for clients on 2025-06-18 or later.
 * - Protocol faults are JSON-RPC errors (unknown method or tool, malformed params) with the REST
 *   catalogue's code in `error.data.code`; a tool whose arguments are wrong or that fails on its
 *   target is a result with `isError: true`, the REST error body of the same failure as
 *   `structuredContent` and a reason the model can act on (MCP 2025-06-18+ "tool execution errors").
 * - `prepare` reads a body and counts its tools/calls before anything runs, so the caller can
 *   meter the request (one unit per call) first. Batches run concurrently, answered in order.
 */
import { Cause, Context, Effect, Either, Layer, Schema } from "effect"
import { codeOf, NotFound } from "../../kernel/errors"
import { ToolFailure } from "../../kernel/ToolFailure"
import {
  allowsBatch,
  classify,
  ErrorCode,
  failure,
  formatIssues,
  hasStructuredOutput,
  type JsonRpcResponse,
  negotiateVersion,
  type ProtocolVersion,
  type RequestId,
  success
} from "./protocol"
import { TOOL_ANNOTATIONS } from "./tool"
import { Tools } from "./Tools"

export const SERVER_NAME = "domain-intel"
export const SERVER_VERSION = "0.2.0"
/** Largest batch accepted (the interface leaves it open; docs/mcp.md). */
export const MAX_BATCH = 50
/** Calls of one batch running at once. */
export const BATCH_CONCURRENCY = 16

const INSTRUCTIONS =
  "domain-intel analyses public internet domains. Quick lookups: dns_lookup (any record type), whois_lookup (RDAP registration data), ssl_certificate (TLS certificate), security_headers (graded HTTP security headers), domain_intelligence (DNS + TLS + headers in one report; a good first call). Analyses: http_check (is it up, how fast, where it redirects), waf_detection (which WAF/CDN), content_freshness (how current the content is), zone_hygiene (DNS zone health and security audit), email_security (SPF, DMARC, DKIM, MTA-STS, DANE: can the domain be spoofed, is its mail protected in transit), ct_logs (certificates issued, from certificate transparency), tls_scan (TLS protocols, cipher suites, groups and certificate, graded like SSL Labs), lookalike_domains (registered typosquats and homographs of a domain: phishing candidates, with mail capability and home-page similarity). Every tool only reads public data; results are JSON in structuredContent and the first text block."

const InitializeParams = Schema.Struct({
  protocolVersion: Schema.String,
  capabilities: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  clientInfo: Schema.Struct({ name: Schema.String, version: Schema.String })
})
const ListParams = Schema.Struct({ cursor: Schema.optional(Schema.String) })
const CallParams = Schema.Struct({
  name: Schema.String,
  arguments: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
const decodeParams = <A, I>(schema: Schema.Schema<A, I>, params: unknown) =>
  Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })(params ?? {})

export type McpAnswer =
  | { readonly _tag: "Json"; readonly body: JsonRpcResponse | ReadonlyArray<JsonRpcResponse> }
  | { readonly _tag: "Accepted" }

/** What the transport knows about the client. */
export interface McpContext {
  /**
   * The version the client speaks: the MCP-Protocol-Version header over HTTP, the version
   * negotiated on the connection over stdio; undefined when not known (clients before 2025-03-26).
   */
  readonly protocolVersion?: ProtocolVersion | undefined
}

export interface Prepared {
  /** tools/call requests in the body: what the request is metered as (the caller takes at least 1). */
  readonly toolCalls: number
  readonly run: Effect.Effect<McpAnswer>
}

/** The tools/call requests of a parsed body (requests only: a notification runs nothing). */
export const countToolCalls = (parsed: unknown): number => {
  const one = (u: unknown) =>
    typeof u === "object" && u !== null && !Array.isArray(u) && (u as Record<string, unknown>).method === "tools/call" &&
      (u as Record<string, unknown>).id !== undefined && (u as Record<string, unknown>).id !== null
      ? 1
      : 0
  return Array.isArray(parsed) ? parsed.reduce((n: number, u) => n + one(u), 0) : one(parsed)
}

const NOT_FOUND = codeOf(NotFound)

const json = (body: JsonRpcResponse | ReadonlyArray<JsonRpcResponse>): McpAnswer => ({ _tag: "Json", body })

export class McpServer extends Context.Tag("domain-intel/McpServer")<McpServer, {
  /** Reads a body and counts its tools/calls; `run` answers it. */
  readonly prepare: (body: string, context?: McpContext) => Prepared
  /** `prepare(body).run`. */
  readonly handle: (body: string, context?: McpContext) => Effect.Effect<McpAnswer>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const tools = yield* Tools
      const toolList = tools.list.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
        annotations: { title: t.title, ...TOOL_ANNOTATIONS }
      }))

      const invalidParams = (id: RequestId, what: string, e: import("effect").ParseResult.ParseError) =>
        failure(id, ErrorCode.InvalidParams, `invalid params for ${what}: ${formatIssues(e)}`)

      /**
       * A failed call: the REST error body of the same failure as `structuredContent`, the reason
       * as the text block (docs/mcp.md, "One contract").
       */
      const toolError = (id: RequestId, failed: ToolFailure, text: string) =>
        success(id, { content: [{ type: "text", text }], structuredContent: failed.envelope, isError: true })

      const callTool = (id: RequestId, params: unknown, version: ProtocolVersion | undefined) =>
        Effect.gen(function*() {
          const p = decodeParams(CallParams, params)
          if (Either.isLeft(p)) return invalidParams(id, "tools/call", p.left)
          const tool = tools.get(p.right.name)
          if (!tool) {
            // A protocol fault (MCP: unknown tools are -32602); like an unknown REST route, not_found.
            return failure(id, ErrorCode.InvalidParams, `unknown tool: ${p.right.name}`, { code: NOT_FOUND, tools: tools.list.map((t) => t.name) })
          }
          const args = yield* Effect.either(tool.decode(p.right.arguments ?? {}))
          if (Either.isLeft(args)) {
            return toolError(
              id,
              args.left,
              `Invalid arguments for ${tool.name} (${args.left.code}): ${args.left.message}. Correct them (see the tool's inputSchema) and call again.`
            )
          }
          const out = yield* Effect.either(tool.run(args.right))
          if (Either.isLeft(out)) return toolError(id, out.left, `${tool.name} failed (${out.left.code}): ${out.left.message}`)
          const text = JSON.stringify(out.right.structured)
          const content = hasStructuredOutput(version)
            ? [{ type: "text", text }]
            : [{ type: "text", text }, { type: "text", text: out.right.summary }]
          return success(id, { content, structuredContent: out.right.structured, isError: false })
        })

      const request = (id: RequestId, method: string, params: unknown, version: ProtocolVersion | undefined): Effect.Effect<JsonRpcResponse> => {
        if (params !== undefined && Array.isArray(params)) {
          return Effect.succeed(failure(id, ErrorCode.InvalidParams, `${method} takes named params (an object), not an array`))
        }
        switch (method) {
          case "initialize": {
            const p = decodeParams(InitializeParams, params)
            if (Either.isLeft(p)) return Effect.succeed(invalidParams(id, "initialize", p.left))
            return Effect.succeed(success(id, {
              protocolVersion: negotiateVersion(p.right.protocolVersion),
              capabilities: { tools: { listChanged: false } },
              serverInfo: { name: SERVER_NAME, title: "domain-intel", version: SERVER_VERSION },
              instructions: INSTRUCTIONS
            }))
          }
          case "ping":
            return Effect.succeed(success(id, {}))
          case "tools/list": {
            const p = decodeParams(ListParams, params)
            if (Either.isLeft(p)) return Effect.succeed(invalidParams(id, "tools/list", p.left))
            return Effect.succeed(success(id, { tools: toolList }))
          }
          case "tools/call":
            return callTool(id, params, version)
          default:
            return Effect.succeed(failure(id, ErrorCode.MethodNotFound, `method not found: ${method}`))
        }
      }

      /** One message → its response, or undefined when none is due (notifications, responses). */
      const message = (u: unknown, version: ProtocolVersion | undefined): Effect.Effect<JsonRpcResponse | undefined> => {
        const c = classify(u)
        switch (c._tag) {
          case "Invalid":
            return Effect.succeed(failure(c.id, ErrorCode.InvalidRequest, c.message))
          case "Notification":
          case "ClientResponse":
            // notifications/initialized, notifications/cancelled, …: nothing to answer.
            return Effect.succeed(undefined)
          case "Request":
            return request(c.id, c.method, c.params, version).pipe(
              Effect.catchAllCause((cause) =>
                Cause.isInterruptedOnly(cause)
                  ? Effect.succeed(failure(c.id, ErrorCode.InternalError, "the call was interrupted"))
                  : Effect.logError("MCP request failed", cause).pipe(
                    Effect.as(failure(c.id, ErrorCode.InternalError, "internal error"))
                  )
              )
            )
        }
      }

      const prepare = (body: string, context: McpContext = {}): Prepared => {
        const version = context.protocolVersion
        let parsed: unknown
        try {
          parsed = JSON.parse(body)
        } catch (e) {
          return { toolCalls: 0, run: Effect.succeed(json(failure(null, ErrorCode.ParseError, `parse error: ${(e as Error).message}`))) }
        }
        if (Array.isArray(parsed)) {
          const refuse = (message: string): Prepared => ({ toolCalls: 0, run: Effect.succeed(json(failure(null, ErrorCode.InvalidRequest, message))) })
          if (!allowsBatch(version)) {
            return refuse(`invalid request: JSON-RPC batches are not part of MCP ${version}; send one message per request`)
          }
          if (parsed.length === 0) return refuse("invalid request: empty batch")
          if (parsed.length > MAX_BATCH) return refuse(`invalid request: a batch holds at most ${MAX_BATCH} messages`)
          const batch = parsed
          return {
            toolCalls: countToolCalls(batch),
            run: Effect.gen(function*() {
              const answers = yield* Effect.forEach(batch, (u) => message(u, version), { concurrency: BATCH_CONCURRENCY })
              const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined)
              return responses.length === 0 ? { _tag: "Accepted" } as const : json(responses)
            })
          }
        }
        return {
          toolCalls: countToolCalls(parsed),
          run: Effect.map(message(parsed, version), (answer) => (answer === undefined ? { _tag: "Accepted" } as const : json(answer)))
        }
      }

      return { prepare, handle: (body, context) => prepare(body, context).run }
    })
  )
}

export { ToolFailure }
