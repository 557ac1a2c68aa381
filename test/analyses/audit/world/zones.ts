/**
 * The audit world's DNS: a signed root, a signed `lab.`, one zone per lab domain with its
 * planted faults, and a lab DNSBL (`ip.dnsbl.lab`, `dom.dnsbl.lab`: RFC 5782 test points and
 * planted listings with TXT reasons; `slow.dnsbl.lab` delegated to a server that never answers).
 * Addresses: name servers 127.60.0.x / fd00:60::x, web servers 127.60.1.x / fd00:60::1:x, MX
 * hosts 127.60.2.x / fd00:60::2:x. What each domain is planted with is said beside it; the
 * expectations live in the tests.
 */
import { dkimRecord } from "../../mail/mailLab"
import type { NameServer, TreeZone } from "./dnsTree"

export const ADDR = {
  ns1: { v4: "127.60.0.1", v6: "fd00:60::1" },
  ns2: { v4: "127.60.0.2", v6: "fd00:60::2" },
  /** An IPv6 address with nothing behind it: a name server that does not answer over IPv6. */
  silentV6: "fd00:60::3",
  /** Nothing listens there: DNS to it times out. */
  deadDns: "127.60.0.9",
  resolver: "127.60.0.53",
  /** The fully configured site, the same over both families. */
  good: { v4: "127.60.1.1", v6: "fd00:60::1:1" },
  /** Over IPv6, another page than the good site's. */
  otherV6: "fd00:60::1:2",
  /** HTTPS with a self-signed certificate, short HSTS, an expired security.txt. */
  self: { v4: "127.60.1.3" },
  /** Plain http only, no redirect. */
  httpOnly: { v4: "127.60.1.4" },
  /** Takes connections and never answers. */
  slow: { v4: "127.60.1.5" },
  /** Nothing listens: connections are refused. */
  down: { v4: "127.60.1.9", v6: "fd00:60::1:9" },
  /** SMTP with STARTTLS (TLS 1.2+, CA-signed). */
  mx: { v4: "127.60.2.25", v6: "fd00:60::2:25" },
  /** SMTP without STARTTLS; listed on the IP blocklist. */
  mxPlain: { v4: "127.60.2.26" }
} as const

/** Every IPv6 address the world binds (added to the namespace's loopback). */
export const V6_ADDRESSES = [ADDR.ns1.v6, ADDR.ns2.v6, ADDR.silentV6, ADDR.good.v6, ADDR.otherV6, ADDR.down.v6, ADDR.mx.v6]

/** Where the name server of each zone is, with or without IPv6. */
const servers = (zone: string, v6: "both" | "none" | "one-silent" = "both"): ReadonlyArray<NameServer> => [
  { name: `ns1.${zone}`, v4: ADDR.ns1.v4, ...(v6 === "none" ? {} : { v6: ADDR.ns1.v6 }) },
  { name: `ns2.${zone}`, v4: ADDR.ns2.v4, ...(v6 === "none" ? {} : { v6: v6 === "one-silent" ? ADDR.silentV6 : ADDR.ns2.v6 }) }
]

/** The lab domains of the tests and the benchmark. */
export const DOMAINS = ["full.lab", "bare.lab", "weak.lab", "down.lab", "nomail.lab", "nullmx.lab", "slow.lab"] as const

const mail = (zone: string, extra: ReadonlyArray<string> = []) => [
  `@ TXT "v=spf1 mx -all"`,
  `_dmarc TXT "v=DMARC1; p=reject; rua=mailto:dmarc@${zone}"`,
  `selector1._domainkey TXT ${dkimRecord(2048)}`,
  `_mta-sts TXT "v=STSv1; id=20260101"`,
  `mta-sts A ${ADDR.good.v4}`,
  `mta-sts AAAA ${ADDR.good.v6}`,
  `_smtp._tls TXT "v=TLSRPTv1; rua=mailto:tls@${zone}"`,
  ...extra
]

