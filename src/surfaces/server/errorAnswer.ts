/**
 * An error as its HTTP answer, encoded by its own wire schema (src/kernel/errors.ts) with the
 * headers its value implies (`errorHeaders`: 401 WWW-Authenticate, 405 Allow, 429 Retry-After).
 * For the answers given outside an endpoint's declared errors: the pipeline's own (404 before
 * routing, 502 at the deadline) and the error renderer's answers that carry headers.
 */
import { HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"
import { type ApiError, errorHeaders, wireOf } from "../../kernel/errors"

export const errorAnswer = (e: ApiError): HttpServerResponse.HttpServerResponse => {
  const body = Schema.encodeSync(wireOf[e._tag] as Schema.Schema<ApiError, unknown, never>)(e)
  return HttpServerResponse.unsafeJson(body, { status: e.status, headers: errorHeaders(e) ?? {} })
}
