/** `GET /v1/domain/audit`: developer plan, category `domain`, metered, deadline AUDIT_DEADLINE_MS. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { isSection, SECTIONS } from "../../analyses/audit/checks"
import { DomainAuditReport } from "../../analyses/audit/schema"
import { DomainParam } from "../../kernel/domainParam"
import { NotFoundWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { OperationDeadline, PlanLabel } from "../../platform/http/Operation"
import { Auth } from "../../product/auth/Auth"
import { EmailSecurityInputs } from "./email"
import { operationInputs, Param } from "./inputs"

const SectionName = Schema.String.pipe(
  Schema.filter((s): boolean => isSection(s), {
    message: (issue) => `unknown section ${JSON.stringify(issue.actual)}: the sections are ${SECTIONS.join(", ")}`
  })
)

/** `GET /v1/domain/audit`; the MCP tool `domain_audit` takes `domain` and `sections`. */
export const AuditInputs = operationInputs({
  domain: Param.text(DomainParam, { description: "The domain to audit, e.g. example.com" }),
  sections: Param.list({
    item: SectionName,
    maxItems: SECTIONS.length,
    tooMany: `at most ${SECTIONS.length} sections`,
    tooFew: `name at least one section of ${SECTIONS.join(", ")}`,
    optional: true,
    description: `The sections to run, at most ${SECTIONS.length}, each one of ${SECTIONS.join(", ")} (a comma list in a query string); default all`
  }),
  // As email security's: the same name, default and spellings.
  starttls: EmailSecurityInputs.params.starttls
})

export class AuditApi extends HttpApiGroup.make("audit")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("domainAudit", "/v1/domain/audit")
      .annotate(OpenApi.Summary, "Domain audit: web, mail, DNS and exposure checks in one call, scored and graded")
      .annotate(
        OpenApi.Description,
        "How well a domain is set up, as internet.nl's website and mail tests ask it, with DNS and exposure beside them: the sections `web` (reachability, IPv6 and the same page over IPv6, HTTPS, the redirect to it, HSTS, the TLS grade, the security-headers grade, security.txt), `mail` (SPF, DMARC, DKIM, MTA-STS, TLS-RPT, DANE, IPv6 of the MX hosts, STARTTLS with `starttls=true`, blocklists), `dns` (DNSSEC, the zone hygiene grade, IPv6 of the name servers, CAA) and `exposure` (subdomain takeover, blocklists) run at once within AUDIT_DEADLINE_MS. Each check has its id, `passed` (null when undecided or not applicable) and the severity of its failure; each section a score and grade; `reports` holds the underlying reports as the audit made them. A section whose input could not be fetched is `incomplete`, the reason in `limitations`. 404 when the domain does not exist; 502 when the service's own resolvers cannot answer."
      )
      .setUrlParams(AuditInputs.query)
      .addSuccess(DomainAuditReport)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
      .annotate(OperationDeadline, (_query, config) => config.auditDeadlineMs)
  )
  .middleware(Auth)
{}
