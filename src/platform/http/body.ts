/**
 * Request bodies, read once by the pipeline before routing:
 * - at most `MAX_BODY_BYTES`: a declared Content-Length above it is refused before reading, a
 *   chunked body as soon as it passes the limit (413 payload_too_large);
 * - JSON is parsed by `parseJson` only: nesting deeper than `MAX_JSON_DEPTH` is refused before
 *   `JSON.parse` runs (which would otherwise recurse until a RangeError), anything unparsable is
 *   400 invalid_request.
 * The bytes are then installed on the request, so every reader (the HttpApi payload decoder,
 * handlers reading `request.text`, the MCP route) sees the same bounded body.
 */
import { HttpServerError, type HttpServerRequest, UrlParams } from "@effect/platform"
import { Effect, Either, Stream } from "effect"
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
    Effect.map(({ chunks, size }) => {
      if (chunks.length === 1) return chunks[0]
      const all = new Uint8Array(size)
      let at = 0
      for (const c of chunks) {
        all.set(c, at)
        at += c.byteLength
      }
      return all
    }),
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
 * Makes `request`'s body readers answer from `bytes`: own properties shadow the readers of the
 * request object the server answers through (BunHttpServer answers through that very object, so
 * a new request made with `HttpServerRequest.fromWeb` cannot stand in for it). Its `json` checks
 * the nesting depth before `JSON.parse` runs.
 */
export const installBody = (request: HttpServerRequest.HttpServerRequest, bytes: Uint8Array): void => {
  const decodeError = (cause: unknown) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
  let text: string | undefined
  const asText = () => (text ??= new TextDecoder().decode(bytes))
  const define = (name: string, get: () => unknown) => Object.defineProperty(request, name, { get, configurable: true })
  define("text", () => Effect.sync(asText))
  define("json", () => Either.match(parseJson(asText()), { onLeft: (e) => Effect.fail(decodeError(e)), onRight: Effect.succeed }))
  define("arrayBuffer", () => Effect.sync(() => bytes.slice().buffer))
  define("stream", () => Stream.succeed(bytes))
  define("urlParamsBody", () =>
    Effect.try({ try: () => UrlParams.fromInput(new URLSearchParams(asText())), catch: decodeError }))
}

/** The InvalidRequest behind a body-decode failure raised by `installBody`'s `json`, if any. */
export const bodyProblem = (u: unknown): InvalidRequest | undefined => {
  const cause = (u as { _tag?: string; cause?: unknown })?._tag === "RequestError" ? (u as { cause?: unknown }).cause : undefined
  return cause instanceof InvalidRequest ? cause : undefined
}
