/**
 * A tool that could not complete (a refused target, an unreachable host, an upstream answering
 * garbage, arguments the operation refuses). It becomes a tool result with `isError: true` whose
 * `structuredContent` is the REST error envelope `{"error":{"code","message","details?"}}` with the
 * REST catalogue's code for the same failure (docs/mcp.md, "One contract"), never a JSON-RPC error.
 */
import { Data, Schema } from "effect"
import { type ApiError, type CatalogueCode, codeOf, UpstreamUnavailable, wireOf } from "./errors"

/** What a tool that fails on its target or an upstream is, unless it says otherwise. */
const UPSTREAM_UNAVAILABLE = codeOf(UpstreamUnavailable)

export class ToolFailure extends Data.TaggedError("ToolFailure")<{
  /** The REST catalogue's code for the same failure (src/kernel/errors.ts). */
  readonly code: CatalogueCode
  readonly message: string
  readonly details?: unknown
}> {
  /** `code` defaults to `upstream_unavailable`: the target or an upstream did not give what was needed. */
  constructor(args: { readonly message: string; readonly code?: CatalogueCode | undefined; readonly details?: unknown }) {
    super({
      code: args.code ?? UPSTREAM_UNAVAILABLE,
      message: args.message,
      ...(args.details === undefined ? {} : { details: args.details })
    })
  }

  /** A catalogue error as the REST operation answers it: its wire schema gives code, message and details. */
  static fromApiError(e: ApiError): ToolFailure {
    const { error } = Schema.encodeSync(wireOf[e._tag] as Schema.Schema<ApiError, { readonly error: { readonly code: CatalogueCode; readonly message: string; readonly details?: unknown } }>)(e)
    return new ToolFailure(error)
  }

  /** The envelope `structuredContent` carries: the REST error body of the same failure. */
  get envelope(): { readonly error: { readonly code: CatalogueCode; readonly message: string; readonly details?: unknown } } {
    return { error: this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details } }
  }
}
