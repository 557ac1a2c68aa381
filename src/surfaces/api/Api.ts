/** The whole REST interface: one group per feature, the errors any request may meet at API level. */
import { HttpApi, OpenApi } from "@effect/platform"
import { AccountApi } from "./account"
import { AlertsApi } from "./alerts"
import { AnalyticsApi } from "./analytics"
import {
  InternalErrorWire,
  InvalidRequestWire,
  MethodNotAllowedWire,
  NotFoundWire,
  PayloadTooLargeWire,
  UpstreamUnavailableWire
} from "../../kernel/errors"
import { CtApi } from "./ct"
import { DnsApi } from "./dns"
import { FreshnessApi } from "./freshness"
import { MonitorsApi } from "./monitors"
import { LocationsApi } from "./locations"
import { NetworkApi } from "./network"
import { SystemApi } from "./system"
import { WafApi } from "./waf"
import { EmailApi } from "./email"
import { TlsApi } from "./tls"
import { SecurityHeadersApi } from "./headers"
import { TakeoverApi } from "./takeover"
import { LookalikesApi } from "./lookalikes"
import { AuditApi } from "./audit"
import { BlocklistApi } from "./blocklist"

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
  .add(LocationsApi)
  .add(EmailApi)
  .add(TlsApi)
  .add(SecurityHeadersApi)
  .add(TakeoverApi)
  .add(LookalikesApi)
  .add(AuditApi)
  .add(BlocklistApi)
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
