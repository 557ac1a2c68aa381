/**
 * The official MCP TypeScript SDK client (streamable HTTP transport, Bearer key) against the
 * real service, calling the five lookup tools on local targets in detail. The client is pinned
 * to 2024-11-05 (the endpoint's first version): results carry the JSON report first and a
 * readable summary second (test/mcp/versions.test.ts covers every version).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"
import { pin } from "./client"
import { type Fixtures, startFixtures } from "./fixtures"

const PATH = "/v1/advanced/mcp"

let fx: Fixtures
let svc: TestService
let client: Client

const connect = async (service: TestService, key: string) => {
  const c = new Client({ name: "domain-intel-test", version: "1.0.0" })
  const transport = pin(new StreamableHTTPClientTransport(new URL(service.baseUrl + PATH), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  }), "2024-11-05")
  await c.connect(transport)
  return c
}

type CallResult = { content: Array<{ type: string; text: string }>; structuredContent?: unknown; isError?: boolean }

const call = async (name: string, args: Record<string, unknown>, c: Client = client) => {
  const res = (await c.callTool({ name, arguments: args })) as CallResult
  expect(res.content.every((b) => b.type === "text")).toBe(true)
  return res
}

/** The JSON report of a successful call: structuredContent, the same JSON as the first block. */
const report = (res: CallResult): any => {
  expect(res.isError).toBe(false)
  expect(res.content).toHaveLength(2)
  expect(JSON.parse(res.content[0].text)).toEqual(res.structuredContent)
  return res.structuredContent
}

/** Every text block of a result (the summary of a success, the reason of a failure). */
const text = (res: CallResult): string => res.content.map((b) => b.text).join("\n")

beforeAll(async () => {
  fx = await startFixtures()
  svc = await startService(fx.config)
  client = await connect(svc, (await svc.newKey("pro")).key)
})

afterAll(async () => {
  await client?.close()
  await svc?.stop()
  await fx?.stop()
})

describe("session", () => {
  test("initialize through the SDK pinned to 2024-11-05: server info, tools capability, that version", async () => {
    expect(client.getServerVersion()?.name).toBe("domain-intel")
    expect(client.getServerCapabilities()?.tools).toBeDefined()
    const transport = (client as any)._transport as StreamableHTTPClientTransport
    expect(transport.protocolVersion).toBe("2024-11-05")
    await client.ping()
  })

  test("listTools returns the seventeen tools with input schemas", async () => {
    const { tools } = await client.listTools()
    expect(tools).toHaveLength(17)
    for (const name of ["dns_lookup", "domain_intelligence", "security_headers", "ssl_certificate", "whois_lookup"]) {
      expect(tools.map((t) => t.name)).toContain(name)
    }
    for (const t of tools) expect(t.inputSchema.type).toBe("object")
  })

  test("a free-plan key cannot connect (403)", async () => {
    const { key } = await svc.newKey("free")
    await expect(connect(svc, key)).rejects.toThrow(/plan_forbidden/)
  })

  test("an unknown tool is a protocol error (-32602)", async () => {
    await expect(client.callTool({ name: "nmap", arguments: {} })).rejects.toThrow(/-32602/)
  })
})

