/**
 * Resource record type mnemonics and their numbers (the IANA "DNS Parameters" registry), for
 * the names callers ask for and records are typed by. dns-packet's own table is shorter (no
 * SVCB, HTTPS, URI, ...: it names those `UNKNOWN_<n>`), so this one stays. A number without a
 * mnemonic here is written `TYPE<n>` (RFC 3597 §5), and that spelling is accepted back.
 */

const TYPES: ReadonlyArray<readonly [string, number]> = [
  ["A", 1], ["NS", 2], ["MD", 3], ["MF", 4], ["CNAME", 5], ["SOA", 6], ["MB", 7], ["MG", 8], ["MR", 9],
  ["NULL", 10], ["WKS", 11], ["PTR", 12], ["HINFO", 13], ["MINFO", 14], ["MX", 15], ["TXT", 16], ["RP", 17],
  ["AFSDB", 18], ["X25", 19], ["ISDN", 20], ["RT", 21], ["NSAP", 22], ["NSAP-PTR", 23], ["SIG", 24], ["KEY", 25],
  ["PX", 26], ["GPOS", 27], ["AAAA", 28], ["LOC", 29], ["NXT", 30], ["EID", 31], ["NIMLOC", 32], ["SRV", 33],
  ["ATMA", 34], ["NAPTR", 35], ["KX", 36], ["CERT", 37], ["A6", 38], ["DNAME", 39], ["SINK", 40], ["OPT", 41],
  ["APL", 42], ["DS", 43], ["SSHFP", 44], ["IPSECKEY", 45], ["RRSIG", 46], ["NSEC", 47], ["DNSKEY", 48],
  ["DHCID", 49], ["NSEC3", 50], ["NSEC3PARAM", 51], ["TLSA", 52], ["SMIMEA", 53], ["HIP", 55], ["NINFO", 56],
  ["RKEY", 57], ["TALINK", 58], ["CDS", 59], ["CDNSKEY", 60], ["OPENPGPKEY", 61], ["CSYNC", 62], ["ZONEMD", 63],
  ["SVCB", 64], ["HTTPS", 65], ["SPF", 99], ["NID", 104], ["L32", 105], ["L64", 106], ["LP", 107], ["EUI48", 108],
  ["EUI64", 109], ["TKEY", 249], ["TSIG", 250], ["IXFR", 251], ["AXFR", 252], ["MAILB", 253], ["MAILA", 254],
  ["ANY", 255], ["URI", 256], ["CAA", 257], ["AVC", 258], ["DOA", 259], ["AMTRELAY", 260], ["RESINFO", 261],
  ["TA", 32768], ["DLV", 32769]
]

const typeByName = new Map(TYPES)
const typeByCode = new Map(TYPES.map(([n, c]) => [c, n]))

const generic = (prefix: string, s: string): number | undefined => {
  const m = new RegExp(`^${prefix}(\\d{1,5})$`).exec(s)
  const n = m ? Number(m[1]) : NaN
  return n >= 0 && n <= 0xffff ? n : undefined
}

/** The number of a type mnemonic (any letter case), `TYPE<n>`, or `*`; undefined when unknown. */
export const typeCode = (name: string): number | undefined => {
  const s = name.trim().toUpperCase()
  return s === "*" ? 255 : typeByName.get(s) ?? generic("TYPE", s)
}

/** The mnemonic of a type number, `TYPE<n>` when it has none. */
export const typeName = (code: number): string => typeByCode.get(code) ?? `TYPE${code}`
