/**
 * What an MCP tool is here: one argument Schema (decodes `arguments`, and via `JSONSchema.make`
 * is the published `inputSchema`) and one output Schema (encodes the report into
 * `structuredContent` and the JSON text block, and via `JSONSchema.make` is the `outputSchema`),
 * so neither schema can drift from what the tool does. A tool that mirrors a REST operation takes
 * that operation's input Schema, and its failures carry the REST catalogue's codes (docs/mcp.md,
 * "One contract").
 */
import { Context, Duration, Effect, JSONSchema, Schema } from "effect"
import { invalidRequestFromParseError } from "../../kernel/decodeFailure"
import { type ApiError, UpstreamUnavailable } from "../../kernel/errors"
import { ToolFailure } from "../../kernel/ToolFailure"

/**
 * Who the calls of one MCP request act for (set by the transport after the key check): tools
 * that share per-organization limits with their REST operation (zone_hygiene) pass it on.
 */
export class McpCaller extends Context.Reference<McpCaller>()("domain-intel/McpCaller", {
  defaultValue: (): { readonly orgId: string | undefined } => ({ orgId: undefined })
}) {}

/** Every tool only reads public data about its target and may be repeated freely. */
export const TOOL_ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: true } as const

export interface ToolResult {
  /** The report, encoded through the output Schema (plain JSON). */
  readonly structured: unknown
  /** A short readable summary (for clients before 2025-06-18). */
  readonly summary: string
}

export interface ToolDefinition {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: Record<string, unknown>
  readonly outputSchema: Record<string, unknown>
  /** The arguments decoded by the input Schema, or the `invalid_request` REST answers for the same input. */
  readonly decode: (args: unknown) => Effect.Effect<unknown, ToolFailure>
  readonly run: (args: unknown) => Effect.Effect<ToolResult, ToolFailure>
}

/**
 * `JSONSchema.make` marks `Schema.Unknown`/`Schema.Object` with a fixed `$id` ("/schemas/unknown")
 * at every occurrence; validators (ajv, which the MCP SDK uses) refuse a document where one
 * `$id` names several subschemas. Those markers carry no constraint, so they are dropped, and so
 * are the titles Effect derives from refinements ("maxLength(300)"), which mean nothing to a model.
 */
const internalTitle = /^[A-Za-z]+\(.*\)$/
const dropIds = (u: unknown): unknown => {
  if (Array.isArray(u)) return u.map(dropIds)
  if (typeof u !== "object" || u === null) return u
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(u)) {
    if (k === "$id" || (k === "title" && typeof v === "string" && internalTitle.test(v))) continue
    out[k] = k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, dropIds(s)])) : dropIds(v)
  }
  return out
}

/** The JSON Schema of a Schema as MCP wants it: a plain object schema (no `$schema` key). */
export const jsonSchemaOf = (schema: Schema.Schema.Any): Record<string, unknown> => {
  const js = JSONSchema.make(schema as Schema.Schema<unknown, unknown, never>) as unknown as Record<string, unknown>
  const { $schema: _ignored, ...rest } = dropIds(js) as Record<string, unknown>
  if (rest.type !== "object") throw new Error("an MCP tool schema must be an object schema")
  return rest
}
/** Kept for callers of the first version. */
export const inputSchemaOf = jsonSchemaOf

/** What `structuredContent` holds when a tool fails: the REST error body of the same failure. */
export const ToolErrorEnvelope = Schema.Struct({
  error: Schema.Struct({
    code: Schema.String.annotations({ description: "the REST API's error code for the same failure: invalid_request, target_forbidden, not_found, upstream_unavailable, …" }),
    message: Schema.String,
    details: Schema.optional(Schema.Unknown)
  })
}).annotations({ description: "The tool failed (isError: true)" })

/**
 * A tool's `outputSchema`: its report, or the error envelope of a failed call. Clients validate
 * `structuredContent` against it, and some (the official TypeScript SDK's client, 1.32) do so for
 * failed calls too, so the envelope must be one of the shapes it admits.
 */
export const outputSchemaOf = (report: Schema.Schema.Any): Record<string, unknown> => {
  const { $defs, ...shape } = jsonSchemaOf(report)
  const { $defs: errorDefs, ...envelope } = jsonSchemaOf(ToolErrorEnvelope)
  const defs = { ...(errorDefs as object | undefined), ...($defs as object | undefined) }
  return { type: "object", anyOf: [shape, envelope], ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) }
}

export interface ToolSpec<A, I, R, RI> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** The argument Schema: for a tool that mirrors a REST operation, that operation's `…Inputs.json` (src/surfaces/api/inputs.ts). */
  readonly input: Schema.Schema<A, I, never>
  readonly output: Schema.Schema<R, RI, never>
  /** The work; a catalogue error (src/kernel/errors.ts) keeps its code, as does a `ToolFailure`. */
  readonly run: (args: A) => Effect.Effect<R, ApiError | ToolFailure>
  readonly summary: (report: R, args: A) => string
  /** Whole-call time limit (default 30 s). */
  readonly timeout?: (args: A) => Duration.Duration
}

export const DEFAULT_TOOL_TIMEOUT = Duration.seconds(30)

/** A tool's failure as the REST operation would answer it (a ToolFailure stays as it is). */
export const toToolFailure = (e: ApiError | ToolFailure): ToolFailure => (e instanceof ToolFailure ? e : ToolFailure.fromApiError(e))

export const defineTool = <A, I, R, RI>(spec: ToolSpec<A, I, R, RI>): ToolDefinition => {
  const encode = Schema.encode(spec.output)
  const decode = Schema.decodeUnknown(spec.input, { errors: "all", onExcessProperty: "error" })
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: jsonSchemaOf(spec.input),
    outputSchema: outputSchemaOf(spec.output),
    decode: (args) => decode(args).pipe(Effect.mapError((e) => ToolFailure.fromApiError(invalidRequestFromParseError(e)))),
    run: (raw) => {
      const args = raw as A
      const limit = spec.timeout?.(args) ?? DEFAULT_TOOL_TIMEOUT
      return spec.run(args).pipe(
        Effect.mapError(toToolFailure),
        Effect.flatMap((report) =>
          encode(report).pipe(
            Effect.map((structured) => ({ structured, summary: spec.summary(report, args) })),
            Effect.catchAll((e) => Effect.die(new Error(`${spec.name}: the report does not match its output schema: ${e.message}`)))
          )
        ),
        // Past its deadline a call is what a REST operation past its deadline is: 502 upstream_unavailable.
        Effect.timeoutFail({
          duration: limit,
          onTimeout: () =>
            ToolFailure.fromApiError(new UpstreamUnavailable({ message: `${spec.name} did not finish within ${Duration.toSeconds(limit)} s; try again later` }))
        })
      )
    }
  }
}
