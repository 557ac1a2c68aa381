/**
 * An operation's inputs, stated once for both surfaces (docs/mcp.md, "One contract"). Each
 * parameter is declared by its JSON form, the decision (type, limits, default, the messages of
 * its failures); its query-string form is derived from it by composing a string codec in front
 * (`"5"` → 5, `"true"` → true, `"a,b"` → ["a", "b"]), so a REST query and an MCP tool's JSON
 * arguments decode to the same value through the same checks, with the same messages.
 *
 *   export const TlsScanInputs = operationInputs({
 *     host: Param.text(HostParam, { description: "…" }),
 *     port: Param.int({ min: 1, max: 65535, default: 443, description: "…" })
 *   })
 *   HttpApiEndpoint.get(…).setUrlParams(TlsScanInputs.query)        // REST
 *   defineTool({ input: TlsScanInputs.json, … })                     // MCP
 *
 * Descriptions and defaults are annotations of the property, not of the field's schema: on the
 * schema a description would replace the "Expected …" of its decode errors.
 */
import { Schema } from "effect"

/** What every parameter says about itself. */
export interface ParamOptions<A> {
  readonly description: string
  /** The value the operation takes when the parameter is absent (makes it optional). */
  readonly default?: A
  /** Optional without a default. */
  readonly optional?: true
}

/** One parameter: its JSON form and its query-string form, decoding to one type `A`. */
export interface Param<A, I, O extends boolean, D> {
  readonly json: Schema.Schema<A, I>
  readonly query: Schema.Schema<A, string>
  readonly description: string
  readonly optional: O
  readonly default: D
}

type AnyParam = Param<any, any, boolean, any>
type OptionalOf<O> = O extends { readonly default: unknown } ? true : O extends { readonly optional: true } ? true : false
type DefaultOf<O> = O extends { readonly default: infer D } ? D : undefined

const param = <A, I, O extends ParamOptions<A>>(json: Schema.Schema<A, I>, query: Schema.Schema<A, string>, o: O): Param<A, I, OptionalOf<O>, DefaultOf<O>> => ({
  json,
  query,
  description: o.description,
  optional: (o.default !== undefined || o.optional === true) as OptionalOf<O>,
  default: o.default as DefaultOf<O>
})

/**
 * A derived query form documents its default in its own JSON Schema annotation: as an annotation
 * of the property it would be encoded (443 → "443").
 */
const defaultOf = (o: { readonly default?: unknown }) => (o.default === undefined ? {} : { default: o.default })

/** "a, b,,c" → ["a", "b", "c"]. */
const CommaList = Schema.transform(Schema.String, Schema.Array(Schema.String), {
  strict: true,
  decode: (s) => s.split(",").map((t) => t.trim()).filter((t) => t !== ""),
  encode: (items) => items.join(",")
})

/** `true` or `false`. */
const BooleanText = Schema.compose(Schema.String, Schema.BooleanFromString, { strict: false })

