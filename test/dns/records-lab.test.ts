/**
 * Typed records from real servers: NSD serves a signed zone holding every record type the
 * adapter types (and two it does not), Unbound resolves it. Each answer is decoded by dns-packet
 * and typed by the resolver into its variant; every RRset's RRSIG, made by BIND's signer,
 * verifies over the canonical form re-encoded from the typed data (with the names in RDATA in
 * upper case too); AXFR brings the whole zone typed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { axfr } from "../../src/adapters/dns/axfr"
import { type DnsRecord, makeResolver, recordsOf, typeNameOf } from "../../src/adapters/dns/DnsResolver"
import { keysOf, rrsigsOf, verifyRRset } from "../../src/adapters/dnssec/rrsig"
import { startLab, type Lab } from "./lab"

const ZONE = "types.lab"
const RECORDS = [
  "@ A 127.0.0.10",
  "@ AAAA 2001:db8:0:0:1:0:0:1",
  "@ MX 10 mail",
  "@ MX 20 mail2.example.",
  "@ TXT \"v=spf1 -all\" \"second string\"",
  "@ SPF \"v=spf1 -all\"",
  "@ HTTPS 1 . alpn=h2,h3 port=8443 ipv4hint=127.0.0.10 ipv6hint=2001:db8::10",
  "@ HINFO \"RFC8482\" \"\"",
  "@ RP admin.types.lab. info",
  "@ SSHFP 4 2 " + "ab".repeat(32),
  "@ URI 10 1 \"https://www.example/\"",
  "@ TYPE4242 \\# 3 010203",
  "mail A 127.0.0.11",
  "www CNAME @",
  "old DNAME new.example.",
  "_sip._udp SRV 0 5 5060 sip",
  "_25._tcp.mail TLSA 3 1 1 " + "8f".repeat(32),
  "_svc SVCB 0 svc.example.",
  "_dns SVCB 1 dns.example. alpn=dot port=853 mandatory=alpn,port",
  "10.0.0.127 PTR www",
  "sip NAPTR 100 10 \"S\" \"SIP+D2U\" \"\" _sip._udp",
  // names in RDATA to be sent in upper case below
  "upper MX 10 mail.types.lab.",
  "upper RP admin.example. info.example.",
  "_upper._tcp SRV 0 1 443 svc.example.",
  "upper2 CNAME target.example.",
  "sipu NAPTR 100 10 \"S\" \"SIP+D2U\" \"\" _sip._udp.example."
]

const n = 1 + Math.floor(Math.random() * 250)
const nsd = { host: `127.53.${n}.1`, port: 0 }
let lab: Lab
let resolver: ReturnType<typeof makeResolver>
beforeAll(async () => {
  lab = await startLab({
    n,
    zones: [{ name: ZONE, algorithm: "ECDSAP256SHA256", nsec3: { salt: "ab", iterations: 0 }, caa: true, ns: [nsd.host], axfr: true, records: RECORDS }]
  })
  nsd.port = lab.port
  const [host, port] = lab.resolver.split(":")
  resolver = makeResolver([{ host, port: Number(port) }], 3000)
})
afterAll(async () => lab?.stop())

const at = (name: string) => (name === "@" ? ZONE : `${name}.${ZONE}`)
const ask = (name: string, type: string, server = nsd) =>
  Effect.runPromise(resolver.query({ name: at(name), type, server, dnssec: true, recursionDesired: false }))

describe("typed records from NSD", () => {
  test("each type arrives as its variant with its data", async () => {
    const apexA = await ask("@", "A")
    expect(recordsOf(apexA.answers, "A").map((r) => r.data)).toEqual(["127.0.0.10"])
    expect(recordsOf(apexA.answers, "RRSIG")[0].data).toMatchObject({ typeCovered: "A", algorithm: 13, labels: 2, signersName: ZONE })
    expect((await ask("@", "AAAA")).answers[0]).toMatchObject({ type: "AAAA", data: "2001:db8::1:0:0:1" })
    expect(recordsOf((await ask("@", "MX")).answers, "MX").map((r) => r.data).sort((a, b) => a.preference - b.preference))
      .toEqual([{ preference: 10, exchange: `mail.${ZONE}` }, { preference: 20, exchange: "mail2.example" }])
    expect(recordsOf((await ask("@", "TXT")).answers, "TXT")[0].data.map(String)).toEqual(["v=spf1 -all", "second string"])
    expect(recordsOf((await ask("@", "SPF")).answers, "SPF")[0].data.map(String)).toEqual(["v=spf1 -all"])
    expect(recordsOf((await ask("@", "HTTPS")).answers, "HTTPS")[0].data).toEqual({
      priority: 1, target: ".", params: { alpn: ["h2", "h3"], port: 8443, ipv4hint: ["127.0.0.10"], ipv6hint: ["2001:db8::10"] }
    })
    expect(recordsOf((await ask("_svc", "SVCB")).answers, "SVCB")[0].data).toEqual({ priority: 0, target: "svc.example", params: {} })
    expect(recordsOf((await ask("_dns", "SVCB")).answers, "SVCB")[0].data).toEqual({
      priority: 1, target: "dns.example", params: { mandatory: ["alpn", "port"], alpn: ["dot"], port: 853 }
    })
    expect(recordsOf((await ask("@", "CAA")).answers, "CAA").map((r) => r.data.value).sort()).toEqual(["letsencrypt.org", `mailto:security@${ZONE}`])
    expect(recordsOf((await ask("@", "SOA")).answers, "SOA")[0].data).toMatchObject({ mname: `ns1.${ZONE}`, rname: `hostmaster.${ZONE}`, refresh: 86400 })
    expect(recordsOf((await ask("@", "NS")).answers, "NS")[0].data).toBe(`ns1.${ZONE}`)
    expect(recordsOf((await ask("@", "DNSKEY")).answers, "DNSKEY")[0].data).toMatchObject({ flags: 257, algorithm: 13 })
    expect(recordsOf((await ask("@", "NSEC3PARAM")).answers, "NSEC3PARAM")[0].data).toEqual({ algorithm: 1, flags: 0, iterations: 0, salt: Buffer.from("ab", "hex") })
    expect(recordsOf((await ask("@", "HINFO")).answers, "HINFO")[0].data).toEqual({ cpu: "RFC8482", os: "" })
    expect(recordsOf((await ask("@", "RP")).answers, "RP")[0].data).toEqual({ mbox: `admin.${ZONE}`, txt: `info.${ZONE}` })
    expect(recordsOf((await ask("@", "SSHFP")).answers, "SSHFP")[0].data).toEqual({ algorithm: 4, hash: 2, fingerprint: "AB".repeat(32) })
    expect(recordsOf((await ask("www", "CNAME")).answers, "CNAME")[0].data).toBe(ZONE)
    expect(recordsOf((await ask("old", "DNAME")).answers, "DNAME")[0].data).toBe("new.example")
    expect(recordsOf((await ask("_sip._udp", "SRV")).answers, "SRV")[0].data).toEqual({ priority: 0, weight: 5, port: 5060, target: `sip.${ZONE}` })
    expect(recordsOf((await ask("_25._tcp.mail", "TLSA")).answers, "TLSA")[0].data).toEqual({ usage: 3, selector: 1, matchingType: 1, certificate: Buffer.from("8f".repeat(32), "hex") })
    expect(recordsOf((await ask("10.0.0.127", "PTR")).answers, "PTR")[0].data).toBe(`www.${ZONE}`)
    expect(recordsOf((await ask("sip", "NAPTR")).answers, "NAPTR")[0].data).toEqual({ order: 100, preference: 10, flags: "S", services: "SIP+D2U", regexp: "", replacement: `_sip._udp.${ZONE}` })
    const uri = (await ask("@", "URI")).answers.find((r) => typeNameOf(r) === "URI")
    expect(uri).toMatchObject({ type: "UNKNOWN", code: 256 })
    expect((await ask("@", "TYPE4242")).answers.find((r) => r.type === "UNKNOWN" && r.code === 4242)?.data).toEqual(Buffer.from("010203", "hex"))
    const nx = await ask("nothere", "A")
    expect(nx.rcode).toBe("NXDOMAIN")
    const nsec3 = recordsOf(nx.authorities, "NSEC3")
    expect(nsec3.length).toBeGreaterThan(0)
    expect(nsec3[0].data).toMatchObject({ algorithm: 1, iterations: 0, salt: Buffer.from("ab", "hex") })
  })

  test("through Unbound (compressed names, the resolver's own packing) the data are the same", async () => {
    const mx = await Effect.runPromise(resolver.query({ name: ZONE, type: "MX" }))
    expect(recordsOf(mx.answers, "MX").map((r) => r.data.exchange).sort()).toEqual([`mail.${ZONE}`, "mail2.example"])
    const https = await Effect.runPromise(resolver.query({ name: ZONE, type: "HTTPS" }))
    expect(recordsOf(https.answers, "HTTPS")[0].data.params.alpn).toEqual(["h2", "h3"])
  })

  const signed: ReadonlyArray<readonly [string, string]> = [
    ["@", "A"], ["@", "AAAA"], ["@", "MX"], ["@", "TXT"], ["@", "SPF"], ["@", "HTTPS"], ["@", "HINFO"], ["@", "RP"], ["@", "SSHFP"],
    ["@", "URI"], ["@", "TYPE4242"], ["@", "CAA"], ["@", "SOA"], ["@", "NS"], ["@", "DNSKEY"], ["@", "NSEC3PARAM"], ["www", "CNAME"],
    ["old", "DNAME"], ["_sip._udp", "SRV"], ["_25._tcp.mail", "TLSA"], ["_svc", "SVCB"], ["_dns", "SVCB"], ["10.0.0.127", "PTR"],
    ["sip", "NAPTR"], ["upper", "MX"], ["upper", "RP"], ["_upper._tcp", "SRV"], ["upper2", "CNAME"], ["sipu", "NAPTR"]
  ]
  test.each(signed)("canonical form: the RRSIG over %s %s verifies", async (owner, type) => {
    const keys = keysOf((await ask("@", "DNSKEY")).answers)
    const ans = await ask(owner, type)
    const rrset = ans.answers.filter((r) => typeNameOf(r) === type)
    expect(rrset.length).toBeGreaterThan(0)
    const check = verifyRRset(rrset, rrsigsOf(ans.answers, at(owner), type), keys, ZONE, Math.floor(Date.now() / 1000))
    expect(check).toMatchObject({ ok: true })
  })

  /** The record with the names in its RDATA in upper case, as a server may send them (NSD sends them lower-cased). */
  const shout = (r: DnsRecord): DnsRecord => {
    switch (r.type) {
      case "MX":
        return { ...r, data: { ...r.data, exchange: r.data.exchange.toUpperCase() } }
      case "RP":
        return { ...r, data: { mbox: r.data.mbox.toUpperCase(), txt: r.data.txt.toUpperCase() } }
      case "SRV":
        return { ...r, data: { ...r.data, target: r.data.target.toUpperCase() } }
      case "NAPTR":
        return { ...r, data: { ...r.data, replacement: r.data.replacement.toUpperCase() } }
      case "SOA":
        return { ...r, data: { ...r.data, mname: r.data.mname.toUpperCase(), rname: r.data.rname.toUpperCase() } }
      case "CNAME":
      case "NS":
        return { ...r, data: r.data.toUpperCase() }
      default:
        return r
    }
  }
  test.each([["upper", "MX"], ["upper", "RP"], ["_upper._tcp", "SRV"], ["upper2", "CNAME"], ["sipu", "NAPTR"], ["@", "SOA"], ["@", "NS"]])(
    "canonical form: %s %s with its RDATA names in upper case still verifies (RFC 4034 §6.2)",
    async (owner, type) => {
      const keys = keysOf((await ask("@", "DNSKEY")).answers)
      const ans = await ask(owner, type)
      const rrset = ans.answers.filter((r) => typeNameOf(r) === type)
      const loud = rrset.map(shout)
      expect(JSON.stringify(loud)).not.toBe(JSON.stringify(rrset))
      expect(verifyRRset(loud, rrsigsOf(ans.answers, at(owner), type), keys, ZONE, Math.floor(Date.now() / 1000))).toMatchObject({ ok: true })
    }
  )

  test("a tampered record does not verify (the check above can fail)", async () => {
    const keys = keysOf((await ask("@", "DNSKEY")).answers)
    const ans = await ask("upper", "MX")
    const rrset = recordsOf(ans.answers, "MX").map((r) => ({ ...r, data: { ...r.data, preference: r.data.preference + 1 } }))
    expect(verifyRRset(rrset, rrsigsOf(ans.answers, at("upper"), "MX"), keys, ZONE, Math.floor(Date.now() / 1000)).ok).toBe(false)
  })

  test("AXFR: the whole signed zone, typed", async () => {
    const x = await Effect.runPromise(axfr(ZONE, nsd, 5000))
    const types = new Set(x.records.map(typeNameOf))
    for (const t of ["SOA", "NS", "A", "AAAA", "MX", "TXT", "SPF", "HTTPS", "SVCB", "CAA", "TLSA", "SRV", "PTR", "NAPTR", "CNAME", "DNAME", "HINFO", "RP", "SSHFP", "URI", "TYPE4242", "DNSKEY", "RRSIG", "NSEC3", "NSEC3PARAM"]) {
      expect(types.has(t)).toBe(true)
    }
    expect(x.records[0].type).toBe("SOA")
    expect(x.records[x.records.length - 1].type).toBe("SOA")
    expect(recordsOf(x.records, "HTTPS")[0].data.params.alpn).toEqual(["h2", "h3"])
  })
})
