/**
 * The account commands of the CLI (docs/cli.md, "Keys", "Organizations", "Audit tokens"): `keys`,
 * `orgs` and `audit-tokens`. Secrets are printed alone on the last line of stdout; everything a
 * script does not read (notes, warnings) goes to stderr. Refusals fail with `AccountRefused` (exit 2).
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Layer, Option } from "effect"
import { Keys } from "../../product/accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { Plan } from "../../kernel/plans"
import { SqlLive } from "../../platform/store/Sql"
import { Accounts } from "../../product/accounts/Accounts"

/** Keys and Accounts over the configured (migrated) store. */
export const AccountsCliLive = Layer.mergeAll(Keys.Default, Accounts.Default.pipe(Layer.provide(Keys.Default))).pipe(
  Layer.provideMerge(SqlLive),
  Layer.provide(AppConfig.Live)
)

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Rows as an aligned text table (header first), `-` for empty cells. */
export const table = (rows: ReadonlyArray<Record<string, unknown>>, columns: ReadonlyArray<string>): string => {
  const cells = [columns.slice(), ...rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? "-" : String(r[c]))))]
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i].length)))
  return cells.map((row) => row.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd()).join("\n")
}

const org = Options.text("org").pipe(Options.withDescription("organization name"))
const orgFilter = Options.text("org").pipe(Options.withDescription("only this organization"), Options.optional)
const plan = Options.choice("plan", Plan.literals).pipe(Options.withDescription("free, developer, pro or enterprise"))
const json = Options.boolean("json").pipe(Options.withDescription("print a JSON array instead of a table"))
const keyName = Options.text("name").pipe(Options.withDescription("a label for the key (shown by keys list and GET /v1/account)"), Options.optional)
const expiresIn = (what: string) =>
  Options.integer("expires-in").pipe(
    Options.withDescription(`days until the ${what} stops working`),
    Options.withPseudoName("DAYS"),
    Options.filterMap((d) => (d > 0 && d <= 36_500 ? Option.some(d) : Option.none()), "--expires-in must be a whole number of days between 1 and 36500"),
    Options.optional
  )
const keyId = Args.text({ name: "KEY_ID" }).pipe(Args.withDescription("the key's public id: the 16 hex digits after di_ (the whole key works too)"))
const tokenId = Args.text({ name: "TOKEN_ID" }).pipe(Args.withDescription("the token's public id: the 16 hex digits after dia_"))

const keysCreate = Command.make("create", { org, plan, name: keyName, expiresIn: expiresIn("key") }, (a) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const issued = yield* keys.issueKey(a.org, a.plan, { name: Option.getOrUndefined(a.name), expiresInDays: Option.getOrUndefined(a.expiresIn) })
    const until = issued.expiresAt === null ? "" : `, expires ${iso(issued.expiresAt)}`
    yield* Console.log(`API key ${issued.id} for organization '${issued.org.name}' (${issued.org.plan}${until}), shown once:`)
    yield* Console.log(issued.key)
  })
).pipe(Command.withDescription("Create the organization if missing and issue an API key (refused when the organization is on another plan)"))

const keysList = Command.make("list", { org: orgFilter, json }, (a) =>
  Effect.gen(function*() {
    const rows = (yield* (yield* Accounts).listKeys(Option.getOrUndefined(a.org))).map((r) => ({
      ...r,
      created_at: iso(r.created_at),
      last_used_at: iso(r.last_used_at),
      expires_at: iso(r.expires_at),
      revoked_at: iso(r.revoked_at)
    }))
    yield* Console.log(
      a.json ? JSON.stringify(rows, null, 2) : table(rows, ["id", "org", "plan", "name", "created_at", "last_used_at", "expires_at", "revoked_at"])
    )
  })
).pipe(Command.withDescription("List API keys (never their secrets); last_used_at is written in batches, up to a few seconds late"))

const keysRevoke = Command.make("revoke", { id: keyId }, (a) =>
  Effect.gen(function*() {
    const r = yield* (yield* Accounts).revokeKey(a.id)
    yield* Console.log(r.already ? `API key ${r.id} was already revoked at ${iso(r.revokedAt)}` : `API key ${r.id} revoked; every instance refuses it within a second`)
  })
).pipe(Command.withDescription("Revoke an API key: every running instance answers 401 to it within a second"))

const graceHours = Options.integer("grace-hours").pipe(
  Options.withDescription("hours the old key keeps working (default 0: it stops now)"),
  Options.filterMap((h) => (h >= 0 && h <= 8_760 ? Option.some(h) : Option.none()), "--grace-hours must be between 0 and 8760"),
  Options.withDefault(0)
)

