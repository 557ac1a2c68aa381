/**
 * The pure parts of CT from two sources: the DER walk (held to @peculiar/x509 on certificates
 * openssl issued), the merge rule, the monitor's per-source watermarks, Retry-After and
 * CT_SOURCES parsing.
 */
import { describe, expect, test } from "bun:test"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { x509 } from "../../src/adapters/pkix/peculiar"
import { readDer, readDerBase64 } from "../../src/adapters/ct/der"
import { dnKey, mergeSources, newEntries, serialKey, watermarks } from "../../src/adapters/ct/merge"
import { dedupe, type CtEntry } from "../../src/adapters/ct/entries"
import { toEntry } from "../../src/adapters/ct/certspotter"
import { retryAfterMs } from "../../src/adapters/ct/upstream"
import { AppConfig, parseCtSources } from "../../src/platform/Config"
import { crtRowsOf, issuanceOf, issueCert } from "./certspotter"

const csEntry = (i: ReturnType<typeof issuanceOf>): CtEntry => toEntry(i)!.entry

describe("the DER walk agrees with a full X.509 parser", () => {
  const certs = [
    { label: "plain leaf", cert: issueCert(["walk.example", "www.walk.example"]) },
    { label: "3 SCTs", cert: issueCert(["sct.example"], { scts: 3 }) },
    { label: "precertificate", cert: issueCert(["pre.example"], { precert: true }) },
    { label: "high-bit serial", cert: issueCert(["high.example"], { serial: "ff00aa" }) }
  ]
  test.each(certs)("$label", ({ cert }) => {
    const walked = readDer(new Uint8Array(cert.der))!
    const full = new x509.X509Certificate(new Uint8Array(cert.der))
    expect(walked.serial.replace(/^00/, "")).toBe(full.serialNumber.toLowerCase().replace(/^00/, ""))
    expect(walked.serial).toBe(cert.serial)
    expect(walked.commonName).toBe(cert.names[0])
    expect(walked.precertificate).toBe(full.getExtension("1.3.6.1.4.1.11129.2.4.3") !== null)
    expect(walked.sctCount).toBe(full.getExtension("1.3.6.1.4.1.11129.2.4.2") ? 3 : 0)
  })

  test("malformed or truncated DER is undefined, never a throw", () => {
    const der = certs[0].cert.der
    for (const cut of [0, 1, 5, 40, der.length - 1]) expect(readDer(new Uint8Array(der.subarray(0, cut)))).toBeUndefined()
    expect(readDerBase64("not base64 at all!")).toBeUndefined()
    expect(readDer(new Uint8Array([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]))).toBeUndefined()
  })
})

describe("merge rule", () => {
  test("DNs printed in X.509 order and in RFC 4514 order, quoted or escaped, are one issuer", () => {
    expect(dnKey("C=US, O=Let's Encrypt, CN=R11")).toBe(dnKey("CN=R11,O=Let's Encrypt,C=US"))
    expect(dnKey('C=US, O="DigiCert, Inc.", CN=X')).toBe(dnKey("CN=X,O=DigiCert\\, Inc.,C=US"))
    expect(dnKey("commonName=R11, countryName=US")).toBe(dnKey("CN=R11,C=US"))
    expect(dnKey("C=US, O=Let's Encrypt, CN=R11")).not.toBe(dnKey("C=US, O=Let's Encrypt, CN=R10"))
    expect(serialKey("00ab:CD")).toBe(serialKey("abcd"))
  })

  test("one entry per certificate: crt.sh's fields first, Cert Spotter's SHA-256 and ID added, names joined", () => {
    const both = issueCert(["both.example", "www.both.example"])
    const crtOnly = issueCert(["old.example"])
    const csOnly = issueCert(["new.example"])
    const crt = dedupe([...crtRowsOf(both, Date.parse(both.notBefore) + 60_000), ...crtRowsOf(crtOnly, Date.parse(crtOnly.notBefore) + 60_000)])
    const bothIssuance = issuanceOf(both, { issuerName: "CN=R11,O=Let's Encrypt,C=US" })
    const cs = [csEntry(bothIssuance), csEntry(issuanceOf(csOnly))]
    const m = mergeSources([{ name: "certspotter", entries: cs }, { name: "crtsh", entries: crt.entries }], ["crtsh", "certspotter"])
    expect(m.entries.length).toBe(3)
    expect(m.overlap).toBe(1)
    expect(m.counts.get("crtsh")).toBe(2)
    expect(m.counts.get("certspotter")).toBe(2)
    const merged = m.entries.find((e) => e.names.includes("both.example"))!
    const fromCrt = crt.entries.find((e) => e.names.includes("both.example"))!
    expect(merged).toEqual({ ...fromCrt, sha256: both.sha256, certspotter_id: bothIssuance.id, sources: ["crtsh", "certspotter"] })
    const alone = m.entries.find((e) => e.names.includes("new.example"))!
    expect(alone.sources).toEqual(["certspotter"])
    expect(alone.ids).toEqual([])
    expect(alone.timestamp).toBe(csOnly.notBefore)
    expect(alone.serial_number).toBe(csOnly.serial)
  })

  test("an issuance without its certificate matches on issuer, validity and names; a different serial does not match", () => {
    const cert = issueCert(["noder.example"])
    const crt = dedupe(crtRowsOf(cert, Date.parse(cert.notBefore))).entries
    const m = mergeSources([{ name: "crtsh", entries: crt }, { name: "certspotter", entries: [csEntry(issuanceOf(cert, { withDer: false }))] }], ["crtsh", "certspotter"])
    expect(m.entries.length).toBe(1)
    expect(m.entries[0].sources).toEqual(["crtsh", "certspotter"])
    // Same names and validity but another serial: another certificate.
    const other = issueCert(["noder.example"])
    const m2 = mergeSources([{ name: "crtsh", entries: crt }, { name: "certspotter", entries: [csEntry(issuanceOf(other))] }], ["crtsh", "certspotter"])
    expect(m2.entries.length).toBe(2)
  })

  test("an issuance whose ID is not a decimal number, or whose dates do not parse, is no entry", () => {
    const i = issuanceOf(issueCert(["odd.example"]))
    expect(toEntry({ ...i, id: "abc" })).toBeUndefined()
    expect(toEntry({ ...i, not_after: "soon" })).toBeUndefined()
  })
})

