import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { NotReadyWire } from "../../kernel/errors"
import { Attributed } from "../../platform/http/Attributed"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })
export const Ready = Schema.Struct({ status: Schema.Literal("ready"), database: Schema.Literal("ok") })

/** Unauthenticated probes for load balancers and orchestrators. */
export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("healthz", "/healthz").addSuccess(Health))
  .add(HttpApiEndpoint.get("readyz", "/readyz").addSuccess(Ready).addError(NotReadyWire))
  .middleware(Attributed)
{}
