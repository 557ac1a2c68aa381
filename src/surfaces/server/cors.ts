/**
 * CORS for browser callers (CORS_ORIGINS: a comma list of allowed origins, `*` for any; default
 * none, and then no CORS header is ever sent). A request whose Origin is allowed gets
 * `Access-Control-Allow-Origin` with that origin (never `*` with credentials: keys travel in
 * the Authorization header, not in cookies), `Vary: Origin`, and the tracking headers exposed;
 * a preflight (OPTIONS with Access-Control-Request-Method) from an allowed origin is answered
 * 204 here, before routing, authentication and metering. Other origins get nothing extra.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

const ALLOW_METHODS = "GET, POST, PATCH, DELETE, OPTIONS"
const ALLOW_HEADERS = "Authorization, Content-Type, X-Request-Id, MCP-Protocol-Version, Mcp-Session-Id"
const EXPOSE_HEADERS = "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, WWW-Authenticate"
const MAX_AGE_S = "600"

/** The allowed origin to echo, or undefined when the request's Origin is not allowed. */
export const allowedOrigin = (origin: string | undefined, allowed: ReadonlyArray<string>): string | undefined => {
  if (origin === undefined || origin === "" || allowed.length === 0) return undefined
  const o = origin.replace(/\/+$/, "")
  return allowed.includes("*") || allowed.includes(o) ? o : undefined
}

/** Headers of a preflight answer for an allowed origin. */
export const preflightHeaders = (origin: string, requestedHeaders: string | undefined): Record<string, string> => ({
  "access-control-allow-origin": origin,
  "access-control-allow-methods": ALLOW_METHODS,
  // Echo what the browser asked for (header names only), else the ones the API reads.
  "access-control-allow-headers": requestedHeaders && /^[\w\-, ]{1,500}$/.test(requestedHeaders) ? requestedHeaders : ALLOW_HEADERS,
  "access-control-max-age": MAX_AGE_S,
  vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
})

/** Headers added to an actual answer for an allowed origin. */
export const responseHeaders = (origin: string): Record<string, string> => ({
  "access-control-allow-origin": origin,
  "access-control-expose-headers": EXPOSE_HEADERS,
  vary: "Origin"
})

/** The outermost wrapper of the HTTP app; with no allowed origin it is the app itself. */
export const cors = (allowed: ReadonlyArray<string>) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> => {
  if (allowed.length === 0) return app
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const origin = allowedOrigin(request.headers.origin, allowed)
    if (origin === undefined) return yield* app
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
      return HttpServerResponse.empty({ status: 204, headers: preflightHeaders(origin, request.headers["access-control-request-headers"]) })
    }
    // Through a pre-response handler: the router may send the answer from inside `app`.
    yield* HttpApp.appendPreResponseHandler((_req, res) => Effect.succeed(HttpServerResponse.setHeaders(res, responseHeaders(origin))))
    return yield* app
  })
}
