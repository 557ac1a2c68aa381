/**
 * Pure cores of the TLS scan additions: post-quantum key shares, the ALPN extension both ways,
 * Alt-Svc and HTTPS-record parsing, and chain verification of certificates read off the wire
 * (with a PKI the test makes with openssl).
 */
import { describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { X509Certificate } from "node:crypto"
import { trustStore, verifyChain } from "../../src/adapters/x509/chainVerify"
import { alpnReport, selectedProtocol } from "../../src/analyses/tls/alpn"
import { buildClientHello } from "../../src/analyses/tls/clientHello"
import { GROUPS, isPostQuantum } from "../../src/analyses/tls/groups"
import { MalformedRdata } from "../../src/adapters/dns/records"
import { decodeSvcb } from "../../src/adapters/dns/svcb"
import { advertisesH3, alpnOfHttpsRecords, altSvcProtocols, httpsRecordName } from "../../src/analyses/tls/http3"
import { mlkemEncapsulationKey, pqShare } from "../../src/analyses/tls/keyShares"
import { parseFlight } from "../../src/analyses/tls/serverHello"
import { makeLab } from "./lab"

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]

/** ByteDecode12 (FIPS 203): the coefficients of an encoded polynomial vector. */
const coefficients = (b: Uint8Array) => {
  const out: Array<number> = []
  for (let i = 0; i + 2 < b.length; i += 3) out.push(b[i] | ((b[i + 1] & 0x0f) << 8), (b[i + 1] >> 4) | (b[i + 2] << 4))
  return out
}

describe("post-quantum key shares", () => {
  test("every post-quantum group gets a share of its registered size; classical groups get none", () => {
    for (const g of GROUPS) {
      const share = pqShare(g.code)
      if (isPostQuantum(g)) expect([g.name, share?.key.length]).toEqual([g.name, g.share])
      else expect([g.name, share]).toEqual([g.name, null])
    }
  })

  test("an ML-KEM key passes FIPS 203's modulus check: every coefficient below q, then a 32-byte seed", () => {
    for (const k of [2, 3, 4] as const) {
      const ek = mlkemEncapsulationKey(k)
      expect(ek.length).toBe(384 * k + 32)
      const cs = coefficients(ek.subarray(0, 384 * k))
      expect(cs).toHaveLength(256 * k)
      expect(Math.max(...cs)).toBeLessThan(3329)
      // Uniform below q: the top of the range is reached, so the encoding is not a constant pattern.
      expect(Math.max(...cs)).toBeGreaterThan(3000)
    }
    // X25519MLKEM768 puts the ML-KEM key first, then 32 bytes of X25519.
    const hybrid = pqShare(0x11ec)!.key
    expect(Math.max(...coefficients(hybrid.subarray(0, 1152)))).toBeLessThan(3329)
    // SecP256r1MLKEM768 starts with an uncompressed P-256 point.
    expect(pqShare(0x11eb)!.key[0]).toBe(4)
  })
})

describe("ALPN", () => {
  test("the ClientHello carries one protocol name list (RFC 7301 §3.1)", () => {
    const hex = Buffer.from(buildClientHello({ version: "tls1_2", suites: [0xc02f], alpn: ["h2"] })).toString("hex")
    expect(hex).toContain("0010" + "0005" + "0003" + "02" + Buffer.from("h2").toString("hex"))
    const none = Buffer.from(buildClientHello({ version: "tls1_2", suites: [0xc02f] })).toString("hex")
    expect(none).not.toContain("0010000500030268")
  })

  test("the ServerHello's selection is read; none, and hostile bytes, are handled", () => {
    const hello = (exts: Array<[number, Array<number>]>) => {
      const e = exts.flatMap(([t, b]) => [...u16(t), ...u16(b.length), ...b])
      const body = [...u16(0x0303), ...new Array(32).fill(1), 0, ...u16(0xc02f), 0, ...u16(e.length), ...e]
      const hs = [2, ...u24(body.length), ...body]
      const f = parseFlight(new Uint8Array([22, 3, 3, ...u16(hs.length), ...hs]))
      if (f.kind !== "hello") throw new Error(f.kind)
      return f.hello
    }
    const name = [...Buffer.from("http/1.1")]
    expect(selectedProtocol(hello([[16, [...u16(name.length + 1), name.length, ...name]]]))).toBe("http/1.1")
    expect(selectedProtocol(hello([]))).toBeNull()
    expect(selectedProtocol(hello([[16, [0, 3, 2, 0x0a, 0x68]]]))).toBe("\\x0ah")
    expect(selectedProtocol(hello([[16, [0]]]))).toBeNull()
    expect(alpnReport([{ offer: "h2", selected: "h2" }, { offer: "http/1.1", selected: null }])).toEqual({ http2: true, http1_1: false, negotiated: ["h2"] })
    // A server that answers an h2 offer with http/1.1 does not speak h2, but what it chose is shown.
    expect(alpnReport([{ offer: "h2", selected: "http/1.1" }, { offer: "http/1.1", failed: "timeout" }])).toEqual({ http2: false, http1_1: false, negotiated: ["http/1.1"] })
  })
})

