/**
 * Organizations, API keys and audit tokens. Secrets are 256 random bits, shown once, stored
 * only as SHA-256 hashes, and compared in constant time after a lookup by their public id.
 * Format: `di_<id>_<secret>` (keys) and `dia_<id>_<secret>` (audit tokens).
 *
 * Keys and audit tokens may expire (`expires_at`) and be revoked (`revoked_at`); the listing,
 * revocation and rotation commands live in src/product/accounts/Accounts.ts.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Data, Effect, Option } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { isIP } from "node:net"
import { parse as parseDomain } from "../../kernel/publicSuffix"
import type { Plan } from "../../kernel/plans"
import type { Organization } from "../../kernel/Caller"

export type { Organization }

/** A genuine, live API key: its organization and public id. */
export interface AuthenticatedKey {
  readonly org: Organization
  /** The key's public id (`di_<id>_<secret>`). */
  readonly keyId: string
  /** Epoch ms after which the key no longer authenticates; null when it never expires. */
  readonly expiresAt: number | null
}

/** A genuine, live audit token: the organization it belongs to. */
export interface AuthenticatedAuditToken {
  readonly org: Organization
  readonly expiresAt: number | null
}

/** An administrative request the store refuses as asked (the CLI exits 2 on it). */
export class AccountRefused extends Data.TaggedError("AccountRefused")<{ readonly message: string }> {}

const DAY_MS = 86_400_000

const sha256 = (s: string) => createHash("sha256").update(s).digest()
const newId = () => randomBytes(8).toString("hex")
const newSecret = () => randomBytes(32).toString("base64url")

const parseCredential = (prefix: string, token: string): Option.Option<{ id: string; secret: string }> => {
  const m = new RegExp(`^${prefix}_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$`).exec(token)
  return m ? Option.some({ id: m[1], secret: m[2] }) : Option.none()
}

/** The public id inside a key or token, or the id itself when given bare. */
export const credentialId = (prefix: string, text: string): string => {
  const m = new RegExp(`^(?:${prefix}_)?([0-9a-f]{16})(?:_.*)?$`).exec(text.trim())
  return m ? m[1] : text.trim()
}

const matches = (secret: string, storedHex: string): boolean => {
  const stored = Buffer.from(storedHex, "hex")
  const given = sha256(secret)
  return stored.length === given.length && timingSafeEqual(stored, given)
}

/**
 * The name an audit token may be issued for: a host name below a public suffix, or an IP
 * address. A public suffix itself (`com`, `co.uk`, `github.io`) would prove ownership of
 * every name under it, so it is refused.
 */
