/** The accounts' side of the WAF analysis's ownership check (src/analyses/waf/AuditTokens.ts). */
import { Effect, Layer } from "effect"
import { AuditTokens } from "../../analyses/waf/AuditTokens"
import { Keys } from "./Keys"

export const AuditTokensLive = Layer.effect(
  AuditTokens,
  Effect.map(Keys, (keys) => ({
    verify: (token: string, host: string) => keys.verifyAuditToken(token, host).pipe(Effect.orElseSucceed(() => false))
  }))
)
