/**
 * DNS hosting services where anyone can open an account and create the zone of a domain that is
 * delegated to them but that they do not serve (their name servers answer REFUSED or SERVFAIL
 * for it): the delegation then hands the zone to whoever creates it first. Read from dnsReaper's
 * `ns_found_but_no_SOA` signatures and can-i-take-over-xyz's Digital Ocean entry; name-server
 * host suffixes use dsl.ts's notation. AWS Route 53 and Google Cloud DNS place a new zone on
 * name servers of their choosing, so a match there is an edge case.
 */
import type { Source, TakeoverStatus } from "./dsl"

export interface DnsHost {
  readonly provider: string
  /** Name-server host names, as suffixes. */
  readonly nameservers: ReadonlyArray<string>
  readonly status: TakeoverStatus
  readonly sources: ReadonlyArray<Source>
}

const host = (provider: string, nameservers: ReadonlyArray<string>, status: TakeoverStatus = "vulnerable", sources: ReadonlyArray<Source> = ["dnsReaper"]): DnsHost =>
  ({ provider, nameservers, status, sources })

export const DNS_HOSTS: ReadonlyArray<DnsHost> = [
  host("DigitalOcean DNS", [".ns1.digitalocean.com", ".ns2.digitalocean.com", ".ns3.digitalocean.com"], "vulnerable", ["can-i-take-over-xyz", "dnsReaper"]),
  host("Linode DNS", [".ns1.linode.com", ".ns2.linode.com", ".ns3.linode.com", ".ns4.linode.com", ".ns5.linode.com"]),
  host("DNSimple", [".ns1.dnsimple.com", ".ns2.dnsimple.com", ".ns3.dnsimple.com", ".ns4.dnsimple.com"]),
  host("Hurricane Electric DNS", [".ns1.he.net", ".ns2.he.net", ".ns3.he.net", ".ns4.he.net", ".ns5.he.net"]),
  host("Media Temple DNS", [".ns1.mediatemple.net", ".ns2.mediatemple.net"]),
  host("Name.com DNS", [".name.com"]),
  host("NS1", [".nsone.net"]),
  host("DNS Made Easy", [".dnsmadeeasy.com"]),
  host("Reg.ru DNS", [".ns1.reg.ru", ".ns2.reg.ru"]),
  host("Hostinger DNS", [".ns1.hostinger.com", ".ns2.hostinger.com"]),
  host("Domain.com DNS", [".ns1.domain.com", ".ns2.domain.com"]),
  host("Dotster DNS", [".ns1.dotster.com", ".ns2.dotster.com", ".ns1.nameresolve.com", ".ns2.nameresolve.com"]),
  host("Bizland DNS", [".ns1.bizland.com", ".ns2.bizland.com", ".clickme.click2site.com", ".clickme2.click2site.com"]),
  host("000domains DNS", [".ns1.000domains.com", ".ns2.000domains.com", ".fwns1.000domains.com", ".fwns2.000domains.com"]),
  host("Tierranet DNS", [".ns1.domaindiscover.com", ".ns2.domaindiscover.com"]),
  host("WordPress.com DNS", [".ns1.wordpress.com", ".ns2.wordpress.com", ".ns3.wordpress.com"]),
  host("AWS Route 53", [".awsdns-*.com", ".awsdns-*.net", ".awsdns-*.org", ".awsdns-*.co.uk"], "edge_case"),
  host("Google Cloud DNS", [".googledomains.com"], "edge_case")
]
