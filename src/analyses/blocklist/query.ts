/**
 * The DNS name a DNSBL is asked for one item (RFC 5782, pure). The rules are written out in
 * docs/operations/blocklist.md ("Query names"):
 * - an IPv4 address: its four octets reversed under the zone (§2.1: 192.0.2.99 on bl.example is
 *   `99.2.0.192.bl.example`);
 * - an IPv6 address: its 32 nibbles, fully expanded, reversed and dot-separated under the zone
 *   (§2.4), so `::1` is 31 zeros after the `1`, never a compressed form;
 * - an IPv4-mapped IPv6 address (`::ffff:192.0.2.99`) names an IPv4 host, so it is asked as that
 *   IPv4 address: IPv4 lists are keyed by the IPv4 octets;
 * - a domain: the name itself (lower-cased, no trailing dot) under the zone (§2.3), refused when
 *   the whole name would pass the 253 octets of a DNS name (RFC 1035 §2.3.4).
 */
import ipaddr from "ipaddr.js"

/** One thing a DNSBL is asked about, in its canonical spelling. */
export type BlocklistItem =
  | { readonly kind: "ipv4"; readonly value: string }
  | { readonly kind: "ipv6"; readonly value: string }
  | { readonly kind: "domain"; readonly value: string }

/** Why an item cannot be asked under a zone (the name would not be a DNS name). */
export interface Unqueryable {
  readonly unqueryable: string
}
export const isUnqueryable = (u: unknown): u is Unqueryable => typeof u === "object" && u !== null && "unqueryable" in u

const MAX_NAME = 253

/** The address as an item: IPv4 dotted quad, IPv6 in RFC 5952 form, IPv4-mapped as IPv4; null when it is no address. */
export const ipItem = (address: string): BlocklistItem | null => {
  const s = address.trim().replace(/^\[(.*)\]$/, "$1")
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return { kind: "ipv4", value: ipaddr.IPv4.parse(s).toString() }
  // A zone index (fe80::1%eth0) names a link, not a host a list could know.
  if (s.includes("%") || !ipaddr.IPv6.isValid(s)) return null
  const v6 = ipaddr.IPv6.parse(s)
  if (v6.isIPv4MappedAddress()) return { kind: "ipv4", value: v6.toIPv4Address().toString() }
  return { kind: "ipv6", value: v6.toString() }
}

/** `192.0.2.99` → `99.2.0.192` (RFC 5782 §2.1). */
export const reverseIPv4 = (address: string): string => ipaddr.IPv4.parse(address).octets.slice().reverse().join(".")

/**
 * The 32 nibbles of an IPv6 address, reversed and dot-separated (RFC 5782 §2.4). No IPv4-mapped
 * shortcut here: the IPv6 test points (`::ffff:7f00:2`) are asked in exactly this form.
 */
export const reverseIPv6 = (address: string): string =>
  ipaddr.IPv6.parse(address)
    .toByteArray()
    .flatMap((b) => [b >> 4, b & 0xf])
    .reverse()
    .map((n) => n.toString(16))
    .join(".")

const normalizeZone = (zone: string): string => zone.trim().toLowerCase().replace(/\.$/, "")

const under = (prefix: string, zone: string): string | Unqueryable => {
  const name = `${prefix}.${normalizeZone(zone)}`
  return name.length > MAX_NAME ? { unqueryable: `${name.length} octets: a DNS name holds at most ${MAX_NAME}` } : name
}

/** The query name of an item under a zone, or why there is none. */
export const queryName = (item: BlocklistItem, zone: string): string | Unqueryable => {
  switch (item.kind) {
    case "ipv4":
      return under(reverseIPv4(item.value), zone)
    case "ipv6":
      return under(reverseIPv6(item.value), zone)
    case "domain":
      return under(item.value.trim().toLowerCase().replace(/\.$/, ""), zone)
  }
}
