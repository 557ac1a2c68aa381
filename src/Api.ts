/** The whole REST interface: one group per feature, the shared errors at API level. */
import { HttpApi, OpenApi } from "@effect/platform"
import { InternalErrorWire, InvalidRequestWire } from "./domain/errors"
import { FreshnessApi } from "./freshness/api"
import { NetworkApi } from "./network/api"
import { SystemApi } from "./system/api"
import { WafApi } from "./waf/api"

export class Api extends HttpApi.make("domain-intel")
  .add(SystemApi)
  .add(NetworkApi)
  .add(FreshnessApi)
  .add(WafApi)
  .addError(InvalidRequestWire)
  .addError(InternalErrorWire)
  .annotate(OpenApi.Title, "domain-intel")
  .annotate(OpenApi.Description, "Domain intelligence API: freshness, WAF, uptime, DNS hygiene, CT logs, MCP, analytics and alerts")
{}
