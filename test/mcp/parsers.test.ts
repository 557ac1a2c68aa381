/** Pure cores of the MCP tools: JSON-RPC classification, DNS RDATA, SCT lists, RDAP documents. */
import { describe, expect, test } from "bun:test"
import * as packet from "dns-packet"
import { summarizeCt } from "../../src/adapters/x509/CertInspector"
import { certFacts, chromeCompliant, countScts } from "../../src/adapters/x509/certFacts"
import { toHistoryEntry } from "../../src/adapters/ct/CtHistory"
import { decodeAnswer } from "../../src/adapters/dns/DnsResolver"
import { typeCode } from "../../src/adapters/dns/rrtypes"
import { recordTypes, renderRecord, reverseName } from "../../src/analyses/dns/dnsRecords"
import { classify } from "../../src/surfaces/mcp/protocol"
import { domainQueryUrl, extractDomain, findRdapBase, mergeFacts, parseBootstrap } from "../../src/adapters/rdap/rdapData"
import bundled from "../../src/adapters/rdap/rdap-bootstrap.json"
import { makePki } from "../support/tls"

describe("JSON-RPC classification", () => {
  test("requests, notifications, client responses and invalid messages", () => {
    expect(classify({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ _tag: "Request", id: 1, method: "ping", params: undefined })
    expect(classify({ jsonrpc: "2.0", method: "notifications/initialized" })._tag).toBe("Notification")
    expect(classify({ jsonrpc: "2.0", id: 5, result: {} })._tag).toBe("ClientResponse")
    expect(classify({ jsonrpc: "2.0", id: 5, error: { code: 1, message: "x" } })._tag).toBe("ClientResponse")
    expect(classify({ jsonrpc: "2.0", id: "k", method: "x", params: "str" })).toMatchObject({ _tag: "Invalid", id: "k" })
    expect(classify({ jsonrpc: "2.0", id: true, method: "x" })).toMatchObject({ _tag: "Invalid", id: null })
    expect(classify([])).toMatchObject({ _tag: "Invalid", id: null })
  })
})

describe("DNS records", () => {
  test("the accepted lookup types", () => {
    expect(recordTypes).toContain("DNSKEY")
    expect(recordTypes).toContain("HTTPS")
    expect(recordTypes).not.toContain("OPT")
    expect(recordTypes).not.toContain("AXFR")
    // every accepted name is one the resolver can put on the wire
    expect(recordTypes.filter((t) => typeCode(t) === undefined)).toEqual([])
  })

  /** The answers of a message without a question, typed as the resolver types them. */
  const typed = (msg: Buffer) => decodeAnswer(msg, { name: "z.test", type: "A" }, 1, { host: "127.0.0.1", port: 53 }, false).answers
  const rendered = (answers: Array<packet.Answer>) => typed(packet.encode({ type: "response", id: 1, answers })).map(renderRecord)

  test("a wire round trip renders SOA, DS, DNSKEY and TXT", () => {
    const [soa, ds, key, txt] = rendered([
      { type: "SOA", name: "z.test", ttl: 3600, data: { mname: "ns.z.test", rname: "host.z.test", serial: 7, refresh: 1, retry: 2, expire: 3, minimum: 4 } },
      { type: "DS", name: "z.test", ttl: 60, data: { keyTag: 1, algorithm: 13, digestType: 2, digest: Buffer.from("abcd", "hex") } },
      { type: "DNSKEY", name: "z.test", ttl: 60, data: { flags: 257, algorithm: 13, key: Buffer.from([1, 2, 3]) } },
      { type: "TXT", name: "z.test", ttl: 60, data: ["a \"quoted\" part", "second"] }
    ])
    expect(soa.value).toBe("ns.z.test. host.z.test. 7 1 2 3 4")
    expect(ds.value).toBe("1 13 2 ABCD")
    expect(key.value).toBe("257 3 13 AQID")
    expect(key.data).toMatchObject({ key: "AQID" })
    expect(txt.value).toBe("\"a \\\"quoted\\\" part\" \"second\"")
    expect(txt.ttl).toBe(60)
  })

  test("HTTPS in presentation form, NSEC3PARAM, and the generic form of a type without one (RFC 3597)", () => {
    const rr = (name: string, code: number, rdata: Buffer) =>
      Buffer.concat([Buffer.from([name.length]), Buffer.from(name), Buffer.from([0, code >> 8, code & 255, 0, 1, 0, 0, 0, 60, 0, rdata.length]), rdata])
    const msg = Buffer.concat([
      Buffer.from([0, 1, 0x80, 0, 0, 0, 0, 3, 0, 0, 0, 0]),
      rr("h", 65, Buffer.from("000100000100030268320003000201bb", "hex")),
      rr("n", 51, Buffer.from("0100000a02abcd", "hex")),
      rr("u", 256, Buffer.from("000a0001", "hex"))
    ])
    const [https, param, uri] = typed(msg).map(renderRecord)
    expect(https).toMatchObject({ type: "HTTPS", value: "1 . alpn=h2 port=443", data: { priority: 1, target: ".", params: { alpn: ["h2"], port: 443 } } })
    expect(param).toMatchObject({ type: "NSEC3PARAM", value: "1 0 10 ABCD", data: { algorithm: 1, flags: 0, iterations: 10, salt: "abcd" } })
    expect(uri).toMatchObject({ type: "URI", value: "\\# 4 000a0001", data: "000a0001" })
  })

  test("reverse names", () => {
    expect(reverseName("192.0.2.10")).toBe("10.2.0.192.in-addr.arpa")
    expect(reverseName("2001:db8::1")).toBe("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa")
    expect(reverseName("example.com")).toBeUndefined()
  })
})

describe("SCT lists and certificate facts", () => {
  test("counts SCTs in the extension value", () => {
    const list = (scts: Array<number>) => {
      const body = Buffer.concat(scts.map((n) => Buffer.concat([Buffer.from([n >> 8, n & 255]), Buffer.alloc(n, 7)])))
      const inner = Buffer.concat([Buffer.from([body.length >> 8, body.length & 255]), body])
      return Buffer.concat([Buffer.from([0x04, inner.length]), inner])
    }
    expect(countScts(list([4, 4]))).toBe(2)
    expect(countScts(list([10, 20, 30]))).toBe(3)
    expect(() => countScts(Buffer.from([0x04, 0x03, 0x00, 0x09, 0x00]))).toThrow()
    expect(() => countScts(Buffer.from([0x04, 0x06, 0x00, 0x04, 0x00, 0x09, 0x01, 0x02]))).toThrow(/malformed/)
  })

  test("Chrome's policy: 2 SCTs, or 3 for long-lived certificates issued after 2022-04-15", () => {
    expect(chromeCompliant(2, "2024-01-01T00:00:00Z", "2024-03-01T00:00:00Z")).toBe(true)
    expect(chromeCompliant(2, "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z")).toBe(false)
    expect(chromeCompliant(3, "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z")).toBe(true)
    expect(chromeCompliant(2, "2021-01-01T00:00:00Z", "2022-01-01T00:00:00Z")).toBe(true)
    expect(chromeCompliant(1, "2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z")).toBe(false)
  })

  test("facts of an openssl-made RSA certificate", () => {
    const pki = makePki()
    const { execFileSync } = require("node:child_process") as typeof import("node:child_process")
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsa.key", "-out", "rsa.pem", "-days", "5",
      "-subj", "/CN=rsa.test", "-addext", "subjectAltName=DNS:rsa.test,DNS:www.rsa.test,IP:127.0.0.1", "-sha384"], { cwd: pki.dir, stdio: "pipe" })
    const pem = require("node:fs").readFileSync(`${pki.dir}/rsa.pem`, "utf8") as string
    const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ""), "base64")
    const f = certFacts(der)
    expect(f.key).toEqual({ type: "RSA", size: 2048, curve: null })
    expect(f.signature_algorithm).toBe("SHA384-with-RSA")
    expect(f.sans).toEqual(["rsa.test", "www.rsa.test", "127.0.0.1"])
    expect(f.subject).toBe("CN=rsa.test")
    expect(f.self_signed).toBe(true)
    expect(f.embedded_sct_count).toBe(0)
    expect(f.fingerprint_sha256).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe("RDAP data", () => {
  test("the bundled bootstrap parses and routes .com to Verisign", () => {
    const b = parseBootstrap(bundled)
    expect(findRdapBase(b, "www.example.com")).toEqual({ suffix: "com", urls: ["https://rdap.verisign.com/com/v1/"] })
    expect(findRdapBase(b, "example.invalid")).toBeUndefined()
  })

  test("longest suffix wins and https is preferred", () => {
    const b = parseBootstrap({
      services: [
        [["uk"], ["https://uk.example/"]],
        [["co.uk"], ["http://plain.example/", "https://co.example/"]]
      ]
    })
    expect(findRdapBase(b, "shop.co.uk")).toEqual({ suffix: "co.uk", urls: ["https://co.example/", "http://plain.example/"] })
    expect(findRdapBase(b, "x.org.uk")?.suffix).toBe("uk")
    expect(() => parseBootstrap({ services: "no" })).toThrow()
    expect(() => parseBootstrap({ services: [] })).toThrow()
    expect(domainQueryUrl("https://r.example/rdap", "a.com")).toBe("https://r.example/rdap/domain/a.com")
  })

  test("non-domain objects are refused", () => {
    expect(() => extractDomain({ objectClassName: "entity" })).toThrow(/entity/)
    expect(() => extractDomain([1])).toThrow()
    expect(() => extractDomain({ errorCode: 404 })).toThrow()
  })

  test("merge: registry dates win, registrar adds the abuse contact", () => {
    const registry = extractDomain({
      objectClassName: "domain",
      ldhName: "a.test",
      events: [{ eventAction: "expiration", eventDate: "2030-01-01T00:00:00Z" }],
      status: ["active"]
    })
    const registrar = extractDomain({
      objectClassName: "domain",
      ldhName: "a.test",
      events: [{ eventAction: "expiration", eventDate: "2099-01-01T00:00:00Z" }, { eventAction: "registration", eventDate: "2000-01-01T00:00:00Z" }],
      entities: [{ roles: ["registrar"], vcardArray: ["vcard", [["fn", {}, "text", "R"]]], entities: [{ roles: ["abuse"], vcardArray: ["vcard", [["email", {}, "text", "a@r.test"]]] }] }]
    })
    const m = mergeFacts("a.test", registry, registrar, { bootstrap: "fetched", registry_url: "u", registrar_url: "v", registrar_error: null }, Date.parse("2029-12-31T00:00:00Z"))
    expect(m.expires).toBe("2030-01-01T00:00:00Z")
    expect(m.created).toBe("2000-01-01T00:00:00Z")
    expect(m.days_until_expiry).toBe(1)
    expect(m.registrar?.name).toBe("R")
    expect(m.abuse_contact?.email).toBe("a@r.test")
    expect(m.status).toEqual(["active"])
  })
})

describe("CT history summary", () => {
  test("aggregator entries become count, distinct issuers newest first, and the five latest", () => {
    const entries = [
      { id: 1, ids: [1, 2], issuer: "C=US, O=Let's Encrypt, CN=R3", timestamp: "2024-01-01T00:00:00Z", names: [] },
      { id: 3, issuer: "C=US, O=Google Trust Services, CN=WR1", timestamp: "2025-06-01T00:00:00Z" },
      { id: 4, issuer: "C=US, O=Let's Encrypt, CN=R3", timestamp: "2024-09-01T00:00:00Z" },
      ...Array.from({ length: 5 }, (_, i) => ({ id: 10 + i, issuer: "C=US, O=Let's Encrypt, CN=E5", timestamp: `2023-0${i + 1}-01T00:00:00Z` }))
    ].map(toHistoryEntry)
    const s = summarizeCt(entries)
    expect(s.count).toBe(8)
    expect(s.issuers).toEqual(["C=US, O=Google Trust Services, CN=WR1", "C=US, O=Let's Encrypt, CN=R3", "C=US, O=Let's Encrypt, CN=E5"])
    expect(s.latest.map((e) => e.id)).toEqual(["3", "4", "1", "14", "13"])
    expect(s.note).toBeNull()
    expect(summarizeCt([]).note).toContain("no certificates")
  })
})
