/**
 * ALPN, HTTP/3 and key exchange groups of GET /v1/security/tls against real servers on loopback:
 * `openssl s_server` (its `-alpn` and `-groups`), Bun's own TLS stack in a child process
 * (`Bun.serve`, whose BoringSSL accepts X25519MLKEM768; `node:http2` with h2 and http/1.1), and
 * the DNS lab (NSD behind Unbound) serving HTTPS records (RFC 9460). Each server's truth comes
 * from a client that completes a real handshake: `openssl s_client -alpn`/`-groups`, and Bun's
 * TLS client restricted to one group (`ecdhCurve`) for the post-quantum group OpenSSL 3.0 lacks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { spawnSync } from "node:child_process"
import * as tls from "node:tls"
import { parseResolverList } from "../../src/platform/Config"
import { startLab, type Lab as DnsLab } from "../dns/lab"
import { startService, type TestService } from "../support/service"
import { type Lab, type Leaf, makeLab, type SServer, startBunServer, startSServer } from "./lab"

let lab: Lab
let leaf: Leaf
let svc: TestService
let key: string
const servers: Array<SServer> = []

beforeAll(async () => {
  lab = makeLab()
  leaf = lab.leaf("alpn", { names: ["localhost", "127.0.0.1"] })
  svc = await startService({ extraCaCerts: Option.some(lab.rootPath) })
  key = (await svc.newKey("developer")).key
})
afterAll(async () => {
  for (const s of servers) s.stop()
  await svc?.stop()
})

const scanWith = async (service: TestService, apiKey: string, host: string, port: number) => {
  const res = await service.call(`/v1/security/tls?host=${host}&port=${port}`, { key: apiKey })
  const body = await res.json() as any
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return body
}
const scan = (port: number) => scanWith(svc, key, "localhost", port)

const sServer = async (args: ReadonlyArray<string>) => {
  const s = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, "-cert_chain", lab.intermediatePath, ...args])
  servers.push(s)
  return s
}
const bunServer = async (spec: Parameters<typeof startBunServer>[2]) => {
  const s = await startBunServer(lab, leaf, spec)
  servers.push(s)
  return s
}

/** s_client's truth: the protocol the server selected for this one offer, or null. */
const alpnTruth = (port: number, offer: string, extra: ReadonlyArray<string> = []): string | null => {
  const r = spawnSync("openssl", ["s_client", "-connect", `127.0.0.1:${port}`, "-servername", "localhost", "-alpn", offer, ...extra], { input: "", encoding: "utf8", timeout: 10_000 })
  const text = `${r.stdout}${r.stderr}`
  // RFC 7301 §3.2: a server with no protocol in common may refuse with this alert.
  if (/alert no application protocol/.test(text)) return null
  if (!/Cipher is (?!\(NONE\))/.test(text)) throw new Error(`no handshake with ${port}: ${text.slice(-300)}`)
  return /ALPN protocol: (\S+)/.exec(text)?.[1] ?? null
}
const truth = (port: number, extra: ReadonlyArray<string> = []) => {
  const h2 = alpnTruth(port, "h2", extra)
  const h1 = alpnTruth(port, "http/1.1", extra)
  return { http2: h2 === "h2", http1_1: h1 === "http/1.1", negotiated: [...new Set([h2, h1].filter((x) => x !== null))] }
}

/** A full handshake by Bun's TLS client offering only `group` (an OpenSSL group name): does the server accept it? */
const acceptsGroup = (port: number, group: string) =>
  new Promise<boolean>((resolve) => {
    const s = tls.connect({ host: "127.0.0.1", port, servername: "localhost", ecdhCurve: group, rejectUnauthorized: false, minVersion: "TLSv1.3" })
    s.once("secureConnect", () => { s.destroy(); resolve(true) })
    s.once("error", () => { s.destroy(); resolve(false) })
  })

describe("ALPN: h2 and http/1.1, each offered alone", () => {
  test("openssl s_server with -alpn, over TLS 1.2 (plaintext ServerHello) and TLS 1.3 only (a full handshake)", async () => {
    const configs = [
      { args: ["-alpn", "h2,http/1.1"], want: { http2: true, http1_1: true, negotiated: ["h2", "http/1.1"] } },
      { args: ["-alpn", "h2"], want: { http2: true, http1_1: false, negotiated: ["h2"] } },
      { args: ["-alpn", "http/1.1", "-no_tls1_3"], want: { http2: false, http1_1: true, negotiated: ["http/1.1"] } },
      { args: ["-alpn", "h2", "-tls1_3"], want: { http2: true, http1_1: false, negotiated: ["h2"] } },
      { args: ["-alpn", "http/1.1", "-tls1_3"], want: { http2: false, http1_1: true, negotiated: ["http/1.1"] } },
      { args: [], want: { http2: false, http1_1: false, negotiated: [] } }
    ]
    const started = await Promise.all(configs.map((c) => sServer(c.args)))
    const reports = await Promise.all(started.map((s) => scan(s.port)))
    for (const [i, c] of configs.entries()) {
      expect([c.args, truth(started[i].port)]).toEqual([c.args, c.want])
      expect([c.args, reports[i].alpn]).toEqual([c.args, c.want])
    }
    expect(reports[3].protocols.tls1_2).toBe(false)
  }, 60_000)

  test("Bun's node:http2 server (h2 and http/1.1) and Bun.serve (no ALPN at all: false, false, [])", async () => {
    const h2 = await bunServer({ kind: "http2" })
    const plain = await bunServer({ kind: "serve" })
    expect(truth(h2.port)).toEqual({ http2: true, http1_1: true, negotiated: ["h2", "http/1.1"] })
    expect(truth(plain.port)).toEqual({ http2: false, http1_1: false, negotiated: [] })
    const [a, b] = await Promise.all([scan(h2.port), scan(plain.port)])
    expect(a.alpn).toEqual({ http2: true, http1_1: true, negotiated: ["h2", "http/1.1"] })
    expect(b.alpn).toEqual({ http2: false, http1_1: false, negotiated: [] })
  }, 60_000)
})

