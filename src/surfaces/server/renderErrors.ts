/**
 * The HttpApi-level error middleware: turns what the framework and handlers raise without a
 * schema into declared errors, so that every error answer is encoded by its wire schema
 * (src/kernel/errors.ts) by the HttpApi itself:
 * - schema decode failures → 400 invalid_request with the issues in `details`;
 * - bodies that are not JSON or nest too deep (`BodyRead`, src/platform/http/body.ts) → 400 invalid_request;
 * - no route: a known path with another method → 405 method_not_allowed, else 404 not_found;
 * - defects → 500 internal_error, logged, without internals.
 * Declared errors pass through to the HttpApi's encoding, except those whose answer carries headers
 * (`errorHeaders`: 401, 405, 429), which are encoded here by their own wire schema with the headers
 * their value implies. Interruptions are the pipeline's (deadline, client gone).
 */
import { HttpApiError, type HttpApp, HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { type ApiError, errorHeaders, InternalError, InvalidRequest, isApiError, MethodNotAllowed, NotFound } from "../../kernel/errors"
import { invalidRequestOf } from "../../kernel/decodeFailure"
import { bodyProblem } from "../../platform/http/body"
import { Operations } from "../../platform/http/Operation"
import { errorAnswer } from "./errorAnswer"

/** An error whose answer carries headers, as that answer; undefined for the others. */
const withHeaders = (e: ApiError) => (errorHeaders(e) === undefined ? undefined : Effect.succeed(errorAnswer(e)))

const notJson = () => new InvalidRequest({ message: "the request body is not valid JSON" })

type Rendered = Effect.Effect<HttpServerResponse.HttpServerResponse, InvalidRequest | NotFound | InternalError, HttpServerRequest.HttpServerRequest>

/** The middleware, given the operations table (installed with the body bound in src/surfaces/server/Http.ts). */
export const renderErrors = Effect.map(Operations, (operations) => (app: HttpApp.Default) =>
  Effect.catchAllCause(app, (cause): Rendered => {
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const e: unknown = failure.value
      if (isApiError(e)) return withHeaders(e) ?? Effect.failCause(cause)
      if (e instanceof HttpApiError.HttpApiDecodeError) return Effect.fail(invalidRequestOf(e.issues, e.message))
      if (e instanceof HttpServerError.RouteNotFound) {
        return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request): Rendered => {
          const q = request.url.indexOf("?")
          const allowed = operations.allowedMethods(q === -1 ? request.url : request.url.slice(0, q))
          if (allowed.length === 0) return Effect.fail(new NotFound({ message: "no such route" }))
          return withHeaders(new MethodNotAllowed({ message: `${request.method} is not allowed here; allowed: ${allowed.join(", ")}`, allow: allowed }))!
        })
      }
      if (e instanceof HttpServerError.RequestError) return Effect.fail(bodyProblem(e) ?? notJson())
    }
    // The HttpApi payload reader dies (rather than fails) on a body it cannot read.
    const defect = Cause.dieOption(cause)
    if (Option.isSome(defect) && defect.value instanceof HttpServerError.RequestError) {
      return Effect.fail(bodyProblem(defect.value) ?? notJson())
    }
    return Effect.zipRight(
      Effect.logError("unhandled failure", cause),
      Effect.fail(new InternalError({ message: "internal error" }))
    )
  }))
