/**
 * What WAF detection needs from accounts: whether an audit token proves ownership of a host
 * (docs/operations/waf-detection.md, "Ownership"). Declared here and implemented by the product
 * layer (src/product/accounts/auditTokens.ts), so the analysis never imports the layer above it.
 */
import { Context, type Effect } from "effect"

export class AuditTokens extends Context.Tag("domain-intel/AuditTokens")<AuditTokens, {
  /** True when `token` is a live audit token whose domain covers `host`; never fails. */
  readonly verify: (token: string, host: string) => Effect.Effect<boolean>
}>() {}
