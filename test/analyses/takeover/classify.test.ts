/** The takeover classifier: each candidate type, each rule that makes a name no candidate, and what becomes a limitation. */
import { describe, expect, test } from "bun:test"
import { classify, classifyDelegation, classifyMx, classifyName, classifySpf, evidenceIn, plan } from "../../../src/analyses/takeover/classify"
import type { Hop, HttpAnswer, NameObservation, NameserverObservation } from "../../../src/analyses/takeover/observations"

/** A chain: each name CNAMEs to the next; the last answers `end`. */
const chain = (names: ReadonlyArray<string>, end: Hop["rcode"] = "NOERROR"): Array<Hop> =>
  names.map((name, i) => (i < names.length - 1 ? { name, rcode: "NOERROR", cname: names[i + 1] } : { name, rcode: end, cname: null }))

const page = (status: number, bodySnippet: string): HttpAnswer => ({ status, bodySnippet })

const name = (names: ReadonlyArray<string>, o: Partial<NameObservation> = {}): NameObservation => ({
  name: names[0],
  hops: chain(names),
  addresses: ["192.0.2.80"],
  wildcard: false,
  ...o
})

const GITHUB_404 = page(404, "<html><head><title>Site not found &middot; GitHub Pages</title></head><body><h1>404</h1><p><strong>There isn't a GitHub Pages site here.</strong></p></body></html>")

describe("cname_unclaimed", () => {
  test("the service answers its 'no such resource' page (GitHub Pages, an edge case: potential)", () => {
    const o = name(["blog.victim.example", "victim.github.io"], { http: { http: GITHUB_404, https: GITHUB_404 } })
    expect(classifyName(o)).toEqual({
      candidates: [{
        name: "blog.victim.example",
        type: "cname_unclaimed",
        target: "victim.github.io",
        chain: ["victim.github.io"],
        provider: "GitHub Pages",
        evidence: "http://blog.victim.example/ answered 404 with \"There isn't a GitHub Pages site here.\"",
        confidence: "potential"
      }],
      limitations: []
    })
  })

  test("a vulnerable service (AWS S3) is confirmed; one answer over one scheme is enough", () => {
    const nosuch = page(404, "<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>assets.victim.example</BucketName></Error>")
    const o = name(["assets.victim.example", "assets.victim.example.s3.amazonaws.com", "s3-1-w.amazonaws.com"], { http: { http: { error: "connection refused" }, https: nosuch } })
    const [c] = classifyName(o).candidates
    expect([c.type, c.provider, c.confidence, c.target]).toEqual(["cname_unclaimed", "AWS S3", "confirmed", "assets.victim.example.s3.amazonaws.com"])
    expect(c.chain).toEqual(["assets.victim.example.s3.amazonaws.com", "s3-1-w.amazonaws.com"])
  })

  test("NXDOMAIN where that means free (Azure), through two hops", () => {
    const o = name(["app.victim.example", "victim.trafficmanager.net", "victim-prod.cloudapp.net"], { hops: chain(["app.victim.example", "victim.trafficmanager.net", "victim-prod.cloudapp.net"], "NXDOMAIN"), addresses: [] })
    const [c] = classifyName(o).candidates
    expect(c).toEqual({
      name: "app.victim.example",
      type: "cname_unclaimed",
      target: "victim-prod.cloudapp.net",
      chain: ["victim.trafficmanager.net", "victim-prod.cloudapp.net"],
      provider: "Microsoft Azure Cloud Services",
      evidence: "victim-prod.cloudapp.net is NXDOMAIN: the name is free at Microsoft Azure Cloud Services",
      confidence: "confirmed"
    })
  })

  test("a status code alone where that is the evidence (Helprace 301)", () => {
    const o = name(["help.victim.example", "victim.helprace.com"], { http: { http: page(301, ""), https: { error: "tls" } } })
    expect(classifyName(o).candidates[0].evidence).toBe("http://help.victim.example/ answered 301")
  })

  test("a service known not to be vulnerable gives an unlikely candidate", () => {
    const o = name(["cdn.victim.example", "victim.global.ssl.fastly.net"], { http: { http: page(500, "Fastly error: unknown domain: cdn.victim.example. Please check that this domain has been added to a service.") } })
    expect(classifyName(o).candidates.map((c) => [c.provider, c.confidence])).toEqual([["Fastly", "unlikely"]])
  })

  test.each([
    ["an HTML entity", "Sorry, but the website you&rsquo;re looking for doesn&rsquo;t exist."],
    ["curly quotes", "Sorry, but the website you’re looking for doesn’t exist."],
    ["straight quotes, other case and line breaks", "SORRY, but the website\n   you're looking for doesn't EXIST."]
  ])("body texts match through %s", (_, body) => {
    const o = name(["sites.victim.example", "victim.worksites.net"], { http: { http: page(200, `<p>Hello! ${body}</p>`) } })
    expect(classifyName(o).candidates.length).toBe(1)
  })
})

