/**
 * Request bodies, read once before routing (docs/pipeline.md, "Bodies"):
 * - at most `MAX_BODY_BYTES`: a declared Content-Length above it is refused before reading, a
 *   chunked body as soon as it passes the limit (413 payload_too_large);
 * - the routes then see `BodyRead`, a request whose body readers answer from those bytes: the
 *   HttpApi payload decoder, handlers reading `request.text` and MCP all read the same bounded
 *   body, and its `json` is `parseJson`: nesting deeper than `MAX_JSON_DEPTH` is refused before
 *   `JSON.parse` runs (which would otherwise recurse until a RangeError), anything unparsable is
 *   400 invalid_request.
 *
 * Why not the platform's own limit (`HttpIncomingMessage.withMaxBodySize`): BunHttpServer's
 * request does not consult it (only multipart reading does), so a body past it is still read
 * whole; test/platform/body.test.ts shows both.
 */
import { HttpIncomingMessage, HttpServerError, HttpServerRequest, UrlParams } from "@effect/platform"
import { Effect, Either, Inspectable, Stream } from "effect"
import { InvalidRequest, PayloadTooLarge } from "../../kernel/errors"

export const MAX_BODY_BYTES = 1024 * 1024
export const MAX_JSON_DEPTH = 64

const tooLarge = () => new PayloadTooLarge({ message: `request body larger than ${MAX_BODY_BYTES} bytes` })

/** Deepest nesting of arrays/objects in a JSON text, scanning without recursion; stops past `limit`. */
export const jsonDepth = (text: string, limit = MAX_JSON_DEPTH): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) {
        max = depth
        if (max > limit) return max
      }
    } else if (c === 125 || c === 93) depth--
  }
  return max
}

/** JSON.parse behind the depth limit: never throws. */
export const parseJson = (text: string): Either.Either<unknown, InvalidRequest> => {
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return Either.left(new InvalidRequest({ message: `the request body nests JSON deeper than ${MAX_JSON_DEPTH} levels` }))
  }
  try {
    return Either.right(JSON.parse(text))
  } catch {
    return Either.left(new InvalidRequest({ message: "the request body is not valid JSON" }))
  }
}

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  if (chunks.length === 1) return chunks[0]
  const all = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    all.set(c, at)
    at += c.byteLength
  }
  return all
}

/**
 * The body's bytes, read through the request's public stream and refused past the limit while
 * reading. A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112
 * §6.3): an empty array.
 */
export const readBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Uint8Array, PayloadTooLarge | InvalidRequest> => {
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) return Effect.fail(tooLarge())
  if (declared === undefined && request.headers["transfer-encoding"] === undefined) return Effect.succeed(new Uint8Array(0))
  if (declared !== undefined && Number(declared) === 0) return Effect.succeed(new Uint8Array(0))
  return request.stream.pipe(
    Stream.runFoldEffect({ chunks: [] as Array<Uint8Array>, size: 0 }, (acc, chunk) => {
      acc.size += chunk.byteLength
      if (acc.size > MAX_BODY_BYTES) return Effect.fail(tooLarge())
      acc.chunks.push(chunk)
      return Effect.succeed(acc)
    }),
    Effect.map(({ chunks, size }) => concat(chunks, size)),
    Effect.catchAll((e) =>
      Effect.fail(
        e instanceof PayloadTooLarge
          ? e
          // Bun ends a body over its own maxRequestBodySize with an error while reading.
          : /too large|maxRequestBodySize/i.test(String((e as { cause?: Error }).cause?.message ?? e)) ? tooLarge()
          : new InvalidRequest({ message: "the request body could not be read" })
      )
    )
  )
}

/**
 * A request whose body has been read (`bytes`): everything else is the server's request it
 * stands for. Its body readers answer from the bytes; `json` goes through `parseJson`.
 */
export class BodyRead extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private decoded: string | undefined
  constructor(readonly request: HttpServerRequest.HttpServerRequest, readonly bytes: Uint8Array) {
    super()
  }
  private asText(): string {
    return (this.decoded ??= new TextDecoder().decode(this.bytes))
  }
  private decodeError(cause: unknown) {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
  }
  get source() {
    return this.request.source
  }
  get url() {
    return this.request.url
  }
  get originalUrl() {
    return this.request.originalUrl
  }
  get method() {
    return this.request.method
  }
  get cookies() {
    return this.request.cookies
  }
  get headers() {
    return this.request.headers
  }
  get remoteAddress() {
    return this.request.remoteAddress
  }
  get multipart() {
    return this.request.multipart
  }
  get multipartStream() {
    return this.request.multipartStream
  }
  get upgrade() {
    return this.request.upgrade
  }
  modify(options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]): HttpServerRequest.HttpServerRequest {
    return new BodyRead(this.request.modify(options), this.bytes)
  }
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.sync(() => this.asText())
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.suspend(() =>
      Either.match(parseJson(this.asText()), { onLeft: (e) => Effect.fail(this.decodeError(e)), onRight: Effect.succeed })
    )
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.sync(() => this.bytes.slice().buffer)
  }
  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return Stream.succeed(this.bytes)
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.try({ try: () => UrlParams.fromInput(new URLSearchParams(this.asText())), catch: (e) => this.decodeError(e) })
  }
  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, { _id: "domain-intel/BodyRead", method: this.method, url: this.originalUrl })
  }
}

const hasBody = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS"

/**
 * `app` served with the request's body read within the limit first (413 past it), for every
 * route: the router and everything under it see `BodyRead`. Requests without a body method
 * pass as they are.
 */
export const boundBody = <A, E, R>(
  app: Effect.Effect<A, E, R>
): Effect.Effect<A, E | PayloadTooLarge | InvalidRequest, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    hasBody(request.method)
      ? Effect.flatMap(readBody(request), (bytes) => Effect.provideService(app, HttpServerRequest.HttpServerRequest, new BodyRead(request, bytes)))
      : app)

/** The InvalidRequest behind a body-decode failure raised by `BodyRead`'s `json`, if any. */
export const bodyProblem = (u: unknown): InvalidRequest | undefined => {
  const cause = (u as { _tag?: string; cause?: unknown })?._tag === "RequestError" ? (u as { cause?: unknown }).cause : undefined
  return cause instanceof InvalidRequest ? cause : undefined
}
