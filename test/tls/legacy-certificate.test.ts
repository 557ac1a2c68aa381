/**
 * The certificate of a server the runtime's TLS client cannot complete a handshake with: a
 * 3DES-only server (Bun's own TLS stack in a child process: Debian's OpenSSL 3.0 has no 3DES
 * suites) and a TLS 1.0-only CBC server (`openssl s_server`). The scan reads the certificate from
 * the handshake that succeeded, and every field equals what a modern server with the same
 * certificate gets; sslscan reads the same certificate off the TLS 1.0 server. The verdicts
 * (expired, self-signed, wrong name, missing intermediate) agree between the two paths.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { spawnSync } from "node:child_process"
import { startService, type TestService } from "../support/service"
import { type Lab, type Leaf, makeLab, sClient, type SServer, startBunServer, startSServer } from "./lab"

let lab: Lab
let svc: TestService
let key: string
const servers: Array<SServer> = []

beforeAll(async () => {
  lab = makeLab()
  svc = await startService({ extraCaCerts: Option.some(lab.rootPath) })
  key = (await svc.newKey("developer")).key
})
afterAll(async () => {
  for (const s of servers) s.stop()
  await svc?.stop()
})

const scan = async (port: number) => {
  const res = await svc.call(`/v1/security/tls?host=localhost&port=${port}`, { key })
  const body = await res.json() as any
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return body
}

const modern = async (leaf: Leaf, chain = true) => {
  const s = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, ...(chain ? ["-cert_chain", lab.intermediatePath] : [])])
  servers.push(s)
  return s
}
/** TLS 1.0 only, two SHA-1 CBC suites: Bun's TLS client (TLS 1.2 at least) cannot complete a handshake. */
const tls10 = async (leaf: Leaf, chain = true) => {
  const s = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, ...(chain ? ["-cert_chain", lab.intermediatePath] : []), "-tls1", "-cipher", "AES128-SHA:ECDHE-RSA-AES128-SHA:@SECLEVEL=0"])
  servers.push(s)
  return s
}

/** sslscan's certificate block, and the suites it saw accepted. */
const sslscan = (port: number) => {
  const out = spawnSync("sslscan", ["--no-colour", "--show-certificate", "--sni-name=localhost", `127.0.0.1:${port}`], { encoding: "utf8", timeout: 60_000 }).stdout
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "m").exec(out)?.[1]?.trim()
  return {
    accepted: [...out.matchAll(/^(?:Preferred|Accepted)\s+(TLSv[\d.]+)\s+\d+ bits\s+(\S+)/gm)].map((m) => `${m[1]} ${m[2]}`),
    subject: field("Subject"),
    altnames: field("Altnames"),
    issuer: field("Issuer"),
    notAfter: field("Not valid after"),
    keyBits: field("RSA Key Strength")
  }
}

