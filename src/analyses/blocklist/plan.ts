/**
 * What a blocklist check asks (pure): the target parsed, and the (zone, item) queries. For an IP
 * address, the address on every IP list; for a domain, the domain on every domain list and each
 * address of its A, AAAA and MX hosts on every IP list (docs/operations/blocklist.md, "What is
 * asked"). The addresses are resolved by the operation and passed in; the zones come from
 * DNSBL_IP_ZONES and DNSBL_DOMAIN_ZONES (platform/Config.ts).
 */
import { InvalidRequest } from "../../kernel/errors"
import { normalizeDomain } from "../../kernel/domainParam"
import { getDomain } from "../../kernel/publicSuffix"
import { type BlocklistItem, ipItem, isUnqueryable, queryName } from "./query"
import type { ListKind } from "./testPoints"

export interface BlocklistZones {
  readonly ip: ReadonlyArray<string>
  readonly domain: ReadonlyArray<string>
}

export type BlocklistTarget =
  | { readonly kind: "ip"; readonly item: BlocklistItem }
  | { readonly kind: "domain"; readonly domain: string }

/** The addresses of a domain's hosts, as the operation resolved them. */
export interface ResolvedHosts {
  readonly a: ReadonlyArray<string>
  readonly aaaa: ReadonlyArray<string>
  readonly mx: ReadonlyArray<{ readonly host: string; readonly ips: ReadonlyArray<string> }>
}

export const NO_HOSTS: ResolvedHosts = { a: [], aaaa: [], mx: [] }

export interface PlannedQuery {
  readonly zone: string
  readonly list: ListKind
  readonly item: BlocklistItem
  /** The A (and TXT) name to ask; unique per (zone, item). */
  readonly name: string
}

export interface BlocklistPlan {
  readonly target: string
  readonly kind: "ip" | "domain"
  /** The addresses asked of the IP lists (the report's `ips`). */
  readonly ips: ReadonlyArray<string>
  readonly queries: ReadonlyArray<PlannedQuery>
  /** Items whose name under a zone would not be a DNS name: reported as `error`, never asked. */
  readonly unqueryable: ReadonlyArray<{ readonly zone: string; readonly item: string; readonly why: string }>
  /** The lists whose RFC 5782 test points must be asked first: those with at least one query. */
  readonly lists: ReadonlyArray<{ readonly zone: string; readonly kind: ListKind }>
  readonly limitations: ReadonlyArray<string>
}

/**
 * The `target` parameter: an IPv4 address (four decimal parts), an IPv6 address (bracketed or
 * not; IPv4-mapped ones are their IPv4 address) or a domain by the domain parameter's rules.
 * Other spellings of an address (`0x7f.1`, `2130706433`) are refused, not read as domains.
 */
