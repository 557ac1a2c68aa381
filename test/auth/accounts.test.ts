/**
 * Key and org lifecycle through real HTTP: revocation, rotation, expiry and plan changes reach
 * every instance sharing one store; GET /v1/account; last_used_at; audit-token lifecycle.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { join } from "node:path"
import { Accounts } from "../../src/product/accounts/Accounts"
import { KeyActivity } from "../../src/product/accounts/KeyActivity"
import { auditDomain, Keys } from "../../src/product/accounts/Keys"
import { until } from "../support/process"
import { startService, type TestService } from "../support/service"
import { tempDir } from "../support/tmp"

const dir = tempDir("di-accounts-")
const databaseUrl = `sqlite:${join(dir, "shared.db")}`
let a: TestService
let b: TestService

beforeAll(async () => {
  // Two instances over one store, as two processes behind a load balancer would be.
  a = await startService({ databaseUrl })
  b = await startService({ databaseUrl })
})
afterAll(async () => {
  await a?.stop()
  await b?.stop()
})

const status = (svc: TestService, key: string, path = "/v1/account") => svc.call(path, { key }).then((r) => r.status)
const accounts = <A, E>(f: (acc: Accounts) => Effect.Effect<A, E>) => a.run(Effect.flatMap(Accounts, f))
const keyId = (key: string) => key.split("_")[1]

describe("revocation and rotation", () => {
  test("a revoked key is refused by every instance shortly after, memoised lookups included", async () => {
    const { key } = await a.newKey("pro")
    // Both instances have the key memoised (the fast path route and the HttpApi route).
    for (const svc of [a, b]) {
      expect(await status(svc, key)).toBe(200)
      expect(await status(svc, key, "/v1/alerts/rules")).toBe(200)
    }
    await accounts((acc) => acc.revokeKey(keyId(key)))
    for (const svc of [a, b]) {
      await until(async () => ((await status(svc, key)) === 401 ? true : undefined), "401 after revocation", 5000)
      expect(await status(svc, key, "/v1/alerts/rules")).toBe(401)
    }
    const listed = (await accounts((acc) => acc.listKeys())).find((k) => k.id === keyId(key))!
    expect(listed.revoked_at).toBeNumber()
  })

  test("rotate with no grace: the new key works at once, the old one stops", async () => {
    const { key, orgName } = await a.newKey("developer")
    expect(await status(b, key)).toBe(200)
    const rotated = await accounts((acc) => acc.rotateKey(keyId(key), 0))
    expect(rotated.org.name).toBe(orgName)
    expect(await status(b, rotated.key)).toBe(200)
    await until(async () => ((await status(b, key)) === 401 ? true : undefined), "old key refused", 5000)
  })

  test("rotate with grace: both keys work, the old one carries the grace expiry", async () => {
    const { key } = await a.newKey("developer")
    const rotated = await accounts((acc) => acc.rotateKey(keyId(key), 2))
    expect(await status(a, key)).toBe(200)
    expect(await status(a, rotated.key)).toBe(200)
    const old = (await accounts((acc) => acc.listKeys())).find((k) => k.id === keyId(key))!
    expect(old.revoked_at).toBeNull()
    expect(old.expires_at! - Date.now()).toBeGreaterThan(3_600_000)
    expect(old.expires_at! - Date.now()).toBeLessThanOrEqual(2 * 3_600_000)
  })

  test("an expired key is refused even while its lookup is memoised", async () => {
    const issued = await a.run(Effect.flatMap(Keys, (k) => k.issueKey(`exp-${Date.now()}`, "free", { expiresInDays: 1.5 / 86_400 })))
    expect(await status(a, issued.key)).toBe(200)
    await until(async () => ((await status(a, issued.key)) === 401 ? true : undefined), "401 after expiry", 10_000)
  })

  test("a plan change reaches running instances", async () => {
    const { key, orgName } = await a.newKey("free")
    expect(await status(b, key, "/v1/analytics/performance")).toBe(403)
    await accounts((acc) => acc.setPlan(orgName, "developer"))
    await until(async () => ((await status(b, key, "/v1/analytics/performance")) === 200 ? true : undefined), "200 after upgrade", 5000)
  })

  test("keys create refuses to change an existing organization's plan", async () => {
    const { orgName } = await a.newKey("pro")
    const refused = await a.run(Effect.flip(Effect.flatMap(Keys, (k) => k.issueKey(orgName, "free"))))
    expect(refused._tag).toBe("AccountRefused")
    expect(refused.message).toContain("pro")
    const orgs = await accounts((acc) => acc.listOrgs())
    expect(orgs.find((o) => o.name === orgName)!.plan).toBe("pro")
  })
})

describe("GET /v1/account", () => {
  test("org, plan, quota and the calling key", async () => {
    const issued = await a.run(Effect.flatMap(Keys, (k) => k.issueKey(`acct-${Date.now()}`, "free", { name: "ci", expiresInDays: 10 })))
    const first = await a.call("/v1/account", { key: issued.key })
    expect(first.status).toBe(200)
    const body = (await first.json()) as any
    expect(body.org).toBe(issued.org.name)
    expect(body.plan).toBe("free")
    expect(body.quota).toMatchObject({ limit: 1000, used: 1, remaining: 999, percentage_used: 0.1 })
    const reset = new Date(body.quota.resets_at)
    expect(reset.getUTCDate()).toBe(1)
    expect(reset.getTime()).toBeGreaterThan(Date.now())
    expect(body.key).toMatchObject({ id: issued.id, name: "ci", expires_at: new Date(issued.expiresAt!).toISOString() })
    expect(Date.parse(body.key.created_at)).toBeLessThanOrEqual(Date.now())
    expect(JSON.stringify(body)).not.toContain(issued.key.replace(/^di_[0-9a-f]{16}_/, ""))
    const second = (await (await a.call("/v1/account", { key: issued.key })).json()) as any
    expect(second.quota.used).toBe(2)
    expect(first.headers.get("x-ratelimit-remaining")).toBe("999")
  })

  test("needs a key", async () => {
    expect((await a.call("/v1/account")).status).toBe(401)
  })

  test("last_used_at is written in a batch, not per request", async () => {
    const { key } = await a.newKey("free")
    const before = (await accounts((acc) => acc.listKeys())).find((k) => k.id === keyId(key))!
    expect(before.last_used_at).toBeNull()
    await status(a, key)
    await a.run(Effect.flatMap(KeyActivity, (k) => k.flush))
    const after = (await accounts((acc) => acc.listKeys())).find((k) => k.id === keyId(key))!
    expect(after.last_used_at).toBeGreaterThan(Date.now() - 60_000)
  })
})

describe("audit tokens", () => {
  test("a public suffix is refused; a registrable domain or an IP is accepted", () => {
    for (const d of ["com", "co.uk", "github.io", "test", "uk."]) expect(auditDomain(d)).toBeInstanceOf(Error)
    expect(auditDomain("Example.CO.UK.")).toBe("example.co.uk")
    expect(auditDomain("acme.test")).toBe("acme.test")
    expect(auditDomain("127.0.0.1")).toBe("127.0.0.1")
    expect(auditDomain("not a domain")).toBeInstanceOf(Error)
  })

  test("scope: the domain and its subdomains only; revoked and expired tokens prove nothing", async () => {
    const { orgName } = await a.newKey("pro")
    const verify = (token: string, domain: string) => a.run(Effect.flatMap(Keys, (k) => k.verifyAuditToken(token, domain)))
    const issued = await a.run(Effect.flatMap(Keys, (k) => k.issueAuditToken(orgName, "shop.acme.test")))
    expect(issued.expiresAt! - Date.now()).toBeGreaterThan(29 * 86_400_000)
    expect(await verify(issued.token, "shop.acme.test")).toBe(true)
    expect(await verify(issued.token, "www.shop.acme.test")).toBe(true)
    expect(await verify(issued.token, "acme.test")).toBe(false)
    expect(await verify(issued.token, "other.acme.test")).toBe(false)
    expect(await verify(issued.token, "evilshop.acme.test")).toBe(false)
    await accounts((acc) => acc.revokeAuditToken(issued.id))
    expect(await verify(issued.token, "shop.acme.test")).toBe(false)
    const listed = (await accounts((acc) => acc.listAuditTokens(orgName)))[0]
    expect(listed.revoked_at).toBeNumber()

    const short = await a.run(Effect.flatMap(Keys, (k) => k.issueAuditToken(orgName, "acme.test", { expiresInDays: 1 / 86_400 })))
    expect(await verify(short.token, "acme.test")).toBe(true)
    await Bun.sleep(1100)
    expect(await verify(short.token, "acme.test")).toBe(false)
  })
})