describe("the certificate from whichever handshake succeeded", () => {
  test("a 3DES-only server gets every certificate field a modern server with the same certificate gets", async () => {
    const leaf = lab.leaf("des", { names: ["localhost", "127.0.0.1"] })
    const des = await startBunServer(lab, leaf, { kind: "tls", ciphers: "3DES", minVersion: "TLSv1", maxVersion: "TLSv1.2" })
    servers.push(des)
    const ref = await modern(leaf)
    // The truth: sslscan sees one suite, 3DES, on each version (OpenSSL here cannot even offer it).
    expect(sslscan(des.port).accepted.sort()).toEqual(["TLSv1.0 TLS_RSA_WITH_3DES_EDE_CBC_SHA", "TLSv1.1 TLS_RSA_WITH_3DES_EDE_CBC_SHA", "TLSv1.2 TLS_RSA_WITH_3DES_EDE_CBC_SHA"])
    const [d, m] = await Promise.all([scan(des.port), scan(ref.port)])
    expect(d.cipher_suites).toEqual({ ssl3: [], tls1_0: ["TLS_RSA_WITH_3DES_EDE_CBC_SHA"], tls1_1: ["TLS_RSA_WITH_3DES_EDE_CBC_SHA"], tls1_2: ["TLS_RSA_WITH_3DES_EDE_CBC_SHA"], tls1_3: [] })
    expect(d.certificate).not.toBeNull()
    expect(d.certificate).toEqual(m.certificate)
    expect(d.certificate).toMatchObject({ subject: "CN=localhost", key_type: "RSA", key_bits: 2048, chain_trusted: true, hostname_match: true, sans: ["localhost", "127.0.0.1"] })
    expect(d.certificate.chain).toHaveLength(3)
    expect(d.certificate.days_left).toBeGreaterThan(0)
    expect(d.limitations.join("\n")).toContain("read from the Certificate message")
    expect(d.grade).not.toBe("T")
  }, 60_000)

  test("a TLS 1.0-only CBC server: the same certificate as a modern server, and as sslscan reads it", async () => {
    const leaf = lab.leaf("old", { names: ["localhost", "127.0.0.1"] })
    const old = await tls10(leaf)
    const ref = await modern(leaf)
    // The truth: s_client completes TLS 1.0 with a CBC suite and nothing newer.
    expect(sClient(old.port, ["-tls1", "-cipher", "AES128-SHA:@SECLEVEL=0"])?.cipher).toBe("TLS_RSA_WITH_AES_128_CBC_SHA")
    expect(sClient(old.port, ["-tls1_2"])).toBeNull()
    const [o, m] = await Promise.all([scan(old.port), scan(ref.port)])
    expect(o.protocols).toEqual({ ssl3: false, tls1_0: true, tls1_1: false, tls1_2: false, tls1_3: false })
    expect(o.certificate).not.toBeNull()
    expect(o.certificate).toEqual(m.certificate)
    const theirs = sslscan(old.port)
    expect(`CN=${theirs.subject}`).toBe(o.certificate.subject)
    expect(`CN=${theirs.issuer}`).toBe(o.certificate.issuer)
    expect(theirs.altnames).toBe(o.certificate.sans.map((n: string) => (/^[\d.]+$/.test(n) ? `IP Address:${n}` : `DNS:${n}`)).join(", "))
    expect(new Date(theirs.notAfter!).toISOString()).toBe(o.certificate.not_after)
    expect(Number(theirs.keyBits)).toBe(o.certificate.key_bits)
  }, 60_000)

  test("verdicts read off a TLS 1.0 handshake equal the runtime client's: expired and self-signed T, wrong name M, missing intermediate T", async () => {
    const cases = [
      { leaf: lab.leaf("lexpired", { names: ["localhost"], start: "20200101000000Z", end: "20200201000000Z" }), chain: true, grade: "T" },
      { leaf: lab.selfSigned("lself", ["localhost"]), chain: false, grade: "T" },
      { leaf: lab.leaf("lwrong", { names: ["other.example"] }), chain: true, grade: "M" },
      { leaf: lab.leaf("lalone", { names: ["localhost"] }), chain: false, grade: "T" }
    ]
    const pairs = await Promise.all(cases.map(async (c) => {
      const [o, m] = await Promise.all([tls10(c.leaf, c.chain), modern(c.leaf, c.chain)])
      return Promise.all([scan(o.port), scan(m.port)])
    }))
    for (const [i, [o, m]] of pairs.entries()) {
      expect(o.certificate).toEqual(m.certificate)
      expect([i, o.grade]).toEqual([i, cases[i].grade])
      expect([i, m.grade]).toEqual([i, cases[i].grade])
    }
    const [expired, self, wrong, alone] = pairs.map(([o]) => o.certificate)
    expect(expired).toMatchObject({ chain_trusted: false, hostname_match: true })
    expect(expired.days_left).toBeLessThan(0)
    expect(self).toMatchObject({ chain_trusted: false, chain: [expect.anything()] })
    expect(wrong).toMatchObject({ chain_trusted: true, hostname_match: false, sans: ["other.example"] })
    expect(alone).toMatchObject({ chain_trusted: false, chain: [expect.anything()] })
  }, 90_000)
})
