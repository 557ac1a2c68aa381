/**
 * The email-security lab: the DNS lab (NSD + Unbound, signed private root, test/dns/lab.ts) with
 * one zone per planted property, an HTTPS server for the MTA-STS policies (certificates from a
 * test CA; a second one with a self-signed certificate), and SMTP listeners on the MX addresses:
 * one offering STARTTLS with a CA-signed certificate, one sending garbage, one silent.
 * MTA-STS policies are served on port 443 of a lab address (the policy URL has no port); SMTP on
 * one random port shared by every MX address (the service's SMTP_PORT).
 */
import { generateKeyPairSync } from "node:crypto"
import * as net from "node:net"
import * as tls from "node:tls"
import { startLab, type Lab, type ZoneSpec } from "../../dns/lab"
import { makePki, type TestPki } from "../../support/tls"

export interface MailLab {
  readonly lab: Lab
  readonly pki: TestPki
  readonly smtpPort: number
  readonly stop: () => Promise<void>
}

/** A DKIM TXT value for a fresh RSA key of `bits`, split into zone-file character-strings. */
export const dkimRecord = (bits: number, extra = "") => {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: bits })
  const p = publicKey.export({ type: "spki", format: "der" }).toString("base64")
  const value = `v=DKIM1; k=rsa;${extra} p=${p}`
  return (value.match(/.{1,200}/g) ?? []).map((c) => `"${c}"`).join(" ")
}

const TLSA_HASH = "8f".repeat(32)

