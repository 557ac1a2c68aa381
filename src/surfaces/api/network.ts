import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire } from "../../kernel/errors"
import { OperationDeadline, PlanLabel } from "../../platform/http/Operation"
import { IntParam } from "./params"
import { HttpCheckReport } from "../../analyses/network/schema"

export { HttpCheckReport } from "../../analyses/network/schema"

export const HttpCheckParams = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
    description: "Full http(s) URL, bare host name or IP address; http:// is prepended when no scheme is given"
  }),
  method: Schema.optional(
    Schema.transform(Schema.String.annotations({ description: "HEAD (default) or GET; GET also reads up to 10 MiB of the body" }), Schema.Literal("HEAD", "GET"), {
      strict: false,
      decode: (s) => s.toUpperCase(),
      encode: (s) => s
    }).annotations({ description: "HEAD (default) or GET" })
  ),
  follow_redirects: Schema.optional(Schema.BooleanFromString.annotations({ description: "follow 3xx answers (default true)" })),
  max_redirects: Schema.optional(IntParam({ min: 0, max: 10, default: 5, description: "redirects followed at most (when follow_redirects is true)" })),
  timeout: Schema.optional(IntParam({ min: 1000, max: 30000, default: 10000, description: "milliseconds for the whole check, redirects included" }))
})



/** The whole check (redirects included) ends within `timeout`; the answer comes at most this later. */
export const HTTP_CHECK_MARGIN_MS = 2000
export const HTTP_CHECK_MAX_TIMEOUT_MS = 30000

/** http-check's deadline: its own `timeout` (default 10000) + the margin. */
const httpCheckDeadline = (query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) => {
  const t = Number(query.timeout)
  const timeout = Number.isInteger(t) && t >= 1000 && t <= HTTP_CHECK_MAX_TIMEOUT_MS ? t : 10000
  return timeout + HTTP_CHECK_MARGIN_MS
}

export class NetworkApi extends HttpApiGroup.make("network")
  .annotate(PlanLabel, "free")
  .annotate(OpenApi.Description, "HTTP checks of URLs")
  .add(
    HttpApiEndpoint.get("httpCheck", "/v1/network/http-check")
      .annotate(OpenApi.Summary, "Check a URL: status, timings, headers, TLS and redirects")
      .annotate(OpenApi.Description, "Fetches the URL (HEAD by default) from the service, following redirects up to `max_redirects`, and reports the status, DNS/connect/TLS/first-byte timings, selected headers with a security summary, the redirect chain and the TLS outcome. A target that does not answer is a 200 with `error` set (`timeout`, `dns`, `connection_refused`, `tls`, …), not an HTTP error. Private, loopback and metadata addresses are refused with `target_forbidden`.")
      .setUrlParams(HttpCheckParams)
      .addSuccess(HttpCheckReport)
      .addError(TargetForbiddenWire)
      .annotate(OperationDeadline, httpCheckDeadline)
  )
  .middleware(Auth)
{}