export const parseTarget = (input: string): BlocklistTarget | InvalidRequest => {
  const raw = input.trim()
  const ip = ipItem(raw)
  if (ip !== null) return { kind: "ip", item: ip }
  const neither = (why: string) =>
    new InvalidRequest({ message: `target must be an IPv4 or IPv6 address or a domain name: ${JSON.stringify(raw)} is neither (${why})` })
  if (raw.length > 300) return neither("longer than 300 characters")
  if (/^\[?[0-9a-f:.]+%/i.test(raw)) return neither("an address with a zone index names a network link, not a host a list could know")
  const domain = normalizeDomain(raw)
  // The domain rule's own reason, without its "domain must be …" preamble.
  if (domain instanceof InvalidRequest) return neither(domain.message.replace(/^domain must be a host name such as example\.com: "[^]*" /, "").replace(/^domain is required$/, "empty"))
  // A top-level label is never all digits (RFC 3696 §2): such a "domain" is a mistyped address.
  if (/^\d+$/.test(domain.split(".").pop() ?? "")) return neither("an address is four decimal numbers 0-255, or IPv6; a domain's last label is not all digits")
  return { kind: "domain", domain }
}

export interface PlanOptions {
  /**
   * An address that is not asked (a non-public one: no public list lists it, and asking would
   * tell the list's operator an address of a private network). For a domain only the number
   * withheld is reported, never the addresses (docs/security.md, "What refusals say").
   */
  readonly withhold?: (address: string) => boolean
  /** At most this many of the domain's addresses are asked (the first ones: A, AAAA, then MX hosts by preference). */
  readonly maxAddresses?: number
}

/** The queries of one check. */
export const plan = (target: BlocklistTarget, zones: BlocklistZones, resolved: ResolvedHosts = NO_HOSTS, options: PlanOptions = {}): BlocklistPlan => {
  const limitations: Array<string> = []
  const items: Array<BlocklistItem> = []
  const seen = new Set<string>()
  const withheld = new Set<string>()
  const beyond = new Set<string>()
  const addIp = (raw: string, judged: boolean) => {
    const item = ipItem(raw)
    if (item === null) {
      limitations.push(`${JSON.stringify(raw)} is not an IP address and was not asked`)
      return
    }
    if (seen.has(item.value)) return
    seen.add(item.value)
    if (judged && options.withhold?.(item.value) === true) withheld.add(item.value)
    else if (items.length >= (options.maxAddresses ?? Infinity)) beyond.add(item.value)
    else items.push(item)
  }
  if (target.kind === "ip") {
    // The operation's guard refuses such a target first; a caller that has not (the domain
    // audit's web addresses) still gets no question sent about it.
    addIp(target.item.value, true)
    if (withheld.size > 0) limitations.push(`${target.item.value} is in a private or special-purpose range and was not asked: public lists list only public addresses`)
  } else {
    for (const a of [...resolved.a, ...resolved.aaaa, ...resolved.mx.flatMap((m) => m.ips)]) addIp(a, true)
    if (withheld.size > 0) {
      limitations.push(`${withheld.size} address${withheld.size === 1 ? "" : "es"} of ${target.domain}'s hosts ${withheld.size === 1 ? "is" : "are"} in a private or special-purpose range and ${withheld.size === 1 ? "was" : "were"} not asked: public lists list only public addresses`)
    }
    if (beyond.size > 0) limitations.push(`${target.domain}'s hosts have ${items.length + beyond.size} addresses: only the first ${items.length} were asked`)
    if (seen.size === 0) limitations.push(`${target.domain} has no address (A, AAAA or MX host): only the domain lists were asked`)
  }
  const wanted: Array<readonly [string, ListKind, BlocklistItem]> = [
    ...(target.kind === "domain" ? zones.domain.map((z) => [z, "domain", { kind: "domain", value: target.domain }] as const) : []),
    ...zones.ip.flatMap((z) => items.map((i) => [z, "ip", i] as const))
  ]
  const queries: Array<PlannedQuery> = []
  const unqueryable: Array<{ zone: string; item: string; why: string }> = []
  for (const [zone, list, item] of wanted) {
    const name = queryName(item, zone)
    if (isUnqueryable(name)) unqueryable.push({ zone, item: item.value, why: `${item.value} cannot be asked under ${zone}: the name would be ${name.unqueryable}` })
    else queries.push({ zone, list, item, name })
  }
  if (zones.ip.length === 0 && items.length > 0) limitations.push("No IP list is configured (DNSBL_IP_ZONES): the addresses were not checked")
  if (zones.domain.length === 0 && target.kind === "domain") limitations.push("No domain list is configured (DNSBL_DOMAIN_ZONES): the domain itself was not checked")
  if (zones.domain.length > 0 && target.kind === "domain") {
    // Domain lists key their entries by registered domain (SURBL says so; Spamhaus DBL mostly):
    // a host name under one is asked as it is, and the registered domain may be listed instead.
    const registered = getDomain(target.domain)
    if (registered !== null && registered !== target.domain) {
      limitations.push(`${target.domain} is not a registered domain: domain lists mostly list registered domains, so check ${registered} as well`)
    }
  }
  const lists = [...new Map(queries.map((q) => [`${q.list}:${q.zone}`, { zone: q.zone, kind: q.list }])).values()]
  return {
    target: target.kind === "ip" ? target.item.value : target.domain,
    kind: target.kind,
    ips: items.map((i) => i.value),
    queries,
    unqueryable,
    lists,
    limitations
  }
}
