/**
 * HttpApi groups with a lean per-request path: the contract of `HttpApiBuilder.group` (same
 * handlers API, the endpoint's schemas, the same middleware order, the same errors), in fewer
 * runtime steps. Every group of the service is built with this `group`.
 *
 * Per request, `HttpApiBuilder.group` runs its middleware as nested effects (each provided
 * service copies the fiber's context), merges the group's build context into the request's
 * (another copy), decodes and encodes through Schema's effectful parser, and encodes the success
 * value through a Schema transformation into a response. That machinery alone is a third of a
 * minimal endpoint's time (bench/http/ceiling.ts). Here the same work is:
 *   - middleware: run in the same order (endpoint's outermost, then the group's); a bearer
 *     security scheme reads its header straight from the request; what middleware provides and
 *     what the group's build context adds join the context the router made for this request, in
 *     place (`isOwn`);
 *   - inputs: decoded with the endpoint's schemas synchronously (`decodeUnknownEither`; the
 *     payload still read as an effect), a failure raised as `HttpApiDecodeError` exactly as the
 *     framework does (also for a parse error the handler raises);
 *   - success: encoded with the endpoint's success schema synchronously, sent with the status and
 *     encoding the schema declares; a handler may still return a response of its own.
 * Errors stay typed failures: the HttpApi encodes them with their schemas, as before.
 */
import {
  HttpApiBuilder,
  HttpApiError,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpMethod,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse,
  UrlParams
} from "@effect/platform"
import { Chunk, Context, Effect, Either, FiberRef, identity, Option, ParseResult, pipe, Redacted, Schema } from "effect"
import { headerOf } from "./RequestFacts"

type AnySchema = Schema.Schema<any, any, never>
type Item = {
  readonly endpoint: any
  readonly handler: (request: any) => Effect.Effect<any, any, any>
  readonly withFullRequest: boolean
  readonly uninterruptible: boolean
}

/** The handlers object a group's `build` function fills (`handle`, `handleRaw`), as the framework's. */
const HandlersProto = {
  [HttpApiBuilder.HandlersTypeId]: { _Endpoints: identity },
  pipe(this: unknown) {
    // eslint-disable-next-line prefer-rest-params
    return (pipe as any)(this, ...arguments)
  },
  handle(this: Handlers, name: string, handler: Item["handler"], options?: HandleOptions) {
    return withItem(this, name, handler, false, options)
  },
  handleRaw(this: Handlers, name: string, handler: Item["handler"], options?: HandleOptions) {
    return withItem(this, name, handler, true, options)
  }
}
type HandleOptions = { readonly uninterruptible?: boolean }
interface Handlers {
  readonly group: { readonly endpoints: Record<string, unknown> }
  readonly handlers: Chunk.Chunk<Item>
}
/** The handlers with one more endpoint's handler (`withFullRequest`: the handler reads the body itself). */
const withItem = (self: Handlers, name: string, handler: Item["handler"], withFullRequest: boolean, options?: HandleOptions) =>
  makeHandlers(self.group, Chunk.append(self.handlers, {
    endpoint: self.group.endpoints[name],
    handler,
    withFullRequest,
    uninterruptible: options?.uninterruptible ?? false
  }))
const makeHandlers = (group: unknown, handlers: Chunk.Chunk<Item>) => {
  const self = Object.create(HandlersProto)
  self.group = group
  self.handlers = handlers
  return self
}

/** Decoder of one input schema, without Effect (HttpApi schemas are synchronous). */
const syncDecoder = (schema: Option.Option<AnySchema>) => (Option.isSome(schema) ? Schema.decodeUnknownEither(schema.value) : undefined)

/**
 * The framework's own normalisation of query parameters (a single value where the schema wants an
 * array becomes one), exported by its module though not by its type declarations.
 */
const normalizeUrlParams = (HttpApiBuilder as unknown as {
  readonly normalizeUrlParams: (params: unknown, ast: Schema.Schema.Any["ast"]) => unknown
}).normalizeUrlParams
if (typeof normalizeUrlParams !== "function") throw new Error("@effect/platform no longer exports normalizeUrlParams")

/**
 * `normalizeUrlParams` for one schema, with its answer per parameter name remembered (it walks
 * the schema for every name of every request). Names come from clients: at most 64 are kept.
 */
const urlParamsNormalizer = (ast: Schema.Schema.Any["ast"]) => {
  const wrapsByName = new Map<string, boolean>()
  const wraps = (name: string): boolean => {
    let w = wrapsByName.get(name)
    if (w === undefined) {
      w = Array.isArray((normalizeUrlParams({ [name]: "" }, ast) as Record<string, unknown>)[name])
      if (wrapsByName.size < 64) wrapsByName.set(name, w)
    }
    return w
  }
  return (params: Readonly<Record<string, string | ReadonlyArray<string>>>): Readonly<Record<string, unknown>> => {
    let out: Record<string, unknown> | undefined
    for (const name in params) {
      const value = params[name]
      if (!Array.isArray(value) && wraps(name)) (out ??= { ...params })[name] = [value]
    }
    return out ?? params
  }
}

