import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })
export const Ready = Schema.Struct({ status: Schema.Literal("ready"), database: Schema.Literal("ok") })
/** /readyz when the database does not answer: 503 in the error envelope (code `not_ready`). */
export class NotReady extends Schema.TaggedError<NotReady>()("NotReady", { message: Schema.String }, HttpApiSchema.annotations({ status: 503 })) {
  readonly status = 503
  readonly code = "not_ready"
}

/** Unauthenticated probes for load balancers and orchestrators. */
export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("healthz", "/healthz").addSuccess(Health))
  .add(HttpApiEndpoint.get("readyz", "/readyz").addSuccess(Ready).addError(NotReady))
{}
