/**
 * `domain-intel mcp`: MCP over stdio (newline-delimited JSON-RPC, one message or batch per line)
 * for desktop clients that start a command instead of sending a Bearer header. Nothing but
 * JSON-RPC goes to stdout; logs go to stderr.
 *
 * Local mode runs the tools in this process, acting for the key in DOMAIN_INTEL_API_KEY. The key
 * is checked at start (unknown, revoked or below the MCP operation's plan: one line on stderr,
 * exit 2), and every line holding tools/calls goes through the very check of the HTTP endpoint
 * (`Bearer.admit` for the MCP operation as the operations index declares it: key → quota →
 * count → plan), one unit of the monthly quota per tools/call, and one request-log row of
 * operation mcpServer per call. `--remote URL` forwards each line to a hosted /v1/advanced/mcp with the
 * key as Bearer instead.
 */
import { Clock, Effect, Stream } from "effect"
import { createInterface } from "node:readline"
import { type CatalogueCode } from "../../kernel/errors"
import { Bearer } from "../../product/auth/Auth"
import { Operations } from "../../platform/http/Operation"
import { RequestLog } from "../../product/metering/RequestLog"
import { API_KEY_ENV, MCP_OPERATION, MCP_PATH } from "./route"
import { McpServer } from "./McpServer"
import { McpCaller } from "./tool"
import { ErrorCode, failure, isSupportedVersion, type JsonRpcResponse, type ProtocolVersion } from "./protocol"

export { API_KEY_ENV }
/** JSON-RPC server-defined error (-32000…-32099) for a request the service refused (quota, key). */
export const REFUSED = -32001
/** Lines handled at once (a client may pipeline several calls). */
const CONCURRENCY = 16

/** A startup problem the user must fix: printed as one line on stderr, exit status 2. */
export class StdioSetupError extends Error {}

const write = (answer: JsonRpcResponse | ReadonlyArray<JsonRpcResponse>) =>
  Effect.sync(() => {
    process.stdout.write(JSON.stringify(answer) + "\n")
  })

const stdinLines = () =>
  Stream.fromAsyncIterable(createInterface({ input: process.stdin, crlfDelay: Infinity }), (e) => e as Error).pipe(
    Stream.filter((line) => line.trim().length > 0)
  )

/** Ids of the requests in a line (to answer each with an error when the whole line is refused). */
const requestIds = (line: string): Array<string | number> => {
  try {
    const parsed: unknown = JSON.parse(line)
    const all = Array.isArray(parsed) ? parsed : [parsed]
    return all.flatMap((m) => {
      const id = typeof m === "object" && m !== null ? (m as Record<string, unknown>).id : undefined
      return typeof id === "string" || typeof id === "number" ? [id] : []
    })
  } catch {
    return []
  }
}

/** The version an initialize answer settled on, when `answer` is one. */
const negotiatedIn = (answer: unknown): ProtocolVersion | undefined => {
  const one = Array.isArray(answer) ? answer : [answer]
  for (const a of one) {
    const v = (a as { result?: { protocolVersion?: unknown; serverInfo?: unknown } } | null)?.result
    if (v && typeof v.protocolVersion === "string" && v.serverInfo !== undefined && isSupportedVersion(v.protocolVersion)) return v.protocolVersion
  }
  return undefined
}

/** Local mode: the tools run here, for the key's organization. */
export const serveLocal = (apiKey: string) =>
  Effect.gen(function*() {
    const bearer = yield* Bearer
    const server = yield* McpServer
    const log = yield* RequestLog
    // The MCP operation as the HTTP endpoint declares it (its plan included).
    const operation = (yield* Operations).match("POST", MCP_PATH)?.info
    /** The HTTP endpoint's check for `units` tool calls: key (401) → quota (429) → count → plan (403). */
    const meter = (units: number) => bearer.admit(apiKey, operation, units)

    // At start: counts nothing, refuses what every call would be refused.
    const start = yield* Effect.either(meter(0))
    if (start._tag === "Left") {
      const e = start.left
      return yield* Effect.fail(new StdioSetupError(
        e._tag === "Unauthorized"
          ? `${API_KEY_ENV} is not a valid API key (unknown, malformed or revoked)`
          : `${API_KEY_ENV} cannot use the MCP server: ${e.message}`
      ))
    }
    const org = start.right.org
    yield* Effect.logInfo("MCP over stdio", { org: org.name })
    let version: ProtocolVersion | undefined

    const handleLine = (line: string) =>
      Effect.gen(function*() {
        const started = performance.now()
        const prepared = server.prepare(line, { protocolVersion: version })
        if (prepared.toolCalls > 0) {
          const metered = yield* Effect.either(meter(prepared.toolCalls))
          if (metered._tag === "Left") {
            const ids = requestIds(line)
            const errors = ids.map((id) => failure(id, REFUSED, `${metered.left._tag}: ${metered.left.message}`, { code: metered.left.code }))
            if (errors.length > 0) yield* write(line.trim().startsWith("[") ? errors : errors[0])
            return
          }
        }
        const answer = yield* prepared.run.pipe(Effect.provideService(McpCaller, { orgId: org.id }))
        const negotiated = answer._tag === "Json" ? negotiatedIn(answer.body) : undefined
        if (negotiated !== undefined) version = negotiated
        if (answer._tag === "Json") yield* write(answer.body)
        if (prepared.toolCalls > 0) {
          const ts = yield* Clock.currentTimeMillis
          for (let i = 0; i < prepared.toolCalls; i++) {
            yield* log.record({
              orgId: org.id,
              operation: MCP_OPERATION,
              category: "advanced",
              method: "STDIO",
              path: MCP_PATH,
              status: 200,
              latencyMs: performance.now() - started,
              cache: null,
              ts
            })
          }
        }
      })

    yield* stdinLines().pipe(Stream.mapEffect(handleLine, { concurrency: CONCURRENCY, unordered: true }), Stream.runDrain)
    yield* log.flush
  })

