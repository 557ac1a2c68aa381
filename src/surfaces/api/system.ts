import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotReadyWire } from "../../kernel/errors"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })
export const Ready = Schema.Struct({ status: Schema.Literal("ready"), database: Schema.Literal("ok") })

/** Unauthenticated probes for load balancers and orchestrators. */
export class SystemApi extends HttpApiGroup.make("system")
  .annotate(OpenApi.Description, "Health and readiness probes (no key)")
  .add(HttpApiEndpoint.get("healthz", "/healthz")
      .annotate(OpenApi.Summary, "Liveness probe")
      .annotate(OpenApi.Description, "Answers `{\"status\":\"ok\"}` while the process serves HTTP. No key needed.").addSuccess(Health))
  .add(HttpApiEndpoint.get("readyz", "/readyz")
      .annotate(OpenApi.Summary, "Readiness probe")
      .annotate(OpenApi.Description, "Answers 200 once the database answers, 503 otherwise. No key needed.").addSuccess(Ready).addError(NotReadyWire))
{}
