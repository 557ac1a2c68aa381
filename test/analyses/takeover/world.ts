/**
 * The lab world of the takeover tests: providers that answer as the real services do (their
 * "no such resource" pages are the fingerprint tables' texts: GitHub Pages, AWS S3, Heroku,
 * Fastly; Azure App Service by NXDOMAIN; DigitalOcean and an unknown DNS host that refuse a zone
 * they do not serve), and victim zones with one planted record per case, negatives beside them.
 */
import { parseResolverList } from "../../../src/platform/Config"
import type { FakeCrtSh } from "../../ct/crtsh"
import type { LabZone, TakeoverLab, WebHandler } from "./takeoverLab"

/** The web addresses (last octet) of each provider. */
export const WEB = { github: 70, s3: 71, heroku: 72, azure: 73, fastly: 74, live: 75 } as const

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(`<!doctype html><html><head><title>page</title></head><body>${body}</body></html>`, { status, headers: { "content-type": "text/html", ...headers } })

/** Names each provider holds for a customer (their sites answer 200); every other name is unclaimed there. */
export const CLAIMED = {
  github: new Set(["www.victim.com"]),
  s3: new Set(["files.victim.com"])
}

/** A body that never ends, starting with `head`. */
const endless = (head: string) =>
  new Response(new ReadableStream({
    start: (c) => c.enqueue(new TextEncoder().encode(head)),
    pull: async (c) => {
      await Bun.sleep(1)
      c.enqueue(new TextEncoder().encode("x".repeat(16384)))
    }
  }), { status: head.includes("No such app") ? 404 : 200, headers: { "content-type": "text/html" } })

export const webHandlers = (): ReadonlyMap<number, WebHandler> => new Map<number, WebHandler>([
  [WEB.github, (host) =>
    CLAIMED.github.has(host)
      ? html("<h1>Victim's site</h1>")
      : html("<h1>404</h1><p><strong>There isn't a GitHub Pages site here.</strong></p><p>If you're trying to publish one, read the full documentation.</p>", 404)],
  [WEB.s3, (host) =>
    CLAIMED.s3.has(host)
      ? new Response("<ListBucketResult><Name>files</Name></ListBucketResult>", { headers: { "content-type": "application/xml" } })
      : new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>${host}</BucketName></Error>`, {
        status: 404,
        headers: { "content-type": "application/xml" }
      })],
  [WEB.heroku, async (host, scheme) => {
    switch (host.split(".")[0]) {
      // Hostile answers: a body without end (claimed, and one whose first bytes are the evidence),
      // an answer that never comes, redirects to a metadata address and to itself.
      case "stream": return endless("<html><body><h1>Welcome</h1>")
      case "streamnx": return endless("<html><head><title>No such app</title></head><body><iframe src=\"//www.herokucdn.com/error-pages/no-such-app.html\"></iframe>")
      case "slowapp": {
        await Bun.sleep(60_000)
        return html("late")
      }
      case "redir": return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } })
      case "loop": return new Response(null, { status: 301, headers: { location: `${scheme}://${host}/` } })
      default:
        return html("<iframe src=\"//www.herokucdn.com/error-pages/no-such-app.html\"></iframe><p>No such app</p>", 404)
    }
  }],
  [WEB.azure, () => html("<h1>Victim portal</h1>")],
  [WEB.fastly, (host) => new Response(`Fastly error: unknown domain: ${host}. Please check that this domain has been added to a service.`, { status: 500 })],
  [WEB.live, () => html("<h1>Live</h1>")]
])

