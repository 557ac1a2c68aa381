import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect, Option } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { nextMonthStart, Quota } from "../../product/metering/Quota"
import { Accounts } from "../../product/accounts/Accounts"

const iso = (ms: number) => new Date(ms).toISOString()

export const AccountLive = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const quota = yield* Quota
    const accounts = yield* Accounts
    return handlers.handle("account", () =>
      Effect.gen(function*() {
        const caller = yield* Caller
        const now = yield* Clock.currentTimeMillis
        const { limit, used } = yield* quota.used(caller.org)
        // Only API keys reach this operation (audit tokens are for the WAF probe alone).
        const key = caller.keyId === null ? Option.none() : yield* accounts.keyInfo(caller.keyId).pipe(Effect.orDie)
        return {
          org: caller.org.name,
          plan: caller.plan,
          quota: {
            limit,
            used,
            remaining: Math.max(0, limit - used),
            percentage_used: Math.round((used / limit) * 10_000) / 100,
            resets_at: iso(nextMonthStart(now))
          },
          key: Option.match(key, {
            onNone: () => ({ id: caller.keyId ?? "", name: null, created_at: iso(0), expires_at: null }),
            onSome: (k) => ({ id: k.id, name: k.name, created_at: iso(k.created_at), expires_at: k.expires_at === null ? null : iso(k.expires_at) })
          })
        }
      }))
  })
)