describe("cname_dangling", () => {
  test("NXDOMAIN under a registered domain that does not exist: potential (only the DNS side is certain)", () => {
    const hops = chain(["promo.victim.example", "promo.expired-agency.example"], "NXDOMAIN")
    const o = name(["promo.victim.example"], { hops, addresses: [], registered: { domain: "expired-agency.example", exists: false } })
    expect(classifyName(o).candidates).toEqual([{
      name: "promo.victim.example",
      type: "cname_dangling",
      target: "promo.expired-agency.example",
      chain: ["promo.expired-agency.example"],
      provider: null,
      evidence: "promo.expired-agency.example is NXDOMAIN and its registered domain expired-agency.example does not exist (NXDOMAIN)",
      confidence: "potential"
    }])
  })
})

describe("an NXDOMAIN means free at the service only at the service's own name", () => {
  test("through an NXDOMAIN-evidence service to a name elsewhere that is NXDOMAIN: judged by that name's registration", () => {
    // The Traffic Manager name exists (it has a CNAME); the end is under a domain nobody holds.
    const hops = chain(["app.victim.example", "victim.trafficmanager.net", "origin.expired-host.example"], "NXDOMAIN")
    expect(plan(hops, []).registeredDomainOf).toBe("origin.expired-host.example")
    const o = name(["app.victim.example"], { hops, addresses: [], registered: { domain: "expired-host.example", exists: false } })
    expect(classifyName(o).candidates.map((c) => [c.type, c.target, c.provider])).toEqual([["cname_dangling", "origin.expired-host.example", "Microsoft Azure Traffic Manager"]])
    // The same chain when that domain exists: no candidate (the service's name is held).
    expect(classifyName({ ...o, registered: { domain: "expired-host.example", exists: true } })).toEqual({ candidates: [], limitations: [] })
  })
})

describe("no candidate", () => {
  test.each([
    ["a claimed resource: the service serves a site", name(["blog.victim.example", "victim.github.io"], { http: { https: page(200, "<html><title>Victim blog</title></html>") } })],
    ["a live site on S3", name(["assets.victim.example", "assets.victim.example.s3.amazonaws.com"], { http: { http: page(200, "<html>assets</html>") } })],
    ["an error page that is not the fingerprint", name(["blog.victim.example", "victim.github.io"], { http: { http: page(404, "<h1>Not Found</h1>") } })],
    ["a wildcard record", name(["random.victim.example", "victim.github.io"], { wildcard: true, http: { http: GITHUB_404 } })],
    ["an NXDOMAIN-evidence service whose name exists (claimed)", name(["app.victim.example", "victim.azurewebsites.net"])],
    [
      "NXDOMAIN under a registered domain that exists",
      name(["old.victim.example"], { hops: chain(["old.victim.example", "gone.partner.example"], "NXDOMAIN"), addresses: [], registered: { domain: "partner.example", exists: true } })
    ],
    [
      "NXDOMAIN at a service whose evidence is HTTP, under the service's own domain",
      name(["app.victim.example"], { hops: chain(["app.victim.example", "deleted.herokuapp.com"], "NXDOMAIN"), addresses: [], registered: { domain: "herokuapp.com", exists: true } })
    ],
    ["no CNAME, only an address", name(["www.victim.example"])],
    ["a name that does not exist", name(["nothing.victim.example"], { hops: chain(["nothing.victim.example"], "NXDOMAIN"), addresses: [] })],
    ["a CNAME that ends without addresses at a service with HTTP evidence", name(["x.victim.example", "victim.github.io"], { addresses: [] })]
  ])("%s", (_, o) => {
    expect(classifyName(o)).toEqual({ candidates: [], limitations: [] })
  })
})

