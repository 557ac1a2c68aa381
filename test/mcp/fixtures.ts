/**
 * Local targets for the MCP tool tests: a dns-packet DNS server naming them, HTTPS servers with
 * certificates from a test CA (trusted through NODE_EXTRA_CA_CERTS) and a self-signed one,
 * servers with good and weak security headers, an RDAP registry + registrar, and a crt.sh
 * stand-in behind the CT aggregator.
 */
import { Option } from "effect"
import type { AppConfigShape } from "../../src/platform/Config"
import { type FakeCrtSh, makeRows, startCrtSh } from "../ct/crtsh"
import { ROOT_RECORDS, startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { makePki, type TestPki } from "../support/tls"

export const goodHeaders = {
  "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
  "content-security-policy": "default-src 'self'; script-src 'self' 'nonce-r4nd0m'; object-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()"
}

export const weakHeaders = {
  "strict-transport-security": "max-age=60",
  "content-security-policy": "script-src 'self' 'unsafe-inline'; object-src 'none'",
  "x-frame-options": "ALLOW-FROM https://partner.example",
  "referrer-policy": "unsafe-url",
  "permissions-policy": "camera=*"
}

/** RDATA of an HTTPS record: priority 1, target ".", alpn=h2,h3, port=443, ipv4hint=127.0.0.1 (RFC 9460). */
export const httpsRdata = Buffer.from([
  0x00, 0x01, 0x00,
  0x00, 0x01, 0x00, 0x06, 0x02, 0x68, 0x32, 0x02, 0x68, 0x33,
  0x00, 0x03, 0x00, 0x02, 0x01, 0xbb,
  0x00, 0x04, 0x00, 0x04, 127, 0, 0, 1
])

/** An SCT list extension with two (opaque) SCTs, as openssl -extfile DER. */
const sctExtension = "1.3.6.1.4.1.11129.2.4.2=DER:04:0E:00:0C:00:04:AA:BB:CC:DD:00:04:11:22:33:44"

type BunServer = ReturnType<typeof Bun.serve>

export interface Fixtures {
  readonly pki: TestPki
  readonly dns: TestDnsServer
  readonly good: BunServer
  readonly weak: BunServer
  readonly selfSigned: BunServer
  readonly plain: BunServer
  /** Plain-http page behind a CDN (Cloudflare-like headers) with dated metadata, at site.test. */
  readonly site: BunServer
  readonly rdap: BunServer
  readonly rdapHits: Map<string, number>
  /** crt.sh stand-in behind the CT aggregator: good.test has 3 certificates, self.test answers 502. */
  readonly crtsh: FakeCrtSh
  /** Config overrides for startService. */
  readonly config: Partial<AppConfigShape>
  readonly closedPort: number
  readonly stop: () => Promise<void>
}

const rdapDomain = (name: string, extra: Record<string, unknown>) => ({
  rdapConformance: ["rdap_level_0"],
  objectClassName: "domain",
  handle: `${name.toUpperCase()}-TEST`,
  ldhName: name.toUpperCase(),
  ...extra
})

const vcard = (props: Array<[string, Record<string, unknown>, string, string]>) => ["vcard", [["version", {}, "text", "4.0"], ...props]]

export const startFixtures = async (): Promise<Fixtures> => {
  const pki = makePki()
  const goodCert = pki.leaf(["good.test"], { extraExt: sctExtension })
  const weakCert = pki.leaf(["weak.test"])
  const selfCert = pki.selfSigned(["self.test"])

  const https = (cert: { cert: string; key: string }, headers: Record<string, string>) =>
    Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      tls: { cert: cert.cert, key: cert.key },
      fetch: () => new Response("<html><body>hello</body></html>", { headers: { "content-type": "text/html", ...headers } })
    })
  const good = https(goodCert, goodHeaders)
  const weak = https(weakCert, weakHeaders)
  const selfSigned = https(selfCert, {})
  // Plain HTTP that upgrades to the good HTTPS server.
  const plain = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(null, { status: 301, headers: { location: `https://good.test:${good.port}/` } })
  })

  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        `<!doctype html><html><head><title>News</title>
<meta property="article:published_time" content="2026-10-01T08:00:00Z">
<meta property="article:modified_time" content="2026-11-15T09:30:00Z">
</head><body><article><time datetime="2026-11-15">15 November 2026</time><p>Fresh news.</p></article></body></html>`,
        {
          headers: {
            "content-type": "text/html; charset=utf-8",
            server: "cloudflare",
            "cf-ray": "8e2f1a2b3c4d5e6f-AMS",
            "cf-cache-status": "HIT",
            "cache-control": "public, max-age=300",
            "last-modified": "Sun, 15 Nov 2026 09:30:00 GMT",
            "strict-transport-security": "max-age=31536000"
          }
        }
      )
  })

  // A port with nothing listening.
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") })
  const closedPort = probe.port!
  probe.stop(true)

  const rdapHits = new Map<string, number>()
  const rdap: BunServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req): Response => {
      const url = new URL(req.url)
      rdapHits.set(url.pathname, (rdapHits.get(url.pathname) ?? 0) + 1)
      const base: string = `http://127.0.0.1:${rdap.port}`
      const json = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), { status, headers: { "content-type": "application/rdap+json" } })
      switch (url.pathname) {
        case "/bootstrap/dns.json":
          return json({
            version: "1.0",
            publication: "2026-11-01T00:00:00Z",
            description: "test bootstrap",
            services: [[["test", "example"], [`${base}/registry/`]]]
          })
        case "/registry/domain/example.test":
          return json(rdapDomain("example.test", {
            status: ["client transfer prohibited", "server delete prohibited"],
            events: [
              { eventAction: "registration", eventDate: "2001-02-03T04:05:06Z" },
              { eventAction: "expiration", eventDate: "2031-02-03T04:05:06Z" },
              { eventAction: "last changed", eventDate: "2025-05-06T07:08:09Z" },
              { eventAction: "last update of RDAP database", eventDate: "2026-11-20T00:00:00Z" }
            ],
            nameservers: [{ objectClassName: "nameserver", ldhName: "NS1.EXAMPLE.TEST" }, { objectClassName: "nameserver", ldhName: "ns2.example.test" }],
            secureDNS: { delegationSigned: true, dsData: [{ keyTag: 12345, algorithm: 13, digestType: 2, digest: "49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE" }] },
            entities: [{
              objectClassName: "entity",
              handle: "9999",
              roles: ["registrar"],
              publicIds: [{ type: "IANA Registrar ID", identifier: "9999" }],
              vcardArray: vcard([["fn", {}, "text", "Test Registrar Inc."]])
            }],
            links: [
              { value: `${base}/registry/domain/example.test`, rel: "self", href: `${base}/registry/domain/example.test`, type: "application/rdap+json" },
              { value: `${base}/registry/domain/example.test`, rel: "related", href: `${base}/registrar/domain/example.test`, type: "application/rdap+json" }
            ]
          }))
        case "/registrar/domain/example.test":
          return json(rdapDomain("example.test", {
            status: ["client transfer prohibited"],
            events: [{ eventAction: "registration", eventDate: "2001-02-03T04:05:06Z" }],
            entities: [{
              objectClassName: "entity",
              roles: ["registrar"],
              vcardArray: vcard([["fn", {}, "text", "Test Registrar Inc."], ["url", {}, "uri", "https://registrar.test/"]]),
              entities: [{
                objectClassName: "entity",
                roles: ["abuse"],
                vcardArray: vcard([
                  ["fn", {}, "text", "Abuse Desk"],
                  ["email", {}, "text", "abuse@registrar.test"],
                  ["tel", { type: "voice" }, "uri", "tel:+1.5555550100"]
                ])
              }]
            }]
          }))
        case "/registry/domain/broken.example":
          return json(rdapDomain("broken.example", {
            status: ["active"],
            events: [{ eventAction: "registration", eventDate: "2020-01-01T00:00:00Z" }],
            secureDNS: { delegationSigned: false },
            links: [{ rel: "related", href: `http://127.0.0.1:${closedPort}/domain/broken.example`, type: "application/rdap+json" }]
          }))
        case "/registry/domain/garbage.test":
          return new Response("<html>not rdap</html>", { headers: { "content-type": "text/html" } })
        default:
          return json({ errorCode: 404, title: "Not Found" }, 404)
      }
    }
  })

  const crtsh = startCrtSh()
  crtsh.set("good.test", { kind: "rows", rows: makeRows("good.test", 3, { firstId: 5000 }) })
  crtsh.set("self.test", { kind: "status", status: 502 })

  const dns = await startDnsServer({
    ...ROOT_RECORDS,
    "good.test": {
      A: ["127.0.0.1"],
      MX: [{ preference: 10, exchange: "mail.good.test" }],
      TXT: [["v=spf1 -all"]],
      CAA: [{ flags: 0, tag: "issue", value: "ca.test" }],
      NS: ["ns1.good.test"],
      SOA: [{ mname: "ns1.good.test", rname: "hostmaster.good.test", serial: 2026112301, refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600 }],
      UNKNOWN_65: [httpsRdata]
    },
    "_sip._tcp.good.test": { SRV: [{ priority: 10, weight: 5, port: 5060, target: "sip.good.test" }] },
    "weak.test": { A: ["127.0.0.1"] },
    "site.test": { A: ["127.0.0.1"] },
    "ns1.good.test": { A: ["127.0.0.1"] },
    "self.test": { A: ["127.0.0.1"] },
    "mismatch.test": { A: ["127.0.0.1"] },
    "1.0.0.127.in-addr.arpa": { PTR: ["good.test"] }
  })

  return {
    pki,
    dns,
    good,
    weak,
    selfSigned,
    plain,
    site,
    rdap,
    rdapHits,
    crtsh,
    closedPort,
    config: {
      dnsResolvers: [{ host: "127.0.0.1", port: dns.port }],
      // zone_hygiene asks the "authoritative" ns1.good.test (127.0.0.1) on the same test server.
      dnsAuthPort: dns.port,
      extraCaCerts: Option.some(pki.caCertPath),
      rdapBootstrapUrl: `http://127.0.0.1:${rdap.port}/bootstrap/dns.json`,
      allowPrivateTargets: true,
      ctAggregatorUrl: crtsh.url,
      ctBudgetMs: 1500
    },
    stop: async () => {
      for (const s of [good, weak, selfSigned, plain, site, rdap]) s.stop(true)
      await dns.close()
      await crtsh.stop()
    }
  }
}