describe("ct_new_certificate watermarks", () => {
  const e = (over: Partial<CtEntry>): CtEntry => ({
    id: 1, ids: [], issuer: "CN=R11", issuer_ca_id: null, common_name: null, names: [], serial_number: null,
    not_before: null, not_after: null, timestamp: "2026-01-01T00:00:00.000Z", sha256: null, certspotter_id: null, sources: [], ...over
  })
  const crt = (id: number) => e({ id, ids: [id, id + 1], sources: ["crtsh"] })
  const cs = (id: number) => e({ id, certspotter_id: String(id), sources: ["certspotter"] })
  const both = (crtId: number, csId: number) => e({ id: crtId, ids: [crtId], certspotter_id: String(csId), sources: ["crtsh", "certspotter"] })

  test("a certificate from either source is new after the first run; one seen before by any source is not", () => {
    const run1 = [crt(100), cs(9000), both(110, 9001)]
    const w1 = watermarks(run1, ["crtsh", "certspotter"], null)
    expect(w1).toEqual({ max_ct_id: 110, max_certspotter_id: 9001 })
    const run2 = [...run1, cs(9005), crt(120), both(130, 9006), both(105, 9010)]
    // both(105, 9010): crt.sh had it below its watermark: Cert Spotter merely found it late.
    expect(newEntries(run2, w1).map((x) => x.id)).toEqual([9005, 120, 130])
  })

  test("a source that answered with nothing gets watermark 0; a silent source keeps its own; a source without one marks nothing new", () => {
    expect(watermarks([], ["crtsh"], null)).toEqual({ max_ct_id: 0, max_certspotter_id: undefined })
    expect(watermarks([crt(50)], ["crtsh"], { max_ct_id: 10, max_certspotter_id: 77 })).toEqual({ max_ct_id: 50, max_certspotter_id: 77 })
    // Cert Spotter never answered before: its certificates are its baseline, not news.
    expect(newEntries([cs(5)], { max_ct_id: 10 }).length).toBe(0)
    expect(newEntries([both(11, 5)], { max_ct_id: 10 }).length).toBe(1)
    expect(newEntries([crt(11)], null).length).toBe(0)
  })
})

describe("Retry-After and CT_SOURCES", () => {
  test("Retry-After as seconds or an HTTP-date (RFC 9110 §10.2.3)", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(retryAfterMs("120", now)).toBe(120_000)
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000)
    expect(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0)
    expect(retryAfterMs("soon", now)).toBeUndefined()
    expect(retryAfterMs(undefined, now)).toBeUndefined()
  })

  test.each([
    ["crtsh,certspotter", ["crtsh", "certspotter"]],
    [" CertSpotter , crtsh,certspotter", ["certspotter", "crtsh"]],
    ["crtsh", ["crtsh"]],
    ["crtsh,censys", 'unknown CT source "censys" (known: crtsh, certspotter)'],
    [" , ", "names no source"]
  ])("parseCtSources(%p)", (raw, expected) => {
    expect(parseCtSources(raw)).toEqual(Array.isArray(expected) ? expected : expect.stringContaining(expected))
  })

  const load = (env: Record<string, string>) =>
    Effect.runPromiseExit(AppConfig.pipe(Effect.provide(AppConfig.Live.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))))

  test("defaults: crt.sh then Cert Spotter at api.certspotter.com, anonymous; an unknown source stops the start", async () => {
    const ok = await load({})
    expect(Exit.isSuccess(ok) && ok.value.ctSources).toEqual(["crtsh", "certspotter"])
    expect(Exit.isSuccess(ok) && ok.value.ctCertspotterUrl).toBe("https://api.certspotter.com")
    expect(Exit.isSuccess(ok) && ok.value.ctCertspotterToken._tag).toBe("None")
    const bad = await load({ CT_SOURCES: "crtsh,google" })
    expect(Exit.isFailure(bad)).toBe(true)
    expect(String(Exit.isFailure(bad) ? bad.cause : "")).toContain('CT_SOURCES: unknown CT source "google"')
  })
})