describe("dns_lookup", () => {
  test("A records with TTLs; A is the default type", async () => {
    const res = await call("dns_lookup", { domain: "good.test" })
    const r = report(res)
    expect(r.type).toBe("A")
    expect(r.rcode).toBe("NOERROR")
    expect(r.answers).toEqual([{ name: "good.test", type: "A", ttl: 300, class: "IN", value: "127.0.0.1", data: "127.0.0.1" }])
    expect(text(res)).toContain("good.test 300 IN A 127.0.0.1")
  })

  test("MX, TXT, CAA, NS, SRV and PTR", async () => {
    const mx = report(await call("dns_lookup", { domain: "good.test", type: "MX" }))
    expect(mx.answers[0].value).toBe("10 mail.good.test.")
    expect(mx.answers[0].data).toEqual({ preference: 10, exchange: "mail.good.test" })
    const txt = report(await call("dns_lookup", { domain: "good.test", type: "TXT" }))
    expect(txt.answers[0].data).toEqual(["v=spf1 -all"])
    const caa = report(await call("dns_lookup", { domain: "good.test", type: "CAA" }))
    expect(caa.answers[0].value).toBe("0 issue \"ca.test\"")
    const ns = report(await call("dns_lookup", { domain: "good.test", type: "NS" }))
    expect(ns.answers[0].value).toBe("ns1.good.test.")
    const srv = report(await call("dns_lookup", { domain: "_sip._tcp.good.test", type: "SRV" }))
    expect(srv.answers[0].value).toBe("10 5 5060 sip.good.test.")
    const ptr = report(await call("dns_lookup", { domain: "127.0.0.1", type: "PTR" }))
    expect(ptr.query_name).toBe("1.0.0.127.in-addr.arpa")
    expect(ptr.answers[0].value).toBe("good.test.")
  })

  test("HTTPS records (unknown to dns-packet) are decoded per RFC 9460", async () => {
    const r = report(await call("dns_lookup", { domain: "good.test", type: "HTTPS" }))
    expect(r.answers).toHaveLength(1)
    expect(r.answers[0].type).toBe("HTTPS")
    expect(r.answers[0].data).toEqual({ priority: 1, target: ".", params: { alpn: ["h2", "h3"], port: 443, ipv4hint: ["127.0.0.1"] } })
    expect(r.answers[0].value).toBe("1 . alpn=h2,h3 port=443 ipv4hint=127.0.0.1")
    expect(fx.dns.queries).toContain("good.test UNKNOWN_65")
  })

  test("a name that does not exist is NXDOMAIN, not an error", async () => {
    const res = await call("dns_lookup", { domain: "missing.test" })
    const r = report(res)
    expect(r.rcode).toBe("NXDOMAIN")
    expect(r.answers).toEqual([])
    expect(text(res)).toContain("does not exist")
  })
})

describe("whois_lookup (RDAP)", () => {
  test("registry answer merged with the registrar's through the referral", async () => {
    const res = await call("whois_lookup", { domain: "www.example.test" })
    const r = report(res)
    expect(r.domain).toBe("example.test")
    expect(r.registrar).toEqual({ name: "Test Registrar Inc.", iana_id: "9999", url: "https://registrar.test/" })
    expect(r.created).toBe("2001-02-03T04:05:06Z")
    expect(r.expires).toBe("2031-02-03T04:05:06Z")
    expect(r.updated).toBe("2025-05-06T07:08:09Z")
    expect(r.days_until_expiry).toBeGreaterThan(1000)
    expect(r.status).toEqual(["client transfer prohibited", "server delete prohibited"])
    expect(r.nameservers).toEqual(["ns1.example.test", "ns2.example.test"])
    expect(r.dnssec.delegation_signed).toBe(true)
    expect(r.dnssec.ds_records[0]).toMatchObject({ key_tag: 12345, algorithm: 13, digest_type: 2 })
    expect(r.abuse_contact).toEqual({ email: "abuse@registrar.test", phone: "+1.5555550100", name: "Abuse Desk" })
    expect(r.sources.registry_url).toBe(`http://127.0.0.1:${fx.rdap.port}/registry/domain/example.test`)
    expect(r.sources.registrar_url).toBe(`http://127.0.0.1:${fx.rdap.port}/registrar/domain/example.test`)
    expect(r.sources.registrar_error).toBeNull()
    expect(["fetched", "cached"]).toContain(r.sources.bootstrap)
    expect(text(res)).toContain("Registrar: Test Registrar Inc. (IANA ID 9999)")
  })

  test("the bootstrap file is fetched once and then served from cache", async () => {
    const before = fx.rdapHits.get("/bootstrap/dns.json") ?? 0
    const r = report(await call("whois_lookup", { domain: "example.test" }))
    expect(r.sources.bootstrap).toBe("cached")
    expect(fx.rdapHits.get("/bootstrap/dns.json") ?? 0).toBe(before)
    expect(before).toBe(1)
  })

  test("an unreachable registrar leaves the registry data and a note", async () => {
    const res = await call("whois_lookup", { domain: "broken.example" })
    const r = report(res)
    expect(r.created).toBe("2020-01-01T00:00:00Z")
    expect(r.dnssec.delegation_signed).toBe(false)
    expect(r.sources.registrar_error).toContain(String(fx.closedPort))
    expect(text(res)).toContain("registrar's RDAP server could not be read")
  })

  test("an unregistered domain and a non-RDAP answer are tool errors", async () => {
    const nf = await call("whois_lookup", { domain: "nobody.test" })
    expect(nf.isError).toBe(true)
    expect(text(nf)).toContain("not registered")
    const garbage = await call("whois_lookup", { domain: "garbage.test" })
    expect(garbage.isError).toBe(true)
    expect(text(garbage)).toContain("not JSON")
  })

  test("a TLD missing from the bootstrap file is a tool error", async () => {
    const res = await call("whois_lookup", { domain: "example.invalid" })
    expect(res.isError).toBe(true)
    expect(text(res)).toContain(".invalid")
  })
})