const keysRotate = Command.make("rotate", { id: keyId, graceHours }, (a) =>
  Effect.gen(function*() {
    const r = yield* (yield* Accounts).rotateKey(a.id, a.graceHours)
    yield* Console.log(
      `New API key ${r.id} for organization '${r.org.name}' (${r.org.plan}); the old key ${r.oldId} ${
        a.graceHours > 0 ? `stops at ${iso(r.oldStopsAt)}` : "is revoked"
      }. The new key, shown once:`
    )
    yield* Console.log(r.key)
  })
).pipe(Command.withDescription("Issue a new key for the same organization; the old one stops after --grace-hours"))

const orgsList = Command.make("list", { json }, (a) =>
  Effect.gen(function*() {
    const rows = (yield* (yield* Accounts).listOrgs()).map((r) => ({ ...r, created_at: iso(r.created_at) }))
    yield* Console.log(a.json ? JSON.stringify(rows, null, 2) : table(rows, ["id", "name", "plan", "created_at", "active_keys"]))
  })
).pipe(Command.withDescription("List organizations, their plans and how many live keys they hold"))

const orgsSetPlan = Command.make("set-plan", { org, plan }, (a) =>
  Effect.gen(function*() {
    const r = yield* (yield* Accounts).setPlan(a.org, a.plan)
    yield* Console.log(`organization '${r.name}': ${r.previous} → ${r.plan}`)
  })
).pipe(Command.withDescription("Change an organization's plan (takes effect on every instance within a second)"))

const domain = Options.text("domain").pipe(
  Options.withDescription("the domain the token proves ownership of (it and its subdomains; a public suffix is refused)")
)

const auditCreate = Command.make("create", { org, domain, expiresIn: expiresIn("token (default 30)") }, (a) =>
  Effect.gen(function*() {
    const issued = yield* (yield* Keys).issueAuditToken(a.org, a.domain, { expiresInDays: Option.getOrUndefined(a.expiresIn) })
    yield* Console.log(
      `Audit token ${issued.id} for ${issued.domain} and its subdomains (organization '${issued.org.name}', expires ${iso(issued.expiresAt)}), shown once:`
    )
    yield* Console.log(issued.token)
  })
).pipe(Command.withDescription("Issue an audit token proving ownership of a domain (WAF active probe)"))

const auditList = Command.make("list", { org: orgFilter, json }, (a) =>
  Effect.gen(function*() {
    const rows = (yield* (yield* Accounts).listAuditTokens(Option.getOrUndefined(a.org))).map((r) => ({
      ...r,
      created_at: iso(r.created_at),
      expires_at: iso(r.expires_at),
      revoked_at: iso(r.revoked_at)
    }))
    yield* Console.log(a.json ? JSON.stringify(rows, null, 2) : table(rows, ["id", "org", "domain", "created_at", "expires_at", "revoked_at"]))
  })
).pipe(Command.withDescription("List audit tokens (never their secrets)"))

const auditRevoke = Command.make("revoke", { id: tokenId }, (a) =>
  Effect.gen(function*() {
    const r = yield* (yield* Accounts).revokeAuditToken(a.id)
    yield* Console.log(r.already ? `audit token ${r.id} was already revoked at ${iso(r.revokedAt)}` : `audit token ${r.id} revoked`)
  })
).pipe(Command.withDescription("Revoke an audit token"))

/** Each leaf runs over the migrated store; only the command that runs opens it. */
const withStore = <Name extends string, A>(c: Command.Command<Name, Keys | Accounts, any, A>) => c.pipe(Command.provide(AccountsCliLive))

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("Manage API keys"),
  Command.withSubcommands([withStore(keysCreate), withStore(keysList), withStore(keysRevoke), withStore(keysRotate)])
)
export const orgsCommand = Command.make("orgs").pipe(
  Command.withDescription("Manage organizations and their plans"),
  Command.withSubcommands([withStore(orgsList), withStore(orgsSetPlan)])
)
export const auditTokensCommand = Command.make("audit-tokens").pipe(
  Command.withDescription("Manage audit tokens (ownership proofs for the WAF active probe)"),
  Command.withSubcommands([withStore(auditCreate), withStore(auditList), withStore(auditRevoke)])
)

/** Sub-command names per group, for naming the right level in "unknown command" errors. */
export const groups: Record<string, ReadonlyArray<string>> = {
  keys: ["create", "list", "revoke", "rotate"],
  orgs: ["list", "set-plan"],
  "audit-tokens": ["create", "list", "revoke"]
}
