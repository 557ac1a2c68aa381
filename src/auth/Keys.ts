/**
 * Organizations, API keys and audit tokens. Secrets are 256 random bits, shown once, stored
 * only as SHA-256 hashes, and compared in constant time after a lookup by their public id.
 * Format: `di_<id>_<secret>` (keys) and `dia_<id>_<secret>` (audit tokens).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import type { Plan } from "../domain/plans"

export interface Organization {
  readonly id: string
  readonly name: string
  readonly plan: Plan
}

const sha256 = (s: string) => createHash("sha256").update(s).digest()
const newId = () => randomBytes(8).toString("hex")
const newSecret = () => randomBytes(32).toString("base64url")

const parseCredential = (prefix: string, token: string): Option.Option<{ id: string; secret: string }> => {
  const m = new RegExp(`^${prefix}_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$`).exec(token)
  return m ? Option.some({ id: m[1], secret: m[2] }) : Option.none()
}

const matches = (secret: string, storedHex: string): boolean => {
  const stored = Buffer.from(storedHex, "hex")
  const given = sha256(secret)
  return stored.length === given.length && timingSafeEqual(stored, given)
}

export interface AuthenticatedKey {
  readonly org: Organization
  /** The key's public id (`di_<id>_<secret>`). */
  readonly keyId: string
}

export class Keys extends Effect.Service<Keys>()("domain-intel/Keys", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findOrg = (name: string) =>
      sql<Organization>`SELECT id, name, plan FROM organizations WHERE name = ${name}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** Creates the organization if missing; an existing one takes the given plan. */
    const upsertOrg = Effect.fn("Keys.upsertOrg")(function*(name: string, plan: Plan) {
      const existing = yield* findOrg(name)
      if (Option.isSome(existing)) {
        if (existing.value.plan !== plan) {
          yield* sql`UPDATE organizations SET plan = ${plan} WHERE id = ${existing.value.id}`
        }
        return { ...existing.value, plan }
      }
      const org: Organization = { id: `org_${newId()}`, name, plan }
      const now = yield* Clock.currentTimeMillis
      yield* sql`INSERT INTO organizations ${sql.insert({ ...org, created_at: now })}`
      return org
    })

    const issueKey = Effect.fn("Keys.issueKey")(function*(orgName: string, plan: Plan) {
      const org = yield* upsertOrg(orgName, plan)
      const id = newId()
      const secret = newSecret()
      const now = yield* Clock.currentTimeMillis
      yield* sql`INSERT INTO api_keys ${
        sql.insert({ id, org_id: org.id, secret_hash: sha256(secret).toString("hex"), created_at: now })
      }`
      return { org, key: `di_${id}_${secret}` }
    })

    const issueAuditToken = Effect.fn("Keys.issueAuditToken")(function*(orgName: string, domain: string) {
      const org = yield* findOrg(orgName)
      if (Option.isNone(org)) return yield* Effect.fail(new Error(`organization ${orgName} does not exist`))
      const id = newId()
      const secret = newSecret()
      const now = yield* Clock.currentTimeMillis
      yield* sql`INSERT INTO audit_tokens ${
        sql.insert({
          id,
          org_id: org.value.id,
          domain: domain.toLowerCase(),
          secret_hash: sha256(secret).toString("hex"),
          created_at: now
        })
      }`
      return { org: org.value, token: `dia_${id}_${secret}` }
    })

    /** The organization an API key belongs to (and the key's public id), if the key is genuine and not revoked. */
    const authenticate = Effect.fn("Keys.authenticate")(function*(token: string) {
      const cred = parseCredential("di", token)
      if (Option.isNone(cred)) return Option.none<AuthenticatedKey>()
      const rows = yield* sql<Organization & { secretHash: string }>`
        SELECT o.id, o.name, o.plan, k.secret_hash AS "secretHash"
        FROM api_keys k JOIN organizations o ON o.id = k.org_id
        WHERE k.id = ${cred.value.id} AND k.revoked_at IS NULL`
      const row = rows[0]
      if (!row || !matches(cred.value.secret, row.secretHash)) return Option.none<AuthenticatedKey>()
      return Option.some<AuthenticatedKey>({ org: { id: row.id, name: row.name, plan: row.plan }, keyId: cred.value.id })
    })

    /** Whether `token` is an audit token issued for `domain` (or a parent of it). */
    const verifyAuditToken = Effect.fn("Keys.verifyAuditToken")(function*(token: string, domain: string) {
      const cred = parseCredential("dia", token)
      if (Option.isNone(cred)) return false
      const rows = yield* sql<{ domain: string; secretHash: string }>`
        SELECT domain, secret_hash AS "secretHash" FROM audit_tokens WHERE id = ${cred.value.id}`
      const row = rows[0]
      if (!row || !matches(cred.value.secret, row.secretHash)) return false
      const d = domain.toLowerCase()
      return d === row.domain || d.endsWith(`.${row.domain}`)
    })

    /** The organization that owns an audit token, if the token is genuine. */
    const auditTokenOrg = Effect.fn("Keys.auditTokenOrg")(function*(token: string) {
      const cred = parseCredential("dia", token)
      if (Option.isNone(cred)) return Option.none<Organization>()
      const rows = yield* sql<Organization & { secretHash: string }>`
        SELECT o.id, o.name, o.plan, t.secret_hash AS "secretHash"
        FROM audit_tokens t JOIN organizations o ON o.id = t.org_id WHERE t.id = ${cred.value.id}`
      const row = rows[0]
      if (!row || !matches(cred.value.secret, row.secretHash)) return Option.none<Organization>()
      return Option.some<Organization>({ id: row.id, name: row.name, plan: row.plan })
    })

    /** On a store with no organization at all: the `default` enterprise org and its first key. */
    const bootstrap = Effect.fn("Keys.bootstrap")(function*() {
      const rows = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM organizations`
      if (rows[0].n > 0) return Option.none<string>()
      const { key } = yield* issueKey("default", "enterprise")
      return Option.some(key)
    })

    const orgById = (id: string) =>
      sql<Organization>`SELECT id, name, plan FROM organizations WHERE id = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    return { upsertOrg, issueKey, issueAuditToken, authenticate, auditTokenOrg, verifyAuditToken, bootstrap, orgById, findOrg } as const
  })
}) {}
