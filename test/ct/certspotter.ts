/**
 * A local stand-in for SSLMate's Cert Spotter API v1 (`GET /v1/issuances`), speaking its
 * documented format: a JSON array of issuance objects in discovery order; `dns_names`, `issuer`
 * and `cert_der` only when expanded; `after=<id>` for the issuances discovered after that one,
 * an empty array at the end; `{code, message}` error bodies; 429 with Retry-After. Its faults:
 * 5xx, silence, slowness, malformed JSON, rate limits. Certificates are real: issued by openssl
 * under a local CA with a chosen serial, names and SCT extension, so crt.sh rows (test/ct/crtsh.ts)
 * and issuances can describe the same certificate.
 */
import { createHash } from "node:crypto"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sctListDer } from "./crtsh"

export type CsBehaviour =
  | { readonly kind: "issuances"; readonly issuances: ReadonlyArray<Issuance> }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "silent" }
  /** The issuances, each page after `delayMs`. */
  | { readonly kind: "slow"; readonly delayMs: number; readonly issuances: ReadonlyArray<Issuance> }
  | { readonly kind: "invalid" }
  /** `count` answers of 429 with `Retry-After: retryAfter`, then the issuances. */
  | { readonly kind: "ratelimited"; count: number; readonly retryAfter: string; readonly issuances: ReadonlyArray<Issuance> }

/** An issuance with every expandable field; the server drops those not asked for. */
export interface Issuance {
  readonly id: string
  readonly tbs_sha256: string
  readonly cert_sha256: string
  readonly pubkey_sha256: string
  readonly not_before: string
  readonly not_after: string
  readonly revoked: boolean
  readonly dns_names: ReadonlyArray<string>
  readonly issuer: { readonly name: string; readonly friendly_name: string; readonly pubkey_sha256: string }
  readonly cert_der?: string
}

export interface FakeCertSpotter {
  readonly url: string
  /** Requests per domain (every page counts). */
  readonly queries: Map<string, number>
  /** Every request's URL and Authorization header, in order. */
  readonly requests: Array<{ readonly url: URL; readonly authorization: string | null }>
  readonly set: (domain: string, b: CsBehaviour) => void
  readonly stop: () => Promise<void>
}

export const startCertSpotter = (opts: { pageSize?: number; delayMs?: number } = {}): FakeCertSpotter => {
  const behaviours = new Map<string, CsBehaviour>()
  const queries = new Map<string, number>()
  const requests: Array<{ url: URL; authorization: string | null }> = []
  const pending: Array<() => void> = []
  const pageSize = opts.pageSize ?? 100
  const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    Response.json({ code, message }, { status, headers })
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 120,
    fetch: async (req) => {
      const u = new URL(req.url)
      requests.push({ url: u, authorization: req.headers.get("authorization") })
      if (u.pathname !== "/v1/issuances") return error(404, "not_found", "no such endpoint")
      const domain = (u.searchParams.get("domain") ?? "").toLowerCase()
      if (!domain) return error(400, "missing_domain", "domain is required")
      queries.set(domain, (queries.get(domain) ?? 0) + 1)
      if (opts.delayMs) await Bun.sleep(opts.delayMs)
      const b = behaviours.get(domain) ?? { kind: "issuances", issuances: [] }
      let issuances: ReadonlyArray<Issuance>
      switch (b.kind) {
        case "status":
          return error(b.status, b.status === 401 ? "unauthorized" : "internal_error", `the stand-in answers ${b.status}`)
        case "invalid":
          return new Response("<html><body>502 Bad Gateway</body></html>", { status: 200, headers: { "content-type": "application/json" } })
        case "silent":
          return new Promise<Response>((resolve) => pending.push(() => resolve(Response.json([]))))
        case "slow":
          await Bun.sleep(b.delayMs)
          issuances = b.issuances
          break
        case "ratelimited":
          if (b.count > 0) {
            b.count--
            return error(429, "rate_limited", "You have exceeded the rate limit", { "retry-after": b.retryAfter })
          }
          issuances = b.issuances
          break
        default:
          issuances = b.issuances
      }
      const after = u.searchParams.get("after")
      const from = after === null ? 0 : issuances.findIndex((i) => i.id === after) + 1
      const expand = new Set(u.searchParams.getAll("expand"))
      const page = issuances.slice(from, from + pageSize).map((i) => {
        const { dns_names, issuer, cert_der, ...rest } = i
        return {
          ...rest,
          ...(expand.has("dns_names") ? { dns_names } : {}),
          ...(expand.has("issuer") ? { issuer } : {}),
          ...(expand.has("cert_der") && cert_der !== undefined ? { cert_der } : {})
        }
      })
      return Response.json(page)
    }
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    queries,
    requests,
    set: (domain, b) => behaviours.set(domain.toLowerCase(), b),
    stop: async () => {
      for (const p of pending) p()
      await server.stop(true)
    }
  }
}

