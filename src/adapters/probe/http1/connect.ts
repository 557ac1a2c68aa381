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

export const connect = (req: WireRequest, t0: number, timing: Timing, ready: (tls: TlsOutcome | null) => void): net.Socket => {
  if (req.https) {
    const socket = tls.connect({
      host: req.address,
      port: req.port,
      servername: net.isIP(req.host) ? undefined : req.host,
      rejectUnauthorized: false,
      ca: req.ca ? [...tls.rootCertificates, ...req.ca] : undefined,
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