export const Param = {
  /** A string parameter: the same schema in JSON and in a query string. */
  text: <O extends ParamOptions<string>>(schema: Schema.Schema<string, string>, o: O) => param(schema, schema, o),

  /** An integer in `[min, max]`; in a query string, its decimal spelling. */
  int: <O extends ParamOptions<number> & { readonly min: number; readonly max: number }>(o: O) => {
    const json = Schema.Number.pipe(Schema.int(), Schema.between(o.min, o.max))
    // The derived query form documents what a client sends (an integer and its range), not the
    // string it travels as.
    const query = Schema.compose(Schema.NumberFromString, json).annotations({ jsonSchema: { type: "integer", minimum: o.min, maximum: o.max, ...defaultOf(o) } })
    return param(json, query, o)
  },

  /** A boolean; in a query string `true`/`false`, or the spellings `query` accepts. */
  bool: <O extends ParamOptions<boolean>>(o: O, query: Schema.Schema<boolean, string> = BooleanText) =>
    param(Schema.Boolean, query.annotations({ jsonSchema: { type: "boolean", ...defaultOf(o) } }), o),

  /** One of `values`, in any letter case (decoded to the spelling listed; the schema lists those). */
  oneOf: <const L extends readonly [string, ...Array<string>], O extends ParamOptions<L[number]>>(values: L, o: O) => {
    const byLower = new Map(values.map((v) => [v.toLowerCase(), v]))
    const json = Schema.transform(Schema.String, Schema.Literal(...values), {
      strict: false,
      // An unknown spelling is left as it is, for the literal to refuse with the list of values.
      decode: (s) => byLower.get(s.toLowerCase()) ?? s,
      encode: (v) => v
    }).annotations({ jsonSchema: { type: "string", enum: values } })
    return param(json, json, o)
  },

  /** A list of at most `maxItems` items: an array in JSON, a comma list in a query string. */
  list: <O extends ParamOptions<ReadonlyArray<string>> & { readonly item: Schema.Schema<string, string>; readonly maxItems: number; readonly tooMany: string }>(o: O) => {
    const json = Schema.Array(o.item).pipe(Schema.maxItems(o.maxItems, { message: () => o.tooMany }))
    const query = Schema.compose(CommaList, json).annotations({ jsonSchema: { type: "string" } })
    return param(json, query, o)
  }
}

type Side = "json" | "query"
type FieldOf<P, S extends Side> = P extends Param<infer A, infer I, infer O, any>
  ? (O extends true ? Schema.optional<Schema.Schema<A, S extends "json" ? I : string>> : Schema.propertySignature<Schema.Schema<A, S extends "json" ? I : string>>)
  : never
type Fields<P extends Record<string, AnyParam>, S extends Side> = { readonly [K in keyof P]: FieldOf<P[K], S> }
type Defaults<P extends Record<string, AnyParam>> = {
  readonly [K in keyof P as P[K]["default"] extends undefined ? never : K]: P[K]["default"]
}

export interface OperationInputs<P extends Record<string, AnyParam>> {
  /** The JSON form: an MCP tool's arguments (and, through `JSONSchema.make`, its `inputSchema`). */
  readonly json: Schema.Struct<Fields<P, "json">>
  /** The query-string form, derived: a REST endpoint's `setUrlParams`. */
  readonly query: Schema.Struct<Fields<P, "query">>
  /** The declared defaults, for the code that applies them. */
  readonly defaults: Defaults<P>
  readonly params: P
  /** The same inputs restricted to `keys` (a tool that offers part of its operation's inputs). */
  readonly pick: <K extends keyof P & string>(...keys: ReadonlyArray<K>) => OperationInputs<Pick<P, K>>
}

const struct = (params: Record<string, AnyParam>, side: Side) =>
  Schema.Struct(Object.fromEntries(Object.entries(params).map(([name, p]) => {
    const schema = side === "json" ? p.json : p.query
    const field = p.optional ? Schema.optional(schema) : Schema.propertySignature(schema)
    // A query form that is not the JSON form (a number, a boolean, a list) states its default itself.
    const documentsDefault = side === "json" || p.query === p.json
    return [name, field.annotations({ description: p.description, ...(documentsDefault ? defaultOf(p) : {}) })]
  })))

export const operationInputs = <P extends Record<string, AnyParam>>(params: P): OperationInputs<P> => ({
  json: struct(params, "json") as unknown as Schema.Struct<Fields<P, "json">>,
  query: struct(params, "query") as unknown as Schema.Struct<Fields<P, "query">>,
  defaults: Object.fromEntries(Object.entries(params).filter(([, p]) => p.default !== undefined).map(([k, p]) => [k, p.default])) as Defaults<P>,
  params,
  pick: (...keys) => operationInputs(Object.fromEntries(keys.map((k) => [k, params[k]])) as Pick<P, (typeof keys)[number]>)
})
