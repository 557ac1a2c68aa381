/**
 * The error catalogue (docs/errors.md, "Codes"): one class per code, each knowing its
 * HTTP status and wire code, declared once on the class (the wire schemas read them from it). Every REST error leaves the service as
 * `{"error":{"code","message","details?"}}`; the wire schemas below make OpenAPI show exactly that.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const fields = {
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
}

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", fields) {
  readonly status = 400
  readonly code = "invalid_request"
}
export class TargetForbidden extends Schema.TaggedError<TargetForbidden>()("TargetForbidden", fields) {
  readonly status = 400
  readonly code = "target_forbidden"
}
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {
  readonly status = 401
  readonly code = "unauthorized"
}
export class PlanForbidden extends Schema.TaggedError<PlanForbidden>()("PlanForbidden", fields) {
  readonly status = 403
  readonly code = "plan_forbidden"
}
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {
  readonly status = 404
  readonly code = "not_found"
}
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  ...fields,
  /** The methods the path is declared with (the `Allow` header). */
  allow: Schema.optional(Schema.Array(Schema.String))
}) {
  readonly status = 405
  readonly code = "method_not_allowed"
}
export class AlertAlreadyResolved extends Schema.TaggedError<AlertAlreadyResolved>()("AlertAlreadyResolved", fields) {
  readonly status = 409
  readonly code = "alert_already_resolved"
}
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", fields) {
  readonly status = 413
  readonly code = "payload_too_large"
}
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  ...fields,
  retryAfterSeconds: Schema.Number
}) {
  readonly status = 429
  readonly code = "quota_exceeded"
}
/** 429 for load, not quota: too many concurrent runs of a costly operation (Zone Hygiene). */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...fields,
  retryAfterSeconds: Schema.Number
}) {
  readonly status = 429
  readonly code = "rate_limited"
}
export class UpstreamUnavailable extends Schema.TaggedError<UpstreamUnavailable>()("UpstreamUnavailable", fields) {
  readonly status = 502
  readonly code = "upstream_unavailable"
}
/** Readiness: the service cannot serve (its database is unusable). */
export class NotReady extends Schema.TaggedError<NotReady>()("NotReady", fields) {
  readonly status = 503
  readonly code = "not_ready"
}
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", fields) {
  readonly status = 500
  readonly code = "internal_error"
}

export type ApiError =
  | InvalidRequest
  | TargetForbidden
  | Unauthorized
  | PlanForbidden
  | NotFound
  | MethodNotAllowed
  | AlertAlreadyResolved
  | PayloadTooLarge
  | QuotaExceeded
  | RateLimited
  | UpstreamUnavailable
  | NotReady
  | InternalError

export const isApiError = (u: unknown): u is ApiError =>
  typeof u === "object" && u !== null && "code" in u && "status" in u && "message" in u &&
  typeof (u as ApiError).status === "number" && typeof (u as ApiError).code === "string"

/** The wire envelope of one error code. */
export const Envelope = <C extends string>(code: C) =>
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.Literal(code),
      message: Schema.String,
      details: Schema.optional(Schema.Unknown)
    })
  })

type ErrorClass<Self extends ApiError> = Schema.Schema<Self, any, never> & { new(args: any, disableValidation?: boolean): Self }

/**
 * The code and status an error class declares (read once from an instance: one place each). The
 * instance skips the constructor's validation: building thirteen validators here cost every
 * start-up ~2 ms (docs/operating.md, "The binary"); an error made later builds its own at first use.
 */
const declared = <Self extends ApiError>(cls: ErrorClass<Self>) => {
  const { code, status } = new cls({ message: "", retryAfterSeconds: 0 }, true)
  return { code: code as Self["code"], status }
}

/**
 * The wire code an error class declares, read from the class (never restated): what the other
 * surfaces (MCP tool failures, JSON-RPC `error.data.code`) carry for the same failure.
 */
export const codeOf = <Self extends ApiError>(cls: ErrorClass<Self>): Self["code"] => declared(cls).code

/** A wire code of the catalogue. */
export type CatalogueCode = ApiError["code"]

