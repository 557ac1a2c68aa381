/**
 * IPv6 readiness as internet.nl measures it (pure): what the audit observed in, verdicts out.
 * docs/operations/domain-audit.md ("IPv6") states the rules and where they come from.
 *
 * The page comparison: at most 500,000 bytes of the page over IPv4 and over IPv6, without the
 * `nonce` attribute of `<script>` and `<style>` tags and without `<input name="__VIEWSTATE">`
 * (values that differ on every load), compared by Python's `difflib.SequenceMatcher.quick_ratio()`:
 * the share of characters the two have in common regardless of order, 2·M / (|a| + |b|) with M
 * the size of the multiset intersection. The difference is 100 − 100·ratio percent and the pages
 * count as the same when it is at most 10. The markup is not re-serialised first (the page says
 * why).
 */

/** At most this much of each page is compared (internet.nl reads 0.5 MB). */
export const COMPARED_BYTES = 500_000
/** The largest difference, in percent, of two pages that count as the same. */
export const MAX_DIFFERENCE_PERCENT = 10

const NONCE = /(<(?:script|style)\b[^>]*?)\s+nonce\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi
const VIEWSTATE = /<input\b[^>]*\bname\s*=\s*(?:"__VIEWSTATE"|'__VIEWSTATE'|__VIEWSTATE(?=[\s/>]))[^>]*>/gi

/** The page's text as compared: the first 500,000 bytes, without nonces and __VIEWSTATE inputs. */
export const comparable = (body: string | Uint8Array): string => {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, COMPARED_BYTES))
  return text.replace(VIEWSTATE, "").replace(NONCE, "$1")
}

/** `difflib.SequenceMatcher(None, a, b).quick_ratio()`: 2·M / (|a| + |b|), 1 for two empty texts. */
export const quickRatio = (a: string, b: string): number => {
  const available = new Map<string, number>()
  let total = 0
  for (const c of b) {
    available.set(c, (available.get(c) ?? 0) + 1)
    total++
  }
  let matches = 0
  for (const c of a) {
    total++
    const n = available.get(c) ?? 0
    if (n > 0) {
      available.set(c, n - 1)
      matches++
    }
  }
  return total === 0 ? 1 : (2 * matches) / total
}

export interface PageComparison {
  readonly same: boolean
  /** 100 − 100·quick_ratio, rounded to two decimals. */
  readonly difference_percent: number
}

/** The page over IPv4 against the page over IPv6. */
export const comparePages = (v4: string | Uint8Array, v6: string | Uint8Array): PageComparison => {
  const difference = 100 - quickRatio(comparable(v4), comparable(v6)) * 100
  return { same: difference <= MAX_DIFFERENCE_PERCENT, difference_percent: Math.round(difference * 100) / 100 }
}

/** One address of a host, and whether it answered (a TCP connection on a port, a DNS query). */
export interface AddressProbe {
  readonly address: string
  /** The ports that accepted a connection (web: 443 and 80 tried); empty when none did. */
  readonly ports: ReadonlyArray<number>
  /** The target guard refused the address (non-public): it was not contacted, and `ports` is empty. */
  readonly refused?: boolean
}

/** What the audit observed of the web host over both families. */
export interface WebIpv6Observation {
  readonly host: string
  readonly ipv4: ReadonlyArray<AddressProbe>
  readonly ipv6: ReadonlyArray<AddressProbe>
  /**
   * The page fetched over each family on the same port (internet.nl asks port 80, and 443 when 80
   * does not answer), null when it could not be fetched over both.
   */
  readonly pages: { readonly v4: string | Uint8Array; readonly v6: string | Uint8Array } | null
}

export interface Ipv6Verdict {
  /** null: not decided, either because it does not apply or because an observation is `missing`. */
  readonly passed: boolean | null
  readonly detail: string
  /** The verdict is null because something could not be fetched (the section is then incomplete). */
  readonly missing?: boolean
}

const list = (xs: ReadonlyArray<string>) => xs.join(", ")
const portsOf = (probes: ReadonlyArray<AddressProbe>) => new Set(probes.flatMap((p) => p.ports))
const refusedOf = (probes: ReadonlyArray<AddressProbe>) => probes.filter((p) => p.refused === true).map((p) => p.address)
const notContacted = (addresses: ReadonlyArray<string>) =>
  `${list(addresses)} ${addresses.length === 1 ? "is a non-public address" : "are non-public addresses"}, not contacted (ALLOW_PRIVATE_TARGETS is off)`

/**
 * web_ipv6: an AAAA record, and every AAAA address answers on 443 or 80 (internet.nl fails the
 * host when any does not). An address the guard refused was not tried: undecided, unless another
 * address already failed.
 */