describe("limitations, never candidates", () => {
  test.each([
    ["a hop timed out", name(["a.victim.example"], { hops: [{ name: "a.victim.example", rcode: "NOERROR", cname: "x.cloudapp.net" }, { name: "x.cloudapp.net", rcode: "TIMEOUT", cname: null }] }), "a.victim.example: the lookup of x.cloudapp.net timed out; not judged"],
    ["the name answered SERVFAIL", name(["b.victim.example"], { hops: chain(["b.victim.example"], "SERVFAIL") }), "b.victim.example: the lookup of b.victim.example answered SERVFAIL; not judged"],
    [
      "the registered domain's existence is unknown",
      name(["c.victim.example"], { hops: chain(["c.victim.example", "c.maybe.example"], "NXDOMAIN"), registered: { domain: "maybe.example", exists: null } }),
      "c.victim.example: its CNAME target c.maybe.example is NXDOMAIN but whether its registered domain exists could not be told; not judged"
    ],
    [
      "a CNAME loop",
      name(["e.victim.example"], { hops: [{ name: "e.victim.example", rcode: "NOERROR", cname: "f.victim.example" }, { name: "f.victim.example", rcode: "NOERROR", cname: "e.victim.example" }, { name: "e.victim.example", rcode: "LOOP", cname: null }] }),
      "e.victim.example: the lookup of e.victim.example leads back into its own CNAME chain (a loop); not judged"
    ],
    [
      "a chain too long to follow",
      name(["g.victim.example"], { hops: [...chain(["g.victim.example", "h1.example", "h2.example"]).slice(0, 2), { name: "h2.example", rcode: "TOO_LONG", cname: null }] }),
      "g.victim.example: the lookup of h2.example leads to a CNAME chain too long to follow; not judged"
    ],
    [
      "the service gave no HTTP answer",
      name(["d.victim.example", "d.github.io"], { http: { http: { error: "timeout" }, https: { error: "connection reset" } } }),
      "d.victim.example: GitHub Pages (d.github.io) gave no HTTP answer (http: timeout, https: connection reset); not judged"
    ]
  ])("%s", (_, o, limitation) => {
    expect(classifyName(o)).toEqual({ candidates: [], limitations: [limitation] })
  })
})

describe("the plan: what else to observe for a chain", () => {
  test.each([
    ["a service with HTTP evidence: ask it", chain(["a.v.example", "v.github.io"]), ["192.0.2.1"], { provider: "GitHub Pages", http: ["http", "https"], registeredDomainOf: null }],
    ["an HTTPS-only fingerprint", chain(["a.v.example", "v.simplebooklet.com"]), ["192.0.2.1"], { provider: "Simplebooklet", http: ["https"], registeredDomainOf: null }],
    ["NXDOMAIN at an NXDOMAIN-evidence service: nothing more", chain(["a.v.example", "v.cloudapp.net"], "NXDOMAIN"), [], { provider: "Microsoft Azure Cloud Services", http: [], registeredDomainOf: null }],
    ["NXDOMAIN elsewhere: the registered domain", chain(["a.v.example", "x.gone.example"], "NXDOMAIN"), [], { provider: null, http: [], registeredDomainOf: "x.gone.example" }],
    ["no CNAME: nothing", chain(["a.v.example"]), ["192.0.2.1"], { provider: null, http: [], registeredDomainOf: null }],
    ["a failed lookup: nothing", [{ name: "a.v.example", rcode: "NOERROR", cname: "v.github.io" }, { name: "v.github.io", rcode: "TIMEOUT", cname: null }] as Array<Hop>, [], { provider: null, http: [], registeredDomainOf: null }]
  ])("%s", (_, hops, addresses, expected) => {
    const p = plan(hops, addresses)
    expect<unknown>({ provider: p.fingerprint?.provider ?? null, http: p.http, registeredDomainOf: p.registeredDomainOf }).toEqual(expected)
  })

  test("an answer is the evidence only with the fingerprint's status and text", () => {
    const ev = { schemes: ["http"] as const, status: 404, body: ["No such app"] }
    expect(evidenceIn(page(404, "<title>No such app</title>"), ev)).toBe("No such app")
    expect(evidenceIn(page(200, "<title>No such app</title>"), ev)).toBeNull()
    expect(evidenceIn({ error: "refused" }, ev)).toBeNull()
    expect(evidenceIn(page(404, "x"), { schemes: ["http"], status: null, body: [] })).toBeNull()
  })
})

const ns = (host: string, answer: NameserverObservation["answer"], exists: boolean | null = true): NameserverObservation =>
  ({ host, answer, registered: { domain: host.split(".").slice(-2).join("."), exists } })

