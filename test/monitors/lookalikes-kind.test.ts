/**
 * The `lookalikes` monitor kind: its verdicts as table tests (new and risen lookalikes at the
 * threshold, the first run's baseline, names missing from one run), then a monitor on the
 * lookalikes lab run by the real scheduler: its first run records the baseline (ok); a second
 * run against a baseline that lacks two of the planted lookalikes is not ok, and the alert's
 * webhook names the one at the threshold and not the one below it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Lookalike, LookalikesReport } from "../../src/analyses/lookalikes/schema"
import { evaluateLookalikes } from "../../src/product/monitors/kinds/lookalikes"
import { parseResolverList } from "../../src/platform/Config"
import { DOMAIN, type LookalikeLab, PLANTED, startLookalikeLab } from "../analyses/lookalikes/lookalikeLab"
import { until } from "../support/process"
import { startService, type TestService } from "../support/service"

const lookalike = (domain: string, risk: Lookalike["risk"], extra: Partial<Lookalike> = {}): Lookalike =>
  ({ domain, unicode: domain, fuzzer: "homoglyph", a: [], aaaa: [], mx: [], ns: [], mail_capable: false, web_similarity: null, risk, ...extra })
const report = (...lookalikes: Array<Lookalike>): LookalikesReport =>
  ({ domain: "example.com", checked_at: "", timings_ms: {}, permutations: 1000, by_fuzzer: {}, lookalikes, findings: [], recommendations: [], limitations: [] })

describe("lookalikes verdicts", () => {
  const seen = { lookalikes: { "examp1e.com": "high", "exarnple.com": "low" } } as const

  test("the first run records every lookalike with its risk and is ok", () => {
    const v = evaluateLookalikes({}, report(lookalike("examp1e.com", "high"), lookalike("exarnple.com", "low")), null)
    expect(v.ok).toBe(true)
    expect(v.summary).toContain("first run")
    expect(v.baseline?.lookalikes).toEqual({ "examp1e.com": "high", "exarnple.com": "low" })
  })

  test.each([
    ["nothing new", {}, [lookalike("examp1e.com", "high"), lookalike("exarnple.com", "low")], true, []],
    ["a new high one (default threshold medium)", {}, [lookalike("examp1e.com", "high"), lookalike("exampel.com", "high", { mail_capable: true })], false, ["exampel.com (high, homoglyph, accepts mail)"]],
    ["a new low one under the default threshold", {}, [lookalike("examp1e.com", "high"), lookalike("exampel.com", "low")], true, []],
    ["a new low one at threshold low", { new_lookalike_risk_at_least: "low" }, [lookalike("exampel.com", "low")], false, ["exampel.com (low, homoglyph)"]],
    ["a new medium one at threshold high", { new_lookalike_risk_at_least: "high" }, [lookalike("exampel.com", "medium")], true, []],
    ["a parked one that starts copying the page", {}, [lookalike("exarnple.com", "high", { web_similarity: 96 })], false, ["exarnple.com (high, homoglyph, page 96% alike) (was low)"]],
    ["one missing this run (deregistered, or its lookups failed) is not news", {}, [], true, []]
  ] as const)("%s", (_, c, ls, ok, named) => {
    const v = evaluateLookalikes(c, report(...ls), seen as any)
    expect(v.ok).toBe(ok)
    for (const n of named) expect(v.summary).toContain(n)
    // The baseline keeps what was seen before, at its highest risk.
    expect(v.baseline?.lookalikes?.["examp1e.com"]).toBe("high")
    for (const l of ls) expect(v.baseline?.lookalikes?.[l.domain]).toBe(l.risk === "low" && l.domain === "exarnple.com" ? "low" : l.risk)
  })

  test("the summary names each new lookalike", () => {
    const ls = Array.from({ length: 3 }, (_, i) => lookalike(`exampl${i}.com`, "high"))
    const v = evaluateLookalikes({}, report(...ls), seen as any)
    for (const l of ls) expect(v.summary).toContain(l.domain)
  })
})

describe("a lookalikes monitor on the lab", () => {
  let lab: LookalikeLab
  let svc: TestService
  let hook: ReturnType<typeof Bun.serve>
  const received: Array<any> = []

  beforeAll(async () => {
    lab = await startLookalikeLab()
    hook = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (req) => { received.push(await req.json()); return new Response("ok") } })
    svc = await startService({ dnsResolvers: parseResolverList(lab.resolver), allowPrivateTargets: true, monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 })
  }, 120_000)

  afterAll(async () => {
    hook?.stop(true)
    await svc?.stop()
    await lab?.stop()
  })

  test("the minimum interval is 60 times MONITOR_MIN_INTERVAL_S", async () => {
    const { key } = await svc.newKey("developer")
    const r = await svc.call("/v1/monitors", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "too often", kind: "lookalikes", target: DOMAIN, interval_seconds: 59 })
    })
    expect(r.status).toBe(400)
    expect(((await r.json()) as any).error.message).toContain("at least 60")
  })

  test("first run: baseline, ok; a run that finds lookalikes the baseline lacks: not ok, the alert names them", async () => {
    const { key } = await svc.newKey("developer")
    const r = await svc.call("/v1/monitors", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "acme lookalikes", kind: "lookalikes", target: `https://${DOMAIN.toUpperCase()}/`, interval_seconds: 3600, cooldown_minutes: 0,
        channels: [{ type: "webhook", url: `http://127.0.0.1:${hook.port}/hook` }]
      })
    })
    expect(r.status).toBe(201)
    const monitor = ((await r.json()) as any).monitor
    expect(monitor.target).toBe(DOMAIN)
    expect(monitor.conditions).toEqual({ new_lookalike_risk_at_least: "medium" })
    const runNow = () => svc.sql("UPDATE monitors SET next_run_at = ? WHERE id = ?", [Date.now(), monitor.id])
    const results = async () => ((await (await svc.call(`/v1/monitors/${monitor.id}/results`, { key })).json()) as any).results as Array<any>

    await runNow()
    const first = await until(async () => (await results())[0], "the first run", 60_000)
    expect(first.ok).toBe(true)
    expect(first.summary).toContain("first run")
    expect(first.report.lookalikes.map((l: any) => l.domain).sort()).toEqual(PLANTED.map((p) => p.domain).sort())

    // As if two of them had been registered since: one at the threshold, one below it.
    const high = PLANTED.find((p) => p.risk === "high")!.domain
    const low = PLANTED.find((p) => p.risk === "low")!.domain
    const [row] = await svc.sql<{ baseline: string }>("SELECT baseline FROM monitors WHERE id = ?", [monitor.id])
    const baseline = JSON.parse(row.baseline)
    delete baseline.lookalikes[high]
    delete baseline.lookalikes[low]
    await svc.sql("UPDATE monitors SET baseline = ? WHERE id = ?", [JSON.stringify(baseline), monitor.id])
    await runNow()
    const second = await until(async () => ((await results()).length >= 2 ? (await results())[0] : undefined), "the second run", 60_000)
    expect(second.ok).toBe(false)
    expect(second.summary).toContain(high)
    expect(second.summary).not.toContain(low)

    const delivery = await until(async () => received.find((b) => b.event === "monitor.failed"), "the alert's webhook", 30_000)
    expect(delivery.source).toBe("monitor")
    expect(delivery.metric).toBe("lookalikes")
    expect(delivery.summary).toStartWith("newly registered lookalike: ")
    expect(delivery.summary).toContain(`(${high}) (high, cyrillic, page `)
    expect(delivery.summary).not.toContain(low)
  }, 180_000)
})
