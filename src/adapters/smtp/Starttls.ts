/**
 * SMTP STARTTLS probe (RFC 5321, RFC 3207): connect to an MX address the caller vetted, read the
 * 220 greeting, EHLO, look for STARTTLS in the reply, STARTTLS, then a TLS handshake on the same
 * socket with SNI = the MX host name; report the protocol and whether the certificate chain is
 * trusted (system roots plus NODE_EXTRA_CA_CERTS) and valid for the host name.
 * Hostile servers are expected: replies are capped (line length, lines per reply, bytes in all),
 * garbage is an error, and the whole exchange has one Effect timeout (TestClock drives it).
 */
import { Duration, Effect } from "effect"
import * as net from "node:net"
import * as tls from "node:tls"
import { describeTlsError } from "../probe/wire"

export interface StarttlsRequest {
  readonly host: string
  readonly ip: string
  readonly port: number
  readonly timeoutMs: number
  /** Extra trusted CAs (PEM), added to the system roots. */
  readonly ca?: ReadonlyArray<string>
  /** Name sent in EHLO. */
  readonly helo?: string
}

export interface StarttlsOutcome {
  readonly host: string
  readonly ip: string
  readonly supported: boolean
  readonly tls_version: string | null
  readonly certificate_valid: boolean | null
  readonly error: string | null
}

const MAX_LINE = 2048
const MAX_LINES = 100
const MAX_BYTES = 64 * 1024

/** One SMTP reply (RFC 5321 §4.2.1): `ddd-text` lines ending with a `ddd text` line. */
export const parseReply = (lines: ReadonlyArray<string>): { code: number; lines: ReadonlyArray<string> } | "incomplete" | string => {
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\d{3})([ -])(.*)$/.exec(lines[i]) ?? (/^\d{3}$/.test(lines[i]) ? [lines[i], lines[i], " ", ""] : null)
    if (!m) return `malformed SMTP reply line "${lines[i].slice(0, 60)}"`
    if (i > 0 && m[1] !== lines[0].slice(0, 3)) return "SMTP reply lines with different codes"
    if (m[2] === " ") return { code: Number(m[1]), lines: lines.slice(0, i + 1).map((l) => l.slice(4)) }
  }
  return "incomplete"
}

const run = (req: StarttlsRequest) =>
  Effect.async<StarttlsOutcome>((resume) => {
    let done = false
    let socket: net.Socket | tls.TLSSocket = net.connect({ host: req.ip, port: req.port })
    let buf = ""
    let total = 0
    let pending: Array<string> = []
    let step = "greeting" as "greeting" | "ehlo" | "starttls" | "tls"
    const reading = () => !done && step !== "tls"
    let supported = false
    const finish = (o: Omit<StarttlsOutcome, "host" | "ip">) => {
      if (done) return
      done = true
      socket.destroy()
      resume(Effect.succeed({ host: req.host, ip: req.ip, ...o }))
    }
    const fail = (error: string) => finish({ supported, tls_version: null, certificate_valid: null, error })

    const onReply = (code: number, lines: ReadonlyArray<string>) => {
      if (step === "greeting") {
        if (code !== 220) return fail(`greeting was ${code} ${lines[0] ?? ""}`.trim())
        step = "ehlo"
        socket.write(`EHLO ${req.helo ?? "domain-intel.invalid"}\r\n`)
      } else if (step === "ehlo") {
        if (code !== 250) return fail(`EHLO answered ${code}`)
        supported = lines.slice(1).some((l) => /^STARTTLS\b/i.test(l.trim()))
        if (!supported) {
          socket.write("QUIT\r\n")
          return finish({ supported: false, tls_version: null, certificate_valid: null, error: "STARTTLS not offered" })
        }
        step = "starttls"
        socket.write("STARTTLS\r\n")
      } else if (step === "starttls") {
        if (code !== 220) return fail(`STARTTLS answered ${code} ${lines[0] ?? ""}`.trim())
        step = "tls"
        upgrade()
      }
    }

    const onData = (d: Buffer) => {
      if (step === "tls") return
      total += d.length
      if (total > MAX_BYTES) return fail(`more than ${MAX_BYTES} bytes before TLS`)
      buf += d.toString("latin1")
      let nl: number
      while (reading() && (nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, "")
        buf = buf.slice(nl + 1)
        if (line.length > MAX_LINE) return fail(`SMTP line longer than ${MAX_LINE} bytes`)
        pending.push(line)
        if (pending.length > MAX_LINES) return fail(`SMTP reply of more than ${MAX_LINES} lines`)
        const r = parseReply(pending)
        if (r === "incomplete") continue
        pending = []
        if (typeof r === "string") return fail(r)
        onReply(r.code, r.lines)
      }
      if (reading() && buf.length > MAX_LINE) fail(`SMTP line longer than ${MAX_LINE} bytes`)
    }

    const upgrade = () => {
      const plain = socket as net.Socket
      plain.removeAllListeners("data")
      const secure = tls.connect({
        socket: plain,
        servername: net.isIP(req.host) ? undefined : req.host,
        rejectUnauthorized: false,
        ca: req.ca && req.ca.length > 0 ? [...tls.rootCertificates, ...req.ca] : undefined
      })
      socket = secure
      secure.once("secureConnect", () => {
        let error: string | null = secure.authorized ? null : describeTlsError(String(secure.authorizationError ?? ""), req.host)
        // rejectUnauthorized is off so the handshake can be reported; the host name is checked here.
        const cert = secure.getPeerCertificate(true)
        if (secure.authorized && cert && Object.keys(cert).length > 0) {
          const mismatch = tls.checkServerIdentity(req.host, cert)
          if (mismatch) error = mismatch.message
        }
        secure.write("QUIT\r\n")
        finish({ supported: true, tls_version: secure.getProtocol() ?? null, certificate_valid: error === null, error: null })
      })
      secure.on("error", (e) => fail(`TLS handshake failed: ${e.message}`))
    }

    socket.on("data", onData)
    socket.on("error", (e) => fail(`connection failed: ${e.message}`))
    socket.on("close", () => fail(step === "greeting" ? "connection closed before the greeting" : "connection closed by the server"))
    return Effect.sync(() => { done = true; socket.destroy() })
  })

/** One MX address, bounded by `timeoutMs` (a silent or endless server ends as an error, never a hang). */
export const probeStarttls = (req: StarttlsRequest): Effect.Effect<StarttlsOutcome> =>
  run(req).pipe(
    Effect.timeoutTo({
      duration: Duration.millis(req.timeoutMs),
      onSuccess: (o) => o,
      onTimeout: (): StarttlsOutcome => ({ host: req.host, ip: req.ip, supported: false, tls_version: null, certificate_valid: null, error: `no complete answer within ${req.timeoutMs} ms` })
    })
  )
