/**
 * The domain_expiry monitor kind against a loopback RDAP service (the IANA bootstrap file and
 * the registry's domain objects, served by a Bun server the test starts): a domain expiring in
 * five days (not ok, alert), one expiring in a year (ok), and the RDAP faults a run must turn
 * into a clear failed run, never a stuck scheduler: no expiration event, an unparseable one, a
 * registry that never answers, a domain the registry does not know.
 */
import { expect, test } from "bun:test"
import { until } from "../support/process"
import { startService } from "../support/service"

const DAY = 86_400_000

const rdapServer = () => {
  const now = Date.now()
  const domain = (name: string, events: ReadonlyArray<Record<string, string>>) => ({
    rdapConformance: ["rdap_level_0"],
    objectClassName: "domain",
    ldhName: name.toUpperCase(),
    events,
    entities: [{ objectClassName: "entity", roles: ["registrar"], vcardArray: ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Loopback Registrar"]]] }]
  })
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    fetch: async (req): Promise<Response> => {
      const path = new URL(req.url).pathname
      const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "content-type": "application/rdap+json" } })
      if (path === "/bootstrap/dns.json") {
        return json({ version: "1.0", publication: "2026-01-01T00:00:00Z", services: [[["test"], [`http://127.0.0.1:${server.port}/registry/`]]] })
      }
      const name = path.replace("/registry/domain/", "")
      switch (name) {
        case "soon.test":
          return json(domain(name, [{ eventAction: "expiration", eventDate: new Date(now + 5 * DAY + 3_600_000).toISOString() }]))
        case "later.test":
          return json(domain(name, [{ eventAction: "registration", eventDate: "2001-01-01T00:00:00Z" }, { eventAction: "expiration", eventDate: new Date(now + 400 * DAY).toISOString() }]))
        case "noexp.test":
          return json(domain(name, [{ eventAction: "registration", eventDate: "2001-01-01T00:00:00Z" }]))
        case "garbled.test":
          return json(domain(name, [{ eventAction: "expiration", eventDate: "next tuesday" }]))
        case "slow.test":
          await Bun.sleep(30_000)
          return json(domain(name, []))
        default:
          return json({ errorCode: 404, title: "Not Found" }, 404)
      }
    }
  })
  return server
}

test("domain_expiry: days_left_lt on the RDAP expiration event; missing, garbled, slow and unknown answers are failed runs", async () => {
  const rdap = rdapServer()
  const svc = await startService({
    monitorMinIntervalS: 1, // domain_expiry: at least 10 s
    alertEvalIntervalMs: 3_600_000,
    rdapBootstrapUrl: `http://127.0.0.1:${rdap.port}/bootstrap/dns.json`,
    operationDeadlineMs: 2_000
  })
  try {
    const { key } = await svc.newKey("developer")
    const create = async (target: string) => {
      const r = await svc.call("/v1/monitors", {
        method: "POST",
        key,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: target, kind: "domain_expiry", target, interval_seconds: 10, cooldown_minutes: 0 })
      })
      expect(r.status).toBe(201)
      return ((await r.json()) as any).monitor
    }
    const ids = Object.fromEntries(await Promise.all(
      ["soon.test", "later.test", "noexp.test", "garbled.test", "slow.test", "gone.test"].map(async (t) => [t, (await create(t)).id])
    ))
    const results = async (id: string) => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results
    const first = (id: string) => until(async () => (await results(id))[0], `the first run of ${id}`, 40_000)

    const soon = await first(ids["soon.test"])
    expect(soon.ok).toBe(false)
    expect(soon.summary).toMatch(/^5 days left < 30 \(expires 20\d\d-/)
    expect(soon.report).toEqual({ domain: "soon.test", expires_at: soon.report.expires_at, days_left: 5, registrar: "Loopback Registrar" })
    const later = await first(ids["later.test"])
    expect(later.ok).toBe(true)
    expect(later.report.days_left).toBe(399) // 400 days minus the seconds since the server started
    expect(later.summary).toBe(`expires ${later.report.expires_at}, 399 days left`)
    expect(await first(ids["noexp.test"])).toMatchObject({ ok: false, summary: "check failed: the RDAP answer for noexp.test has no expiration event" })
    expect(await first(ids["garbled.test"])).toMatchObject({ ok: false, summary: "check failed: the RDAP answer for garbled.test has no readable expiration event" })
    expect(await first(ids["slow.test"])).toMatchObject({ ok: false, summary: "check failed: no answer within 2 s" })
    const gone = await first(ids["gone.test"])
    expect(gone.ok).toBe(false)
    expect(gone.summary).toMatch(/^check failed: gone\.test is not registered/)

    // the slow registry stalls nothing: the next runs of the others come on schedule
    await until(async () => ((await results(ids["later.test"])).length >= 2 ? true : undefined), "a second run", 30_000)
    const m = ((await (await svc.call(`/v1/monitors/${ids["soon.test"]}`, { key })).json()) as any).monitor
    expect(m).toMatchObject({ status: "down", open_alert_id: expect.stringMatching(/^alert_/) })
  } finally {
    await svc.stop()
    rdap.stop(true)
  }
}, 120_000)