/** Remote mode: each line is POSTed to a hosted endpoint with the key as Bearer. */
export const serveRemote = (apiKey: string, url: string) =>
  Effect.gen(function*() {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return yield* Effect.fail(new StdioSetupError(`--remote must be a URL such as https://host/v1/advanced/mcp, got "${url}"`))
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      return yield* Effect.fail(new StdioSetupError(`--remote must be an http(s) URL, got "${url}"`))
    }
    let version: ProtocolVersion | undefined
    let badKey: string | undefined

    const handleLine = (line: string) =>
      Effect.gen(function*() {
        const headers: Record<string, string> = {
          authorization: `Bearer ${apiKey.trim()}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        }
        if (version !== undefined) headers["mcp-protocol-version"] = version
        const res = yield* Effect.tryPromise(async () => {
          const r = await fetch(target, { method: "POST", headers, body: line })
          return { status: r.status, text: await r.text() }
        }).pipe(Effect.either)
        const refuse = (message: string, code: number = REFUSED, catalogue?: CatalogueCode) => {
          const ids = requestIds(line)
          const data: { readonly code: CatalogueCode } | undefined = catalogue === undefined ? undefined : { code: catalogue }
          return ids.length === 0
            ? Effect.void
            : write(line.trim().startsWith("[") ? ids.map((id) => failure(id, code, message, data)) : failure(ids[0], code, message, data))
        }
        if (res._tag === "Left") return yield* refuse(`the remote MCP endpoint ${target.origin} could not be reached: ${String(res.left.error)}`, ErrorCode.InternalError)
        const { status, text } = res.right
        if (status === 202) return
        if (status === 200) {
          let body: unknown
          try {
            body = JSON.parse(text)
          } catch {
            return yield* refuse(`the remote MCP endpoint answered something that is not JSON`, ErrorCode.InternalError)
          }
          const negotiated = negotiatedIn(body)
          if (negotiated !== undefined) version = negotiated
          return yield* write(body as JsonRpcResponse)
        }
        // 4xx/5xx: the error envelope {"error":{"code","message"}} (or a JSON-RPC error body).
        let reason = `HTTP ${status}`
        let catalogue: CatalogueCode | undefined
        try {
          const e = JSON.parse(text) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } }
          // A JSON-RPC answer with an HTTP error status (400 with -32700 for a line that is not
          // JSON) is the answer itself: the client gets it as a local server would write it.
          if (e.jsonrpc === "2.0" && e.error) return yield* write(e as JsonRpcResponse)
          if (e.error) {
            reason = `HTTP ${status} ${String(e.error.code)}: ${String(e.error.message)}`
            // The hosted service's catalogue code, as the local server would carry it.
            if (typeof e.error.code === "string") catalogue = e.error.code as CatalogueCode
          }
        } catch {
          // keep the status alone
        }
        if (status === 401) badKey = reason
        yield* refuse(reason, REFUSED, catalogue)
        if (status === 401) yield* Effect.logError("the remote endpoint refused DOMAIN_INTEL_API_KEY", { reason })
      })

    yield* stdinLines().pipe(
      Stream.mapEffect(handleLine, { concurrency: CONCURRENCY, unordered: false }),
      Stream.takeWhile(() => badKey === undefined),
      Stream.runDrain
    )
    if (badKey !== undefined) return yield* Effect.fail(new StdioSetupError(`${API_KEY_ENV} was refused by ${target.origin}: ${badKey}`))
  })
