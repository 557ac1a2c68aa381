/**
 * Every operation answers within its deadline, against real slow upstreams on loopback, at the
 * REAL defaults (OPERATION_DEADLINE_MS 25000, CT_BUDGET_MS 25000, Bun's idle timeout as the
 * server layer sets it): a CT aggregator answering 502 forever, one that never answers, an
 * http-check target that never answers with timeout=25000 and timeout=30000. Each gets a JSON
 * answer by its deadline + 2 s, never an empty reply, and the request log holds its row.
 * The bounds below are the behaviour under test (docs/errors.md, "Deadlines"), not a performance figure.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { createServer, type Server, type Socket } from "node:net"
import { startService, type TestService } from "../support/service"

let failing: ReturnType<typeof Bun.serve>
let silent: Server
const held: Array<Socket> = []
let silentPort = 0
const services: Array<TestService> = []

beforeAll(async () => {
  failing = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("bad gateway", { status: 502 }) })
  // Accepts connections and never answers a byte.
  silent = createServer((socket) => {
    held.push(socket)
    socket.on("error", () => {})
  })
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
  silentPort = (silent.address() as { port: number }).port
})
afterAll(async () => {
  for (const s of services) await s.stop()
  failing?.stop(true)
  for (const s of held) s.destroy()
  silent?.close()
})

const timed = async (svc: TestService, path: string, key: string) => {
  const t0 = performance.now()
  const res = await svc.call(path, { key })
  const body = await res.text()
  return { status: res.status, body: JSON.parse(body), ms: performance.now() - t0, type: res.headers.get("content-type") }
}

const loggedStatuses = async (svc: TestService, orgId: string) => {
  await svc.flushLog()
  return (await svc.sql<{ operation: string; status: number }>("SELECT operation, status FROM request_log WHERE org_id = ? ORDER BY ts", [orgId]))
    .map((r) => [r.operation, r.status])
}

describe("deadlines at the real defaults", () => {
  test("CT 502 forever, CT never answering, http-check silent targets (25 s, 30 s): JSON answers in time, logged", async () => {
    // Only the upstreams are pointed at loopback; deadlines, budgets and timeouts are the defaults.
    const ct502 = await startService({ ctAggregatorUrl: `http://127.0.0.1:${failing.port}` })
    const ctSilent = await startService({ ctAggregatorUrl: `http://127.0.0.1:${silentPort}` })
    services.push(ct502, ctSilent)
    const a = await ct502.newKey("enterprise")
    const b = await ctSilent.newKey("enterprise")
    const c = await ct502.newKey("enterprise")
    const target = encodeURIComponent(`http://127.0.0.1:${silentPort}/`)

    const [viaFailing, viaSilent, check25, check30] = await Promise.all([
      timed(ct502, "/v1/domain/ct-logs?domain=example.com", a.key),
      timed(ctSilent, "/v1/domain/ct-logs?domain=example.com", b.key),
      timed(ct502, `/v1/network/http-check?url=${target}&timeout=25000&method=GET`, c.key),
      timed(ct502, `/v1/network/http-check?url=${target}&timeout=30000&method=GET`, c.key)
    ])

    for (const ct of [viaFailing, viaSilent]) {
      expect(ct.status).toBe(502)
      expect(ct.type).toContain("application/json")
      expect(ct.body.error.code).toBe("upstream_unavailable")
      expect(ct.ms).toBeLessThan(25_000 + 2_000)
    }
    expect(check25.status).toBe(200)
    expect(check25.body.error).toBe("timeout")
    expect(check25.ms).toBeLessThan(25_000 + 2_000)
    expect(check30.status).toBe(200)
    expect(check30.body.error).toBe("timeout")
    expect(check30.ms).toBeLessThan(30_000 + 2_000)

    expect(await loggedStatuses(ct502, a.orgId)).toEqual([["ctLogs", 502]])
    expect(await loggedStatuses(ctSilent, b.orgId)).toEqual([["ctLogs", 502]])
    expect((await loggedStatuses(ct502, c.orgId)).sort()).toEqual([["httpCheck", 200], ["httpCheck", 200]])
  }, 60_000)
})

describe("the pipeline's own deadline", () => {
  test("an operation still waiting at OPERATION_DEADLINE_MS is answered 502 and logged with that status", async () => {
    const svc = await startService({ operationDeadlineMs: 1000 })
    services.push(svc)
    const { key, orgId } = await svc.newKey("enterprise")
    // Content freshness of a target that accepts the connection and never answers.
    const res = await timed(svc, `/v1/domain/content-freshness?domain=${encodeURIComponent(`http://127.0.0.1:${silentPort}/`)}`, key)
    expect(res.status).toBe(502)
    expect(res.body.error.code).toBe("upstream_unavailable")
    expect(res.ms).toBeLessThan(1000 + 2000)
    expect(await loggedStatuses(svc, orgId)).toEqual([["contentFreshness", 502]])
  }, 20_000)
})

describe("a client that goes away", () => {
  test("the operation is interrupted and the request logged as 499", async () => {
    const svc = await startService()
    services.push(svc)
    const { key, orgId } = await svc.newKey("enterprise")
    const ctl = new AbortController()
    const pending = svc.call(`/v1/network/http-check?url=${encodeURIComponent(`http://127.0.0.1:${silentPort}/`)}`, { key, signal: ctl.signal })
      .catch(() => "aborted")
    await Bun.sleep(300)
    ctl.abort()
    expect(await pending).toBe("aborted")
    await Bun.sleep(200)
    expect(await loggedStatuses(svc, orgId)).toEqual([["httpCheck", 499]])
  }, 20_000)
})