export const mailZones = (n: number): ReadonlyArray<ZoneSpec> => {
  const a = (h: number) => `127.53.${n}.${h}`
  const ns = [a(1), a(2)]
  const web = a(80) // MTA-STS HTTPS (CA-signed)
  const badWeb = a(81) // MTA-STS HTTPS (self-signed)
  const mx = (zone: string, ip = a(25)) => ["@ MX 10 mx1", "@ MX 20 mx2", `mx1 A ${ip}`, `mx2 A ${ip}`, `mta-sts A ${zone === "stsbadcert" ? badWeb : web}`]
  const sts = (id = "20260101") => `_mta-sts TXT "v=STSv1; id=${id}"`
  const good = (zone: string, extra: ReadonlyArray<string> = []) => [
    ...mx(zone),
    `@ TXT "v=spf1 mx ip4:192.0.2.0/24 -all"`,
    `_dmarc TXT "v=DMARC1; p=reject; rua=mailto:dmarc@${zone}.lab"`,
    `selector1._domainkey TXT ${dkimRecord(2048)}`,
    sts(),
    `_smtp._tls TXT "v=TLSRPTv1; rua=mailto:tls@${zone}.lab"`,
    ...extra
  ]
  const zone = (name: string, records: ReadonlyArray<string>, signed = false): ZoneSpec =>
    ({ name: `${name}.lab`, ns, caa: true, records, ...(signed ? { algorithm: "ECDSAP256SHA256" } : {}) })
  return [
    zone("good", good("good", [
      `default._bimi TXT "v=BIMI1; l=https://good.lab/logo.svg; a=https://good.lab/vmc.pem"`,
      `custom2024._domainkey TXT ${dkimRecord(2048)}`,
      `_25._tcp.mx1 TLSA 3 1 1 ${TLSA_HASH}`,
      `_25._tcp.mx2 TLSA 2 1 1 ${TLSA_HASH}`
    ]), true),
    // The bench's fully configured domain: two MX, SPF with two includes, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI, DANE.
    zone("full", [...good("full", [
      `default._bimi TXT "v=BIMI1; l=https://full.lab/logo.svg; a=https://full.lab/vmc.pem"`,
      `_25._tcp.mx1 TLSA 3 1 1 ${TLSA_HASH}`,
      `_25._tcp.mx2 TLSA 3 1 1 ${TLSA_HASH}`,
      `_spf1 TXT "v=spf1 ip4:192.0.2.0/24 -all"`,
      `_spf2 TXT "v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/32 -all"`
    ]).filter((r) => !r.startsWith("@ TXT")), `@ TXT "v=spf1 mx include:_spf1.full.lab include:_spf2.full.lab -all"`], true),
    zone("nospf", ["@ MX 10 mx1", `mx1 A ${a(25)}`, `_dmarc TXT "v=DMARC1; p=reject; rua=mailto:d@nospf.lab"`]),
    zone("plusall", [...good("plusall").filter((r) => !r.startsWith("@ TXT")), `@ TXT "v=spf1 +all"`]),
    zone("toomany", [...good("toomany").filter((r) => !r.startsWith("@ TXT")), `@ TXT "v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i}.toomany.lab`).join(" ")} -all"`,
      ...Array.from({ length: 11 }, (_, i) => `h${i} A 192.0.2.${i + 1}`)]),
    zone("voids", [...good("voids").filter((r) => !r.startsWith("@ TXT")), `@ TXT "v=spf1 a:nx1.voids.lab a:nx2.voids.lab a:nx3.voids.lab -all"`]),
    zone("nodmarc", good("nodmarc").filter((r) => !r.startsWith("_dmarc"))),
    zone("pnone", [...good("pnone").filter((r) => !r.startsWith("_dmarc")), `_dmarc TXT "v=DMARC1; p=none; rua=mailto:d@pnone.lab"`]),
    // sub.inherit.lab has no _dmarc of its own: the organizational domain's record applies (sp=quarantine).
    zone("inherit", [...good("inherit").filter((r) => !r.startsWith("_dmarc")), "sub MX 10 mx1", `_dmarc TXT "v=DMARC1; p=reject; sp=quarantine; rua=mailto:d@inherit.lab"`]),
    zone("extauth", [...good("extauth").filter((r) => !r.startsWith("_dmarc")), `_dmarc TXT "v=DMARC1; p=reject; rua=mailto:agg@reports.lab"`]),
    zone("extunauth", [...good("extunauth").filter((r) => !r.startsWith("_dmarc")), `_dmarc TXT "v=DMARC1; p=reject; rua=mailto:agg@reports.lab"`]),
    zone("reports", ["@ MX 10 mx1", `mx1 A ${a(25)}`, `extauth.lab._report._dmarc TXT "v=DMARC1"`]),
    zone("dkimbad", [...good("dkimbad").filter((r) => !r.includes("_domainkey")),
      `selector1._domainkey TXT ${dkimRecord(2048, " t=y;")}`, `s2._domainkey TXT "v=DKIM1; k=rsa; p="`, `k1._domainkey TXT ${dkimRecord(1024)}`]),
    zone("stsmismatch", [...good("stsmismatch")]),
    zone("stsbad", [...good("stsbad")]),
    zone("stsredirect", [...good("stsredirect")]),
    zone("stshuge", [...good("stshuge")]),
    zone("stsslow", [...good("stsslow")]),
    zone("stsbadcert", [...good("stsbadcert")]),
    zone("nullmx", ["@ MX 0 ."]),
    zone("nullmxok", ["@ MX 0 .", `@ TXT "v=spf1 -all"`, `_dmarc TXT "v=DMARC1; p=reject;"`]),
    // A null MX with ~all: an info finding on spf (softfail) beside the mx finding.
    zone("nullmxbad", ["@ MX 0 .", `@ TXT "v=spf1 ~all"`]),
    // The only DKIM key is revoked: an info finding (revoked) and a low one (no live key).
    zone("dkimrevoked", [...good("dkimrevoked").filter((r) => !r.includes("_domainkey")), `selector1._domainkey TXT "v=DKIM1; k=rsa; p="`]),
    zone("bimibad", [...good("bimibad"), `default._bimi TXT "v=BIMI1; l=http://bimibad.lab/logo.png"`]),
    zone("rptbad", [...good("rptbad").filter((r) => !r.startsWith("_smtp._tls")), `_smtp._tls TXT "v=TLSRPTv1; rua=ftp://x"`]),
    zone("daneinsecure", [...good("daneinsecure"), `_25._tcp.mx1 TLSA 3 1 1 ${TLSA_HASH}`]),
    zone("smtpbad", [...good("smtpbad").filter((r) => !/^mx[12] A/.test(r)), `mx1 A ${a(26)}`, `mx2 A ${a(27)}`]),
    // Loaded by nothing: NSD cannot parse it, so the zone answers SERVFAIL (the target's broken DNS).
    { name: "broken.lab", ns, caa: true, algorithm: "ECDSAP256SHA256", records: ["@ MX 10 mx1"], tamper: () => "this is not a zone file\n" }
  ]
}

