/**
 * GET /metrics: open, unless METRICS_TOKEN is set; then `Authorization: Bearer <METRICS_TOKEN>`
 * (401 in the usual envelope otherwise, compared in constant time).
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Redacted } from "effect"
import { timingSafeEqual } from "node:crypto"
import { bearerToken } from "../../product/auth/Auth"
import { AppConfig } from "../../platform/Config"
import { errorBody } from "../../kernel/errors"
import { exposition } from "../../platform/observability/metrics"
import type { ApiRouter } from "../../platform/http/Operation"

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export const metricsRoute = (router: ApiRouter) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    yield* router.get(
      "/metrics",
      Effect.gen(function*() {
        if (Option.isSome(config.metricsToken)) {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!sameSecret(bearerToken(request.headers.authorization), Redacted.value(config.metricsToken.value))) {
            return HttpServerResponse.unsafeJson(errorBody("unauthorized", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>"), {
              status: 401,
              headers: { "www-authenticate": 'Bearer realm="metrics"' }
            })
          }
        }
        const { contentType, text } = yield* Effect.promise(exposition)
        return HttpServerResponse.text(text, { contentType })
      })
    )
  })
