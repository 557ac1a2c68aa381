/**
 * One DNSBL answer to a status (pure). The rules, and the published meaning of each error code
 * with its source, are in docs/operations/blocklist.md ("Statuses"):
 * - `listed`: A records, all in 127.0.0.0/8 (RFC 5782 §2.1), none of them an error code below;
 * - `not_listed`: NXDOMAIN, or a name without A records (a listing is an A record, §2.1);
 * - `error`: an A record outside 127.0.0.0/8 (a DNSBL never answers there: a resolver rewrote
 *   the answer, as NXDOMAIN-rewriting resolvers do), a code of 127.255.255.0/24 (the range lists
 *   use to refuse a query: Spamhaus 252 typo in the zone name, 254 public or open resolver, 255
 *   excessive queries), 127.0.0.1 (RFC 5782 §5: never listed; URIBL answers it to refuse a
 *   query), a code a list documents as an error for itself (Spamhaus DBL 127.0.1.255: an IP
 *   asked of a domain list), or no answer at all (timeout, SERVFAIL, REFUSED).
 * An error is never read as "not listed": the item's standing on that list is unknown.
 */
import ipaddr from "ipaddr.js"
import type { Lookup } from "../mail/lookup"

export type BlocklistStatus = "listed" | "not_listed" | "error"

export interface Classification {
  readonly status: BlocklistStatus
  /** The 127.0.0.0/8 answers, in numeric order (empty unless the list answered with A records). */
  readonly codes: ReadonlyArray<string>
  /** `listed`: the TXT record at the same name (null when none); `error`: why; `not_listed`: null. */
  readonly reason: string | null
}

/** What the error range's codes mean: Spamhaus's published codes (docs/operations/blocklist.md). */
export const ERROR_CODES: Readonly<Record<string, string>> = {
  "127.255.255.252": "the zone name is misspelt: the list operator has no such list (Spamhaus 127.255.255.252)",
  "127.255.255.254": "the list refused the query because it came through a public or open resolver (Spamhaus 127.255.255.254)",
  "127.255.255.255": "the list refused the query: too many queries from this resolver (Spamhaus 127.255.255.255)"
}

/** Codes that are errors on one family of lists only, with the zones they apply to. */
const ZONE_ERROR_CODES: ReadonlyArray<{ readonly zones: RegExp; readonly code: string; readonly meaning: string }> = [
  {
    zones: /(^|\.)dbl\.(spamhaus\.org|dq\.spamhaus\.net)$/,
    code: "127.0.1.255",
    meaning: "the domain list refused the query because an IP address was asked of it (Spamhaus DBL 127.0.1.255)"
  }
]

const LOOPBACK = ipaddr.IPv4.parseCIDR("127.0.0.0/8")
const ERROR_RANGE = ipaddr.IPv4.parseCIDR("127.255.255.0/24")

/** An answer a DNSBL could have given: an IPv4 address in 127.0.0.0/8 (RFC 5782 §2.1). */
export const isDnsblCode = (a: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(a) && ipaddr.IPv4.parse(a).match(LOOPBACK)

const asNumber = (a: string): number => ipaddr.IPv4.parse(a).octets.reduce((n, x) => n * 256 + x, 0)
const numeric = (a: string, b: string): number => asNumber(a) - asNumber(b)

/** Why one code is an error on this zone, or null when it is a listing code. */
export const errorMeaning = (zone: string, code: string): string | null => {
  if (ipaddr.IPv4.parse(code).match(ERROR_RANGE)) {
    return ERROR_CODES[code] ?? `the list answered ${code}, a code of 127.255.255.0/24, the range lists use to refuse or fail a query, not to list`
  }
  if (code === "127.0.0.1") return "the list answered 127.0.0.1, which RFC 5782 §5 says no list may contain; lists answer it to refuse a query"
  const z = zone.toLowerCase().replace(/\.$/, "")
  return ZONE_ERROR_CODES.find((e) => e.code === code && e.zones.test(z))?.meaning ?? null
}

/** The status of one item on one list from the A answer at its query name and the TXT there. */
export const classify = (zone: string, answer: Lookup<string>, txt: string | null): Classification => {
  switch (answer._tag) {
    case "Failed":
      return { status: "error", codes: [], reason: `the list did not answer: ${answer.reason}` }
    case "Void":
      return { status: "not_listed", codes: [], reason: null }
    case "Found": {
      if (answer.records.length === 0) return { status: "not_listed", codes: [], reason: null }
      const outside = [...new Set(answer.records.filter((a) => !isDnsblCode(a)))]
      const codes = [...new Set(answer.records.filter(isDnsblCode).map((a) => ipaddr.IPv4.parse(a).toString()))].sort(numeric)
      if (outside.length > 0) {
        return {
          status: "error",
          codes,
          reason: `the answer ${outside.join(", ")} is outside 127.0.0.0/8, where no DNSBL answers: a resolver rewrote it`
        }
      }
      const errors = codes.flatMap((c) => {
        const why = errorMeaning(zone, c)
        return why === null ? [] : [why]
      })
      if (errors.length > 0) return { status: "error", codes, reason: errors.join("; ") }
      return { status: "listed", codes, reason: txt }
    }
  }
}