const policy = (mx: ReadonlyArray<string>, mode = "enforce") => `version: STSv1\r\nmode: ${mode}\r\n${mx.map((m) => `mx: ${m}\r\n`).join("")}max_age: 604800\r\n`

/** The policy each lab domain serves (by Host). */
const policyResponse = async (host: string): Promise<Response> => {
  const zone = host.replace(/^mta-sts\./, "").replace(/\.lab$/, "")
  const text = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } })
  switch (zone) {
    case "stsmismatch": return text(policy(["mail.elsewhere.example"]))
    case "stsbad": return text("version: STSv2\r\nmode: sometimes\r\n")
    case "stsredirect": return new Response(null, { status: 301, headers: { location: "https://mta-sts.good.lab/.well-known/mta-sts.txt" } })
    case "stshuge": return text(policy([`mx1.${zone}.lab`, `mx2.${zone}.lab`]) + "#".repeat(100 * 1024))
    case "stsslow": {
      await Bun.sleep(30_000)
      return text(policy([`*.${zone}.lab`]))
    }
    default: return text(policy([`mx1.${zone}.lab`, `*.${zone}.lab`]))
  }
}

const smtpGood = (pki: TestPki) => {
  const leaf = pki.leaf(["mx1.good.lab", "mx2.good.lab", ...mailZones(0).map((z) => `mx1.${z.name}`), ...mailZones(0).map((z) => `mx2.${z.name}`)])
  const context = tls.createSecureContext({ cert: leaf.cert, key: leaf.key })
  return net.createServer((socket) => {
    socket.write("220 mx.lab ESMTP test\r\n")
    let buf = ""
    const onData = (d: Buffer) => {
      buf += d.toString("latin1")
      let nl: number
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim()
        buf = buf.slice(nl + 1)
        if (/^EHLO/i.test(line)) socket.write("250-mx.lab\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 8BITMIME\r\n")
        else if (/^STARTTLS/i.test(line)) {
          socket.off("data", onData)
          socket.write("220 2.0.0 Ready to start TLS\r\n", () => {
            const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: context })
            secure.on("data", (x) => { if (/QUIT/i.test(x.toString())) secure.end("221 bye\r\n") })
            secure.on("error", () => socket.destroy())
          })
          return
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n")
        else socket.write("502 5.5.2 unknown\r\n")
      }
    }
    socket.on("data", onData)
    socket.on("error", () => {})
  })
}

const listen = (srv: net.Server, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    srv.once("error", reject)
    srv.listen(port, host, () => resolve((srv.address() as net.AddressInfo).port))
  })

export const startMailLab = async (opts: { n?: number; port?: number } = {}): Promise<MailLab> => {
  const n = opts.n ?? 100 + Math.floor(Math.random() * 150)
  const a = (h: number) => `127.53.${n}.${h}`
  const lab = await startLab({ n, port: opts.port, zones: mailZones(n) })
  const pki = makePki()
  const names = mailZones(n).map((z) => `mta-sts.${z.name}`)
  const leaf = pki.leaf(names)
  const self = pki.selfSigned(["mta-sts.stsbadcert.lab"])
  const fetchHandler = (req: Request) => policyResponse(new URL(req.url).hostname)
  const web = Bun.serve({ hostname: a(80), port: 443, tls: { cert: leaf.cert, key: leaf.key }, fetch: fetchHandler, idleTimeout: 60 })
  const badWeb = Bun.serve({ hostname: a(81), port: 443, tls: { cert: self.cert, key: self.key }, fetch: fetchHandler })
  const good = smtpGood(pki)
  const smtpPort = await listen(good, a(25), 0)
  // Hostile MX hosts on the same port: one answers garbage without end, one never speaks.
  const garbage = net.createServer((s) => {
    s.on("error", () => {})
    const spew = () => { if (!s.destroyed) s.write("x".repeat(4096), () => setTimeout(spew, 5)) }
    spew()
  })
  const silent = net.createServer((s) => { s.on("error", () => {}) })
  await listen(garbage, a(26), smtpPort)
  await listen(silent, a(27), smtpPort)
  const stop = async () => {
    web.stop(true)
    badWeb.stop(true)
    for (const s of [good, garbage, silent]) s.close()
    await lab.stop()
  }
  return { lab, pki, smtpPort, stop }
}
