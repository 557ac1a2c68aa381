/**
 * GET /v1/security/tls against real `openssl s_server` configurations on loopback, each one's
 * truth confirmed with `openssl s_client`: the accepted set (every expected suite negotiates, and
 * a client offering everything but them is refused), the server's order, the certificate verdicts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { startService, type TestService } from "../support/service"
import { type Lab, makeLab, sClient, type SServer, startSServer } from "./lab"

let lab: Lab
let svc: TestService
let key: string
const servers: Array<SServer> = []

const LEGACY = "@SECLEVEL=0"
const MOZILLA_INTERMEDIATE =
  "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305"

beforeAll(async () => {
  lab = makeLab()
  svc = await startService({ extraCaCerts: Option.some(lab.rootPath) })
  key = (await svc.newKey("developer")).key
})
afterAll(async () => {
  for (const s of servers) s.stop()
  await svc?.stop()
})

const serve = async (args: ReadonlyArray<string>, leaf = lab.leaf(`l${servers.length}`, { names: ["localhost", "127.0.0.1"] }), chain = true) => {
  const s = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, ...(chain ? ["-cert_chain", lab.intermediatePath] : []), ...args])
  servers.push(s)
  return s
}

const scan = async (port: number, host = "localhost") => {
  const res = await svc.call(`/v1/security/tls?host=${host}&port=${port}`, { key })
  const body = await res.json() as any
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return body
}

/** s_client's truth for a TLS 1.2-and-older suite set: each negotiates, and nothing else does. */
const confirmLegacySet = (port: number, version: string, openSslNames: ReadonlyArray<string>, iana: ReadonlyArray<string>) => {
  for (const [i, n] of openSslNames.entries()) expect(sClient(port, [version, "-cipher", `${n}:${LEGACY}`])?.cipher).toBe(iana[i])
  expect(sClient(port, [version, "-cipher", `ALL:COMPLEMENTOFALL:${openSslNames.map((n) => `!${n}`).join(":")}:${LEGACY}`])).toBeNull()
}