describe("ns_dangling", () => {
  test("a name server under a registered domain that does not exist", () => {
    const out = classifyDelegation({ zone: "dev.victim.example", nameservers: [ns("ns1.lapsed-dns.example", "timeout", false), ns("ns2.lapsed-dns.example", "timeout", false)] })
    expect(out.candidates).toEqual([{
      name: "dev.victim.example",
      type: "ns_dangling",
      target: "ns1.lapsed-dns.example",
      chain: [],
      provider: null,
      evidence: "name server ns1.lapsed-dns.example, ns2.lapsed-dns.example: its registered domain lapsed-dns.example does not exist (NXDOMAIN)",
      confidence: "potential"
    }])
  })

  test("every name server refuses the zone at a DNS host where anyone can create it: confirmed", () => {
    const out = classifyDelegation({ zone: "shop.victim.example", nameservers: [ns("ns1.digitalocean.com", "refused"), ns("ns2.digitalocean.com", "servfail")] })
    expect(out.candidates.map((c) => [c.type, c.provider, c.confidence, c.evidence])).toEqual([
      ["ns_dangling", "DigitalOcean DNS", "confirmed", "every name server answered the zone's SOA with an error: ns1.digitalocean.com REFUSED, ns2.digitalocean.com SERVFAIL"]
    ])
  })

  test("every name server refuses the zone at an unknown host: potential", () => {
    const out = classifyDelegation({ zone: "x.victim.example", nameservers: [ns("a.ns.other.example", "servfail"), ns("b.ns.other.example", "no_address")] })
    expect(out.candidates.map((c) => [c.provider, c.confidence, c.target])).toEqual([[null, "potential", "a.ns.other.example"]])
  })

  test.each([
    ["one name server serves the zone", [ns("ns1.digitalocean.com", "refused"), ns("ns2.digitalocean.com", "answered")], []],
    ["every name server serves it", [ns("ns1.host.example", "answered")], []],
    ["no name server could be asked", [ns("ns1.host.example", "no_address")], []],
    ["no answer but timeouts", [ns("ns1.host.example", "timeout"), ns("ns2.host.example", "refused")], ["y.victim.example: its name servers did not answer for the zone (ns1.host.example timeout, ns2.host.example refused); not judged"]],
    ["a registered domain that could not be told", [ns("ns1.unsure.example", "answered", null)], ["y.victim.example: name server ns1.unsure.example: whether the registered domain unsure.example exists could not be told; not judged"]]
  ])("no candidate: %s", (_, nameservers, limitations) => {
    expect(classifyDelegation({ zone: "y.victim.example", nameservers })).toEqual({ candidates: [], limitations })
  })
})

describe("mx_dangling and spf_dangling", () => {
  test("an MX host under a registered domain that does not exist", () => {
    const out = classifyMx({ name: "victim.example", host: "mx.old-mail.example", registered: { domain: "old-mail.example", exists: false } })
    expect(out.candidates.map((c) => [c.type, c.target, c.confidence])).toEqual([["mx_dangling", "mx.old-mail.example", "potential"]])
    expect(classifyMx({ name: "victim.example", host: "mx.mail.example", registered: { domain: "mail.example", exists: true } })).toEqual({ candidates: [], limitations: [] })
    expect(classifyMx({ name: "victim.example", host: "mx.q.example", registered: { domain: "q.example", exists: null } }).limitations.length).toBe(1)
  })

  test("an SPF include: or redirect= under a registered domain that does not exist", () => {
    const inc = classifySpf({ name: "victim.example", mechanism: "include", target: "_spf.gone-esp.example", registered: { domain: "gone-esp.example", exists: false } })
    expect(inc.candidates.map((c) => [c.type, c.target, c.evidence])).toEqual([
      ["spf_dangling", "_spf.gone-esp.example", "SPF include:_spf.gone-esp.example: its registered domain gone-esp.example does not exist (NXDOMAIN)"]
    ])
    const red = classifySpf({ name: "victim.example", mechanism: "redirect", target: "spf.gone.example", registered: { domain: "gone.example", exists: false } })
    expect(red.candidates[0].evidence).toStartWith("SPF redirect=spf.gone.example")
    expect(classifySpf({ name: "victim.example", mechanism: "include", target: "spf.esp.example", registered: { domain: "esp.example", exists: true } }).candidates).toEqual([])
  })
})

describe("everything together", () => {
  test("each candidate once, limitations once, in the order observed", () => {
    const gh = name(["blog.victim.example", "victim.github.io"], { http: { http: GITHUB_404 } })
    const timeout = name(["t.victim.example"], { hops: chain(["t.victim.example"], "TIMEOUT") })
    const mx = { name: "victim.example", host: "mx.old-mail.example", registered: { domain: "old-mail.example", exists: false } }
    const out = classify({ names: [gh, gh, timeout, timeout], delegations: [], mx: [mx, mx], spf: [] })
    expect(out.candidates.map((c) => c.type)).toEqual(["cname_unclaimed", "mx_dangling"])
    expect(out.limitations).toEqual(["t.victim.example: the lookup of t.victim.example timed out; not judged"])
  })
})