describe("HTTP/3 from Alt-Svc", () => {
  test("h3 in Alt-Svc is advertised; a draft (h3-29) or no Alt-Svc is not", async () => {
    const h3 = await bunServer({ kind: "serve", headers: { "alt-svc": 'h3=":443"; ma=86400' } })
    const draft = await bunServer({ kind: "http2", headers: { "alt-svc": 'h3-29=":443"; ma=86400, h2=":443"' } })
    const none = await sServer([])
    const [a, b, c] = await Promise.all([scan(h3.port), scan(draft.port), scan(none.port)])
    expect(a.http3).toEqual({ advertised: true, alt_svc: 'h3=":443"; ma=86400' })
    expect(b.http3).toEqual({ advertised: false, alt_svc: 'h3-29=":443"; ma=86400, h2=":443"' })
    expect(c.http3).toEqual({ advertised: false, alt_svc: null })
    for (const r of [a, b, c]) expect(r.limitations.join("\n")).not.toContain("Alt-Svc were not read")
  }, 60_000)
})

describe("HTTP/3 from the origin's HTTPS DNS record (RFC 9460)", () => {
  let dns: DnsLab
  let dnsSvc: TestService
  let dnsKey: string
  let port: number

  beforeAll(async () => {
    const s = await sServer([])
    port = s.port
    const n = 1 + Math.floor(Math.random() * 250)
    dns = await startLab({
      n,
      zones: [{
        name: "h3.lab",
        ns: [`127.53.${n}.1`, `127.53.${n}.2`],
        records: [
          "www A 127.0.0.1", `_${port}._https.www HTTPS 1 . alpn="h3,h2"`,
          "plain A 127.0.0.1", `_${port}._https.plain HTTPS 1 . alpn="h2"`,
          "alias A 127.0.0.1", `_${port}._https.alias HTTPS 0 www.h3.lab.`,
          "none A 127.0.0.1"
        ]
      }]
    })
    dnsSvc = await startService({ extraCaCerts: Option.some(lab.rootPath), dnsResolvers: parseResolverList(dns.resolver), allowPrivateTargets: true })
    dnsKey = (await dnsSvc.newKey("developer")).key
  }, 60_000)
  afterAll(async () => {
    await dnsSvc?.stop()
    await dns?.stop()
  })

  test("alpn=h3,h2 at _<port>._https.<host> is advertised; alpn=h2, AliasMode and no record are not", async () => {
    const [www, plain, alias, none] = await Promise.all(["www", "plain", "alias", "none"].map((h) => scanWith(dnsSvc, dnsKey, `${h}.h3.lab`, port)))
    expect(www.http3).toEqual({ advertised: true, alt_svc: null })
    expect(plain.http3).toEqual({ advertised: false, alt_svc: null })
    expect(alias.http3).toEqual({ advertised: false, alt_svc: null })
    expect(none.http3).toEqual({ advertised: false, alt_svc: null })
    for (const r of [www, plain, alias, none]) expect(r.limitations.join("\n")).not.toContain("HTTPS DNS record")
  }, 60_000)
})

describe("key exchange groups, post-quantum included", () => {
  test("Bun's TLS (BoringSSL) accepts X25519MLKEM768: listed, post_quantum true", async () => {
    const s = await bunServer({ kind: "serve" })
    // The truth: Bun's TLS client offering one group at a time completes a handshake for exactly these.
    const names: Record<string, string> = { X25519MLKEM768: "X25519MLKEM768", X25519: "x25519", "P-256": "secp256r1", "P-384": "secp384r1", "P-521": "secp521r1" }
    const accepted: Array<string> = []
    for (const [openssl, iana] of Object.entries(names)) if (await acceptsGroup(s.port, openssl)) accepted.push(iana)
    expect(accepted).toEqual(["X25519MLKEM768", "x25519", "secp256r1", "secp384r1"])
    const r = await scan(s.port)
    expect(r.key_exchange.groups).toEqual(accepted)
    expect(r.key_exchange.post_quantum).toBe(true)
    expect(r.findings.some((f: any) => f.message.includes("no post-quantum"))).toBe(false)
  }, 60_000)

  test("a server accepting only x25519, and one accepting only secp384r1: post_quantum false", async () => {
    const x = await sServer(["-groups", "X25519"])
    const p = await sServer(["-groups", "P-384"])
    expect(await acceptsGroup(x.port, "X25519MLKEM768")).toBe(false)
    expect(await acceptsGroup(x.port, "X25519")).toBe(true)
    expect(await acceptsGroup(p.port, "P-384")).toBe(true)
    expect(await acceptsGroup(p.port, "X25519")).toBe(false)
    const [rx, rp] = await Promise.all([scan(x.port), scan(p.port)])
    expect(rx.key_exchange).toEqual({ groups: ["x25519"], forward_secrecy: true, post_quantum: false })
    expect(rp.key_exchange).toEqual({ groups: ["secp384r1"], forward_secrecy: true, post_quantum: false })
  }, 60_000)
})
