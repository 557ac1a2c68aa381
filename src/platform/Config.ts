/**
 * Every environment variable the service reads, in one place (docs/configuration.md).
 * Read only through Effect `Config`, so tests swap the provider instead of touching `process.env`.
 */
import { Config, ConfigError, Context, Effect, Either, Layer, Option, type Redacted } from "effect"
import { readFileSync } from "node:fs"
import { InvalidRequest } from "../kernel/errors"
import { normalizeDomain } from "../kernel/domainParam"

export interface ResolverAddress {
  readonly host: string
  readonly port: number
}

export const parseResolverList = (raw: string): ReadonlyArray<ResolverAddress> =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((entry) => {
      // "[::1]:53", "::1", "1.2.3.4:5353", "1.2.3.4"
      const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
      if (bracket) return { host: bracket[1], port: bracket[2] ? Number(bracket[2]) : 53 }
      const colons = entry.split(":").length - 1
      if (colons === 1) {
        const [host, port] = entry.split(":")
        return { host, port: Number(port) }
      }
      return { host: entry, port: 53 }
    })

/** Nameservers from /etc/resolv.conf, else the public fallback docs/configuration.md ("DNS") names. */
export const systemResolvers = (): string => {
  try {
    const conf = readFileSync("/etc/resolv.conf", "utf8")
    const ns = conf
      .split("\n")
      .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1])
      .filter((x): x is string => x !== undefined)
    if (ns.length > 0) return ns.join(",")
  } catch {
    // no resolv.conf: fall through
  }
  return "1.1.1.1,8.8.8.8"
}

/** The most zones one DNSBL variable may name: every item is asked on every zone (docs/configuration.md). */
export const MAX_DNSBL_ZONES = 20

/**
 * A comma list of DNSBL zone names, or why it is refused: each a bare host name by the rules of
 * the domain parameter (kernel/domainParam.ts), lower-cased, without a trailing dot, duplicates
 * dropped; at most 189 octets, so the longest item (an IPv6 address: 32 nibbles and their dots,
 * 64 octets, RFC 5782 §2.4) still fits the 253 of a name under it. An empty list names no zone.
 */
export const parseZoneList = (raw: string): ReadonlyArray<string> | string => {
  const zones: Array<string> = []
  for (const entry of raw.split(",").map((z) => z.trim()).filter((z) => z.length > 0)) {
    const bare = entry.toLowerCase().replace(/\.$/, "")
    const name = normalizeDomain(bare)
    if (name instanceof InvalidRequest || name !== bare) return `${JSON.stringify(entry)} is not a zone name`
    if (!name.includes(".")) return `${JSON.stringify(entry)} is not a zone name (one label)`
    if (name.length > 189) return `${JSON.stringify(entry)} is longer than 189 octets`
    if (!zones.includes(name)) zones.push(name)
  }
  if (zones.length > MAX_DNSBL_ZONES) return `at most ${MAX_DNSBL_ZONES} zones`
  return zones
}

const zoneList = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((raw) => {
      const zones = parseZoneList(raw)
      return typeof zones === "string" ? Either.left(ConfigError.InvalidData([name], zones)) : Either.right(zones)
    })
  )