describe("ssl_certificate", () => {
  test("a certificate from the CA trusted via NODE_EXTRA_CA_CERTS is valid, with its facts", async () => {
    const res = await call("ssl_certificate", { domain: "good.test", port: fx.good.port })
    const r = report(res)
    expect(r.valid).toBe(true)
    expect(r.chain_valid).toBe(true)
    expect(r.hostname_match).toBe(true)
    expect(r.expired).toBe(false)
    expect(r.days_left).toBeGreaterThanOrEqual(8)
    expect(r.days_left).toBeLessThanOrEqual(10)
    expect(r.certificate.sans).toEqual(["good.test"])
    expect(r.certificate.issuer).toContain("domain-intel test CA")
    expect(r.certificate.key).toEqual({ type: "EC", size: 256, curve: "prime256v1" })
    expect(r.certificate.signature_algorithm).toBe("SHA256-with-ECDSA")
    expect(r.embedded_sct).toEqual({ count: 2, chrome_compliant: true })
    expect(r.protocol).toMatch(/^TLSv1\.[23]$/)
    expect(typeof r.cipher).toBe("string")
    // CT history from the aggregator (crt.sh stand-in): 3 certificates, each logged twice, deduplicated.
    expect(r.ct_history.available).toBe(true)
    expect(r.ct_history.count).toBe(3)
    expect(r.ct_history.issuers).toEqual(["C=US, O=Let's Encrypt, CN=R11"])
    expect(r.ct_history.latest).toHaveLength(3)
    expect(r.ct_history.latest[0].timestamp >= r.ct_history.latest[2].timestamp).toBe(true)
    expect(fx.crtsh.queries.get("good.test")).toBeGreaterThanOrEqual(1)
    expect(text(res)).toContain("VALID")
    expect(text(res)).toContain("CT history: 3 logged certificate(s)")
  })

  test("a self-signed certificate is reported untrusted (not a tool error)", async () => {
    const r = report(await call("ssl_certificate", { domain: "self.test", port: fx.selfSigned.port }))
    expect(r.valid).toBe(false)
    expect(r.chain_valid).toBe(false)
    expect(r.chain_error).toMatch(/self[- ]signed/i)
    expect(r.certificate.self_signed).toBe(true)
    expect(r.embedded_sct.count).toBe(0)
    // The CT aggregator answers 502 for this name: the tool still succeeds, with a note.
    expect(r.ct_history.available).toBe(false)
    expect(r.ct_history.note).toContain("CT history unavailable")
  })

  test("a certificate for another name fails the hostname check", async () => {
    const r = report(await call("ssl_certificate", { domain: "mismatch.test", port: fx.good.port }))
    expect(r.chain_valid).toBe(true)
    expect(r.hostname_match).toBe(false)
    expect(r.hostname_error).toContain("mismatch.test")
    expect(r.valid).toBe(false)
    // No CT entries for this name: available, empty, with a note.
    expect(r.ct_history).toMatchObject({ available: true, count: 0 })
    expect(r.ct_history.note).toContain("no certificates")
  })

  test("nothing listening is a tool error saying why", async () => {
    const res = await call("ssl_certificate", { domain: "good.test", port: fx.closedPort })
    expect(res.isError).toBe(true)
    expect(text(res)).toMatch(/ECONNREFUSED|refused|closed/i)
  })

  test("a name that does not resolve is a tool error", async () => {
    const res = await call("ssl_certificate", { domain: "missing.test" })
    expect(res.isError).toBe(true)
    expect(text(res)).toContain("missing.test")
  })
})

