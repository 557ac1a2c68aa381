/** The takeover fingerprint table: its integrity, and which service a name leads to. */
import { describe, expect, test } from "bun:test"
import { confidenceOf, DNS_HOSTS, dnsHostFor, FINGERPRINTS, fingerprintFor, suffixMatches } from "../../../src/analyses/takeover/fingerprints"

const SUFFIX = /^(\.[a-z0-9*-]+)+$/

describe("the table", () => {
  test("at least 60 services, each named once", () => {
    expect(FINGERPRINTS.length).toBeGreaterThanOrEqual(60)
    const names = FINGERPRINTS.map((f) => f.provider)
    expect(new Set(names).size).toBe(names.length)
  })

  test("every entry has a normalised suffix, evidence and a source", () => {
    for (const f of FINGERPRINTS) {
      expect({ provider: f.provider, suffixes: f.cnames.length > 0 }).toEqual({ provider: f.provider, suffixes: true })
      for (const s of f.cnames) expect({ provider: f.provider, s, ok: SUFFIX.test(s) && s === s.toLowerCase() && !s.endsWith(".") }).toEqual({ provider: f.provider, s, ok: true })
      const http = f.http !== null && f.http.schemes.length > 0 && (f.http.status !== null || (f.http.body.length > 0 && f.http.body.every((t) => t.trim().length >= 6)))
      expect({ provider: f.provider, evidence: f.nxdomain || http }).toEqual({ provider: f.provider, evidence: true })
      expect(f.sources.length).toBeGreaterThan(0)
      expect(["vulnerable", "edge_case", "not_vulnerable"]).toContain(f.status)
    }
  })

  test("no suffix belongs to two services (a name leads to one service)", () => {
    const owner = new Map<string, string>()
    for (const f of FINGERPRINTS) {
      for (const s of f.cnames) {
        expect({ s, other: owner.get(s) ?? null }).toEqual({ s, other: null })
        owner.set(s, f.provider)
      }
    }
  })

  test("every status is represented, and NXDOMAIN and HTTP evidence both occur", () => {
    const statuses = new Set(FINGERPRINTS.map((f) => f.status))
    expect([...statuses].sort()).toEqual(["edge_case", "not_vulnerable", "vulnerable"])
    expect(FINGERPRINTS.some((f) => f.nxdomain)).toBe(true)
    expect(FINGERPRINTS.some((f) => f.http?.status !== null && f.http?.body.length === 0)).toBe(true)
  })

  test("DNS hosts: named once, normalised name-server suffixes, a source", () => {
    expect(new Set(DNS_HOSTS.map((h) => h.provider)).size).toBe(DNS_HOSTS.length)
    for (const h of DNS_HOSTS) {
      expect(h.nameservers.length).toBeGreaterThan(0)
      for (const s of h.nameservers) expect(SUFFIX.test(s)).toBe(true)
      expect(h.sources.length).toBeGreaterThan(0)
    }
  })
})

describe("which service a name leads to", () => {
  test.each([
    ["victim.github.io", "GitHub Pages"],
    ["github.io", "GitHub Pages"],
    ["evilgithub.io", null],
    ["bucket.s3.amazonaws.com", "AWS S3"],
    ["bucket.s3-website-us-east-1.amazonaws.com", "AWS S3"],
    ["bucket.s3.eu-west-1.amazonaws.com", "AWS S3"],
    ["my-lb-1234.eu-west-1.elb.amazonaws.com", "AWS Elastic Load Balancing"],
    ["ec2-192-0-2-1.compute-1.amazonaws.com", null],
    ["env.us-east-1.elasticbeanstalk.com", "AWS Elastic Beanstalk"],
    ["app.azurewebsites.net", "Microsoft Azure App Service"],
    ["x.blob.core.windows.net", "Microsoft Azure Blob Storage"],
    ["x.trafficmanager.net", "Microsoft Azure Traffic Manager"],
    ["shop.myshopify.com", "Shopify"],
    ["APP.HEROKUAPP.COM.", "Heroku"],
    ["proxy-ssl.webflow.com", "Webflow"],
    ["www.webflow.com", null],
    ["team-portal.apigee.net", "Apigee"],
    ["apigee.net", null],
    ["example.com", null]
  ])("%s → %s", (name, provider) => {
    expect(fingerprintFor(name)?.provider ?? null).toBe(provider)
  })

  test.each([
    ["ns-40.awsdns-05.com", "AWS Route 53"],
    ["ns-1536.awsdns-00.co.uk", "AWS Route 53"],
    ["ns1.digitalocean.com", "DigitalOcean DNS"],
    ["dns1.p05.nsone.net", "NS1"],
    ["ns1.example.com", null]
  ])("name server %s → %s", (ns, provider) => {
    expect(dnsHostFor(ns)?.provider ?? null).toBe(provider)
  })

  test("a `*` spans letters, digits and hyphens inside one label only", () => {
    expect(suffixMatches("a.s3-website-us-east-1.amazonaws.com", ".s3-website-*.amazonaws.com")).toBe(true)
    expect(suffixMatches("a.s3-website-us.east.amazonaws.com", ".s3-website-*.amazonaws.com")).toBe(false)
    expect(suffixMatches("xs3-website-eu.amazonaws.com", ".s3-website-*.amazonaws.com")).toBe(false)
  })

  test("status gives the confidence", () => {
    expect([confidenceOf("vulnerable"), confidenceOf("edge_case"), confidenceOf("not_vulnerable")]).toEqual(["confirmed", "potential", "unlikely"])
  })
})
