/**
 * Who is calling: provided by the Auth middleware (src/product/auth/Auth.ts) to every authenticated
 * handler, and returned by `Bearer.check` to raw routes (MCP). A value, decided once per request.
 */
import { Context } from "effect"
import type { Plan } from "./plans"

/** An organization: the account that keys, quotas and alert rules belong to. */
export interface Organization {
  readonly id: string
  readonly name: string
  readonly plan: Plan
}

export interface CallerShape {
  readonly org: Organization
  readonly plan: Plan
  /** The public id of the API key (`di_<id>_…`); null when an audit token authenticated. */
  readonly keyId: string | null
  /**
   * An audit token presented in place of an API key (WAF active probe only: docs/conventions.md,
   * "Authentication"): the token itself, whose domain scope `Keys.verifyAuditToken` checks. Null
   * for keys.
   */
  readonly auditToken: string | null
}

export class Caller extends Context.Tag("domain-intel/Caller")<Caller, CallerShape>() {}