describe("HTTP/3 advertisement", () => {
  test.each([
    ['h3=":443"; ma=86400', ["h3"], true],
    ['h3-29=":443"; ma=86400, h2=":443"', ["h3-29", "h2"], false],
    ['h2=":443"; persist=1, h3=":8443"; ma=3600', ["h2", "h3"], true],
    ['h3="alt.example:443"; ma=60', ["h3"], true],
    ['h2="a,b.example:443", h3=":443"', ["h2", "h3"], true],
    ['%68%33=":443"', ["h3"], true],
    ["clear", [], false],
    ["garbage", [], false],
    ['%zz=":443"', [], false]
  ] as const)("Alt-Svc %p", (value, protocols, h3) => {
    expect(altSvcProtocols(value)).toEqual([...protocols])
    expect(advertisesH3(altSvcProtocols(value))).toBe(h3)
  })

  test("the HTTPS record's owner carries the port unless 443 (RFC 9460 §9.1)", () => {
    expect(httpsRecordName("example.com", 443)).toBe("example.com")
    expect(httpsRecordName("example.com", 8443)).toBe("_8443._https.example.com")
  })

  test("alpn of HTTPS records: ServiceMode lists, AliasMode and other types give none, truncated RDATA never reaches the scan", () => {
    const target = [3, ...Buffer.from("svc"), 7, ...Buffer.from("example"), 0]
    const alpn = [2, ...Buffer.from("h3"), 2, ...Buffer.from("h2")]
    // SvcParams in increasing key order (RFC 9460 §2.2): alpn, then port.
    const service = Buffer.from([...u16(1), ...target, ...u16(1), ...u16(alpn.length), ...alpn, ...u16(3), ...u16(2), 1, 0xbb])
    const https = (rdata: Buffer) => ({ type: "HTTPS" as const, name: "x.test", ttl: 60, class: "IN", data: decodeSvcb(rdata), rdata })
    expect(alpnOfHttpsRecords([https(service)])).toEqual(["h3", "h2"])
    expect(alpnOfHttpsRecords([https(Buffer.from([...u16(0), ...target]))])).toEqual([])
    expect(alpnOfHttpsRecords([{ type: "SVCB", name: "x.test", ttl: 60, class: "IN", data: decodeSvcb(service), rdata: service }])).toEqual([])
    // The DNS adapter refuses a record whose list runs past its RDATA (DnsMalformed for the query).
    expect(() => decodeSvcb(service.subarray(0, service.length - 1))).toThrow(MalformedRdata)
    expect(() => decodeSvcb(Buffer.from([0, 1]))).toThrow(MalformedRdata)
  })
})

describe("chain verification of certificates read off the wire", () => {
  const lab = makeLab()
  const der = (path: string) => new Uint8Array(new X509Certificate(readFileSync(path)).raw)
  const root = readFileSync(lab.rootPath, "utf8")

  test("leaf and intermediate sent, root in the store: trusted, the root closes the path", () => {
    const leaf = lab.leaf("v1", { names: ["a.example"] })
    const v = verifyChain([der(leaf.cert), der(lab.intermediatePath)], trustStore([root]), Date.now())
    expect(v.trusted).toBe(true)
    expect(v.path.map((c) => c.subject)).toEqual(["CN=a.example", "CN=domain-intel TLS test intermediate", "CN=domain-intel TLS test root"])
  })

  test("untrusted: no root in the store, a missing intermediate, an expired leaf, a self-signed leaf", () => {
    const leaf = lab.leaf("v2", { names: ["a.example"] })
    expect(verifyChain([der(leaf.cert), der(lab.intermediatePath)], trustStore([]), Date.now())).toMatchObject({ trusted: false })
    const alone = verifyChain([der(leaf.cert)], trustStore([root]), Date.now())
    expect(alone.trusted).toBe(false)
    expect(alone.path).toHaveLength(1)
    const expired = lab.leaf("v3", { names: ["a.example"], start: "20200101000000Z", end: "20200201000000Z" })
    const e = verifyChain([der(expired.cert), der(lab.intermediatePath)], trustStore([root]), Date.now())
    expect(e.trusted).toBe(false)
    expect(e.path).toHaveLength(3)
    const self = lab.selfSigned("v4", ["a.example"])
    expect(verifyChain([der(self.cert)], trustStore([root]), Date.now())).toMatchObject({ trusted: false, path: [expect.anything()] })
    // The same self-signed certificate, once trusted by the store, is trusted.
    expect(verifyChain([der(self.cert)], trustStore([readFileSync(self.cert, "utf8")]), Date.now()).trusted).toBe(true)
  })

  test("a sent certificate that names the issuer but was signed by another key does not link", () => {
    const leaf = lab.leaf("v5", { names: ["a.example"] })
    const other = makeLab()
    expect(verifyChain([der(leaf.cert), der(other.intermediatePath)], trustStore([root, readFileSync(other.rootPath, "utf8")]), Date.now()).trusted).toBe(false)
    expect(verifyChain([new Uint8Array([0x30, 0x03, 1, 2, 3])], trustStore([root]), Date.now())).toEqual({ trusted: false, path: [] })
  })
})
