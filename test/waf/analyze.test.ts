/**
 * The pure core on hand-built responses: enforcement as SPEC defines it, layers only on a
 * provider's own header/cookie evidence, pages that quote several vendors.
 */
import { describe, expect, test } from "bun:test"
import { detectProviders, enforcementOf, type ObservedResponse, topologyOf } from "../../src/analyses/waf/analyze"

const obs = (status: number, headers: Record<string, string>, body = "<html><body>ok</body></html>", setCookies: Array<string> = []): ObservedResponse => ({ status, headers, setCookies, body })
const f5Page = "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 1234567890</body></html>"

describe("enforcement_signal", () => {
  test("a vendor's block page with a refusal status is low, not high", () => {
    const r = obs(403, { server: "Sucuri/Cloudproxy", "x-sucuri-id": "11005" }, "<title>Sucuri WebSite Firewall - Access Denied</title>")
    expect(enforcementOf(r, detectProviders(r), null)).toBe("low")
  })
  test("the same page with the vendor's block header is high", () => {
    const r = obs(403, { server: "Sucuri/Cloudproxy", "x-sucuri-id": "11005", "x-sucuri-block": "BGP11" }, "<title>Sucuri WebSite Firewall - Access Denied</title>")
    expect(enforcementOf(r, detectProviders(r), null)).toBe("high")
  })
  test("a challenge cookie without a block header is medium; three blocked canaries are verified", () => {
    const r = obs(200, { server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6789-FRA" }, undefined, ["__cf_bm=x; path=/"])
    const m = detectProviders(r)
    expect(enforcementOf(r, m, null)).toBe("medium")
    expect(enforcementOf(r, m, 2)).toBe("medium")
    expect(enforcementOf(r, m, 3)).toBe("verified")
  })
})

describe("topology", () => {
  test("page text of a second vendor never makes a layer", () => {
    const r = obs(200, { server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6789-FRA" }, f5Page)
    const m = detectProviders(r)
    expect(m.map((p) => p.name)).toContain("F5 BIG-IP ASM / Advanced WAF")
    expect(topologyOf(m, undefined).topology).toBe("single")
  })
  test("a second vendor's own headers make a layer; Via orders the chain", () => {
    const r = obs(200, { "x-amz-cf-id": "a==", "x-amz-cf-pop": "FRA56-P1", "x-served-by": "cache-fra-eddf8230123-FRA", "x-fastly-request-id": "0123", via: "1.1 abc.cloudfront.net (CloudFront), 1.1 varnish" })
    expect(topologyOf(detectProviders(r), r.headers.via)).toEqual({ topology: "layered", topology_chain: ["Fastly", "Amazon CloudFront"] })
  })
  test("a weak second vendor (below 0.8 on its own evidence) is reported but is no layer", () => {
    const r = obs(200, { server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6789-FRA" }, undefined, ["TS01a2b3c4=01ab; Path=/"])
    const m = detectProviders(r)
    expect(m.length).toBe(2)
    expect(topologyOf(m, undefined)).toEqual({ topology: "single", topology_chain: ["Cloudflare"] })
  })
})

describe("pages that quote vendors", () => {
  test("three vendors matched on text alone are dropped; a vendor with its own headers stays", () => {
    const quoted = `${f5Page} Incapsula incident ID: 1 <p>Access Denied - Sucuri Website Firewall</p>`
    expect(detectProviders(obs(200, { server: "nginx" }, quoted))).toEqual([])
    expect(detectProviders(obs(200, { server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6789-FRA" }, quoted)).map((p) => p.name)).toEqual(["Cloudflare"])
  })
  test("one vendor's block page alone is still its block page", () => {
    expect(detectProviders(obs(200, {}, f5Page)).map((p) => p.name)).toEqual(["F5 BIG-IP ASM / Advanced WAF"])
  })
})
