/**
 * The blocklist lab world: lab copies of the default DNSBL zones under the lab's private root
 * (zen.spamhaus.org, bl.spamcop.net, b.barracudacentral.org, psbl.surriel.com, dbl.spamhaus.org,
 * multi.surbl.org), each with its RFC 5782 test points and planted listings (IPv4, IPv6
 * nibble-reversed, domains, TXT reasons); lists that misbehave as real ones do (one answers
 * 127.255.255.254 to everything, one lists everything, one is retired, one whose answers for part
 * of its data never come, one that never answers); and lab domains whose A, AAAA and MX hosts'
 * addresses are listed or not. Served by the takeover lab's builder (NSD, Unbound, a black hole:
 * test/analyses/takeover/takeoverLab.ts). The query names are written out here by hand (RFC 5782
 * §2.1, §2.4), not by the code under test.
 */
import type { LabZone } from "../takeover/takeoverLab"

/** `a.b.c.d` → `d.c.b.a` (RFC 5782 §2.1). */
export const rev4 = (ip: string) => ip.split(".").reverse().join(".")

/** An IPv6 address as 32 nibbles, least significant first, dot-separated (RFC 5782 §2.4). */
export const rev6 = (ip: string) => {
  const [head, tail = ""] = ip.split("::")
  const h = head === "" ? [] : head.split(":")
  const t = tail === "" ? [] : tail.split(":")
  const groups = ip.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h
  return groups.map((g) => g.padStart(4, "0")).join("").split("").reverse().join(".")
}

/** The addresses of the lab domains (never contacted: a DNSBL check only asks about them). */
export const IP = {
  /** mailco.com's web address: answered by every list but slow.lists.net, where it times out. */
  web4: "192.0.2.10",
  /** mailco.com's web IPv6 address: on zen (127.0.0.3). */
  web6: "2001:db8:10::80",
  /** mx1.mailco.com: on zen (127.0.0.2 and 127.0.0.4, with TXT) and on SpamCop (with TXT). */
  mx1: "203.0.113.25",
  /** mx1.mailco.com's IPv6: on no list. */
  mx1v6: "2001:db8:25::1",
  /** mx2.mailco.com: on no list. */
  mx2: "203.0.113.26",
  /** zen answers 127.255.255.255 for it (the list's "too many queries"). */
  limited: "198.51.100.99",
  /** phish.com's web address: on no list. */
  phish: "198.51.100.66",
  /** On PSBL only after the monitor test plants it. */
  later: "198.51.100.77",
  /** An address on no list (the rewriting resolver's test). */
  clean: "198.51.100.200"
} as const

export const TXT = {
  zenMx1: `"https://check.spamhaus.org/listed/?searchterms=${IP.mx1}"`,
  zenWeb6: `"Listed by CSS, see https://check.spamhaus.org/query/ip/${IP.web6}"`,
  spamcopMx1: `"Blocked - see https://www.spamcop.net/bl.shtml?${IP.mx1}"`,
  dblPhish: `"https://www.spamhaus.org/query/domain/phish.com"`,
  psblLater: `"Listed in PSBL, see https://psbl.org/listing?ip=${IP.later}"`
} as const

/** The lab's default lists, as DNSBL_IP_ZONES and DNSBL_DOMAIN_ZONES name them by default. */
export const DEFAULT_IP_ZONES = ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org", "psbl.surriel.com"]
export const DEFAULT_DOMAIN_ZONES = ["dbl.spamhaus.org", "multi.surbl.org"]
/** The misbehaving lists, asked as IP lists beside the default ones. */
export const FAULTY_IP_ZONES = ["refusing.lists.net", "wildcard.lists.net", "retired.lists.net", "slow.lists.net", "hole.lists.net"]

/** RFC 5782 §5 test points of an IP list: 127.0.0.2 listed (and ::ffff:7f00:2 when `v6`), 127.0.0.1 not. */
const ipTestPoints = (v6: boolean, code = "127.0.0.2") => [
  `${rev4("127.0.0.2")} A ${code}`,
  `${rev4("127.0.0.2")} TXT "test point"`,
  ...(v6 ? [`${rev6("::ffff:7f00:2")} A ${code}`] : [])
]

