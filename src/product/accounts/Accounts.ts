/**
 * The administrative side of keys, organizations and audit tokens (docs/cli.md): listing,
 * revocation, rotation, plan changes. Every change that must reach running instances advances the
 * store-wide `auth_revision`, which `KeyActivity` polls.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { AccountRefused, credentialId, Keys } from "./Keys"
import type { Plan } from "../../kernel/plans"

export interface KeyRow {
  readonly id: string
  readonly org: string
  readonly plan: Plan
  readonly name: string | null
  readonly created_at: number
  readonly last_used_at: number | null
  readonly expires_at: number | null
  readonly revoked_at: number | null
}

export interface OrgRow {
  readonly id: string
  readonly name: string
  readonly plan: Plan
  readonly created_at: number
  readonly active_keys: number
}

export interface AuditTokenRow {
  readonly id: string
  readonly org: string
  readonly domain: string
  readonly created_at: number
  readonly expires_at: number | null
  readonly revoked_at: number | null
}

const HOUR_MS = 3_600_000

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

export class Accounts extends Effect.Service<Accounts>()("domain-intel/Accounts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const keys = yield* Keys

    /** Tells every instance to drop its memoised key lookups (KeyActivity polls this). */
    const bumpRevision = sql`UPDATE auth_revision SET revision = revision + 1 WHERE id = 1`

    const listKeys = Effect.fn("Accounts.listKeys")(function*(orgName?: string) {
      const rows = yield* sql<KeyRow>`
        SELECT k.id, o.name AS org, o.plan, k.name, k.created_at, k.last_used_at, k.expires_at, k.revoked_at
        FROM api_keys k JOIN organizations o ON o.id = k.org_id
        WHERE ${orgName === undefined ? sql`1 = 1` : sql`o.name = ${orgName}`}
        ORDER BY o.name, k.created_at, k.id`
      return rows.map((r) => ({
        ...r,
        created_at: Number(r.created_at),
        last_used_at: num(r.last_used_at),
        expires_at: num(r.expires_at),
        revoked_at: num(r.revoked_at)
      }))
    })

    const keyRow = (rawId: string) =>
      Effect.gen(function*() {
        const id = credentialId("di", rawId)
        const rows = yield* sql<{ id: string; org_id: string; name: string | null; created_at: number; expires_at: number | null; revoked_at: number | null }>`
          SELECT id, org_id, name, created_at, expires_at, revoked_at FROM api_keys WHERE id = ${id}`
        if (rows[0] === undefined) return yield* new AccountRefused({ message: `no API key with id ${id}` })
        return rows[0]
      })

    /** Name, creation and expiry of one key (for GET /v1/account). */
    const keyInfo = (id: string) =>
      sql<{ id: string; name: string | null; created_at: number; expires_at: number | null }>`
        SELECT id, name, created_at, expires_at FROM api_keys WHERE id = ${id}`.pipe(
        Effect.map((rows) =>
          Option.fromNullable(rows[0]).pipe(
            Option.map((r) => ({ id: r.id, name: r.name, created_at: Number(r.created_at), expires_at: num(r.expires_at) }))
          )
        )
      )

    const revokeKey = Effect.fn("Accounts.revokeKey")(function*(rawId: string) {
      const row = yield* keyRow(rawId)
      if (row.revoked_at !== null) return { id: row.id, revokedAt: Number(row.revoked_at), already: true }
      const now = yield* Clock.currentTimeMillis
      yield* sql`UPDATE api_keys SET revoked_at = ${now} WHERE id = ${row.id}`
      yield* bumpRevision
      return { id: row.id, revokedAt: now, already: false }
    })

    /** A new key for the same org; the old one stops after `graceHours` (0: now). */
    const rotateKey = Effect.fn("Accounts.rotateKey")(function*(rawId: string, graceHours: number) {
      const row = yield* keyRow(rawId)
      const now = yield* Clock.currentTimeMillis
      if (row.revoked_at !== null || (row.expires_at !== null && Number(row.expires_at) <= now)) {
        return yield* new AccountRefused({ message: `API key ${row.id} is already revoked or expired; issue a new one with keys create` })
      }
      const org = yield* keys.orgById(row.org_id)
      if (Option.isNone(org)) return yield* new AccountRefused({ message: `API key ${row.id} has no organization` })
      const issued = yield* keys.insertKey(org.value, {
        name: row.name ?? undefined,
        expiresInDays: row.expires_at === null ? undefined : (Number(row.expires_at) - now) / 86_400_000
      })
      if (graceHours <= 0) {
        yield* sql`UPDATE api_keys SET revoked_at = ${now} WHERE id = ${row.id}`
      } else {
        const until = now + Math.round(graceHours * HOUR_MS)
        const stop = row.expires_at === null ? until : Math.min(Number(row.expires_at), until)
        yield* sql`UPDATE api_keys SET expires_at = ${stop} WHERE id = ${row.id}`
      }
      yield* bumpRevision
      return { ...issued, oldId: row.id, oldStopsAt: graceHours <= 0 ? now : now + Math.round(graceHours * HOUR_MS) }
    })

    const listOrgs = Effect.fn("Accounts.listOrgs")(function*() {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql<OrgRow>`
        SELECT o.id, o.name, o.plan, o.created_at,
          (SELECT COUNT(*) FROM api_keys k WHERE k.org_id = o.id AND k.revoked_at IS NULL
             AND (k.expires_at IS NULL OR k.expires_at > ${now})) AS active_keys
        FROM organizations o ORDER BY o.name`
      return rows.map((r) => ({ ...r, created_at: Number(r.created_at), active_keys: Number(r.active_keys) }))
    })

    const setPlan = Effect.fn("Accounts.setPlan")(function*(orgName: string, plan: Plan) {
      const org = yield* keys.findOrg(orgName)
      if (Option.isNone(org)) return yield* new AccountRefused({ message: `organization '${orgName}' does not exist` })
      yield* sql`UPDATE organizations SET plan = ${plan} WHERE id = ${org.value.id}`
      yield* bumpRevision
      return { ...org.value, plan, previous: org.value.plan }
    })

    const listAuditTokens = Effect.fn("Accounts.listAuditTokens")(function*(orgName?: string) {
      const rows = yield* sql<AuditTokenRow>`
        SELECT t.id, o.name AS org, t.domain, t.created_at, t.expires_at, t.revoked_at
        FROM audit_tokens t JOIN organizations o ON o.id = t.org_id
        WHERE ${orgName === undefined ? sql`1 = 1` : sql`o.name = ${orgName}`}
        ORDER BY o.name, t.created_at, t.id`
      return rows.map((r) => ({ ...r, created_at: Number(r.created_at), expires_at: num(r.expires_at), revoked_at: num(r.revoked_at) }))
    })

    const revokeAuditToken = Effect.fn("Accounts.revokeAuditToken")(function*(rawId: string) {
      const id = credentialId("dia", rawId)
      const rows = yield* sql<{ id: string; revoked_at: number | null }>`SELECT id, revoked_at FROM audit_tokens WHERE id = ${id}`
      if (rows[0] === undefined) return yield* new AccountRefused({ message: `no audit token with id ${id}` })
      if (rows[0].revoked_at !== null) return { id, revokedAt: Number(rows[0].revoked_at), already: true }
      const now = yield* Clock.currentTimeMillis
      yield* sql`UPDATE audit_tokens SET revoked_at = ${now} WHERE id = ${id}`
      yield* bumpRevision
      return { id, revokedAt: now, already: false }
    })

    return { listKeys, keyInfo, revokeKey, rotateKey, listOrgs, setPlan, listAuditTokens, revokeAuditToken } as const
  })
}) {}