/** A parse failure as the framework raises it (400 invalid_request, src/http/renderErrors.ts). */
const decodeFailure = (error: ParseResult.ParseError) => HttpApiError.HttpApiDecodeError.refailParseError(error)

/** The body of a request with a payload, read as the framework reads it (by content type). */
const requestPayload = (request: HttpServerRequest.HttpServerRequest, urlParams: unknown): Effect.Effect<unknown> => {
  if (!HttpMethod.hasBody(request.method)) return Effect.succeed(urlParams)
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.includes("x-www-form-urlencoded")) return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord)
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

/** The success schemas of an endpoint, each with the status and encoding it declares. */
const successEncoder = (successSchema: AnySchema) => {
  const members = new Set<AnySchema>()
  HttpApiSchema.deunionize(members, successSchema)
  const encoders = Array.from(members, (member) => ({
    encode: Schema.encodeEither(member),
    status: HttpApiSchema.getStatusSuccessAST(member.ast),
    empty: HttpApiSchema.isVoid(member.ast),
    encoding: HttpApiSchema.getEncoding(member.ast),
    ast: member.ast
  }))
  return (value: unknown): Either.Either<HttpServerResponse.HttpServerResponse, ParseResult.ParseError> => {
    let failure: ParseResult.ParseError | undefined
    for (const e of encoders) {
      const encoded = e.encode(value)
      if (Either.isLeft(encoded)) {
        failure ??= encoded.left
        continue
      }
      if (e.empty) return Either.right(HttpServerResponse.empty({ status: e.status }))
      const options = { status: e.status, contentType: e.encoding.contentType }
      switch (e.encoding.kind) {
        case "Json":
          try {
            return Either.right(HttpServerResponse.unsafeJson(encoded.right, options))
          } catch (error) {
            return Either.left(new ParseResult.ParseError({ issue: new ParseResult.Type(e.ast, error, "Could not encode to JSON") }))
          }
        case "Text":
          return Either.right(HttpServerResponse.text(encoded.right as string, options))
        case "Uint8Array":
          return Either.right(HttpServerResponse.uint8Array(encoded.right as Uint8Array, options))
        case "UrlParams":
          return Either.right(HttpServerResponse.urlParams(encoded.right as UrlParams.Input, options))
      }
    }
    return Either.left(failure!)
  }
}

const unsafeMapOf = (context: Context.Context<never>) => (context as unknown as { readonly unsafeMap: Map<string, unknown> }).unsafeMap
const routeContextKey = HttpRouter.RouteContext.key
/**
 * Whether a context is the request's own: the router runs every route in a context it made for
 * that request (holding the request's RouteContext), so services can be added to it in place
 * (no copy, no FiberRef update, no comparison of contexts). Any other context is not known to
 * be private to this request, and is extended by copy instead.
 */
const isOwn = (context: Context.Context<never>) => unsafeMapOf(context).has(routeContextKey)

interface MiddlewareEntry {
  readonly tag: any
  /** What the middleware runs per request: its value (provided when the tag `provides`). */
  readonly run: Effect.Effect<unknown, unknown, any>
}

/** A security middleware's effect: a bearer scheme reads the header directly; others as the framework does. */
const securityEffect = (tag: any, implementation: any): Effect.Effect<unknown, unknown, any> => {
  let effect: Effect.Effect<unknown, unknown, any> | undefined
  for (const [key, security] of Object.entries(tag.security as Record<string, any>)) {
    const handler = implementation[key] as (credential: unknown) => Effect.Effect<unknown, unknown, any>
    const one = security._tag === "Bearer"
      ? Effect.withFiberRuntime<unknown, unknown, any>((fiber) => {
        const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
        // As the framework does: what follows "Bearer " (the check itself judges the rest).
        return handler(Redacted.make((headerOf(request, "authorization") ?? "").slice(7)))
      })
      : Effect.flatMap(HttpApiBuilder.securityDecode(security), handler)
    effect = effect === undefined ? one : Effect.catchAll(effect, () => one)
  }
  return effect ?? Effect.void
}

/**
 * The per-request effect of one endpoint: middleware, one context, inputs, handler, success.
 * `context` is the group's build context (services the handlers may read at request time).
 */