/** PSBL's records: its test points and, once planted, `IP.later`. */
export const psblRecords = (withLater: boolean) => [
  ...ipTestPoints(true),
  ...(withLater ? [`${rev4(IP.later)} A 127.0.0.2`, `${rev4(IP.later)} TXT ${TXT.psblLater}`] : [])
]

/** The zones of the world; `a` gives a lab address (`a(6)` is the black hole). */
export const blocklistZones = (a: (h: number) => string): ReadonlyArray<LabZone> => [
  // TLDs and the lists' parents (delegations are added by the lab).
  { name: "com", records: [] },
  { name: "net", records: [] },
  { name: "org", records: [] },
  { name: "spamhaus.org", records: [] },
  { name: "spamcop.net", records: [] },
  { name: "barracudacentral.org", records: [] },
  { name: "surriel.com", records: [] },
  { name: "surbl.org", records: [] },
  {
    name: "zen.spamhaus.org",
    records: [
      ...ipTestPoints(true),
      `${rev4(IP.mx1)} A 127.0.0.2`,
      `${rev4(IP.mx1)} A 127.0.0.4`,
      `${rev4(IP.mx1)} TXT ${TXT.zenMx1}`,
      `${rev6(IP.web6)} A 127.0.0.3`,
      `${rev6(IP.web6)} TXT ${TXT.zenWeb6}`,
      `${rev4(IP.limited)} A 127.255.255.255`
    ]
  },
  // SpamCop and Barracuda list no IPv6 data: no IPv6 test point.
  { name: "bl.spamcop.net", records: [...ipTestPoints(false), `${rev4(IP.mx1)} A 127.0.0.2`, `${rev4(IP.mx1)} TXT ${TXT.spamcopMx1}`] },
  { name: "b.barracudacentral.org", records: ipTestPoints(false) },
  { name: "psbl.surriel.com", records: psblRecords(false) },
  {
    name: "dbl.spamhaus.org",
    records: ["test A 127.0.1.2", "spam-domain.com A 127.0.1.2", "phish.com A 127.0.1.4", `phish.com TXT ${TXT.dblPhish}`]
  },
  // SURBL answers a bitmask: 127.0.0.80 is MW (16) and ABUSE (64); no TXT.
  { name: "multi.surbl.org", records: ["test A 127.0.0.2", "phish.com A 127.0.0.80"] },
  // The misbehaving lists. hole.lists.net is delegated to the black hole; so is the part of
  // slow.lists.net that holds 192.0.2.0/24.
  { name: "lists.net", records: ["hole NS ns-hole.lists.net.", `ns-hole A ${a(6)}`] },
  // Spamhaus's answer to a query through a public resolver, for everything.
  { name: "refusing.lists.net", records: ["* A 127.255.255.254"] },
  // Lists everything, 127.0.0.1 included.
  { name: "wildcard.lists.net", records: ["* A 127.0.0.2"] },
  // Retired: lists nothing, not even 127.0.0.2.
  { name: "retired.lists.net", records: [] },
  { name: "slow.lists.net", records: [...ipTestPoints(true), `${rev4("192.0.2.0").split(".").slice(1).join(".")} NS ns-hole.lists.net.`] },
  // The lab's domains.
  {
    name: "mailco.com",
    records: [
      `@ A ${IP.web4}`,
      `@ AAAA ${IP.web6}`,
      "@ MX 10 mx1",
      "@ MX 20 mx2",
      `mx1 A ${IP.mx1}`,
      `mx1 AAAA ${IP.mx1v6}`,
      `mx2 A ${IP.mx2}`,
      // The web address again under another name: each address is asked once.
      `www A ${IP.web4}`
    ]
  },
  { name: "phish.com", records: [`@ A ${IP.phish}`] },
  // Exists, but has no address and no MX: only the domain lists are asked.
  { name: "nomail.com", records: [`@ TXT "v=spf1 -all"`] },
  // Its only host is an MX whose name does not exist.
  { name: "ghostmx.com", records: ["@ MX 10 mx.ghostmx.com."] },
  // Addresses in private and special-purpose ranges only.
  { name: "internal.com", records: ["@ A 10.20.30.40", "@ MX 10 mail", "mail A 192.168.1.25"] },
  // Watched by the monitor test: IP.later is listed on PSBL only once the test plants it.
  { name: "monitored.com", records: ["@ MX 10 mx", `mx A ${IP.mx2}`, `mx A ${IP.later}`] }
]
