/**
 * RDAP data handling (pure): the IANA bootstrap file (RFC 9224) and RFC 9083 domain objects.
 */
import type { WhoisReport as WhoisReportSchema } from "../../kernel/lookupReports"

export interface Bootstrap {
  readonly publication: string | null
  /** label suffix (e.g. "com", "co.uk") → base URLs, https first */
  readonly services: ReadonlyMap<string, ReadonlyArray<string>>
}

/** Parses a bootstrap document; throws on a shape that is not RFC 9224. */
export const parseBootstrap = (doc: unknown): Bootstrap => {
  const d = doc as { publication?: unknown; services?: unknown }
  if (typeof d !== "object" || d === null || !Array.isArray(d.services)) throw new Error("bootstrap file has no services array")
  const services = new Map<string, ReadonlyArray<string>>()
  for (const entry of d.services) {
    if (!Array.isArray(entry) || entry.length < 2 || !Array.isArray(entry[0]) || !Array.isArray(entry[1])) continue
    const urls = (entry[1] as Array<unknown>).filter((u): u is string => typeof u === "string" && /^https?:\/\//i.test(u))
    // RFC 9224 §3: prefer https when both are listed.
    const ordered = [...urls.filter((u) => u.startsWith("https:")), ...urls.filter((u) => !u.startsWith("https:"))]
    for (const tld of entry[0] as Array<unknown>) {
      if (typeof tld === "string" && ordered.length > 0) services.set(tld.toLowerCase(), ordered)
    }
  }
  if (services.size === 0) throw new Error("bootstrap file lists no services")
  return { publication: typeof d.publication === "string" ? d.publication : null, services }
}

/** Longest-suffix match of a domain against the bootstrap entries. */
export const findRdapBase = (bootstrap: Bootstrap, domain: string): { readonly suffix: string; readonly urls: ReadonlyArray<string> } | undefined => {
  const labels = domain.toLowerCase().replace(/\.$/, "").split(".")
  for (let i = 1; i < labels.length; i++) {
    const suffix = labels.slice(i).join(".")
    const urls = bootstrap.services.get(suffix)
    if (urls) return { suffix, urls }
  }
  return undefined
}

export const domainQueryUrl = (base: string, domain: string): string =>
  `${base.endsWith("/") ? base : base + "/"}domain/${encodeURIComponent(domain)}`

type Json = Record<string, any>

const asArray = (v: unknown): Array<any> => (Array.isArray(v) ? v : [])

/** Value of a jCard property (RFC 7095): ["vcard", [[name, params, type, value], ...]]. */
const vcardValues = (entity: Json, prop: string): Array<string> => {
  const card = asArray(entity?.vcardArray)[1]
  return asArray(card)
    .filter((p) => Array.isArray(p) && p[0] === prop)
    .map((p) => (Array.isArray(p[3]) ? p[3].filter((x: unknown) => typeof x === "string" && x.length > 0).join(" ") : String(p[3] ?? "")))
    .filter((s) => s.length > 0)
}

const hasRole = (e: Json, role: string) => asArray(e?.roles).some((r) => String(r).toLowerCase() === role)

/** Every entity, depth first (entities nest: registrar → abuse contact). */
const allEntities = (o: Json): Array<Json> => {
  const out: Array<Json> = []
  const walk = (list: unknown, depth: number) => {
    if (depth > 4) return
    for (const e of asArray(list)) {
      if (typeof e !== "object" || e === null) continue
      out.push(e)
      walk(e.entities, depth + 1)
    }
  }
  walk(o.entities, 0)
  return out
}

export interface RdapFacts {
  readonly ldhName: string | null
  readonly handle: string | null
  readonly registrar: { readonly name: string | null; readonly iana_id: string | null; readonly url: string | null } | null
  readonly created: string | null
  readonly expires: string | null
  readonly updated: string | null
  readonly status: ReadonlyArray<string>
  readonly nameservers: ReadonlyArray<string>
  readonly dnssec: {
    readonly delegation_signed: boolean | null
    readonly ds_records: ReadonlyArray<{ readonly key_tag: number; readonly algorithm: number; readonly digest_type: number; readonly digest: string }>
  }
  readonly abuse_contact: { readonly email: string | null; readonly phone: string | null; readonly name: string | null } | null
  /** The registrar's RDAP URL for this domain (rel="related" link), when the registry gives one. */
  readonly referral: string | null
}

const event = (o: Json, actions: ReadonlyArray<string>): string | null => {
  const ev = asArray(o.events).find((e) => actions.includes(String(e?.eventAction ?? "").toLowerCase()))
  return typeof ev?.eventDate === "string" ? ev.eventDate : null
}

/** Extracts the facts of an RFC 9083 domain object. Throws when it is not one. */
export const extractDomain = (doc: unknown): RdapFacts => {
  const o = doc as Json
  if (typeof o !== "object" || o === null || Array.isArray(o)) throw new Error("RDAP answer is not a JSON object")
  if (o.objectClassName !== undefined && String(o.objectClassName).toLowerCase() !== "domain") {
    throw new Error(`RDAP answer is a ${String(o.objectClassName)} object, not a domain`)
  }
  if (o.objectClassName === undefined && o.ldhName === undefined) throw new Error("RDAP answer is not a domain object")
  const entities = allEntities(o)
  const registrar = entities.find((e) => hasRole(e, "registrar"))
  const abuse = (registrar ? allEntities(registrar).find((e) => hasRole(e, "abuse")) : undefined) ?? entities.find((e) => hasRole(e, "abuse"))
  const ianaId = registrar
    ? asArray(registrar.publicIds).find((p) => /iana/i.test(String(p?.type ?? "")))?.identifier ?? null
    : null
  const registrarUrl = registrar ? (vcardValues(registrar, "url")[0] ?? null) : null
  const relatedLinks = asArray(o.links).filter((l) =>
    String(l?.rel ?? "").toLowerCase() === "related" && typeof l?.href === "string" &&
    (l.type === undefined || String(l.type).toLowerCase().includes("application/rdap+json")) && /\/domain\//i.test(l.href)
  )
  const secure = o.secureDNS as Json | undefined
  return {
    ldhName: typeof o.ldhName === "string" ? o.ldhName.toLowerCase() : null,
    handle: typeof o.handle === "string" ? o.handle : null,
    registrar: registrar
      ? { name: vcardValues(registrar, "fn")[0] ?? (typeof registrar.handle === "string" ? registrar.handle : null), iana_id: ianaId === null ? null : String(ianaId), url: registrarUrl }
      : null,
    created: event(o, ["registration"]),
    expires: event(o, ["expiration"]),
    updated: event(o, ["last changed"]),
    status: asArray(o.status).map(String),
    nameservers: asArray(o.nameservers).map((n) => String(n?.ldhName ?? n?.unicodeName ?? "").toLowerCase()).filter((n) => n.length > 0),
    dnssec: {
      delegation_signed: typeof secure?.delegationSigned === "boolean" ? secure.delegationSigned : null,
      ds_records: asArray(secure?.dsData).map((d) => ({
        key_tag: Number(d?.keyTag),
        algorithm: Number(d?.algorithm),
        digest_type: Number(d?.digestType),
        digest: String(d?.digest ?? "")
      }))
    },
    abuse_contact: abuse
      ? {
        email: vcardValues(abuse, "email")[0] ?? null,
        phone: (vcardValues(abuse, "tel")[0] ?? null)?.replace(/^tel:/i, "") ?? null,
        name: vcardValues(abuse, "fn")[0] ?? null
      }
      : null,
    referral: relatedLinks[0]?.href ?? null
  }
}

/** The whois_lookup report: its type is the output Schema's (src/kernel/lookupReports.ts). */
export type WhoisReport = typeof WhoisReportSchema.Type

const pick = <A>(a: A | null | undefined, b: A | null | undefined): A | null => (a !== null && a !== undefined ? a : b ?? null)

/**
 * Merges the registry answer with the registrar's (thin/thick registries): the registry is
 * authoritative for dates, status, name servers and DNSSEC; the registrar adds what the registry
 * lacks (registrar details, abuse contact).
 */
export const mergeFacts = (
  domain: string,
  registry: RdapFacts,
  registrar: RdapFacts | null,
  sources: WhoisReport["sources"],
  nowMs: number
): WhoisReport => {
  const expires = pick(registry.expires, registrar?.expires)
  const expiresMs = expires === null ? NaN : Date.parse(expires)
  return {
    domain,
    registrar: registry.registrar || registrar?.registrar
      ? {
        name: pick(registry.registrar?.name, registrar?.registrar?.name),
        iana_id: pick(registry.registrar?.iana_id, registrar?.registrar?.iana_id),
        url: pick(registry.registrar?.url, registrar?.registrar?.url)
      }
      : null,
    created: pick(registry.created, registrar?.created),
    expires,
    updated: pick(registry.updated, registrar?.updated),
    days_until_expiry: Number.isFinite(expiresMs) ? Math.floor((expiresMs - nowMs) / 86_400_000) : null,
    status: registry.status.length > 0 ? registry.status : registrar?.status ?? [],
    nameservers: registry.nameservers.length > 0 ? registry.nameservers : registrar?.nameservers ?? [],
    dnssec: registry.dnssec.delegation_signed !== null ? registry.dnssec : registrar?.dnssec ?? registry.dnssec,
    abuse_contact: pick(registrar?.abuse_contact, registry.abuse_contact),
    sources
  }
}