describe("security_headers (the MDN HTTP Observatory's grade)", () => {
  test("good headers grade A+ with the Observatory's bonuses", async () => {
    const res = await call("security_headers", { url: `https://good.test:${fx.good.port}/` })
    const r = report(res)
    expect(r).toMatchObject({ grade: "A+", score: 115, tests_passed: 10, tests_failed: 0, tests_quantity: 10 })
    expect(r.tests["content-security-policy"]).toMatchObject({ result: "csp-implemented-with-no-unsafe", score_modifier: 5 })
    expect(r.tests["x-frame-options"].result).toBe("x-frame-options-implemented-via-csp")
    // Nothing answers on good.test:80 here: a site without plain http needs no redirect.
    expect(r.tests.redirection.result).toBe("redirection-not-needed-no-http")
    expect(r.extras.permissions_policy.features).toEqual(["camera", "microphone", "geolocation"])
    expect(text(res)).toContain("A+, score 115")
  })

  test("weak values are graded by the Observatory's rules, each failure with its fix", async () => {
    const r = report(await call("security_headers", { url: `https://weak.test:${fx.weak.port}/` }))
    expect(r.tests["strict-transport-security"]).toMatchObject({ pass: false, result: "hsts-implemented-max-age-less-than-six-months", score_modifier: -10 })
    expect(r.tests["content-security-policy"].result).toBe("csp-implemented-with-unsafe-inline")
    expect(r.tests["x-content-type-options"].result).toBe("x-content-type-options-not-implemented")
    expect(r.tests["x-frame-options"]).toMatchObject({ pass: true, result: "x-frame-options-allow-from-origin" })
    expect(r.tests["referrer-policy"].result).toBe("referrer-policy-unsafe")
    expect(r.tests["content-security-policy"].recommendation).not.toBe("")
    expect(r.score).toBe(60)
    expect(r.grade).toBe("C+")
  })

  test("redirects are followed from http to https", async () => {
    const r = report(await call("security_headers", { url: `http://good.test:${fx.plain.port}/` }))
    expect(r.final_url).toBe(`https://good.test:${fx.good.port}/`)
    expect(r.tests.redirection.result).toBe("redirection-to-https")
    // https://good.test:443/ does not answer here, so there is no HSTS to grade.
    expect(r.tests["strict-transport-security"].result).toBe("hsts-not-implemented-no-https")
  })

  test("an unreachable target is a tool error", async () => {
    const res = await call("security_headers", { url: `http://127.0.0.1:${fx.closedPort}/` })
    expect(res.isError).toBe(true)
    expect(text(res)).toContain("security_headers failed")
  })
})

describe("domain_intelligence", () => {
  test("DNS, certificate and headers in one report", async () => {
    const res = await call("domain_intelligence", { domain: `https://good.test:${fx.good.port}/` })
    const r = report(res)
    expect(r.domain).toBe("good.test")
    expect(r.dns.records.A).toEqual([{ value: "127.0.0.1", ttl: 300 }])
    expect(r.dns.records.MX[0].value).toBe("10 mail.good.test.")
    expect(r.ssl.valid).toBe(true)
    expect(r.security_headers.grade).toBe("A+")
    expect(r.summary).toMatchObject({ resolves: true, certificate_valid: true, headers_grade: "A+", headers_score: 115 })
    expect(text(res)).toContain("Domain intelligence for good.test")
  })

  test("parts that fail are reported inside the report", async () => {
    const r = report(await call("domain_intelligence", { domain: "weak.test" }))
    // weak.test has no HTTPS server on 443 here: TLS and headers fail, DNS answers.
    expect(r.dns.records.A[0].value).toBe("127.0.0.1")
    expect(r.ssl.error).toBeDefined()
    expect(r.security_headers.error).toBeDefined()
    expect(r.summary.resolves).toBe(true)
  })
})

describe("target guard", () => {
  test("without ALLOW_PRIVATE_TARGETS loopback targets are refused as tool errors", async () => {
    const guarded = await startService({ ...fx.config, allowPrivateTargets: false })
    try {
      const c = await connect(guarded, (await guarded.newKey("pro")).key)
      const ssl = await call("ssl_certificate", { domain: "good.test", port: fx.good.port }, c)
      expect(ssl.isError).toBe(true)
      expect(text(ssl)).toContain("non-public")
      const hdr = await call("security_headers", { url: "http://127.0.0.1/" }, c)
      expect(hdr.isError).toBe(true)
      await c.close()
    } finally {
      await guarded.stop()
    }
  })
})