const route = (item: Item, groupMiddlewares: ReadonlySet<any>, context: Context.Context<never>) => {
  const endpoint = item.endpoint
  if (Option.isSome(endpoint.payloadSchema) && (HttpApiSchema.getMultipart(endpoint.payloadSchema.value.ast) !== undefined ||
    HttpApiSchema.getMultipartStream(endpoint.payloadSchema.value.ast) !== undefined)) {
    throw new Error(`${endpoint.name}: multipart payloads are not supported by src/http/group.ts`)
  }
  const decodePath = syncDecoder(endpoint.pathSchema)
  const decodeHeaders = syncDecoder(endpoint.headersSchema)
  const urlParamsSchema: Option.Option<AnySchema> = endpoint.urlParamsSchema
  const decodeUrlParams = syncDecoder(urlParamsSchema)
  const normalizeParams = Option.isSome(urlParamsSchema) ? urlParamsNormalizer(urlParamsSchema.value.ast) : undefined
  const decodePayload = item.withFullRequest ? undefined : syncDecoder(endpoint.payloadSchema)
  const encodeSuccess = successEncoder(endpoint.successSchema)

  // The framework's order: the endpoint's middleware outermost, then the group's (a tag in both runs once).
  const byKey = new Map<string, any>()
  for (const tag of groupMiddlewares) byKey.set(tag.key, tag)
  for (const tag of endpoint.middlewares as ReadonlySet<any>) byKey.set(tag.key, tag)
  const middlewares: Array<MiddlewareEntry> = [...byKey.values()].reverse().map((tag) => {
    const implementation = Context.unsafeGet(context, tag)
    return { tag, run: HttpApiMiddleware.isSecurity(tag) ? securityEffect(tag, implementation) : (implementation as Effect.Effect<unknown>) }
  })
  /** The group's build-context entries a request's context lacks (found on the first request). */
  let extra: Array<[string, unknown]> | undefined

  const handle = (fiber: { readonly currentContext: Context.Context<never> }) => {
    const input = fiber.currentContext
    const httpRequest = Context.unsafeGet(input, HttpServerRequest.HttpServerRequest)
    const urlParams = Context.unsafeGet(input, HttpServerRequest.ParsedSearchParams)
    const request: Record<string, unknown> = { request: httpRequest }
    if (decodePath !== undefined) {
      const path = decodePath(Context.unsafeGet(input, HttpRouter.RouteContext).params)
      if (Either.isLeft(path)) return decodeFailure(path.left)
      request.path = path.right
    }
    if (decodeHeaders !== undefined) {
      const headers = decodeHeaders(httpRequest.headers)
      if (Either.isLeft(headers)) return decodeFailure(headers.left)
      request.headers = headers.right
    }
    if (decodeUrlParams !== undefined) {
      const params = decodeUrlParams(normalizeParams!(urlParams))
      if (Either.isLeft(params)) return decodeFailure(params.left)
      request.urlParams = params.right
    }
    // The group's services join the request's context (what middleware provided is there
    // already), in place when the context is the request's own (see `isOwn`).
    const own = isOwn(input)
    const map = own ? unsafeMapOf(input) : new Map(unsafeMapOf(input))
    extra ??= [...unsafeMapOf(context)].filter(([key]) => !map.has(key))
    for (const [key, value] of extra) if (!map.has(key)) map.set(key, value)
    const run = (): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, any> =>
      Effect.flatMap(item.handler(request), (value) => {
        if (HttpServerResponse.isServerResponse(value)) return Effect.succeed(value)
        const response = encodeSuccess(value)
        return Either.isRight(response) ? Effect.succeed(response.right) : decodeFailure(response.left)
      })
    const body = decodePayload === undefined
      ? run()
      : Effect.flatMap(requestPayload(httpRequest, urlParams), (payload) => {
        const decoded = decodePayload(payload)
        if (Either.isLeft(decoded)) return decodeFailure(decoded.left)
        request.payload = decoded.right
        return run()
      })
    const guarded = Effect.catchIf(body, ParseResult.isParseError, decodeFailure)
    return own ? guarded : Effect.locally(guarded, FiberRef.currentContext, Context.unsafeMake(map) as Context.Context<never>)
  }

  // Middleware in order, what each provides visible to the ones after it; then the endpoint.
  const endpointStep = Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown, any>(handle)
  const step = (i: number): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, any> => {
    if (i === middlewares.length) return endpointStep
    const { run, tag } = middlewares[i]
    const rest = step(i + 1)
    const next = tag.provides === undefined ? () => rest : (value: unknown) =>
      Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown, any>((fiber) => {
        if (!isOwn(fiber.currentContext)) return Effect.provideService(rest, tag.provides, value)
        unsafeMapOf(fiber.currentContext).set(tag.provides.key, value)
        return rest
      })
    return tag.optional ? Effect.matchEffect(run, { onFailure: () => rest, onSuccess: next }) : Effect.flatMap(run, next)
  }
  return HttpRouter.makeRoute(endpoint.method, endpoint.path, step(0), { uninterruptible: item.uninterruptible })
}

/** `HttpApiBuilder.group` with the lean per-request path above. */
export const group: typeof HttpApiBuilder.group = ((api: any, groupName: string, build: (handlers: any) => any) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<never>()
      const apiGroup = api.groups[groupName]
      const result = build(makeHandlers(apiGroup, Chunk.empty()))
      const handlers = Effect.isEffect(result) ? yield* result : result
      const routes = Chunk.toReadonlyArray(handlers.handlers as Chunk.Chunk<Item>).map((item) => route(item, apiGroup.middlewares, context))
      yield* router.concat(HttpRouter.fromIterable(routes))
    })
  )) as any
