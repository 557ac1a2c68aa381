/**
 * Check 8: CAA (RFC 8659). No CAA set is a low finding; certificates currently valid in CT logs
 * from CAs the CAA set does not authorise are a medium one.
 */
import { collector } from "../model/findings"
import { type CaaRecord, isIncomplete, type ZoneObservations } from "../model/observations"

/**
 * Issuer organisation (as found in certificate issuer names) to the CAA identifiers that
 * authorise it. Matched case-insensitively as a substring of the issuer's O= or CN=.
 */
export const CA_IDENTIFIERS: ReadonlyArray<{ readonly match: RegExp; readonly label: string; readonly caa: ReadonlyArray<string> }> = [
  { match: /let'?s encrypt|isrg/i, label: "Let's Encrypt", caa: ["letsencrypt.org"] },
  { match: /digicert|rapidssl|geotrust|thawte|symantec|encryption everywhere/i, label: "DigiCert", caa: ["digicert.com", "symantec.com", "geotrust.com", "rapidssl.com", "thawte.com", "digitalcertvalidation.com"] },
  { match: /sectigo|comodo|usertrust|zerossl/i, label: "Sectigo", caa: ["sectigo.com", "comodoca.com", "comodo.com", "usertrust.com", "trust-provider.com", "zerossl.com"] },
  { match: /globalsign/i, label: "GlobalSign", caa: ["globalsign.com"] },
  { match: /google trust services|gts ca|^.*\bwr[0-9]\b|^.*\bwe[0-9]\b/i, label: "Google Trust Services", caa: ["pki.goog", "google.com"] },
  { match: /amazon/i, label: "Amazon", caa: ["amazon.com", "amazontrust.com", "awstrust.com", "amazonaws.com"] },
  { match: /godaddy|starfield/i, label: "GoDaddy", caa: ["godaddy.com", "starfieldtech.com"] },
  { match: /entrust/i, label: "Entrust", caa: ["entrust.net"] },
  { match: /buypass/i, label: "Buypass", caa: ["buypass.com", "buypass.no"] },
  { match: /microsoft/i, label: "Microsoft", caa: ["microsoft.com"] },
  { match: /ssl\.com/i, label: "SSL.com", caa: ["ssl.com"] },
  { match: /certum|asseco/i, label: "Certum", caa: ["certum.pl", "certum.eu"] },
  { match: /cloudflare/i, label: "Cloudflare", caa: ["digicert.com", "letsencrypt.org", "pki.goog", "sectigo.com", "ssl.com"] }
]

const caaDomainOf = (value: string) => value.split(";")[0].trim().toLowerCase()

/** CT issuers not authorised by the CAA issue/issuewild records (empty when no CAA). */
export const unauthorizedIssuers = (records: ReadonlyArray<CaaRecord>, issuers: ReadonlyArray<string>): { unauthorized: Array<string>; unknown: Array<string> } => {
  const issue = records.filter((r) => r.tag.toLowerCase() === "issue" || r.tag.toLowerCase() === "issuewild")
  if (issue.length === 0) return { unauthorized: [], unknown: [] }
  const allowed = new Set(issue.map((r) => caaDomainOf(r.value)).filter((d) => d.length > 0))
  const unauthorized: Array<string> = []
  const unknown: Array<string> = []
  for (const issuer of issuers) {
    const ca = CA_IDENTIFIERS.find((c) => c.match.test(issuer))
    if (!ca) {
      unknown.push(issuer)
      continue
    }
    if (!ca.caa.some((d) => allowed.has(d))) unauthorized.push(issuer)
  }
  return { unauthorized: [...new Set(unauthorized)], unknown: [...new Set(unknown)] }
}

const caaIssuers = (records: ReadonlyArray<CaaRecord>) => ({
  issue: records.filter((r) => r.tag.toLowerCase() === "issue").map((r) => caaDomainOf(r.value)),
  issuewild: records.filter((r) => r.tag.toLowerCase() === "issuewild").map((r) => caaDomainOf(r.value)),
  iodef: records.filter((r) => r.tag.toLowerCase() === "iodef").map((r) => r.value)
})

export type CaaDetail = { found_at: string | null; records: ReadonlyArray<CaaRecord>; issue: Array<string>; issuewild: Array<string> }

export const caa = (o: Pick<ZoneObservations, "domain" | "caa">) => {
  const c = collector("caa")
  let hasCaa = false
  let unauthorized: Array<string> = []
  let detail: CaaDetail | null = null
  if (isIncomplete(o.caa)) c.cannot(o.caa)
  else {
    hasCaa = o.caa.records.length > 0
    detail = { found_at: o.caa.found_at, records: o.caa.records, ...caaIssuers(o.caa.records) }
    if (!hasCaa) {
      c.add("low", `No CAA records: any certificate authority may issue for ${o.domain}`, `Publish CAA records naming the CAs you use, e.g. ${o.domain}. CAA 0 issue "letsencrypt.org", plus an iodef contact.`)
    }
    if (isIncomplete(o.caa.ct_issuers)) {
      c.limit(`CAA cross-reference with CT logs skipped: ${o.caa.ct_issuers.incomplete}`)
    } else if (hasCaa) {
      const r = unauthorizedIssuers(o.caa.records, o.caa.ct_issuers)
      unauthorized = r.unauthorized
      if (r.unknown.length > 0) c.limit(`CT issuers not mapped to CAA identifiers (not judged): ${r.unknown.join("; ")}`)
      if (unauthorized.length > 0) {
        c.add("medium", `Certificates currently valid for ${o.domain} were issued by CAs its CAA records do not authorise: ${unauthorized.join("; ")}`, "Either add the issuing CA to the CAA records or revoke the certificates and find out who requested them.")
      }
    }
  }
  return c.done({ caa: detail, has_caa: hasCaa, caa_unauthorized_ct_issuers: unauthorized })
}
