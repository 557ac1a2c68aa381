/**
 * Address text of typed records. IPv6 in RFC 5952 form: §4.2.3 shortens the longest run of zero
 * groups, the first of equal runs; dns-packet's text shortens the first run whatever its length
 * and ipaddr.js 2.2.0 misses a tie at the start, while the WHATWG URL serializer writes exactly
 * RFC 5952's form, so it writes ours.
 */

/** A valid IPv6 address (any spelling) in RFC 5952 form. */
export const ipv6Text = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1)

/** 16 octets as an IPv6 address in RFC 5952 form. */
export const ipv6FromBytes = (b: Buffer): string =>
  ipv6Text(Array.from({ length: 8 }, (_, i) => b.readUInt16BE(2 * i).toString(16)).join(":"))

/** 4 octets as a dotted quad. */
export const ipv4FromBytes = (b: Buffer): string => `${b[0]}.${b[1]}.${b[2]}.${b[3]}`
