import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect, Option } from "effect"
import { Api } from "../Api"
import { CurrentOrg } from "../auth/Auth"
import type { KeyHolder } from "../auth/Keys"
import { nextMonthStart, Quota } from "../metering/Quota"
import { Accounts } from "./Accounts"

const iso = (ms: number) => new Date(ms).toISOString()

export const AccountLive = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const quota = yield* Quota
    const accounts = yield* Accounts
    return handlers.handle("account", () =>
      Effect.gen(function*() {
        const org = (yield* CurrentOrg) as KeyHolder
        const now = yield* Clock.currentTimeMillis
        const { limit, used } = yield* quota.used(org)
        const key = yield* accounts.keyInfo(org.keyId).pipe(Effect.orDie)
        return {
          org: org.name,
          plan: org.plan,
          quota: {
            limit,
            used,
            remaining: Math.max(0, limit - used),
            percentage_used: Math.round((used / limit) * 10_000) / 100,
            resets_at: iso(nextMonthStart(now))
          },
          key: Option.match(key, {
            onNone: () => ({ id: org.keyId, name: null, created_at: iso(0), expires_at: null }),
            onSome: (k) => ({ id: k.id, name: k.name, created_at: iso(k.created_at), expires_at: k.expires_at === null ? null : iso(k.expires_at) })
          })
        }
      }))
  })
)
