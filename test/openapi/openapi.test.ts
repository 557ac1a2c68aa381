/**
 * The served OpenAPI document: `redocly lint` passes with zero errors, it says what clients need
 * (summaries, typed numbers with ranges, the real 400 envelope, typed zone report, the MCP route),
 * and it matches the committed snapshot. After an intended contract change, refresh the snapshot:
 *
 *   UPDATE_OPENAPI_SNAPSHOT=1 ./node_modules/.bin/bun test test/openapi
 *
 * and review the diff of test/openapi/openapi.snapshot.json like any other code change.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { startService, type TestService } from "../support/service"
import { tempDir } from "../support/tmp"

const root = resolve(import.meta.dir, "../..")
const snapshotFile = join(import.meta.dir, "openapi.snapshot.json")
let svc: TestService
let doc: any

beforeAll(async () => {
  svc = await startService()
  const res = await svc.call("/openapi.json")
  expect(res.status).toBe(200)
  doc = await res.json()
})
afterAll(() => svc?.stop())

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]: [string, any]) => Object.entries(item).map(([method, op]: [string, any]) => ({ path, method, op })))

describe("OpenAPI document", () => {
  test("redocly lint (recommended rules) finds no error", () => {
    const dir = tempDir("di-openapi-")
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc, null, 2))
    writeFileSync(join(dir, "redocly.yaml"), "extends:\n  - recommended\n")
    const r = spawnSync(join(root, "node_modules/.bin/redocly"), ["lint", "openapi.json", "--config", "redocly.yaml", "--format", "json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      timeout: 60_000
    })
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")))
    const errors = report.problems.filter((p: any) => p.severity === "error").map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)
    expect(errors).toEqual([])
    expect(r.status).toBe(0)
  })

  test("every operation has a summary; every parameter a description", () => {
    for (const { op, path, method } of operations()) {
      expect({ path, method, summary: typeof op.summary === "string" && op.summary.length > 0 }).toEqual({ path, method, summary: true })
      for (const p of op.parameters ?? []) expect(p.description?.length ?? 0).toBeGreaterThan(2)
    }
    expect(JSON.stringify(doc)).not.toMatch(/"title":"[^"]*\(/)
  })

  test("numbers are integers with their range and default", () => {
    const params = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p.schema]))
    expect(params("/v1/network/http-check").timeout).toMatchObject({ type: "integer", minimum: 1000, maximum: 30000, default: 10000 })
    expect(params("/v1/network/http-check").max_redirects).toMatchObject({ type: "integer", minimum: 0, maximum: 10, default: 5 })
    expect(params("/v1/domain/ct-logs").offset).toMatchObject({ type: "integer", minimum: 0, default: 0 })
    expect(params("/v1/domain/ct-logs").limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 })
  })

  test("400 documents the envelope the server sends, with details.issues", async () => {
    const check = doc.paths["/v1/network/http-check"].get.responses["400"]
    expect(JSON.stringify(check)).not.toContain("HttpApiDecodeError")
    expect(doc.components.schemas.HttpApiDecodeError).toBeUndefined()
    const envelope = doc.components.schemas.InvalidRequest
    expect(envelope.properties.error.properties.details.properties.issues.items.required).toEqual(["path", "message"])
    // ... and it is what the server sends.
    const { key } = await svc.newKey("free")
    const body = (await (await svc.call("/v1/network/http-check?url=http://127.0.0.1/&timeout=50", { key })).json()) as any
    expect(body.error.code).toBe("invalid_request")
    expect(body.error.details.issues[0]).toEqual({ path: "timeout", message: "Expected a number between 1000 and 30000, actual 50" })
  })

  test("typed CAA and DNSSEC in the zone report, the MCP route, the version, examples", () => {
    const report = doc.paths["/v1/dns/zone-hygiene"].get.responses["200"].content["application/json"].schema
    const resolved = report.$ref ? doc.components.schemas[report.$ref.split("/").pop()] : report
    const text = JSON.stringify(resolved.properties.caa) + JSON.stringify(resolved.properties.dnssec)
    expect(text).toContain("ZoneCaa")
    expect(doc.components.schemas.ZoneDnssec.properties.status.enum).toEqual(["secure", "insecure", "bogus", "indeterminate"])
    expect(doc.paths["/v1/advanced/mcp"].post.requestBody.content["application/json"].schema).toBeDefined()
    expect(doc.info.version).toBe(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version)
    expect(doc.paths["/v1/account"].get.responses["200"].content["application/json"].example.quota.limit).toBeNumber()
  })

  test("matches the committed snapshot (UPDATE_OPENAPI_SNAPSHOT=1 to refresh)", () => {
    const served = JSON.stringify(doc, null, 2) + "\n"
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === "1") writeFileSync(snapshotFile, served)
    expect(existsSync(snapshotFile)).toBe(true)
    expect(served).toBe(readFileSync(snapshotFile, "utf8"))
  })
})