/** `tlsaHash`: the SHA-256 of the MX certificate's public key (TLSA 3 1 1). */
export const worldZones = (tlsaHash: string): ReadonlyArray<TreeZone> => {
  const signed = "ECDSAP256SHA256"
  const caa = `@ CAA 0 issue "letsencrypt.org"`
  return [
    { name: "", algorithm: "RSASHA256", nameservers: [{ name: "a.root-servers.net", v4: ADDR.ns1.v4 }], records: [] },
    { name: "lab", algorithm: signed, nameservers: [{ name: "ns.lab", v4: ADDR.ns1.v4 }], records: [] },
    // Everything passes.
    {
      name: "full.lab", algorithm: signed, nameservers: servers("full.lab"), records: [
        `@ A ${ADDR.good.v4}`, `@ AAAA ${ADDR.good.v6}`, caa, "@ MX 10 mx1",
        `mx1 A ${ADDR.mx.v4}`, `mx1 AAAA ${ADDR.mx.v6}`, `_25._tcp.mx1 TLSA 3 1 1 ${tlsaHash}`,
        ...mail("full.lab")
      ]
    },
    // Unsigned, no CAA, one name server without IPv6, names that should not be public: the zone
    // grades low. A plain-http site without AAAA. Mail: SPF ?all, nothing else, an MX without
    // STARTTLS whose address is listed; the domain itself is listed; a dangling CNAME (takeover).
    {
      name: "bare.lab", nameservers: servers("bare.lab", "none").slice(0, 1), records: [
        `@ A ${ADDR.httpOnly.v4}`, "@ MX 10 mx1", `mx1 A ${ADDR.mxPlain.v4}`, `@ TXT "v=spf1 mx ?all"`,
        "shop CNAME shop.gone-bare.lab.",
        `admin A ${ADDR.httpOnly.v4}`, `vpn A ${ADDR.httpOnly.v4}`, `jenkins A ${ADDR.httpOnly.v4}`
      ]
    },
    // No address at the apex: the web host is www, self-signed over IPv4, another page over IPv6.
    // Mail: a 1024-bit DKIM key beside a 512-bit one, DMARC p=none, MTA-STS testing, a broken
    // TLS-RPT, an MX without AAAA; one name server silent over IPv6.
    {
      name: "weak.lab", algorithm: signed, nameservers: servers("weak.lab", "one-silent"), records: [
        caa, `www A ${ADDR.self.v4}`, `www AAAA ${ADDR.otherV6}`, "@ MX 10 mx1", `mx1 A ${ADDR.mx.v4}`,
        `@ TXT "v=spf1 mx ~all"`, `_dmarc TXT "v=DMARC1; p=none; rua=mailto:d@weak.lab"`,
        `default._domainkey TXT ${dkimRecord(1024)}`, `dkim._domainkey TXT ${dkimRecord(512)}`,
        `_mta-sts TXT "v=STSv1; id=1"`, `mta-sts A ${ADDR.good.v4}`, `_smtp._tls TXT "v=TLSRPTv1; rua=ftp://x"`
      ]
    },
    // A site whose addresses refuse connections; receives no mail and says so.
    {
      name: "down.lab", algorithm: signed, nameservers: servers("down.lab"), records: [
        caa, `@ A ${ADDR.down.v4}`, `@ AAAA ${ADDR.down.v6}`, `@ TXT "v=spf1 -all"`, `_dmarc TXT "v=DMARC1; p=reject"`
      ]
    },
    // No MX, but SPF ~all and DMARC quarantine: too weak for a domain that sends no mail.
    {
      name: "nomail.lab", algorithm: signed, nameservers: servers("nomail.lab"), records: [
        caa, `@ A ${ADDR.good.v4}`, `@ AAAA ${ADDR.good.v6}`, `@ TXT "v=spf1 ~all"`, `_dmarc TXT "v=DMARC1; p=quarantine"`
      ]
    },
    // A null MX with SPF -all and DMARC reject.
    {
      name: "nullmx.lab", algorithm: signed, nameservers: servers("nullmx.lab"), records: [
        caa, `@ A ${ADDR.good.v4}`, `@ AAAA ${ADDR.good.v6}`, "@ MX 0 .", `@ TXT "v=spf1 -all"`, `_dmarc TXT "v=DMARC1; p=reject"`
      ]
    },
    // A site that takes connections and never answers.
    { name: "slow.lab", algorithm: signed, nameservers: servers("slow.lab"), records: [caa, `@ A ${ADDR.slow.v4}`, `@ TXT "v=spf1 -all"`, `_dmarc TXT "v=DMARC1; p=reject"`] },
    // The lab DNSBL: test points (127.0.0.2 listed, 127.0.0.1 not; ::ffff:7f00:2 listed; `test`
    // listed, `invalid` not), the plain MX's address and bare.lab listed, each with a reason.
    {
      name: "dnsbl.lab", nameservers: servers("dnsbl.lab", "none"), records: [
        "2.0.0.127.ip A 127.0.0.2", `2.0.0.127.ip TXT "test point"`,
        `${nibbles("::ffff:7f00:2")}.ip A 127.0.0.2`,
        `${ADDR.mxPlain.v4.split(".").reverse().join(".")}.ip A 127.0.0.2`,
        `${ADDR.mxPlain.v4.split(".").reverse().join(".")}.ip TXT "spam source, see https://dnsbl.lab/lookup"`,
        "test.dom A 127.0.1.2",
        "bare.lab.dom A 127.0.1.2", `bare.lab.dom TXT "spam domain"`,
        `slow NS ns.slow.dnsbl.lab.`, `ns.slow A ${ADDR.deadDns}`
      ]
    }
  ]
}

/** RFC 5782 §2.4: the address's 32 nibbles, least significant first. */
export const nibbles = (address: string): string => {
  const [head, tail = ""] = address.split("::")
  const part = (s: string) => (s === "" ? [] : s.split(":"))
  const h = part(head)
  const t = part(tail)
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t]
  // An IPv4-mapped tail ("::ffff:1.2.3.4") is not used here.
  return groups.map((g) => g.padStart(4, "0")).join("").split("").reverse().join(".")
}

/** The name servers the NSD of the world listens on. */
export const NSD_ADDRESSES = [ADDR.ns1.v4, ADDR.ns2.v4, ADDR.ns1.v6, ADDR.ns2.v6]
