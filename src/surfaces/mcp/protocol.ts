/**
 * JSON-RPC 2.0 as MCP uses it: message schemas, error codes, the protocol versions this server
 * speaks and what each allows, and the classification of one decoded JSON value into a request,
 * a notification, a response sent by the client, or an invalid message. Pure: no Effect
 * services, no I/O.
 */
import { Either, ParseResult, Schema } from "effect"
import { type CatalogueCode, codeOf, InternalError, InvalidRequest, NotFound } from "../../kernel/errors"

/** Every MCP revision this server implements, oldest first (docs/mcp.md). */
export const SUPPORTED_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const
export type ProtocolVersion = (typeof SUPPORTED_VERSIONS)[number]
/** The newest supported revision: the answer to a client offering one we do not know. */
export const LATEST_VERSION: ProtocolVersion = "2025-11-25"
/** The first revision, which the endpoint implemented alone. */
export const PROTOCOL_VERSION: ProtocolVersion = "2024-11-05"
/** The HTTP header a client sends after initialization (from 2025-03-26 on, required by 2025-06-18). */
export const VERSION_HEADER = "mcp-protocol-version"

export const isSupportedVersion = (v: string): v is ProtocolVersion => (SUPPORTED_VERSIONS as ReadonlyArray<string>).includes(v)

/** initialize: the client's version when we speak it, otherwise the latest (the client then decides). */
export const negotiateVersion = (requested: string): ProtocolVersion => (isSupportedVersion(requested) ? requested : LATEST_VERSION)

/**
 * JSON-RPC batching exists in 2024-11-05 and 2025-03-26 and was removed in 2025-06-18. A client
 * that sent no version header is treated as one of the first two (header-less clients predate it).
 */
export const allowsBatch = (v: ProtocolVersion | undefined): boolean => v === undefined || v === "2024-11-05" || v === "2025-03-26"

/**
 * `structuredContent` and `outputSchema` arrived in 2025-06-18. Clients on it or later get the
 * report once (the JSON text block beside `structuredContent`); older or header-less clients also
 * get a short readable summary as a second text block.
 */
export const hasStructuredOutput = (v: ProtocolVersion | undefined): boolean => v === "2025-06-18" || v === "2025-11-25"
export const JSONRPC_VERSION = "2.0"

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603
} as const

/** MCP forbids null ids (unlike plain JSON-RPC), so a request id is a string or a number. */
export const RequestId = Schema.Union(Schema.String, Schema.Number)
export type RequestId = typeof RequestId.Type

/** One JSON-RPC request or notification as it arrives (params are decoded per method later). */
export const JsonRpcRequest = Schema.Struct({
  jsonrpc: Schema.Literal(JSONRPC_VERSION),
  id: Schema.optional(RequestId),
  method: Schema.String,
  params: Schema.optional(Schema.Union(Schema.Record({ key: Schema.String, value: Schema.Unknown }), Schema.Array(Schema.Unknown)))
})
export type JsonRpcRequest = typeof JsonRpcRequest.Type

/** A response the client posts (answers to server-initiated requests; this server sends none). */
const JsonRpcClientResponse = Schema.Struct({
  jsonrpc: Schema.Literal(JSONRPC_VERSION),
  id: Schema.Union(RequestId, Schema.Null),
  result: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.Unknown)
})

export interface JsonRpcError {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

export type JsonRpcResponse =
  | { readonly jsonrpc: "2.0"; readonly id: RequestId | null; readonly result: unknown }
  | { readonly jsonrpc: "2.0"; readonly id: RequestId | null; readonly error: JsonRpcError }

export const success = (id: RequestId, result: unknown): JsonRpcResponse => ({ jsonrpc: JSONRPC_VERSION, id, result })

/**
 * The REST catalogue's code for each protocol fault (`error.data.code`, docs/mcp.md "One
 * contract"): a message or params the server cannot use is `invalid_request`, an unknown method
 * `not_found`, a failure of the server `internal_error`. Read from the error classes.
 */
const catalogueCodeOf: { readonly [code: number]: CatalogueCode | undefined } = {
  [ErrorCode.ParseError]: codeOf(InvalidRequest),
  [ErrorCode.InvalidRequest]: codeOf(InvalidRequest),
  [ErrorCode.MethodNotFound]: codeOf(NotFound),
  [ErrorCode.InvalidParams]: codeOf(InvalidRequest),
  [ErrorCode.InternalError]: codeOf(InternalError)
}

/**
 * A JSON-RPC error. `data.code` is the catalogue code: the one `data` names (a refusal such as
 * `quota_exceeded`, an unknown tool's `not_found`), else the one of the JSON-RPC code.
 */
export const failure = (id: RequestId | null, code: number, message: string, data?: { readonly code?: CatalogueCode; readonly [k: string]: unknown }): JsonRpcResponse => {
  const catalogue = data?.code ?? catalogueCodeOf[code]
  const full = catalogue === undefined ? data : { ...data, code: catalogue }
  return { jsonrpc: JSONRPC_VERSION, id, error: full === undefined ? { code, message } : { code, message, data: full } }
}

/** What one element of a body turned out to be. */
export type Classified =
  | { readonly _tag: "Request"; readonly id: RequestId; readonly method: string; readonly params: unknown }
  | { readonly _tag: "Notification"; readonly method: string; readonly params: unknown }
  | { readonly _tag: "ClientResponse" }
  | { readonly _tag: "Invalid"; readonly id: RequestId | null; readonly message: string }

const decodeRequest = Schema.decodeUnknownEither(JsonRpcRequest, { errors: "all", onExcessProperty: "ignore" })
const isClientResponse = Schema.is(JsonRpcClientResponse)

/** The id of an invalid message when one can be read, else null (JSON-RPC 2.0 §5). */
const salvageId = (u: unknown): RequestId | null => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return null
  const id = (u as Record<string, unknown>).id
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null
}

export const formatIssues = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ")

export const classify = (u: unknown): Classified => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) {
    return { _tag: "Invalid", id: null, message: "a JSON-RPC message must be a JSON object" }
  }
  const o = u as Record<string, unknown>
  if (!("method" in o) && ("result" in o || "error" in o) && isClientResponse(u)) return { _tag: "ClientResponse" }
  if ("id" in o && o.id === null) {
    return { _tag: "Invalid", id: null, message: "id must be a string or a number (MCP does not allow null ids)" }
  }
  const decoded = decodeRequest(u)
  if (Either.isLeft(decoded)) {
    return { _tag: "Invalid", id: salvageId(u), message: `invalid JSON-RPC request: ${formatIssues(decoded.left)}` }
  }
  const r = decoded.right
  if (r.id === undefined) return { _tag: "Notification", method: r.method, params: r.params }
  return { _tag: "Request", id: r.id, method: r.method, params: r.params }
}
