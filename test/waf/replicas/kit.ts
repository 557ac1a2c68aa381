/**
 * What WAF providers really send, replayed by local Bun servers: headers, cookies, block and
 * challenge pages, status codes. Each replica names the provider the detector must report.
 */
export interface Replica {
  readonly id: string
  readonly expect: string | null
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
  readonly expectCategory?: string
  /** low, medium, high: asserted for every replica (test/waf/waf.test.ts). */
  readonly expectEnforcement: "low" | "medium" | "high"
  /** Defaults to single when a provider is expected, null otherwise. */
  readonly expectTopology?: "single" | "layered"
  /** Every provider name the detector may report besides `expect` (none unless listed). */
  readonly alsoReported?: ReadonlyArray<string>
  /**
   * A delivery layer seen without a block: `expect` is listed first in providers with this role,
   * and no WAF is reported (provider_present false, primaryProvider null, topology null).
   */
  readonly expectRole?: "cdn" | "hosting" | "proxy"
}

export const html = (title: string, inner: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${inner}</body></html>`
export const page = html("Welcome", "<h1>Shop</h1><p>Products and prices.</p>")


type Headers = ReadonlyArray<readonly [string, string]>
/** One replica in a line: id, the provider it must name, status, headers, body, enforcement. */
export const rep = (
  id: string,
  expect: string | null,
  status: number,
  headers: Headers,
  body: string = page,
  expectEnforcement: Replica["expectEnforcement"] = "low",
  extra: Partial<Pick<Replica, "expectCategory" | "expectTopology" | "alsoReported">> = {}
): Replica => ({ id, expect, status, headers, body, expectEnforcement, ...extra })
/** The replica of a delivery layer (CDN, hosting platform, load balancer or gateway) seen without a block. */
export const layer = (role: NonNullable<Replica["expectRole"]>, r: Replica): Replica => ({ ...r, expectRole: role })
/** A Set-Cookie header as the vendor writes it. */
export const sc = (nameValue: string, attrs = "Path=/; HttpOnly"): readonly [string, string] => ["set-cookie", `${nameValue}; ${attrs}`]
export const ct: readonly [string, string] = ["content-type", "text/html; charset=utf-8"]
