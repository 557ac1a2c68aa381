/**
 * The audit world's web and mail servers, on the addresses of zones.ts, ports 80, 443 and 25:
 * Bun servers that answer per Host as the planted sites do, SMTP listeners (one offering
 * STARTTLS, one not), a server that takes connections and never answers. Certificates from the
 * world's test CA (a self-signed one for the site that must fail HTTPS).
 */
import * as net from "node:net"
import * as tls from "node:tls"
import type { TestPki } from "../../../support/tls"
import { ADDR, DOMAINS } from "./zones"

const DAY = 86_400_000
// Fixed for the life of the world, so two audits of a site read the same file.
const STARTED = Date.now()

/** The page of a site, the same over both families. */
export const page = (host: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${host}</title></head>` +
  `<body><h1>Welcome to ${host}</h1><p>Products, services and the people behind them.</p>${"<p>Our offers of the week, our shops and opening hours.</p>".repeat(20)}</body></html>`

/** What a default web server says: another page entirely. */
const defaultPage = `<!doctype html><html><head><title>Default page</title></head><body><p>It works! This is the default web page for this server.</p></body></html>`

const securityTxt = (host: string, expires: number) => `Contact: mailto:security@${host}\nExpires: ${new Date(expires).toISOString()}\nPreferred-Languages: en\n`

const STRICT_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "content-security-policy": "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin"
}

const mtaSts = (host: string) => {
  const domain = host.replace(/^mta-sts\./, "")
  const mode = domain === "weak.lab" ? "testing" : "enforce"
  return new Response(`version: STSv1\r\nmode: ${mode}\r\nmx: mx1.${domain}\r\nmax_age: 604800\r\n`, { headers: { "content-type": "text/plain" } })
}

type Scheme = "http" | "https"
type Site = (host: string, scheme: Scheme, path: string) => Response

/** The fully configured sites (full.lab, nomail.lab, nullmx.lab) and the MTA-STS policies. */
const goodSite: Site = (host, scheme, path) => {
  if (host.startsWith("mta-sts.")) return scheme === "https" ? mtaSts(host) : Response.redirect(`https://${host}${path}`, 301)
  if (scheme === "http") return new Response(null, { status: 301, headers: { location: `https://${host}${path}` } })
  if (path === "/.well-known/security.txt") return new Response(securityTxt(host, STARTED + 200 * DAY), { headers: { "content-type": "text/plain; charset=utf-8" } })
  if (path !== "/") return new Response("not found", { status: 404, headers: STRICT_HEADERS })
  return new Response(page(host), { headers: STRICT_HEADERS })
}

/** The IPv6 side of www.weak.lab: a default page, no redirect, no headers. */
const otherSite: Site = () => new Response(defaultPage, { headers: { "content-type": "text/html" } })

/** www.weak.lab over IPv4: redirects to https, where HSTS lasts five minutes and security.txt has expired. */
const selfSite: Site = (host, scheme, path) => {
  if (scheme === "http") return new Response(null, { status: 301, headers: { location: `https://${host}${path}` } })
  if (path === "/.well-known/security.txt") return new Response(securityTxt(host, STARTED - 30 * DAY), { headers: { "content-type": "text/plain" } })
  return new Response(page(host), { headers: { "content-type": "text/html", "strict-transport-security": "max-age=300" } })
}

/** bare.lab: plain http, nothing else. */
const httpOnlySite: Site = (host, _scheme, path) =>
  path === "/" ? new Response(page(host), { headers: { "content-type": "text/html" } }) : new Response("not found", { status: 404 })

export interface Servers {
  readonly stop: () => Promise<void>
}

/** An SMTP listener: with STARTTLS (and `context`) or without. */
const smtp = (context: tls.SecureContext | null) =>
  net.createServer((socket) => {
    socket.on("error", () => {})
    socket.write("220 mx.lab ESMTP\r\n")
    let buf = ""
    const onData = (d: Buffer) => {
      buf += d.toString("latin1")
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl).trim()
        buf = buf.slice(nl + 1)
        if (/^EHLO/i.test(line)) socket.write(`250-mx.lab\r\n250-PIPELINING\r\n${context ? "250-STARTTLS\r\n" : ""}250 8BITMIME\r\n`)
        else if (/^STARTTLS/i.test(line) && context) {
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
  })

const listen = (srv: net.Server, host: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    srv.once("error", reject)
    srv.listen(port, host, () => resolve())
  })

/**
 * Starts every server; `mxCert` is the MX hosts' certificate (its key digest is in the TLSA
 * records). `bind` maps a world address to the one a server listens on (the benchmark puts a
 * delaying proxy on the world's address and the server behind it).
 */
export const startServers = async (pki: TestPki, mxCert: { cert: string; key: string }, bind: (address: string) => string = (a) => a): Promise<Servers> => {
  const names = [...DOMAINS.flatMap((d) => [d, `www.${d}`, `mta-sts.${d}`])]
  const leaf = pki.leaf(names)
  const self = pki.selfSigned(["www.weak.lab"])
  const bun: Array<ReturnType<typeof Bun.serve>> = []
  const serve = (hostname: string, site: Site, cert: { cert: string; key: string } | null) => {
    const handler = (scheme: Scheme) => (req: Request) => {
      const url = new URL(req.url)
      return site(url.hostname, scheme, url.pathname)
    }
    bun.push(Bun.serve({ hostname: bind(hostname), port: 80, fetch: handler("http"), idleTimeout: 30 }))
    if (cert) bun.push(Bun.serve({ hostname: bind(hostname), port: 443, tls: cert, fetch: handler("https"), idleTimeout: 30 }))
  }
  serve(ADDR.good.v4, goodSite, leaf)
  serve(ADDR.good.v6, goodSite, leaf)
  serve(ADDR.otherV6, otherSite, leaf)
  serve(ADDR.self.v4, selfSite, self)
  serve(ADDR.httpOnly.v4, httpOnlySite, null)

  const nets: Array<net.Server> = []
  const context = tls.createSecureContext({ cert: mxCert.cert, key: mxCert.key, minVersion: "TLSv1.2" })
  for (const host of [ADDR.mx.v4, ADDR.mx.v6]) {
    const s = smtp(context)
    await listen(s, bind(host), 25)
    nets.push(s)
  }
  const plain = smtp(null)
  await listen(plain, bind(ADDR.mxPlain.v4), 25)
  nets.push(plain)
  // Takes the connection, reads, never answers.
  for (const port of [80, 443]) {
    const silent = net.createServer((s) => { s.on("error", () => {}) })
    await listen(silent, bind(ADDR.slow.v4), port)
    nets.push(silent)
  }
  return {
    stop: async () => {
      for (const s of bun) s.stop(true)
      await Promise.all(nets.map((s) => new Promise<void>((r) => s.close(() => r()))))
    }
  }
}