/** A real certificate, with the facts both aggregators print about it. */
export interface LabCert {
  readonly der: Buffer
  readonly pem: string
  /** Lower-case hex of the serial's content octets (crt.sh's `serial_number`). */
  readonly serial: string
  readonly notBefore: string
  readonly notAfter: string
  readonly sha256: string
  readonly names: ReadonlyArray<string>
}

export const ISSUER_DN = "C=US, O=Let's Encrypt, CN=R11"

let ca: { dir: string; key: string; pem: string } | undefined
const caOf = () => {
  if (ca) return ca
  const dir = mkdtempSync(join(tmpdir(), "di-cs-ca-"))
  const r = spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
    "-keyout", join(dir, "ca.key"), "-out", join(dir, "ca.pem"), "-subj", "/C=US/O=Let's Encrypt/CN=R11", "-days", "3650"], { encoding: "utf8" })
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`)
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  return (ca = { dir, key: join(dir, "ca.key"), pem: join(dir, "ca.pem") })
}

const serialCounter = { n: 0x5a0000 }

/** A leaf issued by the local CA (issuer ISSUER_DN) for `names`, valid `days`, with `scts` embedded SCTs or as a precertificate. */
export const issueCert = (names: ReadonlyArray<string>, opts: { days?: number; scts?: number; precert?: boolean; serial?: string } = {}): LabCert => {
  const { key, pem: caPem } = caOf()
  const dir = mkdtempSync(join(tmpdir(), "di-cs-"))
  try {
    const serial = opts.serial ?? (serialCounter.n++).toString(16)
    const ext = opts.precert
      ? ["-addext", "1.3.6.1.4.1.11129.2.4.3=critical,DER:05:00"]
      : opts.scts ? ["-addext", `1.3.6.1.4.1.11129.2.4.2=DER:${sctListDer(opts.scts)}`] : []
    const r = spawnSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", join(dir, "k.pem"),
      "-out", join(dir, "c.pem"), "-subj", `/CN=${names[0]}`, "-CA", caPem, "-CAkey", key, "-set_serial", `0x${serial}`,
      "-days", String(opts.days ?? 90), "-addext", `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}`, ...ext
    ], { encoding: "utf8" })
    if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`)
    const pem = readFileSync(join(dir, "c.pem"), "utf8")
    const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64")
    const dates = spawnSync("openssl", ["x509", "-in", join(dir, "c.pem"), "-noout", "-startdate", "-enddate", "-serial"], { encoding: "utf8" }).stdout
    const at = (k: string) => new Date(Date.parse(/^.*=(.*)$/m.exec(dates.split("\n").find((l) => l.startsWith(k))!)![1])).toISOString()
    const printed = /serial=([0-9A-F]+)/.exec(dates)![1].toLowerCase()
    // DER content octets: whole octets, and a zero octet before a high bit (a positive INTEGER).
    const even = printed.length % 2 === 1 ? `0${printed}` : printed
    const serialHex = Number.parseInt(even[0], 16) >= 8 ? `00${even}` : even
    return {
      der, pem,
      serial: serialHex,
      notBefore: at("notBefore"),
      notAfter: at("notAfter"),
      sha256: createHash("sha256").update(der).digest("hex"),
      names: [...names]
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

let issuanceId = 8_000_000_000

/** Cert Spotter's issuance of `cert` (its DER when `withDer`, the default), issuer named as given. */
export const issuanceOf = (cert: LabCert, opts: { withDer?: boolean; issuerName?: string; id?: string } = {}): Issuance => ({
  id: opts.id ?? String(issuanceId++),
  tbs_sha256: createHash("sha256").update(cert.der).update("tbs").digest("hex"),
  cert_sha256: cert.sha256,
  pubkey_sha256: "ab".repeat(32),
  not_before: cert.notBefore.replace(".000Z", "Z"),
  not_after: cert.notAfter.replace(".000Z", "Z"),
  revoked: false,
  dns_names: cert.names,
  issuer: { name: opts.issuerName ?? ISSUER_DN, friendly_name: "Let's Encrypt", pubkey_sha256: "cd".repeat(32) },
  ...(opts.withDer === false ? {} : { cert_der: cert.der.toString("base64") })
})

let crtId = 5_000_000
const crtTime = (iso: string) => iso.replace("Z", "").replace(".000", "")

/** crt.sh's rows for `cert`: its precertificate and certificate (same issuer and serial), logged at `logged`. */
export const crtRowsOf = (cert: LabCert, logged: number, opts: { issuerCaId?: number } = {}) => {
  const common = {
    issuer_ca_id: opts.issuerCaId ?? 16418,
    issuer_name: ISSUER_DN,
    common_name: cert.names[0],
    name_value: cert.names.join("\n"),
    not_before: crtTime(cert.notBefore),
    not_after: crtTime(cert.notAfter),
    serial_number: cert.serial
  }
  return [
    { ...common, id: crtId++, entry_timestamp: crtTime(new Date(logged).toISOString()) },
    { ...common, id: crtId++, entry_timestamp: crtTime(new Date(logged + 1500).toISOString()) }
  ]
}
