/**
 * Address classification for the outbound guard (pure). One table of refused IPv4 ranges, one
 * of refused IPv6 ranges, and the IPv6 forms that carry an IPv4 address, which are judged by
 * that IPv4 (docs/security.md lists every range and why).
 */
import ipaddr from "ipaddr.js"

export type AddressClass = "public" | "private" | "metadata"

/** Addresses of cloud metadata services: refused even with ALLOW_PRIVATE_TARGETS. */
export const METADATA_ADDRESSES: ReadonlySet<string> = new Set([
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean…
  "169.254.170.2", // AWS ECS task metadata
  "169.254.169.253", // AWS DNS
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud
  "fd00:ec2::254" // AWS IMDS over IPv6
])

/** IPv4 ranges that are not public (IANA special-purpose registry, RFC 6890 and successors). */
export const REFUSED_IPV4: ReadonlyArray<readonly [string, string]> = [
  ["0.0.0.0/8", "this network"],
  ["10.0.0.0/8", "private (RFC 1918)"],
  ["100.64.0.0/10", "shared address space / CGNAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private (RFC 1918)"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation (TEST-NET-1)"],
  ["192.31.196.0/24", "AS112"],
  ["192.52.193.0/24", "AMT"],
  ["192.88.99.0/24", "6to4 relay anycast"],
  ["192.168.0.0/16", "private (RFC 1918)"],
  ["192.175.48.0/24", "AS112 direct delegation"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation (TEST-NET-2)"],
  ["203.0.113.0/24", "documentation (TEST-NET-3)"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved, and the broadcast address"]
]

/**
 * IPv6 ranges refused outright. Everything outside 2000::/3 is refused too (loopback,
 * unspecified, unique-local fc00::/7, link-local fe80::/10, multicast ff00::/8, 5f00::/16 …).
 * Inside 2000::/3, 2001::/23 is refused except Teredo 2001::/32, judged by its IPv4s.
 */
export const REFUSED_IPV6: ReadonlyArray<readonly [string, string]> = [
  ["2001::/23", "IETF protocol assignments (benchmarking 2001:2::/48, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28, AMT, AS112 …)"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation (RFC 9637)"],
  ["2002::/16", "6to4 whose IPv4 is not public"],
  ["2620:4f:8000::/48", "AS112 direct delegation"]
]

/** IPv6 forms that carry an IPv4 address: where it sits, and how to read it. */
export const EMBEDDING_IPV6: ReadonlyArray<readonly [string, string]> = [
  ["::/96", "IPv4-compatible (deprecated): the last 32 bits"],
  ["::ffff:0:0/96", "IPv4-mapped: the last 32 bits"],
  ["::ffff:0:0:0/96", "IPv4-translated (SIIT): the last 32 bits"],
  ["64:ff9b::/96", "NAT64 well-known prefix: the last 32 bits"],
  ["64:ff9b:1::/48", "NAT64 local-use prefix: always refused (not globally reachable)"],
  ["2002::/16", "6to4: bits 16-47"],
  ["2001::/32", "Teredo: server bits 32-63, client the last 32 bits XOR 0xffffffff"]
]

const v4Ranges = REFUSED_IPV4.map(([cidr]) => ipaddr.IPv4.parseCIDR(cidr))
const v6Ranges = REFUSED_IPV6.filter(([c]) => c !== "2002::/16").map(([cidr]) => ipaddr.IPv6.parseCIDR(cidr))
const inRange = <T extends ipaddr.IPv4 | ipaddr.IPv6>(addr: T, ranges: ReadonlyArray<[T, number]>) =>
  ranges.some(([net, bits]) => addr.match(net, bits))

const v4FromWords = (hi: number, lo: number) =>
  new ipaddr.IPv4([(hi >> 8) & 0xff, hi & 0xff, (lo >> 8) & 0xff, lo & 0xff])

const classifyV4 = (a: ipaddr.IPv4): AddressClass => {
  if (METADATA_ADDRESSES.has(a.toString())) return "metadata"
  return inRange(a, v4Ranges as Array<[ipaddr.IPv4, number]>) ? "private" : "public"
}

/** The worst of several classes: metadata over private over public. */
const worst = (cs: ReadonlyArray<AddressClass>): AddressClass =>
  cs.includes("metadata") ? "metadata" : cs.includes("private") ? "private" : "public"

/** The IPv4 addresses an IPv6 address carries, or null when it is no embedding form. */
export const embeddedIPv4 = (a: ipaddr.IPv6): ReadonlyArray<ipaddr.IPv4> | null => {
  const w = a.parts
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0)
  if (zero(0, 6)) return [v4FromWords(w[6], w[7])] // ::/96 (:: and ::1 included)
  if (zero(0, 5) && w[5] === 0xffff) return [v4FromWords(w[6], w[7])] // ::ffff:0:0/96
  if (zero(0, 4) && w[4] === 0xffff && w[5] === 0) return [v4FromWords(w[6], w[7])] // ::ffff:0:0:0/96
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return [v4FromWords(w[6], w[7])] // 64:ff9b::/96
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return [v4FromWords(w[6], w[7])] // 64:ff9b:1::/48
  if (w[0] === 0x2002) return [v4FromWords(w[1], w[2])] // 6to4
  if (w[0] === 0x2001 && w[1] === 0) return [v4FromWords(w[2], w[3]), v4FromWords(w[6] ^ 0xffff, w[7] ^ 0xffff)] // Teredo
  return null
}

const classifyV6 = (a: ipaddr.IPv6): AddressClass => {
  if (METADATA_ADDRESSES.has(a.toString())) return "metadata"
  const embedded = embeddedIPv4(a)
  if (embedded) {
    const judged = worst(embedded.map(classifyV4))
    // The local-use NAT64 prefix is never public, whatever it carries.
    if (a.parts[0] === 0x64 && a.parts[2] === 1 && judged === "public") return "private"
    return judged
  }
  if (!a.match(ipaddr.IPv6.parseCIDR("2000::/3"))) return "private"
  return inRange(a, v6Ranges as Array<[ipaddr.IPv6, number]>) ? "private" : "public"
}

/**
 * Classifies an IP literal in any spelling (brackets, zone id, upper case, dotted-quad tail);
 * anything unparseable is private. IPv6 forms carrying an IPv4 are judged by that IPv4.
 */
export const classifyAddress = (literal: string): AddressClass => {
  const text = literal.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase()
  let addr: ipaddr.IPv4 | ipaddr.IPv6
  try {
    if (ipaddr.IPv4.isValidFourPartDecimal(text)) addr = ipaddr.IPv4.parse(text)
    else if (ipaddr.IPv6.isValid(text)) addr = ipaddr.IPv6.parse(text)
    else return "private"
  } catch {
    return "private"
  }
  return addr.kind() === "ipv4" ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6)
}
