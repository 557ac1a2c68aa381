/**
 * The blocklist (DNSBL) report: the one contract of `GET /v1/security/blocklist`, the MCP tool
 * `blocklist` and the monitor kind `blocklist` (docs/operations/blocklist.md). Types are
 * `typeof X.Type` of these schemas.
 */
import { Schema } from "effect"

export const BlocklistStatus = Schema.Literal("listed", "not_listed", "error").annotations({
  description: "listed: an A answer in 127.0.0.0/8 that is no error code; not_listed: NXDOMAIN; error: the list refused or failed the query, a resolver rewrote the answer, or the list failed its RFC 5782 test points"
})

export const BlocklistEntry = Schema.Struct({
  zone: Schema.String.annotations({ description: "the DNSBL zone asked, e.g. zen.spamhaus.org" }),
  item: Schema.String.annotations({ description: "what was asked: an IP address (IPv4, or IPv6 in RFC 5952 form) or the domain" }),
  status: BlocklistStatus,
  codes: Schema.Array(Schema.String).annotations({ description: "the list's 127.0.0.0/8 answers (return codes), in numeric order" }),
  reason: Schema.NullOr(Schema.String).annotations({
    description: "listed: the list's TXT record at the same name (null when it has none); error: why the answer cannot be used; not_listed: null"
  })
}).annotations({ identifier: "BlocklistEntry" })
export type BlocklistEntry = typeof BlocklistEntry.Type

export const BlocklistReport = Schema.Struct({
  target: Schema.String.annotations({ description: "the address or domain checked, canonically spelt" }),
  kind: Schema.Literal("ip", "domain"),
  ips: Schema.Array(Schema.String).annotations({
    description: "the addresses asked of the IP lists: the target itself, or for a domain the addresses of its A, AAAA and MX hosts"
  }),
  lists: Schema.Array(BlocklistEntry).annotations({ description: "one entry per (zone, item) asked" }),
  listed_count: Schema.Number.pipe(Schema.int(), Schema.nonNegative()).annotations({ description: "how many entries are listed" }),
  checked_at: Schema.String,
  limitations: Schema.Array(Schema.String)
  // No identifier at the top: an MCP tool's output schema must be an object, not a reference.
}).annotations({ description: "Whether an address or a domain is on the DNS blocklists (DNSBLs) asked" })
export type BlocklistReport = typeof BlocklistReport.Type