/** The zones of the world; `a` gives a lab address. */
export const worldZones = (a: (h: number) => string): ReadonlyArray<LabZone> => [
  // TLDs (delegations are added by the lab) and providers.
  // The lame apex: lamevictim.com is delegated to a host that refuses it.
  { name: "com", records: ["lamevictim NS ns1.dnshost.net."] },
  { name: "net", records: [] },
  { name: "io", records: [] },
  { name: "github.io", records: [`* A ${a(WEB.github)}`] },
  { name: "amazonaws.com", records: [`*.s3 A ${a(WEB.s3)}`] },
  { name: "herokuapp.com", records: [`* A ${a(WEB.heroku)}`] },
  { name: "azurewebsites.net", records: [`victim-portal A ${a(WEB.azure)}`] },
  { name: "fastly.net", records: [`*.global.ssl A ${a(WEB.fastly)}`] },
  { name: "digitalocean.com", records: [`ns1 A ${a(5)}`, `ns2 A ${a(5)}`] },
  { name: "dnshost.net", records: [`ns1 A ${a(5)}`] },
  { name: "slowdns.net", records: [`ns1 A ${a(6)}`] },
  {
    name: "victim.com",
    records: [
      `@ A ${a(WEB.live)}`,
      "@ MX 10 mx.gone-mail.com.",
      "@ MX 20 mail",
      `mail A ${a(WEB.live)}`,
      `@ TXT "v=spf1 include:_spf.gone-spf.net include:_spf.victim.com -all"`,
      `_spf TXT "v=spf1 ip4:192.0.2.0/24 -all"`,
      `shop A ${a(WEB.live)}`,
      // CNAMEs to providers: claimed and unclaimed side by side.
      "www CNAME victim-site.github.io.",
      "blog CNAME victim-blog.github.io.",
      "status CNAME victim-status.github.io.",
      "assets CNAME victim-assets.s3.amazonaws.com.",
      "files CNAME victim-files.s3.amazonaws.com.",
      "app CNAME victim-app.herokuapp.com.",
      "api CNAME victim-api.azurewebsites.net.",
      "portal CNAME victim-portal.azurewebsites.net.",
      "cdn CNAME victim.global.ssl.fastly.net.",
      // Two hops to a provider; two hops to a registered domain that does not exist.
      "docs CNAME docs-edge",
      "docs-edge CNAME victim-docs.s3.amazonaws.com.",
      "promo CNAME promo-edge",
      "promo-edge CNAME x.dead-other.net.",
      // Dangling by registration, and a dangling name under a domain that exists (no candidate).
      "legacy CNAME host.dead-target.com.",
      "old CNAME gone.victim.com.",
      // Delegations: refused by an unknown host and by DigitalOcean, under an expired domain,
      // healthy, and to a server that never answers.
      "dev NS ns1.dnshost.net.",
      "staging NS ns1.digitalocean.com.",
      "staging NS ns2.digitalocean.com.",
      "test NS ns1.expired-ns.com.",
      "slow NS ns1.slowdns.net.",
      // A CNAME loop.
      "loop1 CNAME loop2",
      "loop2 CNAME loop1",
      // Names one source alone knows: CT, the `names` parameter; the hostile HTTP answers.
      "ct-only CNAME victim-ct.herokuapp.com.",
      "given-only CNAME victim-given.s3.amazonaws.com.",
      "stream CNAME victim-stream.herokuapp.com.",
      "streamnx CNAME victim-streamnx.herokuapp.com.",
      "slowapp CNAME victim-slowapp.herokuapp.com.",
      "redir CNAME victim-redir.herokuapp.com.",
      "loop CNAME victim-loop.herokuapp.com."
    ]
  },
  { name: "corp.victim.com", records: [`@ A ${a(WEB.live)}`] },
  // Its name servers hand out the zone: a name only the transfer knows.
  { name: "open.com", axfr: true, records: [`www A ${a(WEB.live)}`, "xfr-only CNAME open-xfr.s3.amazonaws.com."] },
  // A wildcard to an unclaimed GitHub Pages name: no name it answers is a candidate; a name of its own is.
  { name: "wild.com", records: ["* CNAME wild-any.github.io.", "help CNAME wild-help.github.io."] },
  // Many names through CT (more than a check takes).
  { name: "bound.com", records: [`@ A ${a(WEB.live)}`] },
  // A clean domain: nothing dangles.
  { name: "clean.com", records: [`@ A ${a(WEB.live)}`, `www A ${a(WEB.live)}`, "@ MX 10 mail", `mail A ${a(WEB.live)}`, `@ TXT "v=spf1 mx -all"`] }
]

const row = (id: number, names: ReadonlyArray<string>) => ({
  id, issuer_ca_id: 1, issuer_name: "C=US, O=Lab CA, CN=Lab CA R1", common_name: names[0], name_value: names.join("\n"),
  entry_timestamp: "2026-01-01T00:00:00", not_before: "2026-01-01T00:00:00", not_after: "2027-01-01T00:00:00", serial_number: `0${id}`
})

/** The names of victim.com that CT logs hold (one only there), and those the caller gives. */
export const CT_NAMES = ["victim.com", "www.victim.com", "ct-only.victim.com", "corp.victim.com", "slow.victim.com", "loop1.victim.com", "legacy.victim.com", "*.wc.victim.com", "elsewhere.example"]
export const GIVEN = ["given-only", "stream", "streamnx", "slowapp", "redir", "loop"].map((l) => `${l}.victim.com`)

export const labConfig = (l: TakeoverLab, c: FakeCrtSh) => ({
  dnsResolvers: parseResolverList(l.resolver),
  dnsAuthPort: l.port,
  dnsTimeoutMs: 1500,
  allowPrivateTargets: true,
  ctAggregatorUrl: c.url,
  ctBudgetMs: 2000
})

export const setCt = (c: FakeCrtSh) => {
  c.set("victim.com", { kind: "rows", rows: [row(1, CT_NAMES.slice(0, 5)), row(2, CT_NAMES.slice(4))] })
  c.set("clean.com", { kind: "status", status: 502 })
  c.set("bound.com", { kind: "rows", rows: Array.from({ length: 21 }, (_, i) => row(100 + i, Array.from({ length: 100 }, (_, j) => `h${i * 100 + j}.bound.com`))) })
}