describe("TLS configurations", () => {
  test("TLS 1.3 only: one protocol, its three default suites, its groups; grade A", async () => {
    const s = await serve(["-tls1_3"])
    const r = await scan(s.port)
    expect(r.protocols).toEqual({ ssl3: false, tls1_0: false, tls1_1: false, tls1_2: false, tls1_3: true })
    const suites13 = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"]
    expect([...r.cipher_suites.tls1_3].sort()).toEqual(suites13)
    for (const name of suites13) expect(sClient(s.port, ["-tls1_3", "-ciphersuites", name])?.cipher).toBe(name)
    expect(sClient(s.port, ["-tls1_3", "-ciphersuites", "TLS_AES_128_CCM_SHA256"])).toBeNull()
    expect(sClient(s.port, ["-tls1_2", "-cipher", `ALL:${LEGACY}`])).toBeNull()
    expect(r.key_exchange.groups).toEqual(expect.arrayContaining(["x25519", "secp256r1", "secp384r1", "ffdhe2048"]))
    expect(r.key_exchange.groups).not.toContain("X25519MLKEM768")
    expect(r.key_exchange.forward_secrecy).toBe(true)
    expect(r.features.secure_renegotiation).toBeNull()
    expect(r.features.fallback_scsv).toBeNull()
    expect(r.certificate.chain_trusted).toBe(true)
    expect(r.certificate.hostname_match).toBe(true)
    expect(r.certificate.ocsp_stapled).toBeNull()
    expect(r.grade).toBe("A")
  }, 20_000)

  test("Mozilla intermediate: TLS 1.2 and 1.3, the six RSA suites of the list, three groups, fallback SCSV", async () => {
    const s = await serve(["-no_tls1", "-no_tls1_1", "-cipher", MOZILLA_INTERMEDIATE, "-groups", "X25519:P-256:P-384"])
    const r = await scan(s.port)
    expect(r.protocols).toEqual({ ssl3: false, tls1_0: false, tls1_1: false, tls1_2: true, tls1_3: true })
    const rsa = ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305", "DHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES256-GCM-SHA384", "DHE-RSA-CHACHA20-POLY1305"]
    const iana = ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256"]
    expect([...r.cipher_suites.tls1_2].sort()).toEqual([...iana].sort())
    confirmLegacySet(s.port, "-tls1_2", rsa, iana)
    expect([...r.key_exchange.groups].sort()).toEqual(["secp256r1", "secp384r1", "x25519"])
    expect(r.server_preference).toBe(false)
    expect(r.features).toEqual({ secure_renegotiation: true, fallback_scsv: true, compression: false, heartbeat: false })
    expect(r.vulnerabilities).toEqual({ heartbleed: false })
    expect(r.certificate.ocsp_stapled).toBe(false)
    expect(r.grade).toBe("A")
    expect(r.score).toBeGreaterThanOrEqual(80)
  }, 20_000)

  test("old CBC server: TLS 1.0-1.2 with four SHA-1 CBC suites each; capped at B by the TLS 1.0/1.1 rule", async () => {
    const names = ["AES128-SHA", "AES256-SHA", "ECDHE-RSA-AES128-SHA", "DHE-RSA-AES256-SHA"]
    const iana = ["TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_DHE_RSA_WITH_AES_256_CBC_SHA"]
    const s = await serve(["-no_tls1_3", "-cipher", `${names.join(":")}:${LEGACY}`])
    const r = await scan(s.port)
    expect(r.protocols).toEqual({ ssl3: false, tls1_0: true, tls1_1: true, tls1_2: true, tls1_3: false })
    for (const [v, flag] of [["tls1_0", "-tls1"], ["tls1_1", "-tls1_1"], ["tls1_2", "-tls1_2"]] as const) {
      expect([...r.cipher_suites[v]].sort()).toEqual([...iana].sort())
      confirmLegacySet(s.port, flag, names, iana)
    }
    expect(r.features.fallback_scsv).toBe(true)
    expect(r.grade).toBe("B")
    expect(r.findings.map((f: any) => f.message).join("\n")).toContain('rating rule "TLS 1.0/1.1 supported"')
    expect(r.findings.map((f: any) => f.message).join("\n")).toContain('rating rule "no AEAD cipher suites"')
  }, 20_000)

  test("static RSA only: no forward secrecy caps at B", async () => {
    const names = ["AES128-GCM-SHA256", "AES256-GCM-SHA384", "AES128-SHA256"]
    const s = await serve(["-no_tls1_3", "-no_tls1", "-no_tls1_1", "-cipher", names.join(":")])
    const r = await scan(s.port)
    expect([...r.cipher_suites.tls1_2].sort()).toEqual(["TLS_RSA_WITH_AES_128_CBC_SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_256_GCM_SHA384"])
    confirmLegacySet(s.port, "-tls1_2", names, ["TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_256_GCM_SHA384", "TLS_RSA_WITH_AES_128_CBC_SHA256"])
    expect(r.key_exchange.forward_secrecy).toBe(false)
    expect(r.key_exchange.groups).toEqual([])
    expect(r.grade).toBe("B")
    expect(r.findings.some((f: any) => f.message.includes('rating rule "no forward secrecy"'))).toBe(true)
  }, 20_000)

  test("server order vs client order: the order is revealed and told apart", async () => {
    const order = ["ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-SHA", "ECDHE-RSA-AES128-GCM-SHA256"]
    const iana = ["TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]
    const server = await serve(["-no_tls1_3", "-no_tls1", "-no_tls1_1", "-serverpref", "-cipher", order.join(":")])
    const client = await serve(["-no_tls1_3", "-no_tls1", "-no_tls1_1", "-cipher", order.join(":")])
    // The truth: offered in reverse, the first server keeps its pick and the second takes the client's.
    const reversed = [...order].reverse().join(":")
    expect(sClient(server.port, ["-tls1_2", "-cipher", reversed])?.cipher).toBe(iana[0])
    expect(sClient(client.port, ["-tls1_2", "-cipher", reversed])?.cipher).toBe(iana[2])
    const [rs, rc] = await Promise.all([scan(server.port), scan(client.port)])
    expect(rs.server_preference).toBe(true)
    expect(rs.cipher_suites.tls1_2).toEqual(iana)
    expect(rc.server_preference).toBe(false)
    expect([...rc.cipher_suites.tls1_2].sort()).toEqual([...iana].sort())
  }, 20_000)

  test("certificates: expired and self-signed are T, a wrong name is M, a missing intermediate is T", async () => {
    const expired = await serve([], lab.leaf("expired", { names: ["localhost"], start: "20200101000000Z", end: "20200201000000Z" }))
    const self = await serve([], lab.selfSigned("self", ["localhost"]), false)
    const wrong = await serve([], lab.leaf("wrong", { names: ["other.example"] }))
    const missing = await serve([], lab.leaf("alone", { names: ["localhost"] }), false)
    // The truth, from s_client's verification against the same root.
    const verify = (port: number) => {
      const out = Bun.spawnSync(["openssl", "s_client", "-connect", `127.0.0.1:${port}`, "-servername", "localhost", "-verify_hostname", "localhost", "-CAfile", lab.rootPath, "-brief"], { stdin: new Uint8Array(0) })
      return `${out.stdout}${out.stderr}`
    }
    expect(verify(expired.port)).toContain("certificate has expired")
    expect(verify(self.port)).toMatch(/self-signed certificate/)
    expect(verify(wrong.port)).toContain("hostname mismatch")
    expect(verify(missing.port)).toContain("unable to get local issuer certificate")
    const [e, s, w, m] = await Promise.all([scan(expired.port), scan(self.port), scan(wrong.port), scan(missing.port)])
    expect(e.grade).toBe("T")
    expect(e.certificate.chain_trusted).toBe(false)
    expect(e.certificate.days_left).toBeLessThan(0)
    expect(s.grade).toBe("T")
    expect(s.certificate.chain).toHaveLength(1)
    expect(w.grade).toBe("M")
    expect(w.certificate).toMatchObject({ chain_trusted: true, hostname_match: false, sans: ["other.example"] })
    expect(m.grade).toBe("T")
    expect(m.certificate.chain).toHaveLength(1)
    expect(m.certificate.chain_trusted).toBe(false)
    // A trusted, matching certificate on the same PKI is not T: the verdicts are the certificate's.
    expect(e.protocols.tls1_3).toBe(true)
  }, 30_000)
})