export interface AppConfigShape {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  /** Connections in the PostgreSQL pool of this instance (DATABASE_POOL_MAX, default 10; unused on SQLite). */
  readonly databasePoolMax: number
  readonly dnsResolvers: ReadonlyArray<ResolverAddress>
  readonly dnsAuthPort: number
  /**
   * The ports a bare domain is fetched on by the page operations (PAGE_HTTPS_PORT 443 first, then
   * PAGE_HTTP_PORT 80): labs and tests; a full URL names its own port.
   */
  readonly pageHttpsPort: number
  readonly pageHttpPort: number
  readonly dnsTimeoutMs: number
  readonly dnssecTrustAnchors: Option.Option<string>
  readonly ctAggregatorUrl: string
  readonly ctCacheTtlS: number
  /** Total time allowed for one CT aggregator query, retries included (CT_BUDGET_MS, default 25000). */
  readonly ctBudgetMs: number
  readonly rdapBootstrapUrl: string
  readonly allowPrivateTargets: boolean
  readonly extraCaCerts: Option.Option<string>
  readonly alertEvalIntervalMs: number
  readonly logLevel: string
  readonly logFormat: string
  readonly requestLogRetentionDays: number
  /** First retry delay of a failed webhook delivery; doubles per attempt (docs/configuration.md, "Alerts and monitors"; docs/operations/alert-rules.md, "Delivery"). */
  readonly webhookRetryBaseMs: number
  /** Shortest monitor interval (MONITOR_MIN_INTERVAL_S, default 60; zone, CT and certificate kinds 10×). */
  readonly monitorMinIntervalS: number
  /** Monitor runs in flight per instance (MONITOR_CONCURRENCY, default 500: 20,000 one-minute monitors whose targets answer within 1.5 s). */
  readonly monitorConcurrency: number
  /** Days raw monitor results are kept (MONITOR_RESULTS_RETENTION_DAYS, default 7; the uptime report reads daily rollups). */
  readonly monitorResultsRetentionDays: number
  /** Zone Hygiene outbound limits (docs/security.md): nameserver addresses queried per audit. */
  readonly zoneAuditMaxNsAddresses: number
  /** Seconds a zone's report is served from cache (0: only concurrent audits are shared). */
  readonly zoneAuditCacheTtlS: number
  /** Concurrent zone audits per instance and per organization; ms a caller waits for a slot before 429. */
  readonly zoneAuditConcurrency: number
  readonly zoneAuditConcurrencyPerOrg: number
  readonly zoneAuditQueueMs: number
  /** Queries per second (and burst) to one nameserver address, over all audits of the instance. */
  readonly dnsDestinationQps: number
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` (docs/operating.md). */
  readonly metricsToken: Option.Option<Redacted.Redacted<string>>
  /** One JSON access-log line per request on stderr (LOG_ACCESS, default true). */
  readonly logAccess: boolean
  /** Origins allowed to call the API from a browser (CORS_ORIGINS, comma list; default none). */
  readonly corsOrigins: ReadonlyArray<string>
  /**
   * Total time one operation may take before it is answered 502 upstream_unavailable
   * (OPERATION_DEADLINE_MS, default 25000, 1000-120000). http-check: its own `timeout` + 2 s.
   */
  readonly operationDeadlineMs: number
  /** Port of the STARTTLS probe of Email Security (SMTP_PORT, default 25). */
  readonly smtpPort: number
  /** Time limit of one STARTTLS probe (SMTP_TIMEOUT_MS, default 10000; every MX address probed at once). */
  readonly smtpTimeoutMs: number
  /** Time limit of the MTA-STS policy fetch (MTA_STS_TIMEOUT_MS, default 10000). */
  readonly mtaStsTimeoutMs: number
  /** The IP-address DNSBLs a blocklist check asks (DNSBL_IP_ZONES, comma list). */
  readonly dnsblIpZones: ReadonlyArray<string>
  /** The domain DNSBLs a blocklist check asks (DNSBL_DOMAIN_ZONES, comma list). */
  readonly dnsblDomainZones: ReadonlyArray<string>
  /** Seconds a list's RFC 5782 test-point verdict is kept (DNSBL_TEST_TTL_S, default 3600, 0-86400). */
  readonly dnsblTestTtlS: number
  /** DNS lookups of lookalike permutations in flight at once on this instance (LOOKALIKES_DNS_CONCURRENCY, default 128, 1-1024). */
  readonly lookalikesDnsConcurrency: number
  /**
   * The location this instance runs monitors from (INSTANCE_LOCATION, default `default`): instances
   * sharing a database and a name are that location's workers (docs/monitors.md, "Several locations").
   */
  readonly instanceLocation: string
}

/** A location name: 1-32 characters of a-z, 0-9 and `-` (docs/operations/locations.md). */
export const LOCATION_NAME = /^[a-z0-9-]{1,32}$/

const config = Config.all({
  port: Config.integer("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  databaseUrl: Config.string("DATABASE_URL").pipe(Config.withDefault("sqlite:./data/domain-intel.db")),
  databasePoolMax: Config.integer("DATABASE_POOL_MAX").pipe(
    Config.withDefault(10),
    Config.validate({ message: "DATABASE_POOL_MAX must be at least 1", validation: (n) => n >= 1 })
  ),
  dnsResolvers: Config.string("DNS_RESOLVERS").pipe(
    Config.option,
    Config.map((o) => parseResolverList(Option.getOrElse(o, systemResolvers)))
  ),
  dnsAuthPort: Config.integer("DNS_AUTH_PORT").pipe(Config.withDefault(53)),
  pageHttpsPort: Config.integer("PAGE_HTTPS_PORT").pipe(Config.withDefault(443)),
  pageHttpPort: Config.integer("PAGE_HTTP_PORT").pipe(Config.withDefault(80)),
  dnsTimeoutMs: Config.integer("DNS_TIMEOUT_MS").pipe(Config.withDefault(2000)),
  dnssecTrustAnchors: Config.string("DNSSEC_TRUST_ANCHORS").pipe(Config.option),
  ctAggregatorUrl: Config.string("CT_AGGREGATOR_URL").pipe(Config.withDefault("https://crt.sh")),
  ctCacheTtlS: Config.integer("CT_CACHE_TTL_S").pipe(Config.withDefault(1800)),
  ctBudgetMs: Config.integer("CT_BUDGET_MS").pipe(Config.withDefault(25000)),
  rdapBootstrapUrl: Config.string("RDAP_BOOTSTRAP_URL").pipe(
    Config.withDefault("https://data.iana.org/rdap/dns.json")
  ),
  allowPrivateTargets: Config.boolean("ALLOW_PRIVATE_TARGETS").pipe(Config.withDefault(false)),
  extraCaCerts: Config.string("NODE_EXTRA_CA_CERTS").pipe(Config.option),
  alertEvalIntervalMs: Config.integer("ALERT_EVAL_INTERVAL_MS").pipe(Config.withDefault(60000)),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  logFormat: Config.string("LOG_FORMAT").pipe(Config.withDefault("json")),
  requestLogRetentionDays: Config.integer("REQUEST_LOG_RETENTION_DAYS").pipe(Config.withDefault(90)),
  webhookRetryBaseMs: Config.integer("WEBHOOK_RETRY_BASE_MS").pipe(Config.withDefault(5000)),
  monitorMinIntervalS: Config.integer("MONITOR_MIN_INTERVAL_S").pipe(Config.withDefault(60)),
  monitorConcurrency: Config.integer("MONITOR_CONCURRENCY").pipe(Config.withDefault(500), Config.validate({ message: "MONITOR_CONCURRENCY must be at least 1", validation: (n) => n >= 1 })),
  monitorResultsRetentionDays: Config.integer("MONITOR_RESULTS_RETENTION_DAYS").pipe(Config.withDefault(7), Config.validate({ message: "MONITOR_RESULTS_RETENTION_DAYS must be at least 1", validation: (n) => n >= 1 })),
  zoneAuditMaxNsAddresses: Config.integer("ZONE_AUDIT_MAX_NS_ADDRESSES").pipe(Config.withDefault(8), Config.validate({ message: "ZONE_AUDIT_MAX_NS_ADDRESSES must be 1-52", validation: (n) => n >= 1 && n <= 52 })),
  zoneAuditCacheTtlS: Config.integer("ZONE_AUDIT_CACHE_TTL_S").pipe(Config.withDefault(300), Config.validate({ message: "ZONE_AUDIT_CACHE_TTL_S must be 0-86400", validation: (n) => n >= 0 && n <= 86400 })),
  zoneAuditConcurrency: Config.integer("ZONE_AUDIT_CONCURRENCY").pipe(Config.withDefault(8), Config.validate({ message: "ZONE_AUDIT_CONCURRENCY must be at least 1", validation: (n) => n >= 1 })),
  zoneAuditConcurrencyPerOrg: Config.integer("ZONE_AUDIT_CONCURRENCY_PER_ORG").pipe(Config.withDefault(2), Config.validate({ message: "ZONE_AUDIT_CONCURRENCY_PER_ORG must be at least 1", validation: (n) => n >= 1 })),
  zoneAuditQueueMs: Config.integer("ZONE_AUDIT_QUEUE_MS").pipe(Config.withDefault(5000), Config.validate({ message: "ZONE_AUDIT_QUEUE_MS must be 0-60000", validation: (n) => n >= 0 && n <= 60000 })),
  dnsDestinationQps: Config.integer("DNS_DESTINATION_QPS").pipe(Config.withDefault(20), Config.validate({ message: "DNS_DESTINATION_QPS must be at least 1", validation: (n) => n >= 1 })),
  metricsToken: Config.redacted("METRICS_TOKEN").pipe(Config.option),
  logAccess: Config.boolean("LOG_ACCESS").pipe(Config.withDefault(true)),
  corsOrigins: Config.string("CORS_ORIGINS").pipe(
    Config.withDefault(""),
    Config.map((s) => s.split(",").map((o) => o.trim().replace(/\/+$/, "")).filter((o) => o.length > 0))
  ),
  operationDeadlineMs: Config.integer("OPERATION_DEADLINE_MS").pipe(
    Config.withDefault(25000),
    Config.validate({ message: "OPERATION_DEADLINE_MS must be between 1000 and 120000", validation: (n) => n >= 1000 && n <= 120000 })
  ),
  smtpPort: Config.integer("SMTP_PORT").pipe(
    Config.withDefault(25),
    Config.validate({ message: "SMTP_PORT must be 1-65535", validation: (n) => n >= 1 && n <= 65535 })
  ),
  smtpTimeoutMs: Config.integer("SMTP_TIMEOUT_MS").pipe(
    Config.withDefault(10000),
    Config.validate({ message: "SMTP_TIMEOUT_MS must be 100-60000", validation: (n) => n >= 100 && n <= 60000 })
  ),
  mtaStsTimeoutMs: Config.integer("MTA_STS_TIMEOUT_MS").pipe(
    Config.withDefault(10000),
    Config.validate({ message: "MTA_STS_TIMEOUT_MS must be 100-60000", validation: (n) => n >= 100 && n <= 60000 })
  ),
  dnsblIpZones: zoneList("DNSBL_IP_ZONES", "zen.spamhaus.org,bl.spamcop.net,b.barracudacentral.org,psbl.surriel.com"),
  dnsblDomainZones: zoneList("DNSBL_DOMAIN_ZONES", "dbl.spamhaus.org,multi.surbl.org"),
  dnsblTestTtlS: Config.integer("DNSBL_TEST_TTL_S").pipe(
    Config.withDefault(3600),
    Config.validate({ message: "DNSBL_TEST_TTL_S must be 0-86400", validation: (n) => n >= 0 && n <= 86400 })
  ),
  // 128: with every answer 50 ms away, 2,975 permutations took 3.4-5.2 s at 64 in flight,
  // 1.8-2.1 s at 128 and 1.2-1.5 s at 256; with a resolver on the same machine the sweep is bound
  // by CPU at any level (bench/lookalikes/concurrency.ts, docs/operations/lookalikes.md). 128 takes
  // most of the gain while keeping a burst at one resolver moderate.
  lookalikesDnsConcurrency: Config.integer("LOOKALIKES_DNS_CONCURRENCY").pipe(
    Config.withDefault(128),
    Config.validate({ message: "LOOKALIKES_DNS_CONCURRENCY must be 1-1024", validation: (n) => n >= 1 && n <= 1024 })
  ),
  instanceLocation: Config.string("INSTANCE_LOCATION").pipe(
    Config.withDefault("default"),
    Config.validate({ message: "INSTANCE_LOCATION must be 1-32 characters of a-z, 0-9 and -", validation: (s) => LOCATION_NAME.test(s) })
  )
})

export class AppConfig extends Context.Tag("domain-intel/AppConfig")<AppConfig, AppConfigShape>() {
  static readonly Live = Layer.effect(this, config)
  /** Test helper: the defaults with overrides, no environment read. */
  static readonly make = (overrides: Partial<AppConfigShape>): Layer.Layer<AppConfig> =>
    Layer.effect(
      this,
      Effect.map(Effect.orDie(config), (c) => ({ ...c, ...overrides }))
    )
}
