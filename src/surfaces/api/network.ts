import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Option, Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire } from "../../kernel/errors"
import { OperationDeadline, PlanLabel } from "../../platform/http/Operation"
import { operationInputs, Param } from "./inputs"
import { UrlParam } from "./params"
import { HttpCheckReport } from "../../analyses/network/schema"
import { HTTP_CHECK_DEFAULTS } from "../../analyses/network/HttpCheck"

export { HttpCheckReport } from "../../analyses/network/schema"

/** The whole check (redirects included) ends within `timeout`; the answer comes at most this later. */
export const HTTP_CHECK_MARGIN_MS = 2000
export const HTTP_CHECK_MAX_TIMEOUT_MS = 30000

/** `GET /v1/network/http-check` and the MCP tool `http_check`. */
export const HttpCheckInputs = operationInputs({
  url: Param.text(UrlParam, {
    description: "Full http(s) URL, bare host name or IP address; http:// is prepended when no scheme is given"
  }),
  method: Param.oneOf(["HEAD", "GET"], {
    default: HTTP_CHECK_DEFAULTS.method,
    description: "HEAD (status and headers only) or GET (also reads and measures up to 10 MiB of the body); any letter case"
  }),
  follow_redirects: Param.bool({ default: HTTP_CHECK_DEFAULTS.follow_redirects, description: "follow 3xx answers; false reports the first redirect response itself" }),
  max_redirects: Param.int({ min: 0, max: 10, default: HTTP_CHECK_DEFAULTS.max_redirects, description: "redirects followed at most (when follow_redirects is true)" }),
  timeout: Param.int({ min: 1000, max: HTTP_CHECK_MAX_TIMEOUT_MS, default: HTTP_CHECK_DEFAULTS.timeout, description: "milliseconds for the whole check, redirects included" })
})

/**
 * http-check's deadline in ms: its own `timeout` plus the margin (docs/pipeline.md). The one place
 * it is computed: the endpoint's `OperationDeadline` and the MCP tool's time limit both call it.
 */
export const httpCheckDeadlineMs = (inputs: { readonly timeout?: number | undefined }): number =>
  (inputs.timeout ?? HttpCheckInputs.defaults.timeout) + HTTP_CHECK_MARGIN_MS

/** The deadline from the raw query: `timeout` decoded by its own schema (an invalid one is answered 400 before it matters). */
const decodeTimeout = Schema.decodeUnknownOption(HttpCheckInputs.query.pick("timeout"))
const deadlineOfQuery = (query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) =>
  httpCheckDeadlineMs(Option.getOrElse(decodeTimeout(query), () => ({})))

export class NetworkApi extends HttpApiGroup.make("network")
  .annotate(PlanLabel, "free")
  .annotate(OpenApi.Description, "HTTP checks of URLs")
  .add(
    HttpApiEndpoint.get("httpCheck", "/v1/network/http-check")
      .annotate(OpenApi.Summary, "Check a URL: status, timings, headers, TLS and redirects")
      .annotate(OpenApi.Description, "Fetches the URL (HEAD by default) from the service, following redirects up to `max_redirects`, and reports the status, DNS/connect/TLS/first-byte timings, selected headers with a security summary, the redirect chain and the TLS outcome. A target that does not answer is a 200 with `error` set (`timeout`, `fetch_failed` (no connection, a TLS failure, a name that does not resolve, a malformed answer), `invalid_redirect_location`, `too_many_redirects`, `target_forbidden` for a redirect to a refused address), not an HTTP error. Private, loopback and metadata addresses are refused with `target_forbidden`.")
      .setUrlParams(HttpCheckInputs.query)
      .addSuccess(HttpCheckReport)
      .addError(TargetForbiddenWire)
      .annotate(OperationDeadline, deadlineOfQuery)
  )
  .middleware(Auth)
{}
