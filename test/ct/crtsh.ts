/**
 * A local stand-in for crt.sh speaking its JSON (`/?q=<domain>&output=json`) and certificate
 * download (`/?d=<id>`), with the faults the real one has: 502s, 429s with Retry-After,
 * silence, invalid JSON.
 * Certificates are generated with openssl, with a raw SCT-list extension of a chosen size.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export type Behaviour =
  | { readonly kind: "rows"; readonly rows: ReadonlyArray<unknown> }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "silent" }
  | { readonly kind: "invalid" }
  /** A redirect to `location` (which the service must not follow). */
  | { readonly kind: "redirect"; readonly location: string }
  /** `failures` answers of 502, then the rows. */
  | { readonly kind: "flaky"; failures: number; readonly rows: ReadonlyArray<unknown> }
  /** `count` answers of 429 with `Retry-After: retryAfter`, then the rows. */
  | { readonly kind: "ratelimited"; count: number; readonly retryAfter: string; readonly rows: ReadonlyArray<unknown> }

export interface FakeCrtSh {
  readonly url: string
  readonly queries: Map<string, number>
  readonly downloads: Array<number>
  readonly set: (domain: string, b: Behaviour) => void
  readonly setCert: (id: number, pem: string) => void
  readonly stop: () => Promise<void>
}

export const startCrtSh = (opts: { delayMs?: number } = {}): FakeCrtSh => {
  const behaviours = new Map<string, Behaviour>()
  const certs = new Map<number, string>()
  const queries = new Map<string, number>()
  const downloads: Array<number> = []
  const pending: Array<() => void> = []
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    fetch: async (req) => {
      const u = new URL(req.url)
      const d = u.searchParams.get("d")
      if (d !== null) {
        downloads.push(Number(d))
        const pem = certs.get(Number(d))
        return pem ? new Response(pem, { headers: { "content-type": "application/x-pem-file" } }) : new Response("not found", { status: 404 })
      }
      const q = (u.searchParams.get("q") ?? "").toLowerCase()
      if (opts.delayMs) await Bun.sleep(opts.delayMs)
      queries.set(q, (queries.get(q) ?? 0) + 1)
      const b = behaviours.get(q) ?? { kind: "rows", rows: [] }
      switch (b.kind) {
        case "rows":
          return Response.json(b.rows)
        case "status":
          return new Response("<html>Bad Gateway</html>", { status: b.status })
        case "invalid":
          return new Response("<html><body>crt.sh is overloaded</body></html>", { status: 200, headers: { "content-type": "application/json" } })
        case "redirect":
          return new Response(null, { status: 302, headers: { location: b.location } })
        case "silent":
          return new Promise<Response>((resolve) => pending.push(() => resolve(new Response("[]"))))
        case "ratelimited":
          if (b.count > 0) {
            b.count--
            return new Response("<html>Too Many Requests</html>", { status: 429, headers: { "retry-after": b.retryAfter } })
          }
          return Response.json(b.rows)
        case "flaky":
          if (b.failures > 0) {
            b.failures--
            return new Response("<html>502</html>", { status: 502 })
          }
          return Response.json(b.rows)
      }
    }
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    queries,
    downloads,
    set: (domain, b) => behaviours.set(domain.toLowerCase(), b),
    setCert: (id, pem) => certs.set(id, pem),
    stop: async () => {
      for (const p of pending) p()
      await server.stop(true)
    }
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "").replace(/\.\d+$/, (m) => m.slice(0, 4))

/**
 * `n` certificates for `domain`, each logged twice (precertificate, then certificate with the
 * same issuer and serial), IDs from `firstId`, logged one hour apart ending at `newest`.
 */
export const makeRows = (domain: string, n: number, opts: { firstId?: number; newest?: number; issuer?: string; issuerCaId?: number; validDays?: number } = {}) => {
  const rows: Array<Record<string, unknown>> = []
  const newest = opts.newest ?? Date.now() - 60_000
  let id = opts.firstId ?? 1000
  for (let i = 0; i < n; i++) {
    const logged = newest - (n - 1 - i) * 3_600_000
    const serial = (0x1000 + i).toString(16).padStart(8, "0") + "abcdef"
    const common = {
      issuer_ca_id: opts.issuerCaId ?? 16418,
      issuer_name: opts.issuer ?? "C=US, O=Let's Encrypt, CN=R11",
      common_name: domain,
      name_value: `${domain}\nwww.${domain}`,
      not_before: iso(logged - 60_000),
      not_after: iso(logged + (opts.validDays ?? 90) * 86_400_000),
      serial_number: serial
    }
    rows.push({ ...common, id: id++, entry_timestamp: iso(logged) })
    rows.push({ ...common, id: id++, entry_timestamp: iso(logged + 1500) })
  }
  return rows
}

/** A fake SCT (RFC 6962 layout, random log ID and signature). */
const fakeSct = (i: number): Buffer => {
  const body = Buffer.concat([
    Buffer.from([0]), // v1
    Buffer.alloc(32, i + 1), // log id
    Buffer.from("0000018c00000000", "hex"), // timestamp
    Buffer.from([0, 0]), // no extensions
    Buffer.from([4, 3]), // sha256, ecdsa
    Buffer.from([0, 8]),
    Buffer.alloc(8, 0xab)
  ])
  return Buffer.concat([Buffer.from([body.length >> 8, body.length & 0xff]), body])
}

export const sctListDer = (count: number): string => {
  const list = Buffer.concat(Array.from({ length: count }, (_, i) => fakeSct(i)))
  const tls = Buffer.concat([Buffer.from([list.length >> 8, list.length & 0xff]), list])
  // extnValue content: an OCTET STRING holding the TLS-encoded list.
  const len = tls.length < 128 ? Buffer.from([tls.length]) : tls.length < 256 ? Buffer.from([0x81, tls.length]) : Buffer.from([0x82, tls.length >> 8, tls.length & 0xff])
  return Buffer.concat([Buffer.from([0x04]), len, tls]).toString("hex").match(/../g)!.join(":")
}

/** A self-signed certificate for `domain` valid `days` days with `scts` embedded SCTs (or a precertificate). */
export const makeCert = (domain: string, opts: { scts: number; days: number; precert?: boolean }): string => {
  const dir = mkdtempSync(join(tmpdir(), "di-ct-"))
  try {
    const ext = opts.precert
      ? "1.3.6.1.4.1.11129.2.4.3=critical,DER:05:00"
      : opts.scts > 0
      ? `1.3.6.1.4.1.11129.2.4.2=DER:${sctListDer(opts.scts)}`
      : "basicConstraints=CA:FALSE"
    const r = spawnSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
      "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-subj", `/CN=${domain}`,
      "-days", String(opts.days), "-addext", ext, "-addext", `subjectAltName=DNS:${domain}`
    ], { encoding: "utf8" })
    if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`)
    return readFileSync(join(dir, "c.pem"), "utf8")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