/** Schema from the envelope to the error class, annotated with its status, for `addError`. */
const wire = <Self extends ApiError>(cls: ErrorClass<Self>) => {
  const { code, status } = declared(cls)
  return Schema.transform(Envelope(code), Schema.typeSchema(cls), {
    strict: false,
    decode: (e) => new cls({ message: e.error.message, details: e.error.details }),
    encode: (err: Self) => ({ error: { code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) } })
  }).annotations(HttpApiSchema.annotations({ status }))
}

/** A 429's wire form: the wait travels as `details.retry_after_seconds` (and the Retry-After header). */
const wireWithRetry = <Self extends QuotaExceeded | RateLimited>(cls: ErrorClass<Self>) => {
  const { code, status } = declared(cls)
  return Schema.transform(
    Schema.Struct({
      error: Schema.Struct({
        code: Schema.Literal(code),
        message: Schema.String,
        details: Schema.Struct({ retry_after_seconds: Schema.Number })
      })
    }),
    Schema.typeSchema(cls),
    {
      strict: false,
      decode: (e) => new cls({ message: e.error.message, retryAfterSeconds: e.error.details.retry_after_seconds }),
      encode: (err: Self) => ({ error: { code, message: err.message, details: { retry_after_seconds: err.retryAfterSeconds } } })
    }
  ).annotations(HttpApiSchema.annotations({ status }))
}

export const InvalidRequestWire = wire(InvalidRequest)
export const TargetForbiddenWire = wire(TargetForbidden)
export const UnauthorizedWire = wire(Unauthorized)
export const PlanForbiddenWire = wire(PlanForbidden)
export const NotFoundWire = wire(NotFound)
export const MethodNotAllowedWire = wire(MethodNotAllowed)
export const PayloadTooLargeWire = wire(PayloadTooLarge)
export const AlertAlreadyResolvedWire = wire(AlertAlreadyResolved)
export const QuotaExceededWire = wireWithRetry(QuotaExceeded)
export const RateLimitedWire = wireWithRetry(RateLimited)
export const UpstreamUnavailableWire = wire(UpstreamUnavailable)
export const NotReadyWire = wire(NotReady)
export const InternalErrorWire = wire(InternalError)

/** Each error's wire schema, by tag: what encodes it in the error shape (docs/errors.md, "The error shape"). */
export const wireOf = {
  InvalidRequest: InvalidRequestWire,
  TargetForbidden: TargetForbiddenWire,
  Unauthorized: UnauthorizedWire,
  PlanForbidden: PlanForbiddenWire,
  NotFound: NotFoundWire,
  MethodNotAllowed: MethodNotAllowedWire,
  AlertAlreadyResolved: AlertAlreadyResolvedWire,
  PayloadTooLarge: PayloadTooLargeWire,
  QuotaExceeded: QuotaExceededWire,
  RateLimited: RateLimitedWire,
  UpstreamUnavailable: UpstreamUnavailableWire,
  NotReady: NotReadyWire,
  InternalError: InternalErrorWire
} as const satisfies { readonly [K in ApiError["_tag"]]: Schema.Schema<Extract<ApiError, { _tag: K }>, any, never> }

/**
 * The headers an error answer carries beyond its body, derived from the error value alone
 * (docs/errors.md, "Headers that come with errors"): 401 `WWW-Authenticate`, 405 `Allow`, 429
 * `Retry-After`. The one place these are decided.
 */
export const errorHeaders = (e: ApiError): Readonly<Record<string, string>> | undefined => {
  switch (e._tag) {
    case "Unauthorized":
      return { "www-authenticate": "Bearer" }
    case "QuotaExceeded":
    case "RateLimited":
      return { "retry-after": String(e.retryAfterSeconds) }
    case "MethodNotAllowed":
      return e.allow === undefined ? undefined : { allow: e.allow.join(", ") }
    default:
      return undefined
  }
}

/**
 * The JSON body of an error, as the pipeline writes it for answers it gives outside the HttpApi
 * (unknown routes, wrong methods, oversized bodies, deadlines, defects). The same envelope as
 * `Envelope`/the wire schemas above, which encode every error an endpoint declares.
 */
export const errorBody = (code: string, message: string, details?: unknown) => ({
  error: details === undefined ? { code, message } : { code, message, details }
})
