/** The pure reading of a provider's own error code (docs/decisions.md, "Content Freshness and WAF Detection"). */
import { describe, expect, test } from "bun:test"
import { cloudflareErrorCode, providerCodeCategory } from "../../../src/analyses/waf/providerCodes"

const span = (code: number) => `<h1><span class="cf-error-type" data-translate="error">Error</span>\n<span class="cf-error-code">${code}</span></h1>`
const cloudflare = [{ name: "Cloudflare" }]

describe("cloudflareErrorCode", () => {
  test.each([
    [403, span(1020), 1020],
    [200, span(1020), 1020],
    [503, span(1009), 1009],
    [403, "error code: 1020", 1020],
    [200, "error code: 1020\n", 1020],
    [403, "<h1>Error 1009</h1>", 1009],
    [403, "<h1>Error <b>1015</b></h1>", 1015],
    // On a success status, prose that mentions a code is not the provider's answer.
    [200, "<p>If you see \"error code: 1020\", read on.</p>", null],
    [200, "<h1>Error 1009</h1>", null],
    [403, "<p>Forbidden</p>", null],
    [403, "error code: 20", null]
  ] as const)("status %d, %j -> %p", (status, body, code) => {
    expect(cloudflareErrorCode(status, body)).toBe(code)
  })
})

describe("providerCodeCategory", () => {
  test.each([
    [1020, "provider-block"],
    [1009, "country-block"],
    [1015, "rate-limit"],
    [1010, "provider-block"],
    [1006, "provider-block"],
    // Not blocks: DNS and origin faults leave the category to the status.
    [1016, null],
    [1001, null]
  ] as const)("Cloudflare %d -> %p, whatever the status", (code, category) => {
    for (const status of [200, 403, 429, 503]) expect(providerCodeCategory(cloudflare, status, span(code))).toBe(category)
  })

  test("only Cloudflare's own pages carry Cloudflare codes", () => {
    expect(providerCodeCategory([{ name: "Akamai" }], 403, span(1020))).toBeNull()
    expect(providerCodeCategory([], 403, "error code: 1020")).toBeNull()
  })
})