export const webIpv6 = (o: WebIpv6Observation): Ipv6Verdict => {
  if (o.ipv6.length === 0) return { passed: false, detail: `${o.host} has no AAAA record` }
  const silent = o.ipv6.filter((p) => p.refused !== true && p.ports.length === 0).map((p) => p.address)
  if (silent.length > 0) return { passed: false, detail: `${list(silent)} answered neither on 443 nor on 80` }
  const refused = refusedOf(o.ipv6)
  if (refused.length > 0) return { passed: null, detail: notContacted(refused), missing: true }
  return { passed: true, detail: `${list(o.ipv6.map((p) => p.address))} answered` }
}

/**
 * web_ipv6_same_content. As internet.nl: an IPv6-only host passes (nothing to differ from); a
 * host not reachable over IPv6 is not compared (null: web_ipv6 already fails it); a port that
 * answers over IPv4 but not over IPv6 fails (the same site is not served on both).
 */
export const webIpv6SameContent = (o: WebIpv6Observation, compared: PageComparison | null = o.pages && comparePages(o.pages.v4, o.pages.v6)): Ipv6Verdict => {
  const v6ports = portsOf(o.ipv6)
  const refused = refusedOf([...o.ipv4, ...o.ipv6])
  if (v6ports.size === 0 && refusedOf(o.ipv6).length > 0) return { passed: null, detail: notContacted(refused), missing: true }
  if (v6ports.size === 0) return { passed: null, detail: "Not compared: the web host does not answer over IPv6" }
  if (o.ipv4.length > 0 && o.ipv4.every((p) => p.refused === true)) return { passed: null, detail: notContacted(refused), missing: true }
  if (o.ipv4.length === 0) return { passed: true, detail: "the web host is IPv6-only" }
  const missing = [...portsOf(o.ipv4)].filter((p) => !v6ports.has(p)).sort((a, b) => a - b)
  if (missing.length > 0) return { passed: false, detail: `port ${missing.join(" and ")} answers over IPv4 but not over IPv6` }
  if (compared === null) return { passed: null, detail: "the page could not be fetched over both IPv4 and IPv6", missing: true }
  return {
    passed: compared.same,
    detail: `the pages differ by ${compared.difference_percent}% (at most ${MAX_DIFFERENCE_PERCENT}% passes)`
  }
}

/** mail_ipv6: every MX host has an AAAA record. Null for a domain without MX hosts. */
export const mailIpv6 = (mx: ReadonlyArray<{ readonly host: string; readonly ips: ReadonlyArray<string> }>): Ipv6Verdict => {
  if (mx.length === 0) return { passed: null, detail: "Does not apply: no MX host" }
  const without = mx.filter((m) => !m.ips.some((ip) => ip.includes(":"))).map((m) => m.host)
  return without.length === 0
    ? { passed: true, detail: `${mx.length === 1 ? "the MX host has" : `all ${mx.length} MX hosts have`} an AAAA record` }
    : { passed: false, detail: `no AAAA record for ${list(without)}` }
}

/**
 * What the audit observed of one name server over IPv6: its AAAA addresses and which answered a
 * query (`answered` null: the guard refused the address, so it was not asked).
 */
export interface NameserverIpv6 {
  readonly name: string
  readonly ipv6: ReadonlyArray<{ readonly address: string; readonly answered: boolean | null }>
}

/**
 * dns_ipv6: at least two name servers with AAAA records that answer over IPv6. A name server
 * counts when every one of its IPv6 addresses answered (a silent address stalls resolvers, and
 * internet.nl fails it). Addresses the guard refused leave it undecided unless two others pass.
 */
export const dnsIpv6 = (nameservers: ReadonlyArray<NameserverIpv6>): Ipv6Verdict => {
  const good = nameservers.filter((n) => n.ipv6.length > 0 && n.ipv6.every((a) => a.answered === true)).map((n) => n.name)
  const silent = nameservers.flatMap((n) => n.ipv6.filter((a) => a.answered === false).map((a) => `${n.name} (${a.address})`))
  const refused = nameservers.flatMap((n) => n.ipv6.filter((a) => a.answered === null).map((a) => a.address))
  const note = silent.length > 0 ? `; no answer over IPv6 from ${list(silent)}` : ""
  if (good.length >= 2) return { passed: true, detail: `${good.length} name servers answer over IPv6 (${list(good)})${note}` }
  if (refused.length > 0) return { passed: null, detail: `${notContacted(refused)}${note}`, missing: true }
  return { passed: false, detail: `${good.length === 0 ? "no name server answers" : `only ${good[0]} answers`} over IPv6${note}` }
}
