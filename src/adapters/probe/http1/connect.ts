/**
 * Opening the connection to the vetted address: plain TCP, or TLS with SNI and Host carrying the
 * name. Times the TCP connect and the TLS handshake (like curl's time_connect/time_appconnect)
 * into `timing` and the caller's progress, then calls `ready` once the request may be written.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { tlsOutcomeOf } from "./tls"
import type { TlsOutcome, WireRequest } from "./types"

export interface Timing {
  connectMs: number
  tlsMs: number | null
}

/**
 * One TLS context per list of extra CAs (HttpProbe keeps one list for its lifetime): building it
 * parses every root certificate, which each connection would otherwise repeat.
 */
const contexts = new WeakMap<ReadonlyArray<string>, tls.SecureContext>()
const contextFor = (ca: ReadonlyArray<string>): tls.SecureContext => {
  let ctx = contexts.get(ca)
  if (!ctx) contexts.set(ca, ctx = tls.createSecureContext({ ca: [...tls.rootCertificates, ...ca] }))
  return ctx
}

export const connect = (req: WireRequest, t0: number, timing: Timing, ready: (tls: TlsOutcome | null) => void): net.Socket => {
  if (req.https) {
    const socket = tls.connect({
      host: req.address,
      port: req.port,
      servername: net.isIP(req.host) ? undefined : req.host,
      rejectUnauthorized: false,
      secureContext: req.ca ? contextFor(req.ca) : undefined,
      ALPNProtocols: ["http/1.1"]
    })
    socket.once("connect", () => {
      timing.connectMs = performance.now() - t0
      if (req.progress) req.progress.connectMs = timing.connectMs
    })
    socket.once("secureConnect", () => {
      const now = performance.now() - t0
      if (timing.connectMs === 0) timing.connectMs = now
      timing.tlsMs = now - timing.connectMs
      if (req.progress) {
        req.progress.connectMs = timing.connectMs
        req.progress.tlsMs = timing.tlsMs
      }
      ready(tlsOutcomeOf(socket, req.host))
    })
    return socket
  }
  const socket = net.connect({ host: req.address, port: req.port })
  socket.once("connect", () => {
    timing.connectMs = performance.now() - t0
    if (req.progress) req.progress.connectMs = timing.connectMs
    ready(null)
  })
  return socket
}
