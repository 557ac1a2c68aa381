import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { isSection } from "../../analyses/audit/checks"
import { DomainAudit } from "../../analyses/audit/DomainAudit"
import { Caller } from "../../kernel/Caller"
import { Api } from "../api/Api"
import { AuditInputs } from "../api/audit"

/**
 * A domain audit from its decoded inputs (the domain normalised, the sections known names): what
 * the REST operation and the MCP tool `domain_audit` both run. `orgId` counts the zone audit
 * against the caller's organization, as GET /v1/dns/zone-hygiene does.
 */
export const domainAudit = (inputs: Partial<typeof AuditInputs.json.Type> & Pick<typeof AuditInputs.json.Type, "domain">, orgId?: string) =>
  Effect.flatMap(DomainAudit, (svc) =>
    svc.audit({
      domain: inputs.domain,
      sections: (inputs.sections ?? []).filter(isSection),
      starttls: inputs.starttls ?? AuditInputs.defaults.starttls,
      orgId
    }))

export const AuditLive = HttpApiBuilder.group(Api, "audit", (handlers) =>
  handlers.handle("domainAudit", ({ urlParams }) => Effect.flatMap(Caller, (caller) => domainAudit(urlParams, caller.org.id)))
)