export const auditDomain = (raw: string): string | AccountRefused => {
  const d = raw.trim().toLowerCase().replace(/\.$/, "")
  if (isIP(d) !== 0) return d
  if (!/^(?=.{1,253}$)([a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(d)) {
    return new AccountRefused({ message: `--domain ${JSON.stringify(raw)} is not a domain name` })
  }
  const parsed = parseDomain(d, { allowPrivateDomains: true })
  if (parsed.domain === null || parsed.publicSuffix === d) {
    return new AccountRefused({
      message: `--domain ${d} is a public suffix: a token for it would cover every name under it; name a registrable domain such as example.${d}`
    })
  }
  return d
}

/** `--expires-in DAYS` → the epoch ms of expiry (null: never). */
const expiry = (now: number, days: number | undefined): number | null =>
  days === undefined ? null : now + Math.round(days * DAY_MS)

export class Keys extends Effect.Service<Keys>()("domain-intel/Keys", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findOrg = (name: string) =>
      sql<Organization>`SELECT id, name, plan FROM organizations WHERE name = ${name}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** The organization as it exists, unless another plan was asked for. */
    const samePlan = (existing: Organization, name: string, plan: Plan) =>
      existing.plan === plan ? Effect.succeed(existing) : Effect.fail(
        new AccountRefused({
          message: `organization '${name}' exists on the ${existing.plan} plan, not ${plan}; ` +
            `change it with: orgs set-plan --org ${name} --plan ${plan}`
        })
      )

    /**
     * Creates the organization if missing. An existing one keeps its plan: asking for another
     * plan is refused (plans change only through `orgs set-plan`).
     */
    const upsertOrg = Effect.fn("Keys.upsertOrg")(function*(name: string, plan: Plan) {
      const existing = yield* findOrg(name)
      if (Option.isSome(existing)) return yield* samePlan(existing.value, name, plan)
      const org: Organization = { id: `org_${newId()}`, name, plan }
      const now = yield* Clock.currentTimeMillis
      // Two commands (or instances) creating one name at once: the second insert yields to the
      // first, and this call answers as if the winner's organization had existed before.
      const inserted = yield* sql<{ id: string }>`INSERT INTO organizations ${
        sql.insert({ ...org, created_at: now })
      } ON CONFLICT (name) DO NOTHING RETURNING id`
      if (inserted.length > 0) return org
      const winner = yield* findOrg(name)
      if (Option.isNone(winner)) return yield* Effect.dieMessage(`organization '${name}' conflicted but is absent`)
      return yield* samePlan(winner.value, name, plan)
    })

    /** A new key for an existing organization. */
    const insertKey = Effect.fn("Keys.insertKey")(function*(
      org: Organization,
      options: { readonly name?: string | undefined; readonly expiresInDays?: number | undefined } = {}
    ) {
      const id = newId()
      const secret = newSecret()
      const now = yield* Clock.currentTimeMillis
      const expiresAt = expiry(now, options.expiresInDays)
      yield* sql`INSERT INTO api_keys ${
        sql.insert({
          id,
          org_id: org.id,
          secret_hash: sha256(secret).toString("hex"),
          created_at: now,
          name: options.name ?? null,
          expires_at: expiresAt
        })
      }`
      return { org, id, key: `di_${id}_${secret}`, expiresAt }
    })

    const issueKey = Effect.fn("Keys.issueKey")(function*(
      orgName: string,
      plan: Plan,
      options: { readonly name?: string | undefined; readonly expiresInDays?: number | undefined } = {}
    ) {
      const org = yield* upsertOrg(orgName, plan)
      return yield* insertKey(org, options)
    })

    const issueAuditToken = Effect.fn("Keys.issueAuditToken")(function*(
      orgName: string,
      rawDomain: string,
      options: { readonly expiresInDays?: number | undefined } = {}
    ) {
      const domain = auditDomain(rawDomain)
      if (domain instanceof AccountRefused) return yield* domain
      const org = yield* findOrg(orgName)
      if (Option.isNone(org)) {
        return yield* new AccountRefused({ message: `organization '${orgName}' does not exist (create it with keys create)` })
      }
      const id = newId()
      const secret = newSecret()
      const now = yield* Clock.currentTimeMillis
      const expiresAt = expiry(now, options.expiresInDays ?? 30)
      yield* sql`INSERT INTO audit_tokens ${
        sql.insert({
          id,
          org_id: org.value.id,
          domain,
          secret_hash: sha256(secret).toString("hex"),
          created_at: now,
          expires_at: expiresAt
        })
      }`
      return { org: org.value, id, domain, token: `dia_${id}_${secret}`, expiresAt }
    })

    /** The organization an API key belongs to (and the key's public id), if the key is genuine, unexpired and not revoked. */
    const authenticate = Effect.fn("Keys.authenticate")(function*(token: string) {
      const cred = parseCredential("di", token)
      if (Option.isNone(cred)) return Option.none<AuthenticatedKey>()
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql<Organization & { secretHash: string; expiresAt: number | null }>`
        SELECT o.id, o.name, o.plan, k.secret_hash AS "secretHash", k.expires_at AS "expiresAt"
        FROM api_keys k JOIN organizations o ON o.id = k.org_id
        WHERE k.id = ${cred.value.id} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${now})`
      const row = rows[0]
      if (!row || !matches(cred.value.secret, row.secretHash)) return Option.none<AuthenticatedKey>()
      const expiresAt = row.expiresAt === null ? null : Number(row.expiresAt)
      return Option.some<AuthenticatedKey>({ org: { id: row.id, name: row.name, plan: row.plan }, keyId: cred.value.id, expiresAt })
    })

    /** A genuine, live audit token's row. */
    const liveAuditToken = (token: string) =>
      Effect.gen(function*() {
        const cred = parseCredential("dia", token)
        if (Option.isNone(cred)) return undefined
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<Organization & { domain: string; secretHash: string; expiresAt: number | null }>`
          SELECT o.id, o.name, o.plan, t.domain, t.secret_hash AS "secretHash", t.expires_at AS "expiresAt"
          FROM audit_tokens t JOIN organizations o ON o.id = t.org_id
          WHERE t.id = ${cred.value.id} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ${now})`
        const row = rows[0]
        return row && matches(cred.value.secret, row.secretHash) ? { ...row, tokenId: cred.value.id } : undefined
      })

    /** Whether `token` is a live audit token issued for `domain` or a parent of it. */
    const verifyAuditToken = Effect.fn("Keys.verifyAuditToken")(function*(token: string, domain: string) {
      const row = yield* liveAuditToken(token)
      if (row === undefined) return false
      const d = domain.toLowerCase().replace(/\.$/, "")
      return d === row.domain || d.endsWith(`.${row.domain}`)
    })

    /** The organization that owns a live audit token. */
    const auditTokenOrg = Effect.fn("Keys.auditTokenOrg")(function*(token: string) {
      const row = yield* liveAuditToken(token)
      if (row === undefined) return Option.none<AuthenticatedAuditToken>()
      const expiresAt = row.expiresAt === null ? null : Number(row.expiresAt)
      return Option.some<AuthenticatedAuditToken>({ org: { id: row.id, name: row.name, plan: row.plan }, expiresAt })
    })

    /** On a store with no organization at all: the `default` enterprise org and its first key. */
    /**
     * The first organization of an empty store and its key, once: instances starting together
     * on one empty database race here, and only the one whose insert lands creates (and prints)
     * a key. The organization and its key commit together, so a crash between them cannot leave
     * an organization without its key.
     */
    const bootstrap = Effect.fn("Keys.bootstrap")(function*() {
      // Every start but the first finds an organization: a read, not a write transaction.
      if ((yield* sql`SELECT 1 FROM organizations LIMIT 1`).length > 0) return Option.none<string>()
      const org: Organization = { id: `org_${newId()}`, name: "default", plan: "enterprise" }
      const now = yield* Clock.currentTimeMillis
      return yield* sql.withTransaction(Effect.gen(function*() {
        // SQLite needs the WHERE in an INSERT … SELECT before ON CONFLICT (its upsert grammar).
        const created = yield* sql<{ id: string }>`INSERT INTO organizations (id, name, plan, created_at)
          SELECT ${org.id}, ${org.name}, ${org.plan}, ${now}
          WHERE NOT EXISTS (SELECT 1 FROM organizations)
          ON CONFLICT (name) DO NOTHING RETURNING id`
        if (created.length === 0) return Option.none<string>()
        const { key } = yield* insertKey(org, { name: "bootstrap" })
        return Option.some(key)
      }))
    })

    const orgById = (id: string) =>
      sql<Organization>`SELECT id, name, plan FROM organizations WHERE id = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    return {
      upsertOrg,
      insertKey,
      issueKey,
      issueAuditToken,
      authenticate,
      auditTokenOrg,
      verifyAuditToken,
      bootstrap,
      orgById,
      findOrg
    } as const
  })
}) {}
