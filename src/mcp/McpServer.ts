/**
 * The MCP server proper: one HTTP body (a JSON-RPC message or a batch) in, the JSON-RPC answer
 * out. Protocol faults are JSON-RPC errors; a tool failing on its target is a result with
 * `isError: true`. Batches run their calls concurrently and answer in the order received.
 */
import { Cause, Context, Effect, Either, Layer, Schema } from "effect"
import { ToolFailure } from "./errors"
import {
  classify,
  ErrorCode,
  failure,
  formatIssues,
  type JsonRpcResponse,
  PROTOCOL_VERSION,
  type RequestId,
  success
} from "./protocol"
import { Tools } from "./Tools"

export const SERVER_NAME = "domain-intel"
export const SERVER_VERSION = "0.1.0"
/** Largest batch accepted (SPEC.md leaves it open). */
export const MAX_BATCH = 50
/** Calls of one batch running at once. */
export const BATCH_CONCURRENCY = 16

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

export class McpServer extends Context.Tag("domain-intel/McpServer")<McpServer, {
  /** Handles a raw request body. */
  readonly handle: (body: string) => Effect.Effect<McpAnswer>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const tools = yield* Tools

      const invalidParams = (id: RequestId, what: string, e: import("effect").ParseResult.ParseError) =>
        failure(id, ErrorCode.InvalidParams, `invalid params for ${what}: ${formatIssues(e)}`)

      const callTool = (id: RequestId, params: unknown) =>
        Effect.gen(function*() {
          const p = decodeParams(CallParams, params)
          if (Either.isLeft(p)) return invalidParams(id, "tools/call", p.left)
          const tool = tools.get(p.right.name)
          if (!tool) {
            return failure(id, ErrorCode.InvalidParams, `unknown tool: ${p.right.name}`, { tools: tools.list.map((t) => t.name) })
          }
          const args = yield* Effect.either(tool.decode(p.right.arguments ?? {}))
          if (Either.isLeft(args)) {
            return failure(id, ErrorCode.InvalidParams, `invalid arguments for ${tool.name}: ${formatIssues(args.left)}`)
          }
          const out = yield* Effect.either(tool.run(args.right))
          if (Either.isLeft(out)) {
            return success(id, { content: [{ type: "text", text: `${tool.name} failed: ${out.left.message}` }], isError: true })
          }
          return success(id, {
            content: [
              { type: "text", text: out.right.text },
              { type: "text", text: JSON.stringify(out.right.report, null, 2) }
            ],
            isError: false
          })
        })

      const request = (id: RequestId, method: string, params: unknown): Effect.Effect<JsonRpcResponse> => {
        if (params !== undefined && Array.isArray(params)) {
          return Effect.succeed(failure(id, ErrorCode.InvalidParams, `${method} takes named params (an object), not an array`))
        }
        switch (method) {
          case "initialize": {
            const p = decodeParams(InitializeParams, params)
            if (Either.isLeft(p)) return Effect.succeed(invalidParams(id, "initialize", p.left))
            // This endpoint implements 2024-11-05; the client decides whether it can use it.
            return Effect.succeed(success(id, {
              protocolVersion: PROTOCOL_VERSION,
              capabilities: { tools: { listChanged: false } },
              serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
              instructions:
                "domain-intel analyses public domains: dns_lookup (any record type), whois_lookup (RDAP registration data), ssl_certificate (TLS certificate checks with CT history), security_headers (graded HTTP security headers) and domain_intelligence (DNS, TLS and headers in one report)."
            }))
          }
          case "ping":
            return Effect.succeed(success(id, {}))
          case "tools/list": {
            const p = decodeParams(ListParams, params)
            if (Either.isLeft(p)) return Effect.succeed(invalidParams(id, "tools/list", p.left))
            return Effect.succeed(success(id, {
              tools: tools.list.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))
            }))
          }
          case "tools/call":
            return callTool(id, params)
          default:
            return Effect.succeed(failure(id, ErrorCode.MethodNotFound, `method not found: ${method}`))
        }
      }

      /** One message → its response, or undefined when none is due (notifications, responses). */
      const message = (u: unknown): Effect.Effect<JsonRpcResponse | undefined> => {
        const c = classify(u)
        switch (c._tag) {
          case "Invalid":
            return Effect.succeed(failure(c.id, ErrorCode.InvalidRequest, c.message))
          case "Notification":
          case "ClientResponse":
            // notifications/initialized, notifications/cancelled, …: nothing to answer.
            return Effect.succeed(undefined)
          case "Request":
            return request(c.id, c.method, c.params).pipe(
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

      const handle = (body: string): Effect.Effect<McpAnswer> =>
        Effect.gen(function*() {
          let parsed: unknown
          try {
            parsed = JSON.parse(body)
          } catch (e) {
            return { _tag: "Json", body: failure(null, ErrorCode.ParseError, `parse error: ${(e as Error).message}`) } as const
          }
          if (Array.isArray(parsed)) {
            if (parsed.length === 0) {
              return { _tag: "Json", body: failure(null, ErrorCode.InvalidRequest, "invalid request: empty batch") } as const
            }
            if (parsed.length > MAX_BATCH) {
              return { _tag: "Json", body: failure(null, ErrorCode.InvalidRequest, `invalid request: a batch holds at most ${MAX_BATCH} messages`) } as const
            }
            const answers = yield* Effect.forEach(parsed, message, { concurrency: BATCH_CONCURRENCY })
            const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined)
            return responses.length === 0 ? { _tag: "Accepted" } as const : { _tag: "Json", body: responses } as const
          }
          const answer = yield* message(parsed)
          return answer === undefined ? { _tag: "Accepted" } as const : { _tag: "Json", body: answer } as const
        })

      return { handle }
    })
  )
}

export { ToolFailure }
