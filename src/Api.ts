/** The whole REST interface: one group per feature, the errors any request may meet at API level. */
import { HttpApi, OpenApi } from "@effect/platform"
import { AccountApi } from "./account/api"
import { AlertsApi } from "./alerts/api"
import { AnalyticsApi } from "./analytics/api"
import {
  InternalErrorWire,
  InvalidRequestWire,
  MethodNotAllowedWire,
  NotFoundWire,
  PayloadTooLargeWire,
  UpstreamUnavailableWire
} from "./domain/errors"
import { CtApi } from "./ct/api"
import { DnsApi } from "./dns/api"
import { FreshnessApi } from "./freshness/api"
import { MonitorsApi } from "./monitors/api"
import { NetworkApi } from "./network/api"
import { SecurityHeadersApi } from "./surfaces/rest/headers/api"
import { SystemApi } from "./system/api"
import { WafApi } from "./waf/api"

export class Api extends HttpApi.make("domain-intel")
  .add(SystemApi)
  .add(NetworkApi)
  .add(AnalyticsApi)
  .add(AlertsApi)
  .add(DnsApi)
  .add(CtApi)
  .add(FreshnessApi)
  .add(WafApi)
  .add(AccountApi)
  .add(MonitorsApi)
  .add(SecurityHeadersApi)
  // Any request: a bad parameter or body, an unknown route or method, a body over 1 MiB, an
  // operation past its deadline (502), a defect.
  .addError(InvalidRequestWire)
  .addError(NotFoundWire)
  .addError(MethodNotAllowedWire)
  .addError(PayloadTooLargeWire)
  .addError(UpstreamUnavailableWire)
  .addError(InternalErrorWire)
  .annotate(OpenApi.Title, "domain-intel")
  .annotate(OpenApi.Description, "Domain intelligence API: freshness, WAF, uptime, DNS hygiene, CT logs, MCP, analytics, alerts and monitors")
{}
